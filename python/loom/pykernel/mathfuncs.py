"""math.*, the NumPy scalar functions and the builtins inside kernels, typed as Numba types
them: a float32 argument keeps float32 (sinf), an integer one becomes float64; math.floor,
ceil and trunc give int64 (Python 3), np.floor keeps the float type; abs, min, max and
round follow Python. Functions that are ops of loom's elementwise table are ufuncs.py's."""
import builtins
import math

import numpy as np

from . import builtins_impl
from . import types as T
from .ufuncs import HANDLERS as TABLE_HANDLERS, array_form, check_numbers, float_type, op_call
from .values import Value, cast, literal, tuple_items

HANDLERS = {}

# math functions that are no op of loom's elementwise table (ufuncs.py has those): C's
# function of the name (float64; float32 adds "f"), and the Python objects that mean it.
# math.remainder is IEEE's remainder (round-to-nearest quotient), not np.remainder.
_UNARY = {"erfc": (math.erfc,), "tgamma": (math.gamma,), "lgamma": (math.lgamma,)}
_BINARY = {"remainder": (math.remainder,), "nextafter": (math.nextafter,)}


def _cfn(name, t):
    return name + "f" if t.dtype == "float32" else name


def _unary(cname):
    def h(tr, node, args, kwargs):
        check_numbers(tr, node, args, 1, cname)
        t = float_type(args[0])
        return Value(f"{_cfn(cname, t)}({cast(args[0], t)})", t)
    return h


def _binary(cname):
    def h(tr, node, args, kwargs):
        check_numbers(tr, node, args, 2, cname)
        a, b = args
        t = T.promote(float_type(a), float_type(b))
        return Value(f"{_cfn(cname, t)}({cast(a, t)}, {cast(b, t)})", t)
    return h


for _name, _objs in _UNARY.items():
    for _o in _objs:
        HANDLERS[_o] = _unary(_name)
for _name, _objs in _BINARY.items():
    for _o in _objs:
        HANDLERS[_o] = _binary(_name)
HANDLERS.update(TABLE_HANDLERS)


def _degrees(name, factor, ufunc):
    def scaled(v):
        t = float_type(v)
        return Value(f"({cast(v, t)} * {T.literal_c(factor, t)})", t)

    def h(tr, node, args, kwargs):
        out = kwargs.pop("out", None) if ufunc else None
        if ufunc and out is None and len(args) == 2:
            args, out = args[:1], args[1]
        if out is not None or (ufunc and args and isinstance(args[0].type, T.Array)):
            if out is None:
                tr.fail(node, f"np.{name}() of an array inside a kernel needs an output array (np.{name}(x, out))")
            return array_form(tr, node, name, None, list(args), out, compute=lambda e: scaled(e[0]))
        check_numbers(tr, node, args, 1, name)
        return scaled(args[0])
    return h


HANDLERS[math.degrees] = _degrees("degrees", 180.0 / math.pi, False)
HANDLERS[math.radians] = _degrees("radians", math.pi / 180.0, False)
HANDLERS[np.degrees] = HANDLERS[np.rad2deg] = _degrees("degrees", 180.0 / math.pi, True)
HANDLERS[np.radians] = HANDLERS[np.deg2rad] = _degrees("radians", math.pi / 180.0, True)


def _modf(tr, node, args, kwargs):
    """math.modf(x): (fractional part, integral part), both floats of x's float type."""
    check_numbers(tr, node, args, 1, "math.modf")
    t = float_type(args[0])
    tup = T.Tuple([t, t])
    tr.module.tuple_struct(tup)
    code = (f"([&]() {{ {t.c} i; const {t.c} f = {_cfn('modf', t)}({cast(args[0], t)}, &i); "
            f"return {tup.c}{{f, i}}; }}())")
    return Value(code, tup)


HANDLERS[math.modf] = _modf


def _abs(tr, node, args, kwargs):
    check_numbers(tr, node, args, 1, "abs")
    v = args[0]
    if v.weak and v.const is not None:
        return literal(abs(v.const))
    if v.type.is_complex:  # |z| without overflow: the table's absolute (hypot)
        return op_call(tr, node, "abs", "absolute", [v], v.type)
    if v.type.is_float:
        return Value(f"{_cfn('fabs', v.type)}({v.code})", v.type)
    if v.type.is_bool:
        return Value(cast(v, T.INT64), T.INT64, nonneg=True)
    if not v.type.is_signed:
        return v
    return Value(f"(({v.code}) < 0 ? ({v.type.c})(-({v.code})) : ({v.code}))", v.type, nonneg=True)


HANDLERS[builtins.abs] = _abs


def _ldexp(tr, node, args, kwargs):
    """math.ldexp(x, i): x * 2**i in x's float type (Numba's rule)."""
    check_numbers(tr, node, args, 2, "math.ldexp")
    x, i = args
    if not (i.type.is_int or i.type.is_bool):
        tr.fail(node, f"math.ldexp()'s exponent must be an integer, not {i.type}")
    ft = float_type(x)
    return Value(f"{_cfn('ldexp', ft)}({cast(x, ft)}, (int)({i.code}))", ft)


def _frexp(tr, node, args, kwargs):
    """math.frexp(x): (mantissa, exponent) with x = m * 2**e, 0.5 <= |m| < 1 (a tuple)."""
    check_numbers(tr, node, args, 1, "math.frexp")
    ft = float_type(args[0])
    t = T.Tuple([ft, T.INT64])
    tr.module.tuple_struct(t)
    code = (f"([&]() {{ int e; const {ft.c} m = {_cfn('frexp', ft)}({cast(args[0], ft)}, &e); "
            f"return {t.c}{{m, (long long)e}}; }}())")
    return Value(code, t)


HANDLERS[math.ldexp] = _ldexp
HANDLERS[math.frexp] = _frexp


def _minmax(which):
    def h(tr, node, args, kwargs):
        if len(args) < 2:
            tr.fail(node, f"{which}() in a kernel takes 2 or more numbers")
        for a in args:
            if not isinstance(a.type, T.Scalar):
                tr.fail(node, f"{which}() takes numbers, not {a.type}")
        acc = args[0]
        for b in args[1:]:
            t = T.promote(acc.type, b.type, acc.weak, b.weak)
            ca, cb = cast(acc, t), cast(b, t)
            if t.dtype in ("float32", "float64"):
                # Numba's: fmax/fmin (PTX max.f32/max.f64), so a NaN loses to a number.
                acc = Value(f"{_cfn('f' + which, t)}({ca}, {cb})", t, nonneg=acc.nonneg or b.nonneg
                            if which == "max" else acc.nonneg and b.nonneg)
                continue
            op = "<" if which == "min" else ">"
            # Python: the first of equal values; b replaces a only when strictly better.
            acc = Value(f"(({cb}) {op} ({ca}) ? ({cb}) : ({ca}))", t, nonneg=acc.nonneg and b.nonneg)
        return acc
    return h


HANDLERS[builtins.min] = _minmax("min")
HANDLERS[builtins.max] = _minmax("max")


def _round(tr, node, args, kwargs):
    if len(args) == 2:  # round(x, ndigits): a float of x's type, by the helper in builtins_impl.py
        x, nd = args
        if not (isinstance(x.type, T.Scalar) and x.type.is_float) or not (isinstance(nd.type, T.Scalar)
                                                                          and nd.type.is_int):
            tr.fail(node, f"round(x, ndigits) takes a float and an integer in kernels, not {x.type} and {nd.type}")
        r = tr.call_device(node, tr.module.plain_device_function(builtins_impl.round_ndigits), args)
        return Value(cast(r, x.type), x.type)
    if len(args) != 1:
        tr.fail(node, f"round() takes one or two arguments, got {len(args)}")
    v = args[0]
    if v.type.is_int or v.type.is_bool:
        return Value(cast(v, T.INT64), T.INT64)
    return Value(f"loom_round({cast(v, float_type(v))})", T.INT64)


HANDLERS[builtins.round] = _round


def cast_to(tr, node, dtype, args):
    """int(x), float(x), bool(x), np.float32(x), ...: a conversion to a scalar type."""
    name = {"int": "int", "float": "float", "bool": "bool"}.get(dtype, f"np.{dtype}")
    if len(args) != 1 or not isinstance(args[0].type, T.Scalar):
        tr.fail(node, f"{name}() takes one number")
    t = T.Scalar({"int": "int64", "float": "float64"}.get(dtype, dtype))
    v = args[0]
    if t.is_bool:
        return Value(f"(({v.code}) != 0)", T.BOOL) if v.const is None else literal(bool(v.const))
    if v.const is not None and not isinstance(v.const, bool):
        try:
            return Value(T.literal_c(v.const, t), t, const=v.const,
                         nonneg=not isinstance(v.const, complex) and v.const >= 0)
        except (OverflowError, ValueError):
            pass
    return Value(cast(v, t) if v.type != t else v.code, t, nonneg=v.nonneg and t.is_int)


HANDLERS[builtins.int] = lambda tr, node, args, kw: cast_to(tr, node, "int", args)
HANDLERS[builtins.float] = lambda tr, node, args, kw: cast_to(tr, node, "float", args)
HANDLERS[builtins.bool] = lambda tr, node, args, kw: cast_to(tr, node, "bool", args)


def _len(tr, node, args, kwargs):
    if len(args) != 1:
        tr.fail(node, "len() takes one argument")
    v = args[0]
    if isinstance(v.type, T.Tuple):
        return literal(len(v.type.items))
    if isinstance(v.type, T.RecordArray):
        return Value(f"{v.code}.shape[0]", T.INT64, nonneg=True)
    if isinstance(v.type, T.Array):
        if v.type.shape:
            return literal(v.type.shape[0])
        return Value(f"{v.code}.shape[0]", T.INT64, nonneg=True)
    tr.fail(node, f"len() of a {v.type}")


HANDLERS[builtins.len] = _len


def _print_item(tr, node, a, fmt, vals):
    """Appends the printf format and arguments of one value (a tuple as Python shows it)."""
    if isinstance(a.type, T.Opaque) and a.type.kind == "str":
        fmt.append(a.obj.replace("%", "%%").replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n"))
    elif isinstance(a.type, T.Opaque) and a.type.kind == "dim3":  # cuda.threadIdx: (x, y, z), as Numba
        _print_item(tr, node, Value(None, T.Tuple([T.INT32] * 3),
                                    items=[Value(f"((int){a.obj.name}.{d})", T.INT32) for d in "xyz"]), fmt, vals)
    elif isinstance(a.type, T.Tuple):
        parts = []
        for item in tuple_items(a):
            sub = []
            _print_item(tr, node, item, sub, vals)
            parts.append("".join(sub))
        fmt.append("(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")")
    elif not isinstance(a.type, T.Scalar) or a.type.is_complex:
        tr.fail(node, f"print() in a kernel takes numbers, tuples of them and string literals, not {a.type}")
    elif a.type.is_float:
        fmt.append("%f")
        vals.append(f"(double)({a.code})")
    elif a.type.is_bool:
        fmt.append("%s")
        vals.append(f"(({a.code}) ? \"True\" : \"False\")")
    elif a.type.is_signed:
        fmt.append("%lld")
        vals.append(f"(long long)({a.code})")
    else:
        fmt.append("%llu")
        vals.append(f"(unsigned long long)({a.code})")


# CUDA's printf (vprintf) takes at most 32 arguments after the format.
_PRINTF_MAX_ARGS = 32


def _print(tr, node, args, kwargs):
    fmt, vals = [], []
    for a in args:
        _print_item(tr, node, a, fmt, vals)
    text = " ".join(fmt) + "\\n"
    if len(vals) > _PRINTF_MAX_ARGS:  # Numba's way: the format string itself is printed, with a warning
        tr.module.warn(f"[{tr.src.name}] CUDA print() cannot print more than {_PRINTF_MAX_ARGS} items. The raw "
                       "format string will be emitted by the kernel instead.")
        return Value(f'printf("%s\\n", "{" ".join(fmt)}")', T.NONE)
    return Value(f'printf("{text}"' + "".join(", " + v for v in vals) + ")", T.NONE)


HANDLERS[builtins.print] = _print
