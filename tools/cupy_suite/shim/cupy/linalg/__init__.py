"""cupy.linalg: loom.linalg (its names are cupy.linalg's); CuPy's private modules under it are stand-ins
that fail on use (cupy._missing), and a public CuPy name loom.linalg lacks raises an
AttributeError naming it."""
import loom as _loom
from loom.linalg import *  # noqa: F401,F403

from .._missing import forward_to

__getattr__ = forward_to(__name__, _loom.linalg)
