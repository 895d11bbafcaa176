"""Activation functions and their module forms (PyTorch's names)."""
import math

from .. import _loom
from .losses import softmax
from .module import Module


def relu(x):
    """max(x, 0), NaN kept, as torch.relu; written as a select so that its derivative is one
    select too (0 at x == 0, as PyTorch's), where maximum's would split ties."""
    return _loom.where(x <= 0, 0, x)


def sigmoid(x):
    """1 / (1 + exp(-x)), without overflow for large |x|."""
    e = _loom.exp(-_loom.abs(x))
    return _loom.where(x >= 0, 1 / (1 + e), e / (1 + e))


def gelu(x, approximate="none"):
    """x * Phi(x) (erf form), or PyTorch's tanh approximation with approximate="tanh"."""
    if approximate == "tanh":
        return 0.5 * x * (1 + _loom.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x * x * x)))
    if approximate != "none":
        raise ValueError(f"[nn.gelu] approximate must be 'none' or 'tanh', got {approximate!r}")
    return 0.5 * x * (1 + _loom.erf(x * (1 / math.sqrt(2))))


class ReLU(Module):
    def forward(self, x):
        return relu(x)


class Sigmoid(Module):
    def forward(self, x):
        return sigmoid(x)


class Tanh(Module):
    def forward(self, x):
        return _loom.tanh(x)


class GELU(Module):
    def __init__(self, approximate="none"):
        super().__init__()
        if approximate not in ("none", "tanh"):
            raise ValueError(f"[nn.GELU] approximate must be 'none' or 'tanh', got {approximate!r}")
        self.approximate = approximate

    def forward(self, x):
        return gelu(x, self.approximate)


class Softmax(Module):
    """softmax along `dim` (PyTorch's name for the axis), computed stably."""

    def __init__(self, dim=-1):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        return softmax(x, axis=self.dim)
