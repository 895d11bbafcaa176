"""loom.Trainer: d2l's training loop (`Trainer(max_epochs, num_gpus, gradient_clip_val)`,
`trainer.fit(model, data)`) on loom's functional gradients.

The model is an nn.Module with training_step(batch) -> loss, optionally
validation_step(batch) -> loss, and configure_optimizers() -> a loom.optim optimiser; the
data has train_dataloader() and optionally val_dataloader(), yielding batches (tuples of
NumPy or loom arrays). The model moves to gpu(0) with num_gpus >= 1, else to cpu(), and
every batch to the model's device. With num_gpus=k > 1 (or devices=[...]) each batch is split
over k replicas of the model and their gradients all-reduced (train/_parallel.py). One
training step (the loss, its gradients with respect to every parameter, clipping, the
optimiser's update) runs as one function under loom.jit: it is traced on the first batch and
replayed after, and retraced only when a batch's shape changes (a last, smaller batch).
"""
import sys
import time

from .. import _loom, nn


class Trainer:
    def __init__(self, max_epochs, num_gpus=0, gradient_clip_val=0, jit=True, progress=True, devices=None):
        if int(max_epochs) < 0:
            raise ValueError(f"[Trainer] max_epochs must be >= 0, got {max_epochs}")
        if devices is not None:
            # Explicit devices (like Lightning's devices=[0, 2]); replicas may share a device,
            # which checks the data-parallel arithmetic on a machine without GPUs.
            devices = [_loom.device(d) if isinstance(d, str) else d for d in devices]
            if not devices or not all(isinstance(d, _loom.Device) for d in devices):
                raise ValueError("[Trainer] devices must be a non-empty list of loom devices")
            num_gpus = sum(d.type != "cpu" for d in devices)
        if num_gpus > _loom.num_gpus():
            raise ValueError(f"[Trainer] num_gpus={num_gpus}, but this machine has {_loom.num_gpus()} GPUs")
        if gradient_clip_val < 0:
            raise ValueError(f"[Trainer] gradient_clip_val must be >= 0, got {gradient_clip_val}")
        self.max_epochs, self.num_gpus = int(max_epochs), int(num_gpus)
        self.gradient_clip_val, self.use_jit, self.progress = float(gradient_clip_val), bool(jit), bool(progress)
        self.devices = devices or ([_loom.gpu(i) for i in range(num_gpus)] if num_gpus >= 1 else [_loom.cpu()])
        self.device = self.devices[0]
        self.history = {"epoch": [], "train_loss": [], "val_loss": [], "epoch_seconds": []}

    # ---- d2l's hooks -----------------------------------------------------------------------
    def prepare_data(self, data):
        self.train_dataloader = data.train_dataloader()
        self.val_dataloader = data.val_dataloader() if hasattr(data, "val_dataloader") else None

    def prepare_model(self, model):
        if not isinstance(model, nn.Module):
            raise TypeError(f"[Trainer] the model must be an nn.Module, got {type(model).__name__}")
        for hook in ("training_step", "configure_optimizers"):
            if not callable(getattr(model, hook, None)):
                raise TypeError(f"[Trainer] the model must define {hook}()")
        model.to(self.device)  # num_gpus=0 trains on cpu() whatever loom's default device is
        object.__setattr__(model, "trainer", self)
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
        self.prepare_data(data)
        self.prepare_model(model)
        self.optim = model.configure_optimizers()
        if len(self.devices) > 1:
            from ._parallel import ParallelStep
            step = ParallelStep(self, model, self.devices, self.use_jit)
        else:
            step = self._make_step(model)
        for epoch in range(self.max_epochs):
            t0 = time.perf_counter()
            model.train()
            losses = []
            batches = self._progress(self.train_dataloader, f"epoch {epoch + 1}/{self.max_epochs}")
            for batch in batches:
                loss = step(self.prepare_batch(batch))
                losses.append(loss)
                if hasattr(batches, "set_postfix") and len(losses) % 10 == 1:
                    batches.set_postfix(loss=float(loss.numpy()))
            train_loss = sum(float(v.numpy()) for v in losses) / max(len(losses), 1)
            val_loss = self._validate(model)
            _loom.synchronize(self.device)
            seconds = time.perf_counter() - t0
            self.history["epoch"].append(epoch + 1)
            self.history["train_loss"].append(train_loss)
            self.history["val_loss"].append(val_loss)
            self.history["epoch_seconds"].append(seconds)
            if self.progress:
                val = "" if val_loss is None else f", val loss {val_loss:.4g}"
                print(f"epoch {epoch + 1}/{self.max_epochs}: train loss {train_loss:.4g}{val} ({seconds:.2f} s)",
                      file=sys.stderr)
        return self

    def _validate(self, model):
        if self.val_dataloader is None or not callable(getattr(model, "validation_step", None)):
            return None
        model.eval()
        losses = [float(model.validation_step(self.prepare_batch(b)).numpy()) for b in self.val_dataloader]
        return sum(losses) / len(losses) if losses else None

    def _make_step(self, model):
        """step(batch) -> loss: gradients, clipping and the optimiser's update as one function
        of (model, optimiser state, batch), under loom.jit unless jit=False."""
        from .. import optim
        opt, clip = self.optim, self.gradient_clip_val
        training_step = type(model).training_step
        value_and_grad = nn.value_and_grad(model, lambda m, batch: training_step(m, batch))

        def update(m, state, batch):
            loss, grads = value_and_grad(m, batch)  # also writes m's updated buffers into m
            if clip > 0:
                grads, _ = optim.clip_grad_norm(grads, clip)
            params, state = opt.apply(dict(m.named_parameters()), grads, state)
            return loss, params, state, dict(m.named_buffers())

        run = self._step_fn = _loom_jit(update) if self.use_jit else update
        if getattr(opt, "state", None) is None:
            opt.state = opt.init(dict(model.named_parameters()))

        def step(batch):
            loss, params, opt.state, buffers = run(model, opt.state, batch)
            model.update_parameters(params)
            model.update_parameters(buffers)
            return loss
        return step

    def _progress(self, it, desc):
        if not self.progress:
            return it
        try:
            from tqdm.auto import tqdm
        except ImportError:  # tqdm is optional: the epoch line below says the same
            return it
        return tqdm(it, desc=desc, leave=False)

    def plot(self, path):
        """Writes the train (and validation) loss per epoch to a PNG at `path` (needs matplotlib)."""
        try:
            import matplotlib
            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            raise ImportError("[Trainer.plot] needs matplotlib (pip install matplotlib)") from None
        fig, ax = plt.subplots(figsize=(4.5, 3.2))
        ax.plot(self.history["epoch"], self.history["train_loss"], label="train loss")
        if any(v is not None for v in self.history["val_loss"]):
            ax.plot(self.history["epoch"], self.history["val_loss"], "--", label="val loss")
        ax.set_xlabel("epoch")
        ax.legend()
        fig.tight_layout()
        fig.savefig(path)
        plt.close(fig)
        return path


def _loom_jit(fn):
    from ..transforms._jit import jit
    return jit(fn)
