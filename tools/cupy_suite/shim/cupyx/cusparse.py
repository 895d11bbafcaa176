"""cupyx.cusparse as far as the suite's sparse tests ask it about the library: its version (read
to skip tests of known bugs of particular cuSPARSE releases, none of which loom has) and whether
a routine is available (loom.scipy.sparse does that work on every device). CuPy's functions of
this module (coo2csr, spmv, csrsort, ...) are CuPy internals: they raise, naming themselves."""
import loom.scipy.sparse as _sparse
import loom.scipy.sparse.linalg as _linalg

from cupy import _missing

# The routines the tests ask about, and whether loom.scipy.sparse does their work.
_ROUTINES = {"spgemm": hasattr(_sparse.csr_matrix, "__matmul__"), "csrgemm2": True, "spgeam": True, "csrgeam2": True,
             "csrsm2": hasattr(_linalg, "spsolve_triangular"), "spsm": hasattr(_linalg, "spsolve_triangular"),
             "spmv": True, "spmm": True, "csrmv": True, "csrmm": True, "csrmm2": True, "csrmvEx": True,
             "csrilu02": hasattr(_linalg, "spilu"), "gtsv2": True, "gtsv2StridedBatch": True}


def getVersion():
    """A cuSPARSE version past the releases whose bugs the tests work around (11301, 11702)."""
    return 12000


def check_availability(name):
    if name not in _ROUTINES:
        raise ValueError(f"cupyx.cusparse.check_availability: no loom equivalent known for {name!r}")
    return _ROUTINES[name]


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    raise _missing.missing(f"cupyx.cusparse.{name}")
