"""scipy.linalg's names over loom.linalg and loom's array ops: they run on the arrays'
device (cpu() or a GPU) and never copy data to the host, except SciPy's check_finite (one
bool) and expm's choice of scaling (one norm)."""
from numpy.linalg import LinAlgError

from ._basic import det, inv, lstsq, norm, pinv, solve
from ._decomp import eigh, eigvalsh, qr, svd, svdvals
from ._expm import expm
from ._lu import lu, lu_factor, lu_solve
from ._named_matrices import (bandwidth, convolution_matrix, dft, fiedler, hadamard, helmert, hilbert, khatri_rao,
                              leslie)
from ._special_matrices import block_diag, circulant, companion, hankel, toeplitz
from ._triangular import cho_factor, cho_solve, cholesky, solve_triangular

__all__ = ["LinAlgError", "bandwidth", "block_diag", "convolution_matrix", "dft", "fiedler", "hadamard", "helmert",
           "hilbert", "khatri_rao", "leslie", "cho_factor", "cho_solve", "cholesky", "circulant", "companion",
           "det", "eigh", "eigvalsh", "expm", "hankel", "inv", "lstsq", "lu", "lu_factor", "lu_solve",
           "norm", "pinv", "qr", "solve", "solve_triangular", "svd", "svdvals", "toeplitz"]
