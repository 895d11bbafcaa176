"""Parameter initialisations with PyTorch's defaults, drawn from loom's global generator
(loom.random.seed makes them repeatable)."""
import math

from .. import _loom

_random = _loom.random


def uniform(shape, bound, device=None, dtype=None):
    """U(-bound, bound) of `shape`."""
    dtype = dtype or _loom.float32
    return _random.uniform(-bound, bound, size=tuple(shape), dtype=dtype, device=device)


def normal(shape, std=1.0, device=None, dtype=None):
    dtype = dtype or _loom.float32
    return _random.normal(0.0, std, size=tuple(shape), dtype=dtype, device=device)


def fan_in(shape):
    """Inputs per output of a weight (out, in, *kernel): in times the kernel's size."""
    return shape[1] * math.prod(shape[2:]) if len(shape) > 1 else shape[0]


def kaiming_uniform_default(shape, device=None, dtype=None):
    """PyTorch's default for Linear and Conv weights: kaiming_uniform_(a=sqrt(5)), which is
    U(-1/sqrt(fan_in), 1/sqrt(fan_in))."""
    return uniform(shape, 1.0 / math.sqrt(max(fan_in(shape), 1)), device, dtype)


def bias_default(n, fan_in_, device=None, dtype=None):
    """PyTorch's default bias: U(-1/sqrt(fan_in), 1/sqrt(fan_in))."""
    return uniform((n,), 1.0 / math.sqrt(fan_in_) if fan_in_ > 0 else 0.0, device, dtype)
