"""`cuda.libdevice`: the C math functions of CUDA's libdevice as Numba exposes them
(`libdevice.sinf(x)`, `libdevice.pow(x, y)`, ...), inside kernels. Each is the CUDA math
function of the same name (what libdevice's `__nv_<name>` implements), which NVRTC has for a
GPU and the host's <cmath> for cpu()'s emulator, so both run the same call. Names ending in
`f` take and give float32, the others float64 (Numba's signatures); `ilogb`/`ilogbf` give
int32. Numba's other libdevice functions (fast_*, integer and conversion intrinsics,
sincos with output pointers) are not here: using one raises AttributeError naming it.
"""
from . import types as T
from .mathfuncs import HANDLERS
from .stubs import Intrinsic
from .ufuncs import check_numbers
from .values import Value, cast

# name -> arity, for the double versions; each also has its float version (name + "f").
_FUNCTIONS = {
    **dict.fromkeys(("sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh",
                     "exp", "exp2", "exp10", "expm1", "log", "log2", "log10", "log1p", "sqrt", "cbrt", "fabs",
                     "floor", "ceil", "trunc", "round", "rint", "nearbyint", "erf", "erfc", "lgamma", "tgamma",
                     "logb", "ilogb"), 1),
    **dict.fromkeys(("pow", "atan2", "hypot", "fmod", "remainder", "fmin", "fmax", "copysign", "fdim",
                     "nextafter"), 2),
    "fma": 3,
}


def _handler(cname, arity, t, result):
    def h(tr, node, args, kwargs):
        check_numbers(tr, node, args, arity, f"libdevice.{cname}")
        return Value(f"{cname}({', '.join(cast(a, t) for a in args)})", result)
    return h


__all__ = []
for _base, _arity in _FUNCTIONS.items():
    for _name, _t in ((_base, T.FLOAT64), (_base + "f", T.FLOAT32)):
        _result = T.INT32 if _base == "ilogb" else _t
        _fn = Intrinsic(f"libdevice.{_name}", f"libdevice's __nv_{_name} ({_arity} argument(s), {_t})")
        globals()[_name] = _fn
        __all__.append(_name)
        HANDLERS[_fn] = _handler(_name, _arity, _t, _result)
