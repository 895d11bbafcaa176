"""torch.Tensor's methods that the book calls, set on loom's array class for this process
(the harness's shim only): dim=/keepdim=, .data (the array itself: writes through it are
in-place writes), in-place initialisers (normal_, fill_, zero_), .cuda()/.cpu(), .size(),
.numel(), .view(). `.backward()` and `.grad` raise: loom has no tape (loom.grad instead)."""
import builtins

import numpy as np

import loom

Tensor = loom.ndarray
_orig = {n: getattr(Tensor, n) for n in ("sum", "mean", "max", "argmax", "reshape", "to", "std", "var")}


def _dims(dim):
    return tuple(dim) if isinstance(dim, list) else dim


def _size_args(size):
    return size[0] if len(size) == 1 and isinstance(size[0], (tuple, list)) else size


def _red(name):
    f = _orig[name]

    def g(self, dim=None, keepdim=False, axis=None, keepdims=None, dtype=None):
        ax = _dims(dim) if dim is not None else axis
        kd = keepdim if keepdims is None else keepdims
        return f(self, axis=ax, keepdims=kd)
    return g


for _n in ("sum", "mean", "std", "var"):
    setattr(Tensor, _n, _red(_n))


def _max(self, dim=None, keepdim=False, axis=None, keepdims=False):
    if dim is None:
        return _orig["max"](self, axis=axis, keepdims=keepdims)
    return (_orig["max"](self, axis=dim, keepdims=keepdim), _orig["argmax"](self, axis=dim, keepdims=keepdim))


def _argmax(self, dim=None, keepdim=False, axis=None, keepdims=False):
    ax = dim if dim is not None else axis
    return _orig["argmax"](self, axis=ax, keepdims=keepdim or keepdims)


def _reshape(self, *shape, **kw):
    if kw:
        return _orig["reshape"](self, *shape, **kw)
    return _orig["reshape"](self, _size_args(shape))


def _to(self, *args, **kw):
    dev = kw.pop("device", None)
    dtype = kw.pop("dtype", None)
    for a in args:
        if isinstance(a, loom.Device):
            dev = a
        elif isinstance(a, str):
            from . import device
            dev = device(a)
        else:
            dtype = a
    out = self
    if dev is not None:
        out = _orig["to"](out, dev)
    if dtype is not None:
        out = out.astype(dtype)
    return out


_orig_size = Tensor.size


class _Size(int):
    """NumPy's x.size (an int, which loom's own code reads) that is also torch's x.size(dim)."""

    def __new__(cls, n, shape):
        out = super().__new__(cls, n)
        out._shape = tuple(shape)
        return out

    def __call__(self, dim=None):
        return self._shape if dim is None else self._shape[dim]


def _set(self, value):
    self[...] = value
    return self


def _normal_(self, mean=0.0, std=1.0):
    return _set(self, loom.random.normal(mean, std, size=tuple(self.shape), dtype=self.dtype, device=self.device))


def _uniform_(self, a=0.0, b=1.0):
    return _set(self, loom.random.uniform(a, b, size=tuple(self.shape), dtype=self.dtype, device=self.device))


def _no_tape(self, *a, **k):
    raise NotImplementedError("[d2l shim] loom has no autograd tape: .backward()/.grad/requires_grad are "
                              "not supported; differentiate a function with loom.grad or nn.value_and_grad")


for _name, _f in {
    "sum": _red("sum"), "mean": _red("mean"), "max": _max, "argmax": _argmax, "reshape": _reshape,
    "view": _reshape, "to": _to, "numel": lambda self: builtins.int(self.size),
    "dim": lambda self: self.ndim, "cuda": lambda self, i=0: _orig["to"](self, loom.gpu(i)),
    "cpu": lambda self: _orig["to"](self, loom.cpu()), "detach": lambda self: self,
    "clone": lambda self: self.copy(), "type": lambda self, dtype=None: self.astype(dtype) if dtype else str(self.dtype),
    "float": lambda self: self.astype(loom.float32), "long": lambda self: self.astype(loom.int64),
    "int": lambda self: self.astype(loom.int32), "double": lambda self: self.astype(loom.float64),
    "abs": lambda self: loom.abs(self), "exp": lambda self: loom.exp(self), "log": lambda self: loom.log(self),
    "matmul": lambda self, o: loom.matmul(self, o), "t": lambda self: self.T,
    "permute": lambda self, *d: loom.transpose(self, _size_args(d)),
    "unsqueeze": lambda self, d: loom.expand_dims(self, d),
    "squeeze": lambda self, d=None: loom.squeeze(self, axis=d) if d is not None else loom.squeeze(self),
    "eq": lambda self, o: self == o, "fill_": lambda self, v: _set(self, v),
    "zero_": lambda self: _set(self, 0), "normal_": _normal_, "uniform_": _uniform_,
    "backward": _no_tape, "requires_grad_": lambda self, flag=True: self, "requires_grad": False,
    "contiguous": lambda self: self,
}.items():
    setattr(Tensor, _name, _f)

Tensor.data = property(lambda self: self, _set)  # x.data *= m: the in-place result written back
Tensor.size = property(lambda self: _Size(_orig_size.__get__(self), self.shape))
GRADS = {}  # id(parameter) -> its gradient, set by the shim's Trainer before a hand-written step()


def _grad(self):
    return GRADS.get(id(self))  # None before a step, as torch's before backward()


Tensor.grad = property(_grad)

# A lazy layer's weight before its first call: torch lets `.data.normal_()` run on it (the
# first call then initialises the layer anyway); so does the shim.
from loom.nn.lazy import UninitializedParameter  # noqa: E402

UninitializedParameter.data = property(lambda self: self)
for _name in ("normal_", "fill_", "uniform_", "zero_"):
    setattr(UninitializedParameter, _name, lambda self, *a, **k: self)
Tensor.is_cuda = property(lambda self: self.device.type == "cuda")
Tensor.__array_priority__ = 100
