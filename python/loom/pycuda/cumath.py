"""pycuda.cumath: elementwise math of GPUArrays (loom's ufuncs), with PyCUDA's `out` and
`stream` arguments, positional or by keyword."""
import loom

from ._streams import Stream


def _unary(ufunc, name):
    def fn(array, *args, out=None, stream=None):
        for a in args:  # PyCUDA's positional form: f(array, out) or f(array, stream)
            if isinstance(a, loom.Stream):
                stream = a
            else:
                out = a
        if stream is None:
            return ufunc(array, out=out)
        with stream:
            return ufunc(array, out=out)
    fn.__name__ = name
    fn.__doc__ = f"Elementwise {name} of `array` (into `out` when given)."
    return fn


_NAMES = {"fabs": loom.fabs, "ceil": loom.ceil, "floor": loom.floor, "exp": loom.exp, "log": loom.log,
          "log10": loom.log10, "sqrt": loom.sqrt, "sin": loom.sin, "cos": loom.cos, "tan": loom.tan,
          "asin": loom.arcsin, "acos": loom.arccos, "atan": loom.arctan, "sinh": loom.sinh,
          "cosh": loom.cosh, "tanh": loom.tanh}
globals().update({n: _unary(f, n) for n, f in _NAMES.items()})


def fmod(arg, mod, stream=None):
    """The C remainder arg - trunc(arg / mod) * mod, elementwise."""
    return loom.fmod(arg, mod)


def frexp(arg, stream=None):
    """(significand, exponent) with arg = significand * 2**exponent, elementwise."""
    return loom.frexp(arg)


def ldexp(significand, exponent, stream=None):
    """significand * 2**exponent, the exponent truncated to an integer (PyCUDA's and C's)."""
    return loom.ldexp(significand, exponent.astype(loom.int32) if hasattr(exponent, "astype") else int(exponent))


def modf(arg, stream=None):
    """(fractional part, integral part), elementwise."""
    return loom.modf(arg)


__all__ = [*_NAMES, "fmod", "frexp", "ldexp", "modf", "Stream"]
