"""numba.cuda.core: Numba's compiler internals; only `config` (the harness's) and
`errors.TypingError` (loom.TypingError) exist here."""
from ..._missing import module_getattr as _module_getattr

__getattr__ = _module_getattr(__name__, submodules=("config", "errors"))
