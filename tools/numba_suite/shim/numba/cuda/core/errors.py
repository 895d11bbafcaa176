"""numba.cuda.core.errors: TypingError is loom.TypingError; NumbaPerformanceWarning a class loom
never issues; loom has no other of Numba's errors."""
from numba.core.errors import TypingError  # noqa: F401

from ..._missing import module_getattr as _module_getattr

__getattr__ = _module_getattr(__name__)


class NumbaPerformanceWarning(UserWarning):
    """Numba's warning for slow launches (low occupancy, implicit host copies). loom never issues
    it, so a test that expects it fails."""

