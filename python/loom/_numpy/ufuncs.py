"""NumPy's __array_ufunc__ on loom arrays (NEP 13): np.sin(x), np.add(x, y, out=z) and the
ufunc methods reduce, accumulate, outer and at run loom's ops, on x's device.

A ufunc maps to the loom function of its name (ufunc.__name__: np.abs is "absolute");
reduce and accumulate map to loom's reductions and scans (add.reduce is sum). What loom
lacks raises TypeError naming it: a GPU array is never converted to NumPy behind the
user's back. Design: docs/ARCHITECTURE.md, "NumPy's dispatch protocols".
"""
import numpy as np

from .. import _loom
from .lookup import find, find_ufunc

ndarray = _loom.ndarray

# ufunc.reduce and ufunc.accumulate as loom's reductions and scans. fmax/fmin skip NaNs as
# nanmax/nanmin do (an all-NaN slice gives NaN in both).
REDUCE = {"add": "sum", "multiply": "prod", "maximum": "max", "minimum": "min", "logical_and": "all",
          "logical_or": "any", "fmax": "nanmax", "fmin": "nanmin"}
ACCUMULATE = {"add": "cumsum", "multiply": "cumprod"}
# ufunc.at as x.at[idx]'s unbuffered update (repeated indices accumulate); subtract.at is
# negated around add (exact: negation is exact and rounding is symmetric).
AT = {"add": "add", "multiply": "multiply", "maximum": "max", "minimum": "min"}

CASTINGS = ("no", "equiv", "safe", "same_kind", "unsafe")
# Operand types that never make the call someone else's (NEP 13's NotImplemented rule).
_KNOWN = (ndarray, np.ndarray, np.generic, int, float, complex, bool)
_PLAIN = frozenset({ndarray, int, float, complex, bool})  # the common call's operand types
_NATIVE = frozenset({"out", "where", "dtype"})  # keywords loom's generated ufuncs take as NumPy's
_UNSET = object()


def array_ufunc(self, ufunc, method, *inputs, **kwargs):
    """NumPy's __array_ufunc__ (NEP 13): `ufunc.method(*inputs, **kwargs)` with loom's ops."""
    if method == "__call__" and not kwargs:  # np.sin(x), x_numpy + x: one dict look-up, one call
        entry = find_ufunc(ufunc)
        if entry is not None and all(type(v) in _PLAIN for v in inputs):
            return entry.fn(*inputs)
    out = kwargs.get("out")
    for v in inputs + (out if isinstance(out, tuple) else (out,)):
        if not isinstance(v, _KNOWN) and hasattr(type(v), "__array_ufunc__"):
            return NotImplemented  # another library's array: let it (or NumPy's error) answer
    handler = _METHODS.get(method)
    if handler is None:
        raise TypeError(f"numpy.{ufunc.__name__}.{method} is not supported on loom arrays")
    return handler(ufunc, inputs, kwargs)


def _call(ufunc, inputs, kwargs):
    entry = find_ufunc(ufunc)
    if entry is None:
        raise TypeError(f"numpy.{ufunc.__name__} is not implemented for loom arrays")
    if not kwargs:  # the common call: nothing to translate
        return entry.fn(*inputs)
    name = f"numpy.{ufunc.__name__}"
    keys = kwargs.keys()
    if ufunc.nout == 1 and keys <= _NATIVE and entry.takes_all(keys):
        # out=/where=/dtype= that loom's ufunc takes as NumPy's does: pass them on.
        out = kwargs.get("out")
        if out is not None:
            o = out[0] if type(out) is tuple and len(out) == 1 else None
            out = kwargs["out"] = o if type(o) is ndarray else _single_out(name, out)
        r = entry.fn(*inputs, **kwargs)
        return r if out is None else out  # NumPy returns out= itself
    out = _outputs(name, kwargs.pop("out", None), ufunc.nout)
    where = kwargs.pop("where", True)
    dtype = kwargs.pop("dtype", None)
    casting = _casting(kwargs.pop("casting", "same_kind"))
    _layout(name, kwargs)
    for key in kwargs:
        if not entry.takes(key):
            raise TypeError(f"{name}: {key}= is not supported on loom arrays")
    if dtype is not None:
        if casting == "same_kind" and entry.takes("dtype"):
            kwargs["dtype"] = dtype
        else:
            inputs = tuple(_cast_input(name, v, dtype, casting) for v in inputs)
    native = casting == "same_kind" and (where is True or entry.takes("where"))
    if where is not True and native:
        kwargs["where"] = where
    if out is None:
        return entry.fn(*inputs, **kwargs)
    if native and entry.takes("out"):
        results = entry.fn(*inputs, out=out if ufunc.nout > 1 else out[0], **kwargs)
        results = results if ufunc.nout > 1 else (results,)
    else:
        # loom's function lacks out= (a composition such as deg2rad) or the casting
        # differs from its same_kind: compute, check the cast, write into out.
        results = entry.fn(*inputs, **kwargs)
        results = results if ufunc.nout > 1 else (results,)
        for r, o in zip(results, out):
            if o is not None:
                write_out(name, r, o, casting, where)
    # NumPy returns the out= objects themselves (loom's bindings may wrap them anew).
    done = tuple(r if o is None else o for r, o in zip(results, out))
    return done if ufunc.nout > 1 else done[0]


def _reduce(ufunc, inputs, kwargs):
    name = f"numpy.{ufunc.__name__}.reduce"
    entry = find(REDUCE[ufunc.__name__]) if ufunc.__name__ in REDUCE else None
    if entry is None:
        raise TypeError(f"{name} is not supported on loom arrays")
    out = _single_out(name, kwargs.pop("out", None))
    a = _as_loom(inputs[0], out)
    axis = kwargs.pop("axis", 0)  # ufunc.reduce's default, unlike np.sum's
    dtype = kwargs.pop("dtype", None)
    keepdims = kwargs.pop("keepdims", False)
    initial = kwargs.pop("initial", _UNSET)
    where = kwargs.pop("where", True)
    _no_more(name, kwargs)
    if initial is not _UNSET and isinstance(initial, np.generic):
        initial = initial.item()  # a weak scalar, so that it keeps the result's dtype
    if where is not True:
        # The identity leaves the reduction unchanged; a ufunc without one (maximum) is
        # idempotent, so initial, folded in again below, does as well.
        fill = ufunc.identity if ufunc.identity is not None else (None if initial is _UNSET else initial)
        if fill is None:
            raise ValueError(f"reduction operation '{ufunc.__name__}' does not have an identity, "
                             "so to use a where mask one has to specify 'initial'")
        a = _loom.where(where, a, _loom.full((), fill, dtype=a.dtype, device=a.device))
    kw = {"axis": axis, "keepdims": keepdims}
    if dtype is not None:
        if entry.takes("dtype"):
            kw["dtype"] = dtype
        else:
            a = a.astype(dtype)
    if initial is not _UNSET and ufunc.identity is None and a.size == 0:
        # loom's max of nothing raises, as NumPy's does without initial.
        r = _loom.full(_reduced_shape(a.shape, axis, keepdims), initial, dtype=a.dtype, device=a.device)
    else:
        if out is not None and initial is _UNSET and entry.takes("out"):
            entry.fn(a, out=out, **kw)
            return out  # the object itself, as NumPy returns it
        r = entry.fn(a, **kw)
        if initial is not _UNSET:
            r = find(ufunc.__name__).fn(r, initial)
    if out is None:
        return r
    write_out(name, r, out, "same_kind", True)
    return out


def _accumulate(ufunc, inputs, kwargs):
    name = f"numpy.{ufunc.__name__}.accumulate"
    entry = find(ACCUMULATE[ufunc.__name__]) if ufunc.__name__ in ACCUMULATE else None
    if entry is None:
        raise TypeError(f"{name} is not supported on loom arrays")
    out = _single_out(name, kwargs.pop("out", None))
    a = _as_loom(inputs[0], out)
    kw = {"axis": kwargs.pop("axis", 0), "dtype": kwargs.pop("dtype", None)}
    _no_more(name, kwargs)
    if out is None:
        return entry.fn(a, **kw)
    entry.fn(a, out=out, **kw)
    return out  # the object itself, as NumPy returns it


def _outer(ufunc, inputs, kwargs):
    if len(inputs) != 2:
        raise ValueError("outer product only supported for binary functions")
    a, b = inputs
    # a's axes first, then b's: a gets one new axis per axis of b, and broadcasting does the rest.
    extra = (1,) * (b.ndim if isinstance(b, ndarray) else np.ndim(b))
    if extra and (a.ndim if isinstance(a, ndarray) else np.ndim(a)) > 0:  # a scalar broadcasts as it is
        a = a.reshape(a.shape + extra) if isinstance(a, ndarray) else np.reshape(np.asarray(a), np.shape(a) + extra)
    return _call(ufunc, (a, b), kwargs)


def _at(ufunc, inputs, kwargs):
    name = f"numpy.{ufunc.__name__}.at"
    _no_more(name, kwargs)
    a, indices, *rest = inputs
    b = rest[0] if rest else None
    if not isinstance(a, ndarray):
        raise TypeError(f"{name}: the array to update is a {type(a).__name__}; loom updates loom arrays only")
    if ufunc.nin == 2 and b is None:
        raise TypeError("second operand needed for ufunc")
    if ufunc.__name__ in AT:
        r = getattr(a.at[indices], AT[ufunc.__name__])(b)
    elif ufunc.__name__ == "subtract":
        r = _loom.negative(_loom.negative(a).at[indices].add(b))
    else:
        raise TypeError(f"{name} is not supported on loom arrays")
    a[...] = r  # in place, as NumPy's at: views of a see it


_METHODS = {"__call__": _call, "reduce": _reduce, "accumulate": _accumulate, "outer": _outer, "at": _at}


def write_out(name, r, out, casting, where):
    """Writes r into out as a ufunc's out= would: the cast checked by `casting`, only where
    `where` is true."""
    if not _can_cast(r.dtype, out.dtype, casting):
        raise TypeError(f"{name}: cannot cast the result from {r.dtype} to out's {out.dtype} "
                        f"with casting rule '{casting}'")
    if where is not True:
        r = _loom.where(where, r, out)
    out[...] = r


def _outputs(name, out, nout):
    """out= as NumPy passes it (a tuple, one per output) or None when nothing is given."""
    if out is None:
        return None
    out = out if isinstance(out, tuple) else (out,)
    if all(o is None for o in out):
        return None
    if len(out) != nout:
        raise ValueError(f"{name}: out= has {len(out)} arrays for {nout} outputs")
    for o in out:
        if o is not None and not isinstance(o, ndarray):
            raise TypeError(f"{name}: out= must be a loom array, not {type(o).__module__}.{type(o).__name__} "
                            "(loom writes its results on its own devices)")
    return out


def _single_out(name, out):
    out = _outputs(name, out, 1)
    return None if out is None else out[0]


def _as_loom(a, out):
    # A reduction of a NumPy array reaches loom only when out= is a loom array: compute on
    # out's device, as loom's ops place array-likes beside their loom operands.
    return a if isinstance(a, ndarray) else _loom.asarray(a, device=out.device if out is not None else None)


def _casting(casting):
    if casting not in CASTINGS:
        raise ValueError(f"casting must be one of {', '.join(repr(c) for c in CASTINGS)}")
    return casting


def _layout(name, kwargs):
    """order=, subok= and an empty signature=: loom's results are C-contiguous, it has no
    subclasses, and it picks its own loops."""
    order = kwargs.pop("order", "K")
    kwargs.pop("subok", None)
    for key in ("signature", "sig"):
        if key in kwargs and kwargs[key] is None:
            del kwargs[key]
    if order not in ("K", "A", "C", None):
        raise TypeError(f"{name}: order={order!r} is not supported on loom arrays")


def _cast_input(name, v, dtype, casting):
    """An input cast to the computation dtype= (what NumPy's loop does), checked by casting."""
    if isinstance(v, (int, float, complex)):  # Python scalars stay weak
        return v
    if isinstance(v, ndarray):
        if not _can_cast(v.dtype, dtype, casting):
            raise TypeError(f"{name}: cannot cast an input from {v.dtype} to {dtype} with casting rule '{casting}'")
        return v.astype(dtype)
    v = np.asarray(v)
    if not _can_cast(v.dtype, dtype, casting):
        raise TypeError(f"{name}: cannot cast an input from {v.dtype} to {dtype} with casting rule '{casting}'")
    return v.astype(np.dtype(dtype))


def _can_cast(src, dst, casting):
    if casting == "unsafe":
        return True
    try:
        return bool(np.can_cast(np.dtype(src), np.dtype(dst), casting))
    except TypeError:  # a pair NumPy cannot judge (ml_dtypes' bfloat16 with some types)
        return True


def _no_more(name, kwargs):
    if kwargs:
        raise TypeError(f"{name}: {next(iter(kwargs))}= is not supported on loom arrays")


def _reduced_shape(shape, axis, keepdims):
    axes = range(len(shape)) if axis is None else (axis if isinstance(axis, tuple) else (axis,))
    axes = {a % len(shape) for a in axes}
    return tuple(1 if i in axes else n for i, n in enumerate(shape) if keepdims or i not in axes)
