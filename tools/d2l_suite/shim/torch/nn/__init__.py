"""torch.nn over loom.nn: the same modules; nn.Parameter(x) is x (loom has no Parameter
class: every array attribute of a Module is a parameter); losses as modules."""
from loom.nn import *  # noqa: F401,F403
from loom.nn import (AdaptiveAvgPool2d, AvgPool2d, BatchNorm1d, BatchNorm2d, Conv2d, Dropout, Flatten,  # noqa: F401
                     Identity, LazyBatchNorm1d, LazyBatchNorm2d, LazyConv2d, LazyLinear, Linear, MaxPool2d,
                     Module, ReLU, Sequential, Sigmoid, Tanh, init)
from loom.nn import losses as _losses

from . import functional, parallel  # noqa: F401


def Parameter(data, requires_grad=True):
    return data


def DataParallel(module, device_ids=None):
    """The module itself: loom.Trainer(num_gpus=k) splits batches over GPUs; a hand-written
    loop that calls loss.backward() has no counterpart (scope.txt)."""
    return module


class CrossEntropyLoss(Module):
    def __init__(self, reduction="mean"):
        super().__init__()
        self.reduction = reduction

    def forward(self, y_hat, y):
        return _losses.cross_entropy(y_hat, y, reduction=self.reduction)


class MSELoss(Module):
    def __init__(self, reduction="mean"):
        super().__init__()
        self.reduction = reduction

    def forward(self, y_hat, y):
        return _losses.mse_loss(y_hat, y, reduction=self.reduction)
