"""Whole-array reductions inside kernels, as Numba compiles them: `a.sum()`, `np.sum(a)`,
`prod`, `max`/`min` (NaN propagates, as in NumPy), `all`, `any`, `mean`, `var`/`std` (ddof
0, two passes), and NumPy's `nansum`, `nanprod`, `nanmax`, `nanmin`, `nanmean` (NaN left
out; all-NaN max/min give NaN) and `count_nonzero`, computed by the
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

REDUCTIONS = ("sum", "prod", "max", "min", "all", "any", "mean", "var", "std")
# NumPy functions only (no array method of these names)
NAN_REDUCTIONS = ("nansum", "nanprod", "nanmax", "nanmin", "nanmean", "count_nonzero")


def _accumulator_type(kind, t):
    kind = kind.removeprefix("nan")
    if kind in ("all", "any"):
        return T.BOOL
    if kind == "count_nonzero":
        return T.INT64
    if kind in ("max", "min"):
        return t
    if kind in ("mean", "var", "std"):
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
    if kind in ("var", "std") and et.is_complex:
        tr.fail(node, f"{kind}() of complex numbers is not supported in kernels")
    at = _accumulator_type(kind, et)
    base = kind.removeprefix("nan")
    skip_nan = kind.startswith("nan") and et.is_float
    acc, count = tr.temp(), tr.temp()
    init = {"sum": "0", "mean": "0", "prod": "1", "all": "true", "any": "false"}.get(base, "0")
    tr.emit(f"{at.c} {acc} = (({at.c})({init})); long long {count} = 0;")
    (ref,), k = open_loop(tr, [arr])
    x = cast(Value(ref, et), at) if base not in ("all", "any", "count_nonzero") else f"(({ref}) != 0)"
    tr.emit(f"    const {at.c if base not in ('all', 'any', 'count_nonzero') else 'bool'} v = {x};")
    if skip_nan:  # nansum, nanmax, ...: NaN elements are left out
        tr.emit("    if (v != v) continue;")
    if base in ("sum", "mean", "var", "std"):
        tr.emit(f"    {acc} += v; ++{count};")
    elif base == "prod":
        tr.emit(f"    {acc} *= v;")
    elif base == "count_nonzero":
        tr.emit(f"    {acc} += v ? 1 : 0;")
    elif base == "all":
        tr.emit(f"    {acc} = {acc} && v;")
    elif base == "any":
        tr.emit(f"    {acc} = {acc} || v;")
    else:
        better = ">" if base == "max" else "<"
        if at.is_float and not skip_nan:  # NaN propagates: once taken, it stays
            tr.emit(f"    if ({k} == 0 || (!({acc} != {acc}) && (v != v || v {better} {acc}))) {acc} = v;")
        else:
            tr.emit(f"    if ({count} == 0 || v {better} {acc}) {acc} = v;")
        tr.emit(f"    ++{count};")
    close_loop(tr)
    if base in ("max", "min") and skip_nan:  # all NaN: NaN, as NumPy gives (with a warning)
        tr.emit(f"if ({count} == 0) {acc} = (({at.c})(0.0)) / (({at.c})(0.0));")
    if base in ("mean", "var", "std"):
        n = count if skip_nan else " * ".join(f"({arr.code}).shape[{d}]" for d in range(arr.type.ndim)) or "1"
        part = T.real_part_type(at) if at.is_complex else at
        tr.emit(f"{acc} = {acc} / (({at.c})(({part.c})({n})));")
    if base in ("var", "std"):  # a second pass: the mean square deviation (ddof 0)
        mean, sq = acc, tr.temp()
        tr.emit(f"{at.c} {sq} = (({at.c})(0));")
        (ref,), _ = open_loop(tr, [arr])
        tr.emit(f"    const {at.c} d = {cast(Value(ref, et), at)} - {mean}; {sq} += d * d;")
        close_loop(tr)
        n = " * ".join(f"({arr.code}).shape[{d}]" for d in range(arr.type.ndim)) or "1"
        tr.emit(f"{sq} = {sq} / (({at.c})({n}));")
        if base == "std":
            tr.emit(f"{sq} = sqrt({sq});")
        acc = sq
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


for _kind in REDUCTIONS + NAN_REDUCTIONS:
    HANDLERS[getattr(np, _kind)] = _function(_kind)
HANDLERS[np.amax] = HANDLERS[np.max]
HANDLERS[np.amin] = HANDLERS[np.min]
