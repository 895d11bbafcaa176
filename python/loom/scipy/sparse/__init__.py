"""scipy.sparse on loom devices: CSR, CSC, COO and DIA matrices whose arrays (data, indices,
indptr; row, col; data, offsets) are loom arrays on cpu() or a GPU, with SciPy's names and semantics
(cupyx.scipy.sparse's role for CuPy).

Products with dense operands run the csr_matmul primitive (cuSPARSE on a GPU, parallel loops
on cpu()), which loom.grad differentiates in the dense operand and in the stored values.
Conversions sort linear (row, col) keys on the device; sparse x sparse expands every product,
then sorts and sums them. Host reads are scalars that size a result: the nonzero count of a
dense input, the number of distinct positions when duplicates are summed, the products of
sparse x sparse, the kept count of eliminate_zeros, a row slice's bounds, the number of
values an index selects or the new positions an assignment adds (see _index.py, _setitem.py).

What differs from SciPy: matrices are 2-d only (no 1-d sparse arrays, so where SciPy returns a
1-d COO array, as for csr_array[i], loom returns a COO array with the integer's axis kept at
length 1); CSR's A[int_array, slice_with_step] selects outer, as CSC's does (SciPy's CSR pairs
the two as inner indexing); results SciPy gives as NumPy scalars or np.matrix are
loom arrays (0-d, or 2-d for matrices, as CuPy's); there are no BSR, LIL or DOK formats, and
DIA is made only on request (format="dia", .todia(); eye and diags return CSR for format=None,
kron COO); DIA's arithmetic and indexing go through CSR; given int64 indices stay int64; random() draws other
values than SciPy for a seed; products of integer matrices with dense operands compute in
float64.
"""
from ._base import issparse, isspmatrix, sparray, spmatrix
from ._compressed import csc_array, csc_matrix, csr_array, csr_matrix, isspmatrix_csc, isspmatrix_csr
from ._construct import (bmat, diags, diags_array, eye, eye_array, hstack, identity, kron, kronsum, rand, random,
                         random_array, vstack)
from ._coo import coo_array, coo_matrix, isspmatrix_coo
from ._dia import dia_array, dia_matrix, isspmatrix_dia
from ._extract import find, tril, triu
from ._compare import SparseEfficiencyWarning, SparseWarning
from . import linalg  # noqa: E402 (after the classes it uses)

__all__ = ["SparseEfficiencyWarning", "SparseWarning", "bmat", "kronsum", "rand", "coo_array", "coo_matrix", "csc_array", "csc_matrix", "csr_array", "csr_matrix", "dia_array", "dia_matrix", "diags",
           "diags_array", "eye", "eye_array", "find", "hstack", "identity", "issparse", "isspmatrix", "isspmatrix_coo",
           "isspmatrix_csc", "isspmatrix_csr", "isspmatrix_dia", "kron", "linalg", "random", "random_array", "sparray", "spmatrix",
           "tril", "triu", "vstack"]
