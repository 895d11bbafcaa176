"""NumPy ufuncs and math functions that are ops of loom's elementwise table
(loom/graph/op_table.h) compute, inside kernels, the op's own C expression over
common/loom_math.cuh with the op's dtype rule, both read from `_elementwise_op_table()`. So
`np.hypot` in a kernel is `loom.hypot` bit for bit, not C's function of the same name: loom's
float32 exp on the CPU is its own, np.remainder is Python's modulo (not fmod), np.sign keeps
NaN, np.maximum keeps the first of two equal zeros, integer division by zero gives 0.

NumPy functions type as NumPy does (np.sin of a float16 is float16, of an int16 float32,
weak literals as NEP 50). math functions keep Python's and Numba's typing (a float32 stays
float32, other numbers become float64; math.floor, ceil and trunc give int64) and compute
the same op. math functions whose Python meaning differs from the op of their name are not
taken from the table: math.remainder is IEEE's remainder (mathfuncs.py, C's remainder).
"""
import math

import numpy as np

from .. import _loom
from . import types as T
from .array_loops import close_loop, open_loop
from .values import Value, cast, literal

# name (row or alias) -> (arity, op, C expression, {promoted dtype: (loop dtype, result dtype)})
OPS = {name: (arity, op, expr, loops) for name, arity, api, op, expr, loops in _loom._elementwise_op_table()
       if api in ("ufunc", "alias")}

# The math functions that are the op of their name (Python's math.pow is C's pow for floats,
# as loom's power is; atan2, asin, ... are the table's aliases).
MATH = ("sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh",
        "exp", "expm1", "exp2", "log", "log2", "log10", "log1p", "sqrt", "cbrt", "erf", "fabs",
        "atan2", "pow", "hypot", "copysign", "fmod", "floor", "ceil", "trunc", "isnan", "isinf", "isfinite")
_TO_INT = ("floor", "ceil", "trunc")  # Python 3: int results
_WEAK = {"bool": T.BOOL, "int": T.INT64, "float": T.FLOAT64, "complex": T.COMPLEX128}

HANDLERS = {}


def _value_c(dtype):
    """The C type an op computes a dtype in: float for float16 (the table's "value" types)."""
    return "float" if dtype == "float16" else T.C_TYPES[dtype]


def op_call(tr, node, label, op, args, promoted):
    """C code calling op `op` (a row name) on `args` (Values) for promoted input type
    `promoted`: a helper function per (op, loop dtype) in the module, whose body is the
    table's expression, so that arguments are evaluated once."""
    arity, _, expr, loops = OPS[op]
    if promoted.dtype not in loops:
        tr.fail(node, f"{label}() does not take {promoted.dtype}")
    loop, result = loops[promoted.dtype]
    if loop not in T.C_TYPES or result not in T.C_TYPES:
        tr.fail(node, f"{label}() of {promoted.dtype} computes in {loop}, which kernels do not have")
    name = f"loom_pk_op_{op}_{loop}"
    params = ", ".join(f"{_value_c(loop)} x{i}" for i in range(arity))
    tr.module.op_helper(name, f"static __device__ __forceinline__ {T.C_TYPES[result]} {name}({params}) "
                              f"{{ return ({T.C_TYPES[result]})({expr}); }}")
    lt = T.Scalar(loop)
    return Value(f"{name}({', '.join(cast(a, lt) for a in args)})", T.Scalar(result))


def check_numbers(tr, node, args, arity, label):
    """`label` takes exactly `arity` arguments, all numbers (else a TypingError at `node`);
    mathfuncs.py's functions check theirs with it too."""
    if len(args) != arity:
        tr.fail(node, f"{label}() takes {arity} argument(s) in kernels, not {len(args)}")
    for a in args:
        if not isinstance(a.type, T.Scalar):
            tr.fail(node, f"{label}() takes numbers in kernels, not {a.type} (index arrays element by element)")


def array_form(tr, node, name, op, args, out, compute=None):
    """np.<ufunc>(x, ..., out) over arrays inside a kernel, as Numba runs it: the calling thread
    computes every element of `out` (inputs are numbers or arrays of out's shape), and the call
    is `out`. A loop written before the statement that holds the call. The element is the
    table's `op`, or `compute(elements)` (a Value) for a ufunc outside the table (arity 1)."""
    arity = OPS[name][0] if compute is None else 1
    if not isinstance(out.type, T.Array):
        tr.fail(node, f"np.{name}()'s output must be an array, not {out.type}")
    if len(args) != arity:
        tr.fail(node, f"np.{name}() takes {arity} input(s) and an output array in kernels, not {len(args)} input(s)")
    nd = out.type.ndim
    for a in args:
        if isinstance(a.type, T.Array) and a.type.ndim != nd:
            tr.fail(node, f"np.{name}(): an input array has {a.type.ndim} dimension(s), the output {nd} "
                          "(inputs are numbers or arrays of the output's shape in kernels)")
        elif not isinstance(a.type, (T.Array, T.Scalar)):
            tr.fail(node, f"np.{name}() takes numbers and arrays in kernels, not {a.type}")
    arrays = [out] + [a for a in args if isinstance(a.type, T.Array)]
    refs, _ = open_loop(tr, arrays)
    ref_of = dict(zip(map(id, arrays), refs))
    elems = [Value(ref_of[id(a)], a.type.element) if isinstance(a.type, T.Array) else a for a in args]
    if arity == 1:
        p = _WEAK[elems[0].weak] if elems[0].weak else elems[0].type
    else:
        p = T.promote(elems[0].type, elems[1].type, elems[0].weak, elems[1].weak)
    r = op_call(tr, node, f"np.{name}", op, elems, p) if compute is None else compute(elems)
    tr.emit(f"    {ref_of[id(out)]} = {cast(r, out.type.element)};")
    close_loop(tr)
    return out


def _numpy(name):
    arity, op = OPS[name][:2]

    def h(tr, node, args, kwargs):
        out = kwargs.pop("out", None)
        if kwargs:
            tr.fail(node, f"np.{name}() takes no keyword arguments but out= in kernels")
        if out is None and len(args) == arity + 1:
            *args, out = args
        if out is not None or any(isinstance(a.type, T.Array) for a in args):
            if out is None:
                tr.fail(node, f"np.{name}() of arrays inside a kernel needs an output array (np.{name}(x, out))")
            return array_form(tr, node, name, op, list(args), out)
        check_numbers(tr, node, args, arity, f"np.{name}")
        if arity == 1:
            p = _WEAK[args[0].weak] if args[0].weak else args[0].type
        else:
            a, b = args
            p = T.promote(a.type, b.type, a.weak, b.weak)
        return op_call(tr, node, f"np.{name}", op, args, p)
    return h


def float_type(v):
    """The float type a math function computes an argument of type v in (Numba's rule)."""
    if v.type.is_float and not v.weak:
        return T.FLOAT32 if v.type.dtype in ("float16", "float32") else T.FLOAT64
    return T.FLOAT64


def math_handler(name):
    arity, op = OPS[name][:2]

    def h(tr, node, args, kwargs):
        check_numbers(tr, node, args, arity, f"math.{name}")
        v = args[0]
        if name in _TO_INT and not v.type.is_float:
            return Value(cast(v, T.INT64), T.INT64)
        if name in ("isnan", "isinf", "isfinite") and not v.type.is_float:
            return literal(name == "isfinite")
        p = float_type(v)
        if arity == 2:
            p = T.promote(p, float_type(args[1]))
        r = op_call(tr, node, f"math.{name}", op, args, p)
        return Value(f"((long long){r.code})", T.INT64) if name in _TO_INT else r
    return h


def _round(tr, node, args, kwargs):
    """np.round(x) and np.around(x): loom.round with decimals=0, which is rint on floats and
    the identity on integers (their dtype kept)."""
    if len(args) != 1 or kwargs:
        tr.unsupported(node, "np.round() takes one argument in kernels (decimals= is not supported)")
    check_numbers(tr, node, args, 1, "np.round")
    v = args[0]
    if not v.type.is_float:
        return Value(v.code, v.type, v.weak, v.const, v.nonneg)
    return op_call(tr, node, "np.round", "rint", args, v.type)


for _name in OPS:
    _f = getattr(np, _name, None)
    if isinstance(_f, np.ufunc) and _f.nin == OPS[_name][0] and _f.nout == 1:
        HANDLERS[_f] = _numpy(_name)
for _name in MATH:
    if hasattr(math, _name):
        HANDLERS[getattr(math, _name)] = math_handler(_name)
HANDLERS[np.round] = HANDLERS[np.around] = _round
