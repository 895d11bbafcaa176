"""numba.cuda is loom.cuda: every public name of loom.cuda, plus the loom equivalents of
numba.cuda.vectorize/guvectorize (target='cuda') and TypingError. Other names raise an
ImportError naming them (see _missing.py)."""
import sys as _sys

import loom as _loom
from loom import cuda as _lc

from .._missing import module_getattr as _module_getattr

for _n in _lc.__all__:
    if _n in ("types", "random", "config"):  # the shim's own modules name what loom lacks
        continue
    globals()[_n] = getattr(_lc, _n)

# numba.cuda.vector_types (its `vector_types` table) and numba.cuda.kernels are loom.cuda's modules.
_sys.modules[__name__ + ".vector_types"] = _lc.vector_types
_sys.modules[__name__ + ".kernels"] = _lc.kernels  # numba.cuda.kernels.transpose too
_sys.modules[__name__ + ".kernels.transpose"] = _lc.kernels.transpose

# Whether a full Numba (the CPU target) is installed beside numba-cuda: never, here.
HAS_NUMBA = False


def vectorize(signatures=None, **kwargs):
    """numba.cuda.vectorize: loom.vectorize with target='cuda'."""
    kwargs.setdefault("target", "cuda")
    return _loom.vectorize(signatures, **kwargs)


def guvectorize(signatures, layout, **kwargs):
    """numba.cuda.guvectorize: loom.guvectorize with target='cuda'."""
    kwargs.setdefault("target", "cuda")
    return _loom.guvectorize(signatures, layout, **kwargs)


_HINTS = {
    "config": "Numba's configuration settings",
    "launchconfig": "Numba's launch-configuration hooks for its extensions",
}
__getattr__ = _module_getattr(__name__, submodules=("testing", "tests", "core", "config", "types", "np", "typing", "random",
                                                          "extending", "cudaimpl", "cgutils", "cudadrv", "misc",
                                                          "compiler", "args"),
                              hints=_HINTS, type_names=True, missing_modules=("launchconfig",))
