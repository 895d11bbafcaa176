"""cupyx.scipy.signal.windows: loom.scipy.signal.windows; a window loom lacks raises an
AttributeError naming it (cupy._missing.forward_to)."""
import loom.scipy.signal.windows as _target
from loom.scipy.signal.windows import *  # noqa: F401,F403

from cupy._missing import forward_to

__getattr__ = forward_to(__name__, _target)
