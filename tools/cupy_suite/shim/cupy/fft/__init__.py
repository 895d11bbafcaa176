"""cupy.fft: loom.fft (its names are cupy.fft's); CuPy's private modules under it are stand-ins
that fail on use (cupy._missing), and a public CuPy name loom.fft lacks raises an
AttributeError naming it."""
import loom as _loom
from loom.fft import *  # noqa: F401,F403

from .._missing import forward_to

__getattr__ = forward_to(__name__, _loom.fft)
