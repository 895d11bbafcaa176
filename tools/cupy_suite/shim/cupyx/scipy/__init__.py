"""cupyx.scipy for the CuPy suite harness's SciPy run (tools/cupy_suite/run_scipy.sh): loom.scipy
under CuPy's name. cupyx.scipy.special, ndimage, signal (with signal.windows), linalg, fft,
fftpack and sparse (with sparse.linalg) are the shim's modules in this folder, each forwarding to
loom.scipy's module of that name.

The other modules of cupyx.scipy (interpolate, spatial, stats, sparse.csgraph) and CuPy's
private modules under any of them (cupyx.scipy.signal._upfirdn, cupyx.scipy.ndimage._util,
...) import as stand-ins (cupy._missing), so that an in-scope test file that imports one at its
top still runs its other tests; using a name from one raises an AttributeError naming it."""
import importlib

import scipy as _scipy

import loom as _loom
from cupy import _missing

# Modules of cupyx.scipy loom.scipy has no equivalent of.
ABSENT = ("interpolate", "spatial", "stats")
# Private modules first: a test reads them for CuPy's helpers (cupyx.scipy.signal._upfirdn's
# _output_len), never for SciPy's API.
_missing.PATTERNS.append((r"cupyx\.scipy\.\w+(\.[a-z]\w*)*\._\w+(\..*)?", "a CuPy internal"))
for _name in ABSENT:
    _missing.PATTERNS.append((rf"cupyx\.scipy\.{_name}(\..*)?", f"no loom.scipy.{_name}"))
_missing.PATTERNS.append((r"cupyx\.scipy\.sparse\.csgraph(\..*)?", "no loom.scipy.sparse.csgraph"))
_missing.install()

SUBMODULES = ("fft", "fftpack", "linalg", "ndimage", "signal", "sparse", "special")
# CuPy's private flag some test files read at their top (SciPy is importable here: the tests need it).
_scipy_available = True


def get_array_module(*args):
    """cupyx.scipy (this module) when an argument is a loom array, else SciPy."""
    if any(isinstance(a, _loom.ndarray) for a in args):
        return importlib.import_module(__name__)
    return _scipy


def __getattr__(name):
    # CuPy imports cupyx.scipy's submodules lazily: cupyx.scipy.special works after
    # `import cupyx.scipy` alone (a test's scp.special with scipy_name='scp').
    if name in SUBMODULES or name in ABSENT:
        return importlib.import_module(f"{__name__}.{name}")
    if name.startswith("__"):
        raise AttributeError(name)
    raise _missing.LoomHasNo(f"cupyx.scipy.{name}: loom has no equivalent (no loom.scipy.{name})", name=name)
