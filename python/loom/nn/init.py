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


# ---- PyTorch's in-place initialisers (torch.nn.init.*_): they write into the array given, a
# parameter of a module, and return it; the values come from loom's global generator.
def _fans(a, who):
    if len(a.shape) < 2:
        raise ValueError(f"[nn.init.{who}] fan in and fan out need an array of at least 2 dimensions, "
                         f"got shape {tuple(a.shape)}")
    receptive = math.prod(a.shape[2:])
    return a.shape[1] * receptive, a.shape[0] * receptive


def _write(a, value, who):
    if not isinstance(a, _loom.ndarray):
        raise TypeError(f"[nn.init.{who}] expected a loom array (a parameter), got {type(a).__name__}")
    a[...] = value
    return a


_GAINS = {"linear": 1.0, "conv2d": 1.0, "sigmoid": 1.0, "tanh": 5.0 / 3, "relu": math.sqrt(2.0), "selu": 0.75}


def calculate_gain(nonlinearity, param=None):
    """torch.nn.init.calculate_gain."""
    if nonlinearity == "leaky_relu":
        slope = 0.01 if param is None else param
        return math.sqrt(2.0 / (1 + slope ** 2))
    if nonlinearity not in _GAINS:
        raise ValueError(f"[nn.init.calculate_gain] unsupported nonlinearity {nonlinearity!r}")
    return _GAINS[nonlinearity]


def uniform_(tensor, a=0.0, b=1.0):
    """U(a, b) in place (torch.nn.init.uniform_)."""
    return _write(tensor, _random.uniform(a, b, size=tuple(tensor.shape), dtype=tensor.dtype,
                                          device=tensor.device), "uniform_")


def normal_(tensor, mean=0.0, std=1.0):
    return _write(tensor, _random.normal(mean, std, size=tuple(tensor.shape), dtype=tensor.dtype,
                                         device=tensor.device), "normal_")


def constant_(tensor, val):
    return _write(tensor, val, "constant_")


def zeros_(tensor):
    return _write(tensor, 0, "zeros_")


def ones_(tensor):
    return _write(tensor, 1, "ones_")


def xavier_uniform_(tensor, gain=1.0):
    fi, fo = _fans(tensor, "xavier_uniform_")
    bound = gain * math.sqrt(6.0 / (fi + fo))
    return uniform_(tensor, -bound, bound)


def xavier_normal_(tensor, gain=1.0):
    fi, fo = _fans(tensor, "xavier_normal_")
    return normal_(tensor, 0.0, gain * math.sqrt(2.0 / (fi + fo)))


def _kaiming_std(tensor, a, mode, nonlinearity, who):
    fi, fo = _fans(tensor, who)
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"[nn.init.{who}] mode must be 'fan_in' or 'fan_out', got {mode!r}")
    return calculate_gain(nonlinearity, a) / math.sqrt(fi if mode == "fan_in" else fo)


def kaiming_uniform_(tensor, a=0.0, mode="fan_in", nonlinearity="leaky_relu"):
    bound = math.sqrt(3.0) * _kaiming_std(tensor, a, mode, nonlinearity, "kaiming_uniform_")
    return uniform_(tensor, -bound, bound)


def kaiming_normal_(tensor, a=0.0, mode="fan_in", nonlinearity="leaky_relu"):
    return normal_(tensor, 0.0, _kaiming_std(tensor, a, mode, nonlinearity, "kaiming_normal_"))
