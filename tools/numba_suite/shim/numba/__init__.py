"""A stand-in for the `numba` package that resolves Numba's names to loom's (tools/numba_suite):
`numba.cuda` is loom.cuda, `numba.vectorize` loom.vectorize, `numba.core.errors.TypingError`
loom.TypingError. A name loom has no equivalent of raises an ImportError naming it; the
helpers Numba's test suite imports (numba.cuda.testing, numba.cuda.tests.support) are the
harness's own minimal versions. No real Numba is imported."""
import sys as _sys

# An installed Numba-CUDA's site-packages redirector (a .pth file at start-up) sends every
# `numba.cuda` import to the real numba_cuda; dropped here too, so a subprocess the suite
# starts (test_print.py) gets the shim's numba.cuda, as the pytest process does.
_sys.meta_path[:] = [f for f in _sys.meta_path if type(f).__name__ != "NumbaCudaFinder"]

import loom as _loom  # noqa: E402

from ._missing import module_getattr as _module_getattr
from .core import errors  # noqa: F401  (numba.errors is numba.core.errors)

__version__ = "0.0+loom-shim"
vectorize = _loom.vectorize
guvectorize = _loom.guvectorize

__getattr__ = _module_getattr(
    __name__, submodules=("cuda", "core", "types"), type_names=True,
    hints={"njit": "Numba's CPU compiler", "jit": "Numba's CPU compiler; loom.jit is JAX-style tracing",
           "objmode": "Numba's object mode", "prange": "Numba's CPU parallel loops",
           "typeof": "Numba's typing of Python values",
           "extending": "Numba's extension API (overload, intrinsic, lowering)",
           "config": "Numba's configuration settings"})
