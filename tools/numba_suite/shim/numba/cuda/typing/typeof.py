"""numba.cuda.typing.typeof: typeof is loom.cuda.types.typeof."""
from loom.cuda.types import typeof  # noqa: F401

from ..._missing import module_getattr as _module_getattr

__getattr__ = _module_getattr(__name__)
