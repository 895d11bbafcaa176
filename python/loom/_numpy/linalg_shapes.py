"""NumPy's linalg shape errors and result types over the bound functions: a matrix function
given fewer than two dimensions, or a stack whose last two are not square, raises
numpy.linalg.LinAlgError as NumPy's does (the bound functions raise ValueError, which programs
catching LinAlgError miss); lstsq's rank is a NumPy int32, as NumPy returns it.

Each wrapper checks the shape (no data is read) and calls the bound function.
"""
import numpy as _np

from .. import _loom

_la = _loom.linalg
_LinAlgError = _np.linalg.LinAlgError
_bound = {name: getattr(_la, name) for name in ("eig", "eigvals", "eigh", "eigvalsh", "inv", "det", "slogdet",
                                                 "solve", "cholesky", "lstsq")}


def _shape(a):
    return tuple(a.shape) if isinstance(a, _loom.ndarray) else _np.shape(a)


def _square(a):
    """NumPy's _assert_stacked_2d and _assert_stacked_square."""
    shape = _shape(a)
    if len(shape) < 2:
        raise _LinAlgError(f"{len(shape)}-dimensional array given. Array must be at least two-dimensional")
    if shape[-1] != shape[-2]:
        raise _LinAlgError("Last 2 dimensions of the array must be square")


def eig(a):
    """numpy.linalg.eig: eigenvalues and right eigenvectors of square matrices (stacked)."""
    _square(a)
    return _bound["eig"](a)


def eigvals(a):
    """numpy.linalg.eigvals: the eigenvalues of square matrices (stacked)."""
    _square(a)
    return _bound["eigvals"](a)


def eigh(a, UPLO="L"):
    """numpy.linalg.eigh: eigenvalues (ascending) and eigenvectors of Hermitian matrices, read
    from the UPLO triangle."""
    _square(a)
    return _bound["eigh"](a, UPLO)


def eigvalsh(a, UPLO="L"):
    """numpy.linalg.eigvalsh: the eigenvalues (ascending) of Hermitian matrices, read from the
    UPLO triangle."""
    _square(a)
    return _bound["eigvalsh"](a, UPLO)


def inv(a):
    """numpy.linalg.inv: the inverses of square matrices (stacked)."""
    _square(a)
    return _bound["inv"](a)


def det(a):
    """numpy.linalg.det: the determinants of square matrices (stacked)."""
    _square(a)
    return _bound["det"](a)


def slogdet(a):
    """numpy.linalg.slogdet: (sign, log|det|) of square matrices (stacked)."""
    _square(a)
    return _bound["slogdet"](a)


def solve(a, b):
    """numpy.linalg.solve: x with a @ x == b, for square a (stacked)."""
    _square(a)
    return _bound["solve"](a, b)


def cholesky(a, /, *, upper=False):
    """numpy.linalg.cholesky: the lower (upper=True: upper) Cholesky factor of Hermitian
    positive-definite matrices (stacked)."""
    _square(a)
    return _bound["cholesky"](a, upper=upper)


def lstsq(a, b, rcond=None):
    """numpy.linalg.lstsq: (x, residuals, rank, s), the least-squares solution of a @ x == b;
    rank is a NumPy int32, as NumPy's."""
    x, residuals, rank, s = _bound["lstsq"](a, b, rcond)
    return x, residuals, _np.int32(rank), s


for _f in (eig, eigvals, eigh, eigvalsh, inv, det, slogdet, solve, cholesky, lstsq):
    _f.__module__ = "loom.linalg"
    _f._loom_bound = _bound[_f.__name__]  # what the extension's stub describes (tools/gen_stubs.py)
    setattr(_la, _f.__name__, _f)
