"""cupyx.scipy.ndimage: loom.scipy.ndimage (its names are cupyx.scipy.ndimage's); CuPy's private modules under
it are stand-ins that fail on use, and a name loom.scipy.ndimage lacks raises an AttributeError
naming it (cupy._missing.forward_to)."""
import loom.scipy.ndimage as _target
from loom.scipy.ndimage import *  # noqa: F401,F403

from cupy._missing import forward_to

__getattr__ = forward_to(__name__, _target)
