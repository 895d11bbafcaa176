"""Complex numbers inside kernels: `complex(re, im)`, `z.conjugate()`, and the `cmath`
functions, computed by the ops of loom's elementwise table on loom_complex<T>
(common/loom_complex.cuh: NumPy's and C99's results, special values included), so `cmath.sqrt`
in a kernel is `loom.sqrt` of a complex array element for element. Arithmetic, `abs`, `.real`
and `.imag` are in translate_expr.py and mathfuncs.py.

Typing follows Numba: a complex64 argument stays complex64, any other number becomes
complex128; cmath.phase, cmath.polar and abs give the matching float; isnan, isinf and isfinite a bool.
"""
import builtins
import cmath

from . import types as T
from .mathfuncs import HANDLERS
from .ufuncs import check_numbers, op_call
from .values import Value, cast

# cmath name -> the table's op
_OPS = {"sqrt": "sqrt", "exp": "exp", "log10": "log10", "sin": "sin", "cos": "cos", "tan": "tan",
        "asin": "arcsin", "acos": "arccos", "atan": "arctan", "sinh": "sinh", "cosh": "cosh", "tanh": "tanh",
        "asinh": "arcsinh", "acosh": "arccosh", "atanh": "arctanh", "isnan": "isnan", "isinf": "isinf",
        "isfinite": "isfinite"}


def complex_type(v):
    """The complex type a cmath function computes an argument in."""
    return T.COMPLEX64 if v.type.dtype in ("complex64", "float32", "float16") and not v.weak else T.COMPLEX128


def _cmath(name):
    op = _OPS[name]

    def h(tr, node, args, kwargs):
        check_numbers(tr, node, args, 1, f"cmath.{name}")
        t = complex_type(args[0])
        return op_call(tr, node, f"cmath.{name}", op, [Value(cast(args[0], t), t)], t)
    return h


def _angle(z):
    """arg(z) in z's float type (loom_complex.cuh's loom_angle: atan2(im, re))."""
    return Value(f"loom_angle({z.code})", T.real_part_type(z.type))


def _phase(tr, node, args, kwargs):
    check_numbers(tr, node, args, 1, "cmath.phase")
    t = complex_type(args[0])
    return _angle(Value(cast(args[0], t), t))


def _log(tr, node, args, kwargs):
    """cmath.log(z) and cmath.log(z, base) (log(z) / log(base), as CPython computes it)."""
    if len(args) not in (1, 2):
        tr.fail(node, f"cmath.log() takes 1 or 2 arguments in kernels, not {len(args)}")
    check_numbers(tr, node, args, len(args), "cmath.log")
    t = complex_type(args[0])
    if len(args) == 2:
        t = T.promote(t, complex_type(args[1]))
    logs = [op_call(tr, node, "cmath.log", "log", [Value(cast(a, t), t)], t) for a in args]
    return logs[0] if len(logs) == 1 else Value(f"({logs[0].code} / {logs[1].code})", t)


def _polar(tr, node, args, kwargs):
    check_numbers(tr, node, args, 1, "cmath.polar")
    t = complex_type(args[0])
    z = Value(cast(args[0], t), t)
    r = op_call(tr, node, "cmath.polar", "absolute", [z], t)
    phi = _angle(z)
    return Value(None, T.Tuple([r.type, phi.type]), items=[r, phi])


def _rect(tr, node, args, kwargs):
    """cmath.rect(r, phi): r * (cos(phi) + i sin(phi)); phi 0 keeps the sign of r's zero imaginary
    part as CPython does."""
    check_numbers(tr, node, args, 2, "cmath.rect")
    for a in args:
        if a.type.is_complex:
            tr.fail(node, "cmath.rect() takes real numbers")
    part = T.FLOAT64
    r, phi = (cast(a, part) for a in args)
    code = f"loom_complex<double>(({r}) * cos({phi}), ({phi}) == 0.0 ? ({r}) * ({phi}) : ({r}) * sin({phi}))"
    return Value(code, T.COMPLEX128)


def _complex(tr, node, args, kwargs):
    """complex(re=0, im=0) of numbers: a complex128."""
    if kwargs or len(args) > 2:
        tr.fail(node, "complex() takes at most two numbers in kernels")
    check_numbers(tr, node, args, len(args), "complex")
    t = T.COMPLEX128
    if not args:
        return Value(T.literal_c(0j, t), t)
    if len(args) == 1:
        return Value(cast(args[0], t), t)
    re, im = args
    if re.type.is_complex or im.type.is_complex:  # complex(a, b) = a + b*1j
        return Value(f"({cast(re, t)} + {cast(im, t)} * loom_complex<double>(0.0, 1.0))", t)
    return Value(f"loom_complex<double>({cast(re, T.FLOAT64)}, {cast(im, T.FLOAT64)})", t)


def conjugate(tr, node, v):
    """z.conjugate() (a real number's is itself)."""
    if not isinstance(v.type, T.Scalar):
        tr.fail(node, f"a {v.type} has no conjugate() in kernels")
    if not v.type.is_complex:
        return v
    return op_call(tr, node, "conjugate", "conjugate", [v], v.type)


for _name in _OPS:
    HANDLERS[getattr(cmath, _name)] = _cmath(_name)
HANDLERS[cmath.log] = _log
HANDLERS[cmath.phase] = _phase
HANDLERS[cmath.polar] = _polar
HANDLERS[cmath.rect] = _rect
HANDLERS[builtins.complex] = _complex
