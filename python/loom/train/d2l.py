"""loom.d2l: the base classes of d2l's PyTorch edition over loom, so that the book's programs
port by changing their imports (`from d2l import torch as d2l` -> `from loom import d2l`):

  HyperParameters  save_hyperparameters(): the __init__ arguments become attributes
  Module           nn.Module with d2l's defaults: forward through self.net, training_step and
                   validation_step through self.loss, plotting 'loss'; SGD with self.lr
  Classifier       Module with cross-entropy loss, accuracy, and 'acc' plotted on validation
  DataModule       train_dataloader()/val_dataloader() through get_dataloader(train);
                   get_tensorloader(tensors, train) gives a loom.data.DataLoader
  ProgressBoard    the Trainer's board (train/board.py); Trainer is loom.Trainer

It holds no training logic of its own: loom.Trainer runs every nn.Module with training_step
and configure_optimizers, and nn.Module itself has save_hyperparameters() and plot().
"""
import inspect

from .. import _loom, nn, optim
from ..nn.module import save_hyperparameters as _save
from .board import ProgressBoard
from .data import DataLoader
from .trainer import Trainer

cpu, gpu, num_gpus, try_gpu, try_all_gpus = _loom.cpu, _loom.gpu, _loom.num_gpus, _loom.try_gpu, _loom.try_all_gpus

__all__ = ["HyperParameters", "Module", "Classifier", "DataModule", "ProgressBoard", "Trainer",
           "cpu", "gpu", "num_gpus", "try_gpu", "try_all_gpus"]


class HyperParameters:
    """d2l's: self.save_hyperparameters() in __init__ keeps its arguments as attributes and in
    self.hparams (ignore=[names] leaves some out)."""

    def save_hyperparameters(self, ignore=()):
        _save(self, inspect.currentframe().f_back, ignore)


class Module(nn.Module):
    """d2l.Module: subclasses set self.net (or define forward) and loss(y_hat, y), and self.lr
    through save_hyperparameters()."""

    def __init__(self, plot_train_per_epoch=2, plot_valid_per_epoch=1):
        super().__init__()
        self.save_hyperparameters()
        self.board = ProgressBoard()  # d2l's: the Trainer draws on it (model.board.yscale = 'log')

    def loss(self, y_hat, y):
        raise NotImplementedError(f"[d2l.Module] {type(self).__name__} must define loss(y_hat, y)")

    def forward(self, X):
        if "net" not in self._modules:
            raise NotImplementedError(f"[d2l.Module] {type(self).__name__} must set self.net or define forward()")
        return self.net(X)

    def training_step(self, batch):
        loss = self.loss(self(*batch[:-1]), batch[-1])
        self.plot("loss", loss, train=True)
        return loss

    def validation_step(self, batch):
        loss = self.loss(self(*batch[:-1]), batch[-1])
        self.plot("loss", loss, train=False)
        return loss

    def configure_optimizers(self):
        if not hasattr(self, "lr"):
            raise AttributeError(f"[d2l.Module] the default configure_optimizers() uses self.lr, which "
                                 f"{type(self).__name__} does not set (save_hyperparameters() with an lr argument)")
        return optim.SGD(self.parameters(), lr=self.lr)

    def apply_init(self, inputs, init=None):
        """d2l's: one forward pass on `inputs` (a list of arrays) gives lazy layers their
        parameters; then init(module) is called on every module, if given."""
        self.forward(*inputs)
        if init is not None:
            for m in self.modules():
                init(m)


class Classifier(Module):
    """d2l.Classifier: cross-entropy over the last axis, accuracy, and validation plotting both."""

    def validation_step(self, batch):
        Y_hat = self(*batch[:-1])
        loss = self.loss(Y_hat, batch[-1])
        self.plot("loss", loss, train=False)
        self.plot("acc", self.accuracy(Y_hat, batch[-1]), train=False)
        return loss

    def accuracy(self, Y_hat, Y, averaged=True):
        Y_hat = Y_hat.reshape((-1, Y_hat.shape[-1]))
        preds = _loom.argmax(Y_hat, axis=1).astype(Y.dtype)
        compare = (preds == Y.reshape((-1,))).astype(_loom.float32)
        return _loom.mean(compare) if averaged else compare

    def loss(self, Y_hat, Y, averaged=True):
        Y_hat = Y_hat.reshape((-1, Y_hat.shape[-1]))
        return nn.losses.cross_entropy(Y_hat, Y.reshape((-1,)), reduction="mean" if averaged else "none")


class DataModule(HyperParameters):
    """d2l.DataModule: subclasses define get_dataloader(train) (often with get_tensorloader)."""

    def __init__(self, root="../data", num_workers=4):
        self.save_hyperparameters()

    def get_dataloader(self, train):
        raise NotImplementedError(f"[d2l.DataModule] {type(self).__name__} must define get_dataloader(train)")

    def train_dataloader(self):
        return self.get_dataloader(train=True)

    def val_dataloader(self):
        return self.get_dataloader(train=False)

    def get_tensorloader(self, tensors, train, indices=slice(0, None)):
        """A loom.data.DataLoader over tensors[indices], shuffled when training, of self.batch_size."""
        tensors = tuple(a[indices] for a in tensors)
        return DataLoader(tensors, self.batch_size, shuffle=train)
