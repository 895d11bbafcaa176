"""cupy.fuse on loom.jit: `@loom.fuse()` (or `@loom.fuse`, `loom.fuse(kernel_name="f")`) makes a
function of arrays and scalars one traced, fused computation, as CuPy's does.

A call with a loom array among its arguments runs through loom.jit: elementwise chains fuse
into one kernel, and reductions inside (`loom.sum(x, axis=1)`) trace with them; Python
scalars keep NumPy 2's weak promotion and are part of the signature (a new value traces
again); in-place updates of array arguments (`acc += x`) reach the caller's arrays. A call
without a loom array runs the Python function itself (CuPy's rule), so NumPy arrays and
scalars give NumPy's results.
"""
import functools
import numbers

import numpy as np

from .. import _loom
from ._jit import JitFunction

__all__ = ["fuse", "Fusion"]

_ACCEPTED = (_loom.ndarray, np.ndarray, np.generic, numbers.Number, type(None))


class Fusion:
    """What loom.fuse returns: call it like the function. `name` is the kernel name."""

    def __init__(self, func, kernel_name=None):
        if not callable(func):
            raise TypeError(f"[fuse] expected a function, not {type(func).__name__}")
        functools.update_wrapper(self, func)
        self.func = func
        self.name = kernel_name or getattr(func, "__name__", "fused")
        self._jit = JitFunction(func)

    def __call__(self, *args):
        if not any(isinstance(a, _loom.ndarray) for a in args):
            return self.func(*args)
        for a in args:
            if not isinstance(a, _ACCEPTED):
                raise TypeError(f"[fuse {self.name}] arguments are arrays, scalars or None, not "
                                f"{type(a).__name__}")
        return self._jit(*args)

    def __repr__(self):
        return f"<loom.fuse {self.name}>"


def fuse(*args, **kwargs):
    """cupy.fuse: `@fuse`, `@fuse()` or `@fuse(kernel_name=...)` over a function of arrays and
    scalars; see the module's docstring."""
    unknown = set(kwargs) - {"kernel_name"}
    if unknown:
        raise TypeError(f"[fuse] unexpected keyword argument {sorted(unknown)[0]!r}")
    if len(args) == 1 and not kwargs and callable(args[0]):
        return Fusion(args[0])
    if args:
        raise TypeError("[fuse] use @fuse, @fuse() or @fuse(kernel_name=...)")
    return functools.partial(Fusion, kernel_name=kwargs.get("kernel_name"))
