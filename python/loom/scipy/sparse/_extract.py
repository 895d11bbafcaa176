"""scipy.sparse's extraction functions: find (the stored nonzeros as (row, col, data)) and
tril/triu (the lower or upper triangle from diagonal k), on the matrix's device through its
COO triples. A dense input is a COO matrix first, as SciPy makes it; the result is COO (a
matrix or an array, as the input) unless format= names another. One count read each (the
kept entries)."""
from . import _kernels as K
from ._base import CLASSES, issparse


def _coo(A):
    """A as loom COO of its own kind (a dense or SciPy input: a coo_matrix, as SciPy's)."""
    is_array = issparse(A) and A._is_array
    return CLASSES[("coo", is_array)](A), is_array


def find(A):
    """(row, col, data) of A's nonzero entries, duplicates summed (scipy.sparse.find)."""
    coo, _ = _coo(A)
    coo = coo.copy()
    coo.sum_duplicates()
    return tuple(K.keep(coo.data != 0, coo.row, coo.col, coo.data))


def _triangle(A, k, format, lower):
    coo, is_array = _coo(A)
    keep = (coo.row + k >= coo.col) if lower else (coo.row + k <= coo.col)
    row, col, data = K.keep(keep, coo.row, coo.col, coo.data)
    out = CLASSES[("coo", is_array)]((data, (row, col)), shape=coo.shape, dtype=coo.dtype)
    return out if format is None else out.asformat(format)


def tril(A, k=0, format=None):
    """The entries on or below diagonal k (scipy.sparse.tril)."""
    return _triangle(A, int(k), format, True)


def triu(A, k=0, format=None):
    """The entries on or above diagonal k (scipy.sparse.triu)."""
    return _triangle(A, int(k), format, False)
