"""loom.nn: PyTorch-style modules on loom arrays, trained with loom's transforms.

>>> from loom import nn
>>> net = nn.Sequential(nn.LazyLinear(256), nn.ReLU(), nn.Linear(256, 10)).to(loom.try_gpu())
>>> loss, grads = nn.value_and_grad(net, loss_fn)(net, X, y)
"""
from . import losses
from .losses import log_softmax, softmax
from .activations import GELU, ReLU, Sigmoid, Softmax, Tanh, gelu, relu, sigmoid
from .conv import AdaptiveAvgPool2d, AvgPool2d, Conv2d, MaxPool2d, adaptive_avg_pool2d, avg_pool2d, conv2d, max_pool2d
from .layers import Dropout, Embedding, Flatten, Identity, LayerNorm, Linear, Sequential, random_keys, scope_uniform
from .lazy import LazyBatchNorm1d, LazyBatchNorm2d, LazyConv2d, LazyLinear
from .module import Module, value_and_grad
from .norm import BatchNorm1d, BatchNorm2d
from .parallel import DistributedDataParallel

__all__ = ["Module", "value_and_grad", "DistributedDataParallel",
           "Linear", "LazyLinear", "LazyConv2d", "LazyBatchNorm1d", "LazyBatchNorm2d", "Conv2d", "MaxPool2d", "AvgPool2d", "AdaptiveAvgPool2d", "LayerNorm", "BatchNorm1d", "BatchNorm2d", "Dropout", "Embedding",
           "Flatten", "Sequential", "Identity", "random_keys", "scope_uniform",
           "ReLU", "GELU", "Sigmoid", "Tanh", "Softmax", "losses",
           "relu", "gelu", "sigmoid", "softmax", "log_softmax", "conv2d", "max_pool2d", "avg_pool2d", "adaptive_avg_pool2d", "init"]
