"""The harness's `d2l.torch`: the book's own library (d2l/torch.py of the checkout named by
$D2L_DIR), run statement by statement over the shim's torch (loom), with d2l's base classes
taken from loom.d2l instead of the book's (their training loop is torch's autograd):
HyperParameters, Module, Classifier, DataModule, ProgressBoard, Trainer, and the device
helpers. A statement of the book's library that fails here (a later chapter's torch API) is
skipped; what the chapters in scope call is reported by the sections that call it.

The Trainer is loom.Trainer with the harness's caps: D2L_SUITE_MAX_EPOCHS (epochs of each
fit) and D2L_SUITE_MAX_BATCHES (batches of each epoch, training and validation).
`d2l.add_to_class(d2l.Trainer)` does nothing: the book's cells that write the Trainer's own
loop (fit_epoch with loss.backward(), prepare_batch, prepare_model) are loom.Trainer's work.
"""
import ast
import itertools
import os
import sys
from pathlib import Path

import loom
from loom import d2l as _ld2l

_LOOM = {"HyperParameters", "Module", "Classifier", "DataModule", "ProgressBoard", "Trainer",
         "cpu", "gpu", "num_gpus", "try_gpu", "try_all_gpus", "add_to_class"}
skipped = []  # (line, name, error) of the book's library statements that failed here


def _cap(name):
    v = os.environ.get(name)
    return int(v) if v else None


class _Capped:
    """A re-iterable that gives at most n batches of `it` per iteration."""

    def __init__(self, inner, n):
        self.inner, self.n = inner, n

    def __iter__(self):
        return itertools.islice(iter(self.inner), self.n)

    def __len__(self):
        return min(len(self.inner), self.n)


class _CappedData:
    def __init__(self, data, n):
        self._data, self._n = data, n

    def __getattr__(self, name):
        return getattr(self._data, name)

    def train_dataloader(self):
        return _Capped(self._data.train_dataloader(), self._n)

    def val_dataloader(self):
        return _Capped(self._data.val_dataloader(), self._n)


class Trainer(_ld2l.Trainer):
    def __init__(self, max_epochs, num_gpus=0, gradient_clip_val=0, **kw):
        cap = _cap("D2L_SUITE_MAX_EPOCHS")
        kw.setdefault("progress", False)
        super().__init__(min(max_epochs, cap) if cap else max_epochs, num_gpus=num_gpus,
                         gradient_clip_val=gradient_clip_val, **kw)

    def fit(self, model, data):
        """With the caps; a hand-written optimiser (the book's SGD: step() reads param.grad) is
        run as the book's loop does: gradients from nn.value_and_grad, given to the arrays'
        .grad (torch._tensor.GRADS), then opt.step()."""
        n = _cap("D2L_SUITE_MAX_BATCHES")
        ours = model.configure_optimizers

        def configure():
            opt = ours()
            if callable(getattr(opt, "step", None)) and not isinstance(opt, loom.optim.Optimizer):
                self._scratch_opt = opt
                return loom.optim.SGD(0.0)  # not used: _make_step runs the book's opt.step()
            self._scratch_opt = None
            return opt
        model.__dict__["configure_optimizers"] = configure
        try:
            return super().fit(model, _CappedData(data, n) if n else data)
        finally:
            model.__dict__.pop("configure_optimizers", None)

    def _make_step(self):
        opt = getattr(self, "_scratch_opt", None)
        if opt is None:
            return super()._make_step()
        from loom.nn.module import recording
        from torch._tensor import GRADS
        model = self.model

        def loss_fn(m, batch):
            with recording() as plotted:
                loss = type(m).training_step(m, batch)
            return loss, dict(plotted)
        value_and_grad = loom.nn.value_and_grad(model, loss_fn, has_aux=True)

        def step(batch):
            (loss, plotted), grads = value_and_grad(model, batch)
            params = dict(model.named_parameters())
            GRADS.clear()
            GRADS.update({id(params[k]): g for k, g in grads.items()})
            opt.step()
            return loss, plotted
        return step


def add_to_class(Class):
    """d2l's decorator: sets the function as a method of Class (not of loom's Trainer)."""
    def wrapper(obj):
        if not (isinstance(Class, type) and issubclass(Class, loom.Trainer)):
            setattr(Class, obj.__name__, obj)
        return obj
    return wrapper


HyperParameters, Module, Classifier, DataModule, ProgressBoard = (
    _ld2l.HyperParameters, _ld2l.Module, _ld2l.Classifier, _ld2l.DataModule, _ld2l.ProgressBoard)
cpu, gpu, num_gpus, try_gpu, try_all_gpus = loom.cpu, loom.gpu, loom.num_gpus, loom.try_gpu, loom.try_all_gpus


def _defines(node):
    if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
        return {node.name}
    if isinstance(node, ast.Assign):
        return {t.id for t in node.targets if isinstance(t, ast.Name)}
    return set()


def _borrow_methods(node, path, g):
    """The book's methods of a base class that loom.d2l's lacks (Classifier.layer_summary, ...)
    are set on loom's class; loom's own are kept."""
    ours = g[node.name]
    for item in node.body:
        if isinstance(item, ast.FunctionDef) and not hasattr(ours, item.name):
            scope = dict(g)
            try:
                exec(compile(ast.Module(body=[item], type_ignores=[]), str(path), "exec"), scope)
                setattr(ours, item.name, scope[item.name])
            except Exception as e:  # noqa: BLE001
                skipped.append((item.lineno, f"{node.name}.{item.name}", f"{type(e).__name__}: {e}"[:200]))


def _load_book_library():
    d2l_dir = os.environ.get("D2L_DIR")
    if not d2l_dir:
        raise ImportError("[d2l shim] set D2L_DIR to a checkout of d2l-ai/d2l-en")
    path = Path(d2l_dir) / "d2l" / "torch.py"
    tree = ast.parse(path.read_text(), str(path))
    g = globals()
    for node in tree.body:
        names = _defines(node)
        if names & _LOOM:
            if isinstance(node, ast.ClassDef) and node.name != "Trainer":
                _borrow_methods(node, path, g)
            continue
        if isinstance(node, ast.Assign) and "d2l" in names:
            continue
        mod = ast.Module(body=[node], type_ignores=[])
        try:
            exec(compile(mod, str(path), "exec"), g)
        except Exception as e:  # noqa: BLE001 - a later chapter's API: skipped, recorded
            skipped.append((node.lineno, ", ".join(sorted(names)) or type(node).__name__,
                            f"{type(e).__name__}: {e}"[:200]))


d2l = sys.modules[__name__]
_load_book_library()


def use_svg_display():
    """The book's sets IPython's figure format; the harness draws with matplotlib's Agg."""


if "plt" not in globals():
    from matplotlib import pyplot as plt  # noqa: F401
