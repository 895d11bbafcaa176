"""NumPy's functions that are about Python objects rather than array data: those that take
Python callables (apply_along_axis, apply_over_axes, piecewise, fromfunction, mask_indices),
read host buffers and iterables (frombuffer, fromiter, fromstring), answer questions about
dtypes, shapes and scalars (common_type, min_scalar_type, mintypecode, typename,
issubdtype, isscalar, iterable, ndim, shape, size, broadcast_shapes, einsum_path), and
a few conversions and nestings built from loom's ops (asanyarray, asarray_chkfinite,
require, copy, block, real_if_close, sort_complex).

They are Python because their inputs are: a callable or an iterable has no C++ form, and
the dtype and shape questions never touch an array's data. Where NumPy answers a question
about dtypes or shapes alone, loom asks NumPy (the answer is the same) and maps the
result to loom's dtypes; no array data goes to NumPy.
"""
import numpy as _np

from .. import _loom

__all__ = [
    "apply_along_axis", "apply_over_axes", "piecewise", "fromfunction", "mask_indices",
    "frombuffer", "fromiter", "fromstring",
    "common_type", "min_scalar_type", "mintypecode", "typename", "issubdtype", "isscalar", "iterable",
    "ndim", "shape", "size", "broadcast_shapes", "einsum_path",
    "asanyarray", "asarray_chkfinite", "require", "copy", "block", "real_if_close", "sort_complex",
]


def _np_dtype(t):
    """A loom dtype, NumPy dtype, scalar type or name as a NumPy dtype."""
    return _np.dtype(t.name if isinstance(t, _loom.dtype) else t)


def _loom_dtype(t):
    return _loom.dtype(_np.dtype(t).name)


def _as_loom(a, device=None):
    return a if isinstance(a, _loom.ndarray) and device is None else _loom.asarray(a, device=device)


# ---- callables ----------------------------------------------------------------------

def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """numpy.apply_along_axis: func1d on each 1-d slice along `axis`, the results stacked
    in its place (a Python loop over the slices, as NumPy's)."""
    arr = _as_loom(arr)
    nd = arr.ndim
    if not -nd <= axis < nd:
        raise _np.exceptions.AxisError(f"[apply_along_axis] axis {axis} is out of bounds for array of dimension {nd}")
    axis %= nd
    moved = _loom.moveaxis(arr, axis, -1)
    outer = moved.shape[:-1]
    if any(n == 0 for n in outer):
        raise ValueError("[apply_along_axis] cannot apply_along_axis when any iteration dimensions are 0")
    results = [_as_loom(func1d(moved[idx], *args, **kwargs), arr.device) for idx in _np.ndindex(*outer)]
    res = _loom.reshape(_loom.stack(results), outer + results[0].shape)
    # The result's own axes go where `axis` was.
    k = results[0].ndim
    order = list(range(axis)) + list(range(len(outer), len(outer) + k)) + list(range(axis, len(outer)))
    return _loom.transpose(res, order)


def apply_over_axes(func, a, axes):
    """numpy.apply_over_axes: func(a, axis) for each axis in turn, its result's dimension
    kept (expanded back when func reduced it)."""
    val = _as_loom(a)
    for axis in ([axes] if _np.ndim(axes) == 0 else axes):
        axis = axis + val.ndim if axis < 0 else axis
        res = _as_loom(func(val, axis), val.device)
        if res.ndim == val.ndim:
            val = res
        elif res.ndim == val.ndim - 1:
            val = _loom.expand_dims(res, axis)
        else:
            raise ValueError("[apply_over_axes] function is not returning an array of the correct shape")
    return val


def piecewise(x, condlist, funclist, *args, **kw):
    """numpy.piecewise: funclist[i] (a callable, given x[condlist[i]], or a value) where
    condlist[i] holds; one extra function is the default where no condition holds."""
    x = _as_loom(x)
    if isinstance(condlist, _loom.ndarray) or not isinstance(condlist, (list, tuple)):
        condlist = [condlist]
    conds = [_loom.asarray(c, device=x.device).astype(_loom.bool_) for c in condlist]
    n = len(conds)
    if len(funclist) not in (n, n + 1):
        raise ValueError(f"[piecewise] with {n} condition(s), either {n} or {n + 1} functions are expected")
    if len(funclist) == n + 1:
        other = _loom.logical_not(_loom.any(_loom.stack(conds), axis=0)) if n else _loom.ones(x.shape, dtype=_loom.bool_,
                                                                                             device=x.device)
        conds.append(other)
    y = _loom.zeros_like(x)
    for cond, func in zip(conds, funclist):
        cond = _loom.broadcast_to(cond, x.shape)
        if callable(func):
            y[cond] = func(x[cond], *args, **kw)
        else:
            y[cond] = func
    return y


def fromfunction(function, shape, *, dtype=float, device=None, like=None, **kwargs):
    """numpy.fromfunction: function(*indices) over the grid of `shape` (indices of dtype)."""
    if like is not None:
        device = like.device
    return function(*_loom.indices(tuple(shape), dtype=dtype, device=device), **kwargs)


def mask_indices(n, mask_func, k=0):
    """numpy.mask_indices: the indices where mask_func(ones((n, n)), k) is non-zero."""
    a = mask_func(_loom.ones((n, n), dtype=_loom.int64), k)
    return _loom.nonzero(_as_loom(a) != 0)


# ---- host buffers and iterables ------------------------------------------------------

def frombuffer(buffer, dtype=float, count=-1, offset=0, *, device=None, like=None):
    """numpy.frombuffer onto `device` (the host bytes are read, then copied once)."""
    device = like.device if like is not None else device
    return _loom.asarray(_np.frombuffer(buffer, dtype=_np_dtype(dtype), count=count, offset=offset), device=device)


def fromiter(iter, dtype, count=-1, *, device=None, like=None):  # noqa: A002 - NumPy's name
    """numpy.fromiter onto `device`."""
    device = like.device if like is not None else device
    return _loom.asarray(_np.fromiter(iter, dtype=_np_dtype(dtype), count=count), device=device)


def fromstring(string, dtype=float, count=-1, *, sep, device=None, like=None):
    """numpy.fromstring (text with a separator) onto `device`."""
    device = like.device if like is not None else device
    return _loom.asarray(_np.fromstring(string, dtype=_np_dtype(dtype), count=count, sep=sep), device=device)


# ---- dtypes, shapes, scalars ---------------------------------------------------------

def _dtype_of(x):
    if isinstance(x, (_loom.ndarray,)):
        return _np_dtype(x.dtype)
    if isinstance(x, _loom.dtype):
        return _np_dtype(x)
    return _np.asarray(x).dtype


def common_type(*arrays):
    """numpy.common_type: the inexact dtype every array converts to (integers -> float64),
    as a loom dtype."""
    return _loom_dtype(_np.common_type(*[_np.empty(0, dtype=_dtype_of(a)) for a in arrays]))


def min_scalar_type(a):
    """numpy.min_scalar_type as a loom dtype: an array's own dtype; for a scalar, the
    smallest dtype that holds it."""
    if isinstance(a, _loom.ndarray):
        if a.ndim:
            return a.dtype
        a = a.item()
    return _loom_dtype(_np.min_scalar_type(a))


def mintypecode(typechars, typeset="GDFgdf", default="d"):
    """numpy.mintypecode (type characters; loom dtypes and arrays give theirs)."""
    chars = [c if isinstance(c, str) else _dtype_of(c).char for c in typechars]
    return _np.mintypecode(chars, typeset, default)


def typename(char):
    """numpy.typename: the description of a type character."""
    return _np.typename(char)


def issubdtype(arg1, arg2):
    """numpy.issubdtype for loom dtypes too (abstract NumPy types such as numpy.floating
    work as the second argument)."""
    def conv(t):
        if isinstance(t, type) and issubclass(t, _np.generic):
            return t
        return _np_dtype(t)
    return _np.issubdtype(conv(arg1), conv(arg2))


def isscalar(element):
    """numpy.isscalar: Python and NumPy scalars; arrays (0-d loom arrays too) are not."""
    return _np.isscalar(element)


def iterable(y):
    """numpy.iterable: whether iter(y) works (a 0-d array's does not)."""
    if isinstance(y, _loom.ndarray):
        return y.ndim > 0
    return _np.iterable(y)


def ndim(a):
    return a.ndim if isinstance(a, _loom.ndarray) else _np.ndim(a)


def shape(a):
    return a.shape if isinstance(a, _loom.ndarray) else _np.shape(a)


def size(a, axis=None):
    if not isinstance(a, _loom.ndarray):
        return _np.size(a, axis)
    if axis is None:
        return a.size
    return a.shape[axis]


def broadcast_shapes(*args):
    """numpy.broadcast_shapes: the shape the given shapes broadcast to."""
    return _np.broadcast_shapes(*args)


def einsum_path(subscripts, *operands, optimize="greedy", einsum_call=False):
    """numpy.einsum_path: the contraction order for these operands' shapes (NumPy plans it
    from stand-ins of the same shapes that hold no data)."""
    stand_ins = [_np.lib.stride_tricks.as_strided(_np.zeros(1, dtype=_dtype_of(o)), shape=tuple(_np.shape(o) if not
                 isinstance(o, _loom.ndarray) else o.shape), strides=(0,) * ndim(o)) for o in operands]
    return _np.einsum_path(subscripts, *stand_ins, optimize=optimize, einsum_call=einsum_call)


# ---- conversions and nesting ---------------------------------------------------------

def asanyarray(a, dtype=None, order=None, *, device=None, copy=None, like=None):
    """numpy.asanyarray: loom has no array subclasses, so asarray."""
    if order not in (None, "C", "K", "A"):
        raise ValueError("[asanyarray] only C order is supported (use asfortranarray)")
    device = like.device if like is not None else device
    return _loom.asarray(a, dtype=dtype, device=device, copy=copy)


def asarray_chkfinite(a, dtype=None, order=None):
    """numpy.asarray_chkfinite: asarray, raising ValueError for infinities and NaNs (waits for
    the device to answer)."""
    arr = asanyarray(a, dtype=dtype, order=order)
    if arr.dtype.kind in "fc" and not bool(_loom.all(_loom.isfinite(arr))):
        raise ValueError("[asarray_chkfinite] array must not contain infs or NaNs")
    return arr


def require(a, dtype=None, requirements=None, *, like=None):
    """numpy.require: an array of dtype meeting the requirements 'C'/'F' (order), 'A'
    (aligned: loom's always are), 'W' (writeable: always), 'O' (owns its data: a copy when
    a is a view) and 'E' (ensure an array: loom's always is)."""
    reqs = set()
    for r in ([requirements] if isinstance(requirements, str) else requirements or []):
        key = {"C_CONTIGUOUS": "C", "CONTIGUOUS": "C", "F_CONTIGUOUS": "F", "FORTRAN": "F", "ALIGNED": "A",
               "WRITEABLE": "W", "OWNDATA": "O", "ENSUREARRAY": "E"}.get(r.upper(), r.upper())
        if key not in "CFAWOE" or len(key) != 1:
            raise KeyError(f"[require] unknown requirement {r!r}")
        reqs.add(key)
    if "C" in reqs and "F" in reqs:
        raise ValueError("[require] cannot specify both 'C' and 'F' order")
    arr = _loom.asarray(a, dtype=dtype, device=like.device if like is not None else None)
    if "O" in reqs:
        arr = arr.copy()
    if "F" in reqs:
        return _loom.asfortranarray(arr)
    if "C" in reqs:
        return _loom.ascontiguousarray(arr)
    return arr


def copy(a, order="K", subok=False):
    """numpy.copy: a new array with a's values on a's device (C order)."""
    if order not in ("K", "A", "C"):
        raise ValueError("[copy] only C order is supported")
    return a.copy() if isinstance(a, _loom.ndarray) else _loom.array(a)


def block(arrays):
    """numpy.block: nested lists of arrays joined, the innermost lists along the last axis,
    each outer level along the axis before."""
    def depth_of(x, path):
        if isinstance(x, tuple):
            raise TypeError(f"[block] arrays is a tuple at {path}; only lists can be used to arrange blocks")
        if isinstance(x, list):
            if not x:
                raise ValueError(f"[block] list at {path} cannot be empty")
            depths = {depth_of(item, path + [i]) for i, item in enumerate(x)}
            if len(depths) != 1:
                raise ValueError(f"[block] list depths are mismatched at {path}")
            return depths.pop() + 1
        return 0

    depth = depth_of(arrays, [])
    device = None
    leaves = []

    def collect(x):
        if isinstance(x, list):
            for item in x:
                collect(item)
        else:
            leaves.append(x)
    collect(arrays)
    for leaf in leaves:
        if isinstance(leaf, _loom.ndarray):
            device = leaf.device
            break
    nd = max([depth] + [ndim(leaf) for leaf in leaves])

    def build(x, level):
        if not isinstance(x, list):
            a = _loom.asarray(x, device=device)
            return _loom.reshape(a, (1,) * (nd - a.ndim) + a.shape) if a.ndim < nd else a
        return _loom.concatenate([build(item, level + 1) for item in x], axis=-(depth - level))

    return build(arrays, 0)


def real_if_close(a, tol=100):
    """numpy.real_if_close: the real part when every imaginary part is within tol machine
    epsilons of 0 (tol > 1) or within tol (tol <= 1); waits for the device to answer."""
    a = _as_loom(a)
    if a.dtype.kind != "c":
        return a
    if tol > 1:
        tol = float(_np.finfo(_np_dtype(a.dtype)).eps) * tol
    if bool(_loom.all(_loom.absolute(a.imag) < tol)):
        return a.real
    return a


def sort_complex(a):
    """numpy.sort_complex: sorted along the last axis in NumPy's complex order, as complex
    (int8/int16/uint8/uint16 as complex64, every other real dtype as complex128)."""
    b = _loom.sort(_as_loom(a))
    if b.dtype.kind == "c":
        return b
    small = b.dtype.name in ("int8", "int16", "uint8", "uint16")
    return b.astype(_loom.complex64 if small else _loom.complex128)
