"""cupyx.scipy.sparse.linalg: loom.scipy.sparse.linalg, as the shim's other modules forward."""
import loom.scipy.sparse.linalg as _target
from loom.scipy.sparse.linalg import *  # noqa: F401,F403

from cupy._missing import forward_to

__getattr__ = forward_to(__name__, _target)
