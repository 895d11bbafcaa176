"""cupyx.scipy.fftpack: loom.scipy.fftpack (its names are cupyx.scipy.fftpack's); CuPy's private
modules under it are stand-ins that fail on use, and a name loom.scipy.fftpack lacks raises an
AttributeError naming it (cupy._missing.forward_to)."""
import loom.scipy.fftpack as _target
from loom.scipy.fftpack import *  # noqa: F401,F403

from cupy._missing import forward_to

__getattr__ = forward_to(__name__, _target)
