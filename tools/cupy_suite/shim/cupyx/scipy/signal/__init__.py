"""cupyx.scipy.signal: loom.scipy.signal (its names are cupyx.scipy.signal's); CuPy's private modules under
it are stand-ins that fail on use, and a name loom.scipy.signal lacks raises an AttributeError
naming it (cupy._missing.forward_to)."""
import loom.scipy.signal as _target
from loom.scipy.signal import *  # noqa: F401,F403

from cupy._missing import forward_to

__getattr__ = forward_to(__name__, _target)

# The star import bound loom.scipy.signal.windows to `windows`: drop it, so that
# cupyx.scipy.signal.windows is the shim's module (whose missing names raise naming CuPy's).
globals().pop("windows", None)
from . import windows  # noqa: E402,F401
