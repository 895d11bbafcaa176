"""cupyx.scipy.special: loom.scipy.special (its names are cupyx.scipy.special's); CuPy's private modules under
it are stand-ins that fail on use, and a name loom.scipy.special lacks raises an AttributeError
naming it (cupy._missing.forward_to)."""
import loom.scipy.special as _target
from loom.scipy.special import *  # noqa: F401,F403

from cupy._missing import forward_to

__getattr__ = forward_to(__name__, _target)
