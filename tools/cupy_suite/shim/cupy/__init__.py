"""The CuPy suite harness's `cupy`: loom under CuPy's name (tools/cupy_suite/run.sh puts it on
PYTHONPATH). Every public name of loom is cupy's (`cupy.ndarray` is `loom.ndarray`,
`cupy.random` is `loom.random`, ...); `cupy.testing` is the harness's own implementation of
CuPy's test helpers, `cupy.cuda` and `cupy.exceptions` the few CuPy modules the tests read for
facts (is this HIP, the CUDA version) or exception types. A CuPy name loom has no equivalent
of raises an AttributeError that names it, so that a test using it fails with that cause."""
import loom as _loom
from loom import *  # noqa: F401,F403

from . import _missing  # noqa: E402

_missing.install()

# Names loom spells as attributes of its module, not in __all__ (lazy ones included).
for _name in ("ElementwiseKernel", "ReductionKernel", "RawKernel", "RawModule", "fuse"):
    if hasattr(_loom, _name):
        globals()[_name] = getattr(_loom, _name)

# The star import bound loom's modules under these names (loom.cuda, loom.linalg, ...), and
# `from . import name` returns a bound attribute without importing the submodule: drop them.
for _name in ("cuda", "exceptions", "fft", "linalg", "random", "testing"):
    globals().pop(_name, None)
from . import cuda, exceptions, fft, linalg, random, testing  # noqa: E402,F401
from ._memory import get_default_memory_pool, get_default_pinned_memory_pool  # noqa: E402,F401
from ._missing import INTERNAL, LoomHasNo  # noqa: E402

# NumPy's C-named alias a test compares dtypes with (signal's medfilt tests: dtype ==
# xp.longlong); loom has none of these aliases. longlong is int64 on every platform loom builds on.
longlong = _loom.int64


def __getattr__(name):
    if f"cupy.{name}" in INTERNAL:
        import importlib
        return importlib.import_module(f"cupy.{name}")
    if name.startswith("__"):
        raise AttributeError(f"module 'cupy' has no attribute {name!r}")
    raise LoomHasNo(f"cupy.{name}: loom has no equivalent (no loom.{name})", name=name)
