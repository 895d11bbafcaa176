"""The Trainer's live board (d2l's ProgressBoard): the values that Module.plot records and
the epoch's losses, one point per epoch and label ('train_loss', 'val_loss', 'val_acc').

In a notebook (an IPython kernel) the figure is redrawn in place after every epoch, as d2l's
animation; in a terminal each epoch prints one text line, and with a path the figure is also
written to that PNG after every epoch. matplotlib is needed only to draw.
"""
import collections
import sys


def in_notebook():
    ipython = sys.modules.get("IPython")
    if ipython is None:
        return False
    shell = ipython.get_ipython() if hasattr(ipython, "get_ipython") else None
    return shell is not None and type(shell).__name__ == "ZMQInteractiveShell"


class ProgressBoard:
    """Points per label; draw() adds one, show() redraws (notebook) or writes `path`."""

    def __init__(self, xlabel="epoch", path=None, display=None, figsize=(3.5, 2.5), ylabel=None, xlim=None,
                 ylim=None, xscale="linear", yscale="linear", **style):
        self.xlabel, self.path, self.figsize = xlabel, path, figsize
        self.display = in_notebook() if display is None else bool(display)
        self.data = collections.OrderedDict()
        self.xlim, self.ylabel, self.ylim, self.xscale, self.yscale = xlim, ylabel, ylim, xscale, yscale
        self.style = style  # d2l's ls=, colors=, fig=, axes=: kept, not used
        self._raw = collections.defaultdict(list)
        self._fig = None

    def draw(self, x, y, label, every_n=1):
        """Adds the point (x, y) to `label`'s line; with every_n > 1 (d2l's), one point per n
        calls: the mean of their x and of their y."""
        if every_n <= 1:
            self.data.setdefault(label, []).append((float(x), float(y)))
            return
        raw = self._raw[label]
        raw.append((float(x), float(y)))
        if len(raw) == every_n:
            self.data.setdefault(label, []).append((sum(p[0] for p in raw) / every_n, sum(p[1] for p in raw) / every_n))
            raw.clear()

    def show(self):
        if not (self.display or self.path) or not self.data:
            return
        try:
            import matplotlib
            if not self.display:
                matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            return  # the text line says the same
        if self._fig is None:
            self._fig, self._ax = plt.subplots(figsize=self.figsize)
        ax = self._ax
        ax.cla()
        for i, (label, points) in enumerate(self.data.items()):
            xs, ys = zip(*points)
            ax.plot(xs, ys, ("-", "--", "-.", ":")[i % 4], color=f"C{i % 10}", label=label)
        ax.set_xlabel(self.xlabel)
        if self.ylabel:
            ax.set_ylabel(self.ylabel)
        ax.set_xscale(self.xscale)
        ax.set_yscale(self.yscale)  # d2l's model.board.yscale = 'log'
        if self.xlim is not None:
            ax.set_xlim(self.xlim)
        if self.ylim is not None:
            ax.set_ylim(self.ylim)
        ax.legend()
        ax.grid(True)
        if self.path:
            self._fig.savefig(self.path)
        if self.display:
            from IPython import display
            display.display(self._fig)
            display.clear_output(wait=True)

    def save(self, path):
        old, self.path, display = self.path, path, self.display
        self.display = False
        try:
            self.show()
        finally:
            self.path, self.display = old, display
        return path

    def close(self):
        if self._fig is not None:
            import matplotlib.pyplot as plt
            plt.close(self._fig)
            self._fig = None
