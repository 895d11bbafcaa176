"""cupyx.scipy.sparse: loom.scipy.sparse (its names are cupyx.scipy.sparse's); CuPy's private
modules under it and csgraph (loom.scipy.sparse has none) are stand-ins that fail on use, and a
name loom.scipy.sparse lacks raises an AttributeError naming it (cupy._missing.forward_to)."""
import loom.scipy.sparse as _target
from loom.scipy.sparse import *  # noqa: F401,F403

from cupy._missing import forward_to

from . import linalg  # noqa: F401  (cupyx.scipy.sparse.linalg after `import cupyx.scipy.sparse`)

__getattr__ = forward_to(__name__, _target)
