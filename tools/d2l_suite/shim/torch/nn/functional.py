"""torch.nn.functional over loom.nn's functions (torch's keyword names)."""
from loom import nn as _nn
from loom.nn import losses as _losses
from loom.nn import adaptive_avg_pool2d, relu, sigmoid  # noqa: F401


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    return _nn.conv2d(input, weight, bias, stride=stride, padding=padding, dilation=dilation, groups=groups)


def avg_pool2d(input, kernel_size, stride=None, padding=0):
    return _nn.avg_pool2d(input, kernel_size, stride=stride, padding=padding)


def max_pool2d(input, kernel_size, stride=None, padding=0):
    return _nn.max_pool2d(input, kernel_size, stride=stride, padding=padding)


def cross_entropy(input, target, reduction="mean", label_smoothing=0.0):
    return _losses.cross_entropy(input, target, reduction=reduction, label_smoothing=label_smoothing)


def mse_loss(input, target, reduction="mean"):
    return _losses.mse_loss(input, target, reduction=reduction)


def softmax(input, dim=-1):
    return _nn.softmax(input, axis=dim)


def log_softmax(input, dim=-1):
    return _nn.log_softmax(input, axis=dim)
