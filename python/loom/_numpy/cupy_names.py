"""Names a CuPy program expects of loom: `get_array_module`, `x.get()`, `x.fill(v)`, NumPy's
dtype attributes (`x.dtype.type`, `.char`, `.str`), and the `order=` keyword of the creation
functions (`zeros((2, 3), order="F")`, `array(a, order="K", ndmin=2)`, `empty_like(a)`
keeping a's Fortran layout), so that `cupy` code runs with `import loom as cupy`.

A Fortran-ordered result is the transpose of a C-ordered array of the reversed shape: the same
memory read the other way, made by the bound functions; no data goes through NumPy.
"""
import sys as _sys

import numpy as _np

from .. import _loom

__all__ = ["get_array_module", "empty", "zeros", "ones", "full", "empty_like", "zeros_like", "ones_like",
           "full_like", "array", "asarray"]

_ORDERS = ("C", "F", "A", "K")


def get_array_module(*args):
    """cupy.get_array_module: loom when any argument is a loom array, else numpy."""
    loom = _sys.modules[__name__.split(".")[0]]  # the package, which imports this module
    return loom if any(isinstance(a, _loom.ndarray) for a in args) else _np


# ---- ndarray and dtype ---------------------------------------------------------------------

def _get(self, stream=None, order="C", out=None, blocking=True, *, ary=None, pagelocked=False, async_=False):
    """x.get(): the array copied to a NumPy array (CuPy's ndarray.get); order "C", "F" or "A"
    (Fortran when x is), or out= a NumPy array of x's shape to copy into. PyCUDA's form works
    too: x.get(ary) / x.get(ary=...) copies into `ary`, and pagelocked/async_ are accepted (the
    copy is done when get returns)."""
    if isinstance(stream, _np.ndarray):  # PyCUDA's positional x.get(ary)
        stream, ary = None, stream
    out = ary if out is None else out
    if stream is not None:
        with stream:
            host = self.numpy()
    else:
        host = self.numpy()
    if out is not None:
        if not isinstance(out, _np.ndarray):
            raise TypeError(f"[get] out must be a numpy.ndarray, not {type(out).__name__}")
        if out.shape != host.shape or out.dtype != host.dtype:
            raise ValueError(f"[get] out has shape {out.shape} and dtype {out.dtype}; the array has "
                             f"{host.shape} and {host.dtype}")
        out[...] = host
        return out
    order = _check_order("get", order, ("C", "F", "A"))
    fortran = order == "F" or (order == "A" and self.flags.f_contiguous and not self.flags.c_contiguous)
    result = _np.asarray(host, order="F" if fortran else "C")  # keeps a 0-d array 0-d
    # On cpu() numpy() may share the array's memory; get() is a copy on every device.
    return result.copy(order="K") if self.device == _loom.cpu() and _np.shares_memory(result, host) else result


def _fill(self, value, stream=None):
    """x.fill(value): every element set to value, cast to x's dtype (NumPy's ndarray.fill).
    Returns the array (PyCUDA's GPUArray.fill does; NumPy's returns None)."""
    if isinstance(value, _loom.ndarray) and value.ndim != 0:
        raise ValueError(f"[fill] value must be a scalar, not an array of shape {tuple(value.shape)}")
    if stream is not None:
        with stream:
            self[...] = value
    else:
        self[...] = value
    return self


_loom.ndarray.get = _get
_loom.ndarray.fill = _fill


class NumpyDtypeAttribute:
    """A NumPy dtype attribute loom's dtype lacks, read from NumPy's dtype of the same name
    (`loom.float32.type` is numpy.float32; `.char` 'f'; `.str` '<f4'). A descriptor class
    rather than a property, which the stub generator cannot write for a Python getter."""

    def __init__(self, name):
        self.name = name

    def __get__(self, d, owner=None):
        return self if d is None else getattr(_np.dtype(d.name), self.name)


_loom.dtype.type = NumpyDtypeAttribute("type")
_loom.dtype.char = NumpyDtypeAttribute("char")
_loom.dtype.str = NumpyDtypeAttribute("str")


# ---- order= ---------------------------------------------------------------------------------

def _check_order(op, order, allowed=_ORDERS):
    """order in upper case; None is "C" where only C and F are allowed (NumPy's creation
    functions), else "K"."""
    o = ("C" if "K" not in allowed else "K") if order is None else str(order).upper()
    if o not in allowed:
        raise ValueError(f"[{op}] order must be one of {', '.join(allowed)}, not {order!r}")
    return o


def _shape(shape):
    return (int(shape),) if _np.ndim(shape) == 0 else tuple(int(n) for n in shape)


def _fortran(make, shape):
    """make(shape) with shape's axes reversed, transposed: a Fortran-ordered array of shape."""
    shape = _shape(shape)
    return make(shape[::-1]).transpose() if len(shape) > 1 else make(shape)


def _is_fortran(a):
    flags = a.flags
    return bool(flags.f_contiguous and not flags.c_contiguous) if hasattr(flags, "f_contiguous") else \
        bool(flags["F_CONTIGUOUS"] and not flags["C_CONTIGUOUS"])


def empty(shape, dtype=None, order="C", *, device=None):
    if _check_order("empty", order, ("C", "F")) == "F":
        return _fortran(lambda s: _loom.empty(s, dtype=dtype, device=device), shape)
    return _loom.empty(shape, dtype=dtype, device=device)


def zeros(shape, dtype=None, order="C", *, device=None):
    if _check_order("zeros", order, ("C", "F")) == "F":
        return _fortran(lambda s: _loom.zeros(s, dtype=dtype, device=device), shape)
    return _loom.zeros(shape, dtype=dtype, device=device)


def ones(shape, dtype=None, order="C", *, device=None):
    if _check_order("ones", order, ("C", "F")) == "F":
        return _fortran(lambda s: _loom.ones(s, dtype=dtype, device=device), shape)
    return _loom.ones(shape, dtype=dtype, device=device)


def full(shape, fill_value, dtype=None, order="C", *, device=None):
    if _check_order("full", order, ("C", "F")) == "F":
        return _fortran(lambda s: _loom.full(s, fill_value, dtype=dtype, device=device), shape)
    return _loom.full(shape, fill_value, dtype=dtype, device=device)


def _like(op, make, a, dtype, order, subok, shape, device):
    """A new array like a: Fortran-ordered for order "F", or for "A"/"K" when a is."""
    if subok:
        raise TypeError(f"[{op}] subok=True: loom has no array subclasses")
    o = _check_order(op, order)
    proto = a if isinstance(a, _loom.ndarray) else _loom.asarray(a)
    fortran = o == "F" or (o in ("A", "K") and shape is None and _is_fortran(proto))
    dtype = proto.dtype if dtype is None else dtype
    shape = tuple(proto.shape) if shape is None else _shape(shape)
    device = proto.device if device is None else device
    return (_fortran if fortran else lambda m, s: m(s))(lambda s: make(s, dtype, device), shape)


def empty_like(prototype, dtype=None, order="K", subok=None, shape=None, *, device=None):
    return _like("empty_like", lambda s, d, dev: _loom.empty(s, dtype=d, device=dev), prototype, dtype, order, subok,
                 shape, device)


def zeros_like(a, dtype=None, order="K", subok=None, shape=None, *, device=None):
    return _like("zeros_like", lambda s, d, dev: _loom.zeros(s, dtype=d, device=dev), a, dtype, order, subok, shape,
                 device)


def ones_like(a, dtype=None, order="K", subok=None, shape=None, *, device=None):
    return _like("ones_like", lambda s, d, dev: _loom.ones(s, dtype=d, device=dev), a, dtype, order, subok, shape,
                 device)


def full_like(a, fill_value, dtype=None, order="K", subok=None, shape=None, *, device=None):
    def make(s, d, dev):
        try:
            return _loom.full(s, fill_value, dtype=d, device=dev)
        except (ValueError, OverflowError, TypeError) as e:  # named as the call the user made
            msg = str(e)
            raise type(e)("[full_like]" + msg[len("[full]"):] if msg.startswith("[full]") else msg) from None
    return _like("full_like", make, a, dtype, order, subok, shape, device)


def _laid_out(op, x, source, order):
    """x (a fresh or shared loom array) in order: C or F contiguous, or for "A"/"K" Fortran
    when the source is Fortran-ordered and not C-ordered."""
    o = _check_order(op, order)
    src_fortran = isinstance(source, (_np.ndarray, _loom.ndarray)) and _is_fortran(source)
    if o == "F" or (o in ("A", "K") and src_fortran):
        return x if _is_fortran(x) or x.ndim < 2 else _loom.asfortranarray(x)
    if o == "C":
        return x if x.flags.c_contiguous else _loom.ascontiguousarray(x)
    return x


def array(obj, dtype=None, *, copy=True, order="K", subok=False, ndmin=0, device=None):
    if subok:
        raise NotImplementedError("[array] subok=True: loom has no array subclasses")
    x = _loom.array(obj, dtype=dtype, copy=copy, device=device)
    if x.ndim < ndmin:
        x = x.reshape((1,) * (ndmin - x.ndim) + tuple(x.shape))
    return _laid_out("array", x, obj, order)


def asarray(obj, dtype=None, order=None, *, device=None, copy=None):
    x = _loom.asarray(obj, dtype=dtype, device=device, copy=copy)
    return _laid_out("asarray", x, obj, order)
