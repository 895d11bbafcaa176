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

    def __init__(self, xlabel="epoch", path=None, display=None, figsize=(3.5, 2.5)):
        self.xlabel, self.path, self.figsize = xlabel, path, figsize
        self.display = in_notebook() if display is None else bool(display)
        self.data = collections.OrderedDict()
        self.xlim = None
        self._fig = None

    def draw(self, x, y, label):
        self.data.setdefault(label, []).append((float(x), float(y)))

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
        if self.xlim is not None:
            ax.set_xlim(self.xlim)
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
