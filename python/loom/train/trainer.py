"""loom.Trainer: d2l's training loop (`Trainer(max_epochs, num_gpus, gradient_clip_val)`,
`trainer.fit(model, data)`) on loom's functional gradients; see the class's docstring."""
import collections.abc
import itertools
import sys
import time
import warnings

import numpy as np

from .. import _loom, nn, optim
from ..nn.module import materialize_lazy, recording
from .board import ProgressBoard

_HINT = ("[Trainer] this error was raised inside the training step, which runs under loom.jit: it is traced on the "
         "first batch, so its arrays are tracers (Python branches on their values, .item(), .numpy() and the global "
         "random generator are refused there). Trainer(jit=False) runs the step eagerly, op by op, so that the "
         "traceback ends at the line that fails.")


class Trainer:
    """d2l's Trainer: trainer = loom.Trainer(max_epochs=10, num_gpus=1); trainer.fit(model, data).

    model: an nn.Module with training_step(batch) -> scalar loss and configure_optimizers() ->
    a loom.optim optimiser (loom's form, optim.SGD(0.1), or PyTorch's,
    optim.SGD(self.parameters(), lr=0.1)), or (optimiser, scheduler), or Lightning's dict
    {"optimizer": opt, "lr_scheduler": sched or {"scheduler": sched, "interval": "step"}};
    optionally validation_step(batch) (returns the loss, or records it with self.plot) and
    accuracy(Y_hat, Y) (then 'val acc' is shown next to the loss).
    data: train_dataloader() and optionally val_dataloader(), each giving batches (tuples of
    NumPy or loom arrays): a list, a loom.data.DataLoader, or a generator.

    Devices: num_gpus=k trains on min(k, loom.num_gpus()) GPUs, with one warning when the
    machine has fewer, and on cpu() when it has none (as d2l's); devices=[...] chooses them
    (loom devices, 'gpu:1', or GPU indices). k > 1 splits each batch over replicas whose
    gradients are all-reduced (train/_parallel.py).

    Each epoch iterates the training data afresh: a list or a DataLoader again, a one-shot
    iterator (a generator) by calling data.train_dataloader() again; an epoch without batches
    raises, naming the data module. Lazy layers (nn.LazyLinear, ...) get their parameters
    from the first batch, in one eager call of training_step in eval mode, before
    configure_optimizers (d2l calls the net once the same way).

    One training step (the loss, the gradients of every parameter, clipping by
    gradient_clip_val, the optimiser's update) is one function run under loom.jit: traced on
    the first batch and replayed, retraced only for a new batch shape. An error inside it
    says so; jit=False runs it eagerly. The learning rate is an argument of the step, so a
    scheduler (stepped once an epoch, or each step) compiles nothing.

    What d2l's code reads: trainer.epoch, train_batch_idx, val_batch_idx, num_train_batches,
    num_val_batches, gpus, model, optim, train_dataloader, val_dataloader; model.trainer.
    Module.plot(key, value, train=) records values with the step (also under jit); each
    epoch's means go to trainer.history, to trainer.board (redrawn live in a notebook, written
    to board_path as a PNG when given) and to one text line (progress=True, on stderr).
    trainer.plot(path) writes the curves to a PNG.

    Calling fit again with the same model resumes: the optimiser, its state and the scheduler
    are kept, and max_epochs more epochs are trained, numbered on from the last.
    """

    def __init__(self, max_epochs, num_gpus=0, gradient_clip_val=0, jit=True, progress=True, devices=None,
                 board_path=None):
        if int(max_epochs) < 0:
            raise ValueError(f"[Trainer] max_epochs must be >= 0, got {max_epochs}")
        if gradient_clip_val < 0:
            raise ValueError(f"[Trainer] gradient_clip_val must be >= 0, got {gradient_clip_val}")
        if devices is not None:
            # Explicit devices (like Lightning's devices=[0, 2]); replicas may share a device,
            # which checks the data-parallel arithmetic on a machine without GPUs.
            devices = [_as_device(d) for d in devices]
            if not devices:
                raise ValueError("[Trainer] devices must be a non-empty list of loom devices")
            self.gpus = [d for d in devices if d.type != "cpu"]
        else:
            k, available = int(num_gpus), _loom.num_gpus()
            if k < 0:
                raise ValueError(f"[Trainer] num_gpus must be >= 0, got {num_gpus}")
            if k > available:
                where = "cpu()" if available == 0 else f"{available} GPU{'s' * (available > 1)}"
                warnings.warn(f"[Trainer] num_gpus={k}, but this machine has {available} GPU"
                              f"{'s' * (available != 1)}: training on {where}", stacklevel=2)
            self.gpus = [_loom.gpu(i) for i in range(min(k, available))]
            devices = self.gpus or [_loom.cpu()]
        self.max_epochs, self.num_gpus = int(max_epochs), len(self.gpus)
        self.gradient_clip_val, self.use_jit, self.progress = float(gradient_clip_val), bool(jit), bool(progress)
        self.devices, self.device = devices, devices[0]
        self.board = ProgressBoard(path=board_path)
        self.model = self.optim = self.scheduler = self._step = None
        self._reset()

    def _reset(self):
        self.epoch = self.train_batch_idx = self.val_batch_idx = 0
        self.history = {"epoch": [], "train_loss": [], "val_loss": [], "epoch_seconds": []}
        self.board.data.clear()

    # ---- d2l's hooks -----------------------------------------------------------------------
    def prepare_data(self, data):
        self.data = data
        if not callable(getattr(data, "train_dataloader", None)):
            raise TypeError(f"[Trainer] the data must define train_dataloader(), {type(data).__name__} does not")
        self.train_dataloader = data.train_dataloader()
        has_val = callable(getattr(data, "val_dataloader", None))
        self.val_dataloader = data.val_dataloader() if has_val else None
        self.num_train_batches = _len(self.train_dataloader)
        self.num_val_batches = _len(self.val_dataloader) if self.val_dataloader is not None else 0
        self._drawn = {"train": False, "val": False}
        self._peeked = None

    def prepare_model(self, model):
        if not isinstance(model, nn.Module):
            raise TypeError(f"[Trainer] the model must be an nn.Module, got {type(model).__name__}")
        for hook in ("training_step", "configure_optimizers"):
            if not callable(getattr(model, hook, None)):
                raise TypeError(f"[Trainer] the model must define {hook}()")
        model.to(self.device)  # num_gpus=0 trains on cpu() whatever loom's default device is
        object.__setattr__(model, "trainer", self)
        board = getattr(model, "board", None)
        if isinstance(board, ProgressBoard) and board is not self.board:  # d2l's Module has its own
            board.path = board.path or self.board.path
            self.board = board
        self.model = model

    def prepare_batch(self, batch):
        """The batch as a tuple of loom arrays on the model's device."""
        device = self.model.device or self.device
        if not isinstance(batch, (tuple, list)):
            batch = (batch,)
        out = []
        for a in batch:
            if not isinstance(a, _loom.ndarray):
                a = _loom.asarray(a, device=device)
            elif device is not None and a.device != device:
                a = a.to(device)
            out.append(a)
        return tuple(out)

    # ---- the loop --------------------------------------------------------------------------
    def fit(self, model, data):
        """Trains `model` on `data` for max_epochs epochs (more epochs of the same model when
        called again: see the class's docstring); returns the trainer."""
        resume = model is self.model and self._step is not None
        self.prepare_data(data)
        self.prepare_model(model)
        if not resume:
            self._reset()
            if model.has_uninitialized_params():
                first = self._first_batch()
                materialize_lazy(model, lambda m: type(m).training_step(m, first), "Trainer")
            self.optim, self.scheduler, self._interval = _optimizers(model.configure_optimizers())
            self._step = self._make_step()
        self._last_epoch = self.epoch + self.max_epochs
        for _ in range(self.max_epochs):
            self.fit_epoch()
        return self

    def fit_epoch(self):
        t0 = time.perf_counter()
        self.model.train()
        values = {}
        batches = self._progress(self._batches("train"), f"epoch {self.epoch + 1}/{self._last_epoch}",
                                 self.num_train_batches)
        n = 0
        for batch in batches:
            loss, plotted = self._step(self.prepare_batch(batch))
            plotted.setdefault("train_loss", loss)
            for k, v in plotted.items():
                values.setdefault(k, []).append(v)
            n += 1
            self.train_batch_idx += 1
            if self.scheduler is not None and self._interval == "step":
                self.scheduler.step()
            if hasattr(batches, "set_postfix") and n % 10 == 1:
                batches.set_postfix(loss=float(loss.numpy()))
        if n == 0:
            raise ValueError(self._empty("train"))
        self.num_train_batches = n
        if self.scheduler is not None and self._interval == "epoch":
            self.scheduler.step()
        means = _means(values)
        means.update(self._validate())
        _loom.synchronize(self.device)
        self._record(means, time.perf_counter() - t0)

    def _validate(self):
        model = self.model
        has_step = callable(getattr(model, "validation_step", None))
        has_acc = callable(getattr(model, "accuracy", None))
        if self.val_dataloader is None or not (has_step or has_acc):
            return {}
        model.eval()
        values, n = {}, 0
        for batch in self._batches("val"):
            batch = self.prepare_batch(batch)
            with recording() as rec:
                out = model.validation_step(batch) if has_step else None
            if isinstance(out, _loom.ndarray) or (isinstance(out, (int, float)) and not isinstance(out, bool)):
                rec.setdefault("val_loss", out)
            if has_acc and "val_acc" not in rec:
                rec["val_acc"] = model.accuracy(model(*batch[:-1]), batch[-1])
            for k, v in rec.items():
                values.setdefault(k, []).append(v)
            n += 1
            self.val_batch_idx += 1
        if n == 0:
            raise ValueError(self._empty("val"))
        self.num_val_batches = n
        return _means(values)

    def _record(self, means, seconds):
        self.epoch += 1
        h = self.history
        h["epoch"].append(self.epoch)
        h["epoch_seconds"].append(seconds)
        for k in set(h) - {"epoch", "epoch_seconds"} | set(means):
            h.setdefault(k, [None] * (len(h["epoch"]) - 1)).append(means.get(k))
        for k, v in means.items():
            self.board.draw(self.epoch, v, k)
        self.board.xlim = [0, self._last_epoch]
        self.board.show()
        if self.progress:
            shown = ", ".join(f"{k.replace('_', ' ')} {v:.4g}" for k, v in means.items())
            print(f"epoch {self.epoch}/{self._last_epoch}: {shown} ({seconds:.2f} s)", file=sys.stderr)

    def _plot_now(self, label, value):
        """Module.plot outside a step: straight onto the board, at the current epoch."""
        self.board.draw(self.epoch + 1, _float(value), label)

    # ---- the data --------------------------------------------------------------------------
    def _batches(self, which):
        """An iterator over this epoch's batches: the loader again when it is re-iterable, or
        data.<which>_dataloader() again when it is a one-shot iterator already drawn from."""
        if self._peeked is not None and which == "train":
            first, rest = self._peeked
            self._peeked = None
            return itertools.chain([first], rest)
        loader = getattr(self, f"{which}_dataloader")
        if isinstance(loader, collections.abc.Iterator) and self._drawn[which]:
            loader = getattr(self.data, f"{which}_dataloader")()
            setattr(self, f"{which}_dataloader", loader)
        self._drawn[which] = True
        return iter(loader)

    def _first_batch(self):
        it = self._batches("train")
        first = next(it, None)
        if first is None:
            raise ValueError(self._empty("train"))
        self._peeked = (first, it)
        return self.prepare_batch(first)

    def _empty(self, which):
        name = type(self.data).__name__
        return (f"[Trainer] epoch {self.epoch + 1}: {name}.{which}_dataloader() gave no batches. A generator is used "
                f"up after one pass: {name}.{which}_dataloader() is called again each epoch, so it must return a new "
                "one each call (or return a list or a loom.data.DataLoader, which are iterated again)")

    # ---- the step --------------------------------------------------------------------------
    def _make_step(self):
        """step(batch) -> (loss, plotted values): gradients, clipping and the optimiser's update
        as one function of (model, optimiser state, batch, learning rate), under loom.jit
        unless jit=False."""
        model, opt, clip = self.model, self.optim, self.gradient_clip_val
        if len(self.devices) > 1:
            from ._parallel import ParallelStep
            return _with_hint(ParallelStep(self, model, self.devices, self.use_jit), self.use_jit)
        training_step = type(model).training_step

        def loss_fn(m, batch, seed):
            with recording() as plotted, nn.random_keys(seed):  # Dropout draws from the step's seed
                loss = training_step(m, batch)
            return loss, dict(plotted)
        value_and_grad = nn.value_and_grad(model, loss_fn, has_aux=True)

        def update(m, state, batch, lr, base):
            seed = base + state["step"].astype(_loom.uint32) * 0x61C88647  # a new seed each step, on the device
            (loss, plotted), grads = value_and_grad(m, batch, seed)  # also writes m's updated buffers into m
            if clip > 0:
                grads, _ = optim.clip_grad_norm(grads, clip)
            params, state = opt.apply(dict(m.named_parameters()), grads, state, learning_rate=lr)
            return loss, plotted, params, state, dict(m.named_buffers())

        run = self._step_fn = _loom_jit(update) if self.use_jit else update
        if getattr(opt, "state", None) is None:
            opt.state = opt.init(dict(model.named_parameters()))

        def step(batch):
            lr = opt.learning_rate_argument(self.device)
            loss, plotted, params, opt.state, buffers = run(model, opt.state, batch, lr, self._seed())
            model.update_parameters(params)
            model.update_parameters(buffers)
            return loss, plotted
        return _with_hint(step, self.use_jit)

    def _seed(self):
        """The base of the steps' random seeds (a 0-d uint32 array on the device, drawn once from
        loom's global generator, so loom.random.seed makes a run repeat); each step adds its
        count, so random layers (Dropout) draw new numbers without a new trace."""
        if getattr(self, "_seed_base", None) is None or self._seed_base.device != self.device:
            base = np.uint32(int(_loom.random.randint(0, 2 ** 31 - 1)))
            self._seed_base = _loom.asarray(base, device=self.device)
        return self._seed_base

    def _progress(self, it, desc, total):
        if not self.progress:
            return it
        try:
            from tqdm.auto import tqdm
        except ImportError:  # tqdm is optional: the epoch line says the same
            return it
        return tqdm(it, desc=desc, leave=False, total=total)

    def plot(self, path):
        """Writes the curves of every epoch (train and validation loss, and what Module.plot
        recorded) to a PNG at `path` (needs matplotlib)."""
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise ImportError("[Trainer.plot] needs matplotlib (pip install matplotlib)") from None
        return self.board.save(path)


def _with_hint(step, use_jit):
    if not use_jit:
        return step

    def hinted(batch):
        try:
            return step(batch)
        except Exception as e:
            new = _hinted_error(e)
            if new is None:
                raise
            raise new from e
    return hinted


def _hinted_error(e):
    """`e` again with the jit hint: a new exception of its type (None: the note was added to
    `e` itself, whose type takes no message)."""
    try:
        new = type(e)(f"{e}\n{_HINT}")
    except Exception:
        e.add_note(_HINT)
        return None
    return new


def _as_device(d):
    if isinstance(d, _loom.Device):
        return d
    if isinstance(d, int) and not isinstance(d, bool):
        return _loom.gpu(d)
    if isinstance(d, str):
        return _loom.device(d)
    raise ValueError(f"[Trainer] devices must be loom devices, 'gpu:i' strings or GPU indices, got {d!r}")


def _optimizers(result):
    """(optimiser, scheduler or None, 'epoch' | 'step') from configure_optimizers()."""
    sched, interval = None, "epoch"
    if isinstance(result, dict):
        opt, sched = result.get("optimizer"), result.get("lr_scheduler")
        if isinstance(sched, dict):
            sched, interval = sched.get("scheduler"), sched.get("interval", "epoch")
    elif isinstance(result, (tuple, list)):
        parts = [r[0] if isinstance(r, (tuple, list)) and len(r) == 1 else r for r in result]
        opt, sched = (parts + [None])[:2] if len(parts) <= 2 else (None, None)
    else:
        opt = result
    if not (callable(getattr(opt, "apply", None)) and callable(getattr(opt, "init", None))):
        raise TypeError("[Trainer] configure_optimizers() must return a loom.optim optimiser, (optimiser, scheduler) "
                        f"or {{'optimizer': ..., 'lr_scheduler': ...}}; got {type(result).__name__}")
    if sched is not None and not callable(getattr(sched, "step", None)):
        raise TypeError(f"[Trainer] the scheduler must have step(), got {type(sched).__name__}")
    if interval not in ("epoch", "step"):
        raise ValueError(f"[Trainer] a scheduler's interval is 'epoch' or 'step', got {interval!r}")
    return opt, sched, interval


def _len(loader):
    try:
        return len(loader)
    except TypeError:
        return None


def _float(v):
    return float(np.mean(v.numpy())) if isinstance(v, _loom.ndarray) else float(v)


def _means(values):
    return {k: sum(_float(v) for v in vs) / len(vs) for k, vs in values.items()}


def _loom_jit(fn):
    from ..transforms._jit import jit
    return jit(fn)
