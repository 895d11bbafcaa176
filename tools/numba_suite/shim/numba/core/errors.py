"""numba.core.errors: TypingError is loom.TypingError; loom has no other of Numba's errors."""
from loom import TypingError  # noqa: F401

from .._missing import module_getattr as _module_getattr

__getattr__ = _module_getattr(__name__)
