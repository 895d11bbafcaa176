"""numba.cuda.typing: signature is loom.cuda.types.signature, typing.typeof.typeof loom's
typeof; Numba's typing templates raise an ImportError naming them."""
from loom.cuda.types import signature  # noqa: F401

from ..._missing import module_getattr as _module_getattr

__getattr__ = _module_getattr(__name__, submodules=("typeof",))
