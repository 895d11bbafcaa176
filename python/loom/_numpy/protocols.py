"""NumPy's dispatch protocols on loom arrays, as CuPy has them: NumPy's ufuncs and
functions called on loom arrays run loom's own ops on the arrays' device.

- __array_ufunc__ (NEP 13): np.sin(x), np.add(x, y, out=z), np.add.reduce(x), ...
  (_numpy_ufuncs.py).
- __array_function__ (NEP 18): np.mean(x), np.concatenate([x, y]), np.linalg.norm(x)
  call loom.mean, loom.concatenate, loom.linalg.norm: numpy.<path>.<name> maps to
  loom.<path>.<name>, looked up by name at the first call.

A NumPy function or ufunc loom lacks raises TypeError naming it, never a silent copy of
a GPU array to the host. Design: docs/ARCHITECTURE.md, "NumPy's dispatch protocols".
"""
import numpy as np

from .. import _loom
from .lookup import find
from .ufuncs import array_ufunc

# NumPy's creation functions that take like=: NumPy drops like= before dispatching, so the
# like array's device is passed on as device= (np.zeros(3, like=x) lands beside x).
_LIKE = frozenset({"array", "asarray", "asanyarray", "ascontiguousarray", "asfortranarray", "require", "arange",
                   "empty", "zeros", "ones", "full", "eye", "identity", "frombuffer", "fromfile", "fromfunction",
                   "fromiter", "fromstring", "genfromtxt", "loadtxt", "tri"})

# NumPy functions that only read attributes loom arrays have (a.shape, a.ndim, a.size):
# while loom lacks its own, NumPy's implementation runs, touching no data.
_METADATA = frozenset({"numpy.shape", "numpy.ndim", "numpy.size"})


def array_function(self, func, types, args, kwargs):
    """NumPy's __array_function__ (NEP 18): func(*args, **kwargs) as loom's function of
    the same name and submodule."""
    for t in types:
        if not issubclass(t, (_loom.ndarray, np.ndarray)):
            return NotImplemented  # another library's array: NumPy asks it next
    name = f"{getattr(func, '__module__', None) or 'numpy'}.{func.__name__}"
    # numpy.linalg.norm -> loom.linalg.norm, found by name (cached once found).
    entry = find(name[len("numpy."):]) if name.startswith("numpy.") else None
    if entry is None:
        if name in _METADATA:
            return func._implementation(*args, **kwargs)
        raise TypeError(f"{name} is not implemented for loom arrays")
    if func.__name__ in _LIKE and "device" not in kwargs and entry.takes("device"):
        kwargs = dict(kwargs, device=self.device)
    return entry.fn(*args, **kwargs)


def install(cls):
    """Puts the protocols on the array class, unless it defines them itself (in C++)."""
    for attr, fn in (("__array_ufunc__", array_ufunc), ("__array_function__", array_function)):
        if attr not in cls.__dict__:
            setattr(cls, attr, fn)


install(_loom.ndarray)
