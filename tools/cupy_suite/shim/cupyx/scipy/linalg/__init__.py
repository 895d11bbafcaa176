"""cupyx.scipy.linalg: loom.scipy.linalg (its names are cupyx.scipy.linalg's); CuPy's private modules under
it are stand-ins that fail on use, and a name loom.scipy.linalg lacks raises an AttributeError
naming it (cupy._missing.forward_to)."""
import loom.scipy.linalg as _target
from loom.scipy.linalg import *  # noqa: F401,F403

from cupy._missing import forward_to

__getattr__ = forward_to(__name__, _target)
