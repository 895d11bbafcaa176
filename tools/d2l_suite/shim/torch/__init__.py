"""The d2l harness's `torch`: PyTorch's names that the book's chapters 3-8 and 13 call,
resolved to loom's (docs/site/porting/d2l.md has the table). Not a PyTorch: no autograd
tape (`.backward()` raises, saying to use loom.grad), no Tensor class (tensors are loom
arrays, given torch's methods below), NumPy's dtype rules except where torch's default
float32 matters (tensor/arange/randn/... of Python floats make float32, as torch's)."""
import builtins
import contextlib
import pickle

import numpy as np

import loom
from loom import float16, float32, float64, int8, int16, int32, int64, uint8, bool_ as bool  # noqa: F401

from . import _tensor  # noqa: F401  (torch's methods on loom arrays)
from ._tensor import Tensor, _dims, _size_args
from loom.nn import scope_uniform as _scope_uniform

float = float32
double = float64
long = int64
int = int32
half = float16
Size = tuple
__version__ = "2.0.0+loom"
_builtin_float, _builtin_int = builtins.float, builtins.int


def _default_dtype(data, dtype):
    if dtype is not None:
        return dtype
    a = np.asarray(data) if not isinstance(data, loom.ndarray) else None
    if a is not None and a.dtype == np.float64:
        return float32  # torch's default float
    return None


def _dev(device):
    if device is None:
        return None
    return device if isinstance(device, loom.Device) else globals()["device"](device)


def tensor(data, dtype=None, device=None, requires_grad=False):
    if isinstance(data, (list, tuple)) and data and isinstance(data[0], loom.ndarray):
        data = [np.asarray(d) for d in data]
    return loom.asarray(data, dtype=_default_dtype(data, dtype), device=_dev(device))


as_tensor = tensor
from_numpy = loom.asarray


def _shape(size):
    return size[0] if len(size) == 1 and isinstance(size[0], (tuple, list)) else size


def zeros(*size, dtype=None, device=None, requires_grad=False):
    return loom.zeros(_shape(size), dtype=dtype or float32, device=_dev(device))


def ones(*size, dtype=None, device=None, requires_grad=False):
    return loom.ones(_shape(size), dtype=dtype or float32, device=_dev(device))


def full(size, fill_value, dtype=None, device=None):
    return loom.full(size, fill_value, dtype=_default_dtype(fill_value, dtype), device=_dev(device))


def zeros_like(x, dtype=None, device=None):
    return loom.zeros_like(x, dtype=dtype)


def ones_like(x, dtype=None, device=None):
    return loom.ones_like(x, dtype=dtype)


def randn(*size_, size=None, dtype=None, device=None, requires_grad=False, generator=None):
    size = size if size is not None else size_
    shape = tuple(_shape(size))
    u1 = _scope_uniform(shape, _dev(device))  # inside a Trainer step: the step's seed (nn.random_keys)
    if u1 is not None:  # Box-Muller
        u2 = _scope_uniform(shape, _dev(device))
        z = loom.sqrt(-2.0 * loom.log(1.0 - u1)) * loom.cos(6.283185307179586 * u2)
        return z.astype(dtype or float32)
    return loom.random.normal(0.0, 1.0, size=tuple(_shape(size)), dtype=dtype or float32, device=_dev(device))


def rand(*size_, size=None, dtype=None, device=None, requires_grad=False, generator=None):
    size = size if size is not None else size_
    u = _scope_uniform(tuple(_shape(size)), _dev(device))
    if u is not None:
        return u.astype(dtype or float32)
    return loom.random.uniform(0.0, 1.0, size=tuple(_shape(size)), dtype=dtype or float32, device=_dev(device))


def normal(mean, std, size=None, dtype=None, device=None, requires_grad=False):
    return loom.random.normal(mean, std, size=tuple(size), dtype=dtype or float32, device=_dev(device))


def randint(low, high=None, size=None, dtype=None, device=None):
    if high is None:
        low, high = 0, low
    return loom.random.randint(low, high, size=tuple(size), device=_dev(device)).astype(dtype or int64)


def arange(start, end=None, step=1, dtype=None, device=None, requires_grad=False):
    if end is None:
        start, end = 0, start
    floats = builtins.any(isinstance(v, _builtin_float) for v in (start, end, step))
    return loom.arange(start, end, step, dtype=dtype or (float32 if floats else int64), device=_dev(device))


def manual_seed(s):
    loom.random.seed(s)


def _reduce(fn):
    def f(x, dim=None, keepdim=False, **kw):
        return fn(x, axis=_dims(dim), keepdims=keepdim)
    return f


sum, mean, prod = _reduce(loom.sum), _reduce(loom.mean), _reduce(loom.prod)


def max(x, dim=None, keepdim=False, other=None):
    if isinstance(dim, loom.ndarray):
        return loom.maximum(x, dim)
    if dim is None:
        return loom.max(x)
    return loom.max(x, axis=dim, keepdims=keepdim), loom.argmax(x, axis=dim, keepdims=keepdim)


def cat(tensors, dim=0):
    return loom.concatenate(list(tensors), axis=dim)


concat = cat


def stack(tensors, dim=0):
    return loom.stack(list(tensors), axis=dim)


def argmax(x, dim=None, keepdim=False):
    return loom.argmax(x, axis=dim, keepdims=keepdim)


def reshape(x, shape):
    return loom.reshape(x, shape)


def transpose(x, d0, d1):
    return loom.swapaxes(x, d0, d1)


def mm(a, b):
    return loom.matmul(a, b)


matmul, exp, log, sqrt, abs, tanh, sin, cos, sinh, cosh, bmm = (loom.matmul, loom.exp, loom.log, loom.sqrt, loom.abs,
                                               loom.tanh, loom.sin, loom.cos, loom.sinh, loom.cosh, loom.matmul)
eye, linspace, meshgrid, where, clamp = loom.eye, loom.linspace, loom.meshgrid, loom.where, loom.clip
numel = builtins.len


def sigmoid(x):
    return loom.nn.sigmoid(x)


def relu(x):
    return loom.nn.relu(x)


def is_tensor(x):
    return isinstance(x, loom.ndarray)


def device(spec, index=None):
    """torch.device('cpu' | 'cuda' | 'cuda:1') as a loom device."""
    if isinstance(spec, loom.Device):
        return spec
    kind, _, i = str(spec).partition(":")
    if kind == "cpu":
        return loom.cpu()
    return loom.gpu(builtins.int(i or index or 0))


class _NoGrad(contextlib.ContextDecorator):
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def no_grad():
    return _NoGrad()


enable_grad = no_grad


def is_grad_enabled():
    return False


def save(obj, f):
    """torch.save: arrays are stored as NumPy arrays (with their device), in a pickle."""
    def out(o):
        if isinstance(o, loom.ndarray):
            return ("__loom__", np.asarray(o))
        if isinstance(o, dict):
            return type(o)((k, out(v)) for k, v in o.items())
        if isinstance(o, (list, tuple)):
            return type(o)(out(v) for v in o)
        return o
    with open(f, "wb") as fh:
        pickle.dump(out(obj), fh)


def load(f, map_location=None, weights_only=None):
    with open(f, "rb") as fh:
        obj = pickle.load(fh)

    def back(o):
        if isinstance(o, tuple) and len(o) == 2 and o[0] == "__loom__":
            return loom.asarray(o[1])
        if isinstance(o, dict):
            return type(o)((k, back(v)) for k, v in o.items())
        if isinstance(o, (list, tuple)):
            return type(o)(back(v) for v in o)
        return o
    return back(obj)


from . import cuda, jit, nn, optim, utils  # noqa: E402,F401
