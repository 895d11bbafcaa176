"""cupy.random: loom.random (its names are cupy.random's); CuPy's private modules under it are stand-ins
that fail on use (cupy._missing), and a public CuPy name loom.random lacks raises an
AttributeError naming it."""
import loom as _loom
from loom.random import *  # noqa: F401,F403

from .._missing import forward_to

__getattr__ = forward_to(__name__, _loom.random)
