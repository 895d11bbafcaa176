"""numba.core: only errors.TypingError has a loom equivalent."""
from .._missing import module_getattr as _module_getattr

__getattr__ = _module_getattr(__name__, submodules=("errors",))
