"""numba.cuda.misc: only `special` (literal_unroll) is named by the suite."""
from ..._missing import module_getattr as _module_getattr

__getattr__ = _module_getattr(__name__, submodules=("special",))
