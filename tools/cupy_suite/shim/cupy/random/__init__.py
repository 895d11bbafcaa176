"""cupy.random: loom.random (its names are cupy.random's); CuPy's private modules under it are stand-ins
that fail on use (cupy._missing), and a public CuPy name loom.random lacks raises an
AttributeError naming it."""
import loom as _loom
from loom.random import *  # noqa: F401,F403

from .._missing import forward_to

__getattr__ = forward_to(__name__, _loom.random)

# CuPy's tests reach its public distributions and RandomState through the private modules that
# define them (cupy.random._distributions.beta, _generator.RandomState, _sample.randint): those
# modules are this one, so a test uses loom.random's function or fails naming cupy.random's.
import sys as _sys  # noqa: E402

for _private in ("_distributions", "_generator", "_sample"):
    _sys.modules[f"{__name__}.{_private}"] = _sys.modules[__name__]
    globals()[_private] = _sys.modules[__name__]
