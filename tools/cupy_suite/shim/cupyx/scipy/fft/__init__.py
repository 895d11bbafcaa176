"""cupyx.scipy.fft: loom.scipy.fft (its names are cupyx.scipy.fft's); CuPy's private modules under
it are stand-ins that fail on use, and a name loom.scipy.fft lacks raises an AttributeError
naming it (cupy._missing.forward_to)."""
import loom.scipy.fft as _target
from loom.scipy.fft import *  # noqa: F401,F403

from cupy._missing import forward_to

__getattr__ = forward_to(__name__, _target)
