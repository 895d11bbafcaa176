"""NumPy's keywords that some bound functions lack, over those functions: copyto's casting=
and where=, dot's out= (also x.dot(b, out=)), and the ufunc keywords out=, where=, dtype=,
casting=, order= and subok= of the ufuncs loom composes from other ops (float_power,
heaviside, ldexp, logaddexp, deg2rad, ...) and of matmul.

Each is a Python function with NumPy's signature; a call without the keywords goes straight
to the bound function. dtype= casts the inputs by the casting rule and computes in that
dtype; out= receives the result cast by the rule (NumPy's ufunc out=), or, for dot, only a
C-contiguous out of the result's exact dtype and shape, as NumPy's dot demands.
"""
import warnings as _warnings

import numpy as _np

from .. import _loom
from .ufuncs import _cast_input, _casting, _can_cast, _outputs, write_out

__all__ = ["copyto", "dot", "float_power", "heaviside", "ldexp", "logaddexp", "logaddexp2", "deg2rad", "degrees",
           "rad2deg", "radians", "signbit", "spacing", "bitwise_count", "matmul"]

_ndarray = _loom.ndarray
_PYTHON_SCALARS = (bool, int, float, complex)


def _np_dtype(d):
    return _np.dtype(d.name)


# ---- copyto ---------------------------------------------------------------------------------

def copyto(dst, src, casting="same_kind", where=True):
    """numpy.copyto: src, broadcast to dst's shape, written into dst where `where` is true; the
    cast from src's dtype to dst's is checked by `casting` (NumPy's errors: TypeError, and
    OverflowError for a Python integer dst's dtype cannot hold)."""
    if not isinstance(dst, _ndarray):
        raise TypeError(f"[copyto] argument 1 must be a loom array, not {type(dst).__name__}")
    _casting(casting)
    if isinstance(src, _ndarray):
        if casting != "unsafe" and not _can_cast(src.dtype, dst.dtype, casting):
            raise TypeError(f"[copyto] Cannot cast array data from dtype('{src.dtype}') to dtype('{dst.dtype}') "
                            f"according to the rule '{casting}'")
    else:
        src = _host_source(src, dst, casting)
    if src.ndim > dst.ndim:  # NumPy drops src's extra leading axes of length 1
        extra = src.ndim - dst.ndim
        if all(n == 1 for n in src.shape[:extra]):
            src = src.reshape(tuple(src.shape[extra:]))
    if where is True or isinstance(where, _np.bool_) and where:
        _loom.copyto(dst, src)
        return
    mask = _mask(where, dst)
    if mask is True:
        _loom.copyto(dst, src)
        return
    if mask is False:
        _loom.broadcast_to(src, tuple(dst.shape))  # the shapes are checked even when nothing is copied
        return
    src = src if src.dtype == dst.dtype else src.astype(dst.dtype)
    _loom.copyto(dst, _loom.where(mask, src, dst))


def _host_source(src, dst, casting):
    """A NumPy array, NumPy scalar or Python scalar src checked as NumPy checks it (a scalar by
    NumPy itself, on a 0-d stand-in of dst's dtype) and placed on dst's device in dst's dtype."""
    want = _np_dtype(dst.dtype)
    host = src if isinstance(src, _np.ndarray) else _np.asarray(src)
    if isinstance(src, (_PYTHON_SCALARS, _np.generic)) or host.ndim == 0:
        _np.copyto(_np.empty((), want), src, casting=casting)  # raises NumPy's TypeError or OverflowError
    elif casting != "unsafe" and not _np.can_cast(host.dtype, want, casting):
        raise TypeError(f"[copyto] Cannot cast array data from {host.dtype!r} to {want!r} according to the rule "
                        f"'{casting}'")
    with _warnings.catch_warnings():
        _warnings.simplefilter("ignore", _np.exceptions.ComplexWarning)
        host = host.astype(want)
    return _loom.asarray(host, device=dst.device)


def _mask(where, dst):
    """where= as a loom bool array on dst's device, or False when it is a false Python scalar.
    A Python scalar counts by its truth; an array must be bool (NumPy casts it by 'safe')."""
    if isinstance(where, _PYTHON_SCALARS):
        return True if where else False
    dtype = where.dtype if isinstance(where, _ndarray) else _np.asarray(where).dtype
    if dtype != _np.bool_ and str(dtype) != "bool":
        raise TypeError(f"[copyto] Cannot cast array data from dtype('{dtype}') to dtype('bool') according to "
                        "the rule 'safe'")
    return where if isinstance(where, _ndarray) else _loom.asarray(_np.asarray(where), device=dst.device)


# ---- dot ------------------------------------------------------------------------------------

def dot(a, b, out=None):
    """numpy.dot: the dot product of a and b (a sum over a's last axis and b's second-to-last);
    out= must be a C-contiguous array of the result's dtype and shape (NumPy's rule)."""
    if out is None:
        return _loom.dot(a, b)
    if not isinstance(out, _ndarray):
        raise TypeError(f"[dot] out must be a loom array, not {type(out).__name__}")
    r = _loom.dot(a, b)
    if out.dtype != r.dtype or tuple(out.shape) != tuple(r.shape) or not out.flags.c_contiguous:
        raise ValueError("[dot] output array is not acceptable (must have the right datatype, number of dimensions, "
                         f"and be a C-Array): the result is {r.dtype} of shape {tuple(r.shape)}")
    out[...] = r
    return out


_bound_dot_method = _loom.ndarray.dot


def _dot_method(self, b, out=None):
    """x.dot(b, out=None): numpy.dot(x, b, out=out)."""
    return _bound_dot_method(self, b) if out is None else dot(self, b, out)


_loom.ndarray.dot = _dot_method


# ---- ufunc keywords -------------------------------------------------------------------------

# The dtypes a ufunc has loops for, where NumPy refuses others given as dtype= (its result's
# dtype); ldexp's exponent and signbit's input keep their dtypes (only the result's is named).
_LOOPS = {"float_power": ("float64", "complex128"), "signbit": ("bool",)}
_CAST_INPUTS = {"ldexp": 1, "signbit": 0}  # how many leading inputs dtype= casts (default: all)


def _apply(name, bound, inputs, out, where, casting, order, dtype):
    _casting(casting)
    if order not in ("K", "A", "C", "F", None):
        raise ValueError(f"[{name}] order must be one of 'K', 'A', 'C' or 'F', not {order!r}")
    outs = _outputs(f"[{name}]", out, 1)
    if dtype is not None:
        want = _np.dtype(dtype.name if isinstance(dtype, _loom.dtype) else dtype)
        if name in _LOOPS and want.name not in _LOOPS[name]:
            raise TypeError(f"[{name}] no loop matching the specified signature and casting was found "
                            f"(dtype={want.name}; {name} computes in {' or '.join(_LOOPS[name])})")
        n = _CAST_INPUTS.get(name, len(inputs))
        inputs = tuple(_cast_input(f"[{name}]", v, want, casting) if i < n else v for i, v in enumerate(inputs))
        r = bound(*inputs)
        r = r if r.dtype == want else r.astype(want)
    else:
        r = bound(*inputs)
    if outs is not None:
        write_out(f"[{name}]", r, outs[0], casting, where)
        return outs[0]
    if order == "F" and not r.flags.f_contiguous:
        r = _loom.asfortranarray(r)
    return r


def _unary(name, doc):
    bound = getattr(_loom, name)

    def f(x, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None, subok=True):
        if out is None and dtype is None and where is True and casting == "same_kind" and order == "K":
            return bound(x)
        return _apply(name, bound, (x,), out, where, casting, order, dtype)
    return _named(f, name, doc)


def _binary(name, doc):
    bound = getattr(_loom, name)

    def f(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None, subok=True):
        if out is None and dtype is None and where is True and casting == "same_kind" and order == "K":
            return bound(x1, x2)
        return _apply(name, bound, (x1, x2), out, where, casting, order, dtype)
    return _named(f, name, doc)


def _named(f, name, doc):
    f.__name__ = f.__qualname__ = name
    f.__module__ = "loom"
    f.__doc__ = (f"{doc}\n\nNumPy's ufunc keywords: out= (the result cast into it by `casting`), where=, "
                 "dtype= (the inputs cast to it), casting=, order=; subok= is accepted (loom has no subclasses).")
    return f


float_power = _binary("float_power", "numpy.float_power: x1 ** x2 in float64 (complex128).")
heaviside = _binary("heaviside", "numpy.heaviside: 0 where x1 < 0, x2 where x1 == 0, 1 where x1 > 0.")
ldexp = _binary("ldexp", "numpy.ldexp: x1 * 2 ** x2.")
logaddexp = _binary("logaddexp", "numpy.logaddexp: log(exp(x1) + exp(x2)), without overflow.")
logaddexp2 = _binary("logaddexp2", "numpy.logaddexp2: log2(2 ** x1 + 2 ** x2), without overflow.")
deg2rad = _unary("deg2rad", "numpy.deg2rad: degrees to radians.")
degrees = _unary("degrees", "numpy.degrees: radians to degrees.")
rad2deg = _unary("rad2deg", "numpy.rad2deg: radians to degrees.")
radians = _unary("radians", "numpy.radians: degrees to radians.")
signbit = _unary("signbit", "numpy.signbit: True where the sign bit is set.")
spacing = _unary("spacing", "numpy.spacing: the distance from x to the nearest adjacent number.")
bitwise_count = _unary("bitwise_count", "numpy.bitwise_count: the number of 1 bits in |x|.")

_bound_matmul = _loom.matmul


def matmul(x1, x2, /, out=None, *, casting="same_kind", order="K", dtype=None, subok=True, axes=None):
    """numpy.matmul: the matrix product of x1 and x2 (stacks of matrices broadcast; a 1-d
    operand is a vector). out= receives the result cast by `casting`; dtype= casts the inputs;
    axes=[(x1's two), (x2's two), (the result's two)] names the matrix axes (default: the last two)."""
    if out is None and dtype is None and casting == "same_kind" and order == "K" and axes is None:
        return _bound_matmul(x1, x2)
    if axes is None:
        return _apply("matmul", _bound_matmul, (x1, x2), out, True, casting, order, dtype)
    a1, a2, ao = _matmul_axes(axes)
    x1 = _loom.moveaxis(_loom.asarray(x1) if not isinstance(x1, _ndarray) else x1, a1, (-2, -1))
    x2 = _loom.moveaxis(_loom.asarray(x2) if not isinstance(x2, _ndarray) else x2, a2, (-2, -1))

    def product(u, v):
        return _loom.moveaxis(_bound_matmul(u, v), (-2, -1), ao)
    return _apply("matmul", product, (x1, x2), out, True, casting, order, dtype)


def _matmul_axes(axes):
    """axes= as three pairs of axes (matmul's core dimensions are two per operand here)."""
    pairs = [tuple(a) if isinstance(a, (list, tuple)) else (a,) for a in axes]
    if len(pairs) != 3 or any(len(p) != 2 for p in pairs):
        raise ValueError(f"[matmul] axes= must hold three pairs of axes (x1's, x2's, the result's), not {axes!r}")
    return pairs
