"""x[key] = nan (or inf) on a complex array: the bound __setitem__ takes a Python float that is
not finite for an integer conversion when x is complex (python/src/indexing.cpp,
value_array: its NaN/inf check tests "not floating", which complex dtypes also are) and
raises "cannot convert float NaN to integer". NumPy stores nan+0j. Until the binding is
fixed, such a float is passed on as the complex number it is; every other value goes
straight to the bound function.
"""
import math as _math

from .. import _loom

_bound_setitem = _loom.ndarray.__setitem__


def _setitem(self, key, value):
    if type(value) is float and not _math.isfinite(value) and self.dtype.kind == "c":
        value = complex(value)
    _bound_setitem(self, key, value)


_setitem.__name__ = _setitem.__qualname__ = "__setitem__"
_setitem.__doc__ = _bound_setitem.__doc__
_loom.ndarray.__setitem__ = _setitem
