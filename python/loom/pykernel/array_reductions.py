"""Whole-array reductions inside kernels, as Numba compiles them: `a.sum()`, `np.sum(a)`,
`prod`, `max`/`min` (NaN propagates, as in NumPy), `all`, `any`, `mean`, computed by the
calling thread over every element of an array or view (array_loops.py). Result types are
NumPy's: sums and products of bools and integers are int64 (uint64 for unsigned), of floats
and complex numbers their own type; `mean` of integers is float64. `axis=` and other
arguments are refused. The max and min of an empty array are the first element NumPy would
refuse to read: a kernel cannot raise, so it is left to the caller, as in Numba."""
import numpy as np

from . import types as T
from .array_loops import close_loop, open_loop
from .mathfuncs import HANDLERS
from .values import Value, cast

REDUCTIONS = ("sum", "prod", "max", "min", "all", "any", "mean")


def _accumulator_type(kind, t):
    if kind in ("all", "any"):
        return T.BOOL
    if kind in ("max", "min"):
        return t
    if kind == "mean":
        return t if (t.is_float or t.is_complex) else T.FLOAT64
    if t.is_bool or (t.is_int and t.is_signed):
        return T.INT64
    if t.is_int:
        return T.UINT64
    return t


def reduce_array(tr, node, kind, arr):
    """The C name of a variable holding `kind` of `arr`'s elements (a loop written before)."""
    if not isinstance(arr.type, T.Array):
        tr.fail(node, f"{kind}() reduces an array in kernels, not a {arr.type}")
    et = arr.type.element
    if kind in ("max", "min") and et.is_complex:
        tr.fail(node, f"{kind}() of complex numbers is not supported in kernels")
    at = _accumulator_type(kind, et)
    acc = tr.temp()
    init = {"sum": "0", "mean": "0", "prod": "1", "all": "true", "any": "false"}.get(kind, "0")
    tr.emit(f"{at.c} {acc} = (({at.c})({init}));")
    (ref,), k = open_loop(tr, [arr])
    x = cast(Value(ref, et), at) if kind not in ("all", "any") else f"(({ref}) != 0)"
    if kind in ("sum", "mean"):
        tr.emit(f"    {acc} += {x};")
    elif kind == "prod":
        tr.emit(f"    {acc} *= {x};")
    elif kind == "all":
        tr.emit(f"    {acc} = {acc} && {x};")
    elif kind == "any":
        tr.emit(f"    {acc} = {acc} || {x};")
    else:
        better = ">" if kind == "max" else "<"
        if at.is_float:  # NaN propagates: once taken, it stays
            tr.emit(f"    {{ const {at.c} v = {x}; if ({k} == 0 || (!({acc} != {acc}) && (v != v || v {better} {acc}))) "
                    f"{acc} = v; }}")
        else:
            tr.emit(f"    {{ const {at.c} v = {x}; if ({k} == 0 || v {better} {acc}) {acc} = v; }}")
    close_loop(tr)
    if kind == "mean":
        size = " * ".join(f"({arr.code}).shape[{d}]" for d in range(arr.type.ndim))
        part = at if not at.is_complex else (T.FLOAT32 if at.dtype == "complex64" else T.FLOAT64)
        tr.emit(f"{acc} = {acc} / (({at.c})(({part.c})({size})));")
    return Value(acc, at)


def method(tr, node, kind, arr, args, kwargs):
    """a.<kind>() of an array value."""
    if args or kwargs:
        tr.unsupported(node, f"a.{kind}() takes no arguments in kernels (axis=, dtype=, out= are not supported)")
    return reduce_array(tr, node, kind, arr)


def _function(kind):
    def h(tr, node, args, kwargs):
        if len(args) != 1 or kwargs:
            tr.unsupported(node, f"np.{kind}() takes one array in kernels (axis=, dtype=, out= are not supported)")
        return reduce_array(tr, node, kind, args[0])
    return h


for _kind in REDUCTIONS:
    HANDLERS[getattr(np, _kind)] = _function(_kind)
HANDLERS[np.amax] = HANDLERS[np.max]
HANDLERS[np.amin] = HANDLERS[np.min]
