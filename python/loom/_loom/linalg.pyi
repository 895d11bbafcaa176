"""Linear algebra (numpy.linalg names)."""

import loom._loom
from loom._loom import (
    matmul as matmul,
    matrix_transpose as matrix_transpose,
    tensordot as tensordot,
    vecdot as vecdot
)


def cond(x: object, p: object | None = None) -> loom._loom.ndarray:
    """
    numpy.linalg.cond: the condition number (p None/2/-2 from the singular values, else norm(x, p) * norm(inv(x), p)).
    """

def vector_norm(x: object, *, axis: object | None = None, keepdims: bool = False, ord: object = 2) -> loom._loom.ndarray:
    """
    The Array API's and NumPy 2's vector_norm: the vector norm `ord` (2, 1, inf, -inf, 0 or any p) over every axis of `axis` at once (None: all of them). Complex arrays give real norms; integers float64.
    """

def matrix_norm(x: object, *, keepdims: bool = False, ord: object = 'fro') -> loom._loom.ndarray:
    """
    The Array API's and NumPy 2's matrix_norm: the matrix norm `ord` ('fro', 'nuc', 1, -1, 2, -2, inf, -inf) of the matrices spanned by the last two axes.
    """

def norm(x: object, ord: object | None = None, axis: object | None = None, keepdims: bool = False) -> loom._loom.ndarray:
    """
    norm(x, ord=None, axis=None, keepdims=False)

    numpy.linalg.norm: vector norms (ord None/2, 1, inf, -inf, 0, any p) over one axis, matrix norms (None/'fro', 1, -1, inf, -inf, and 2, -2, 'nuc' through the singular values) over two. Integer and bfloat16 inputs are computed in float64 (as NumPy's astype(float)). Returns a 0-d array for a full reduction.
    """

def trace(x: object, offset: int = 0, dtype: object | None = None) -> loom._loom.ndarray:
    """
    numpy.linalg.trace: the sums along the diagonal `offset` of the last two axes.
    """

def diagonal(x: object, offset: int = 0) -> loom._loom.ndarray:
    """
    numpy.linalg.diagonal: the diagonal `offset` of the last two axes, as a view.
    """

def cross(x1: object, x2: object, axis: int = -1) -> loom._loom.ndarray:
    """numpy.linalg.cross: cross products of 3-vectors along `axis`."""

def outer(x1: object, x2: object) -> loom._loom.ndarray:
    """numpy.linalg.outer: the outer product of two 1-d arrays."""

def matrix_power(a: object, n: int) -> loom._loom.ndarray:
    """
    numpy.linalg.matrix_power over the last two axes (repeated squaring; a negative n takes the power of inv(a)).
    """

class SlogdetResult(tuple):
    """SlogdetResult(sign, logabsdet)"""

    __slots__: tuple = ()

    _fields: tuple = ('sign', 'logabsdet')

    _field_defaults: dict = {}

    __match_args__: tuple = ('sign', 'logabsdet')

    sign: loom._loom.ndarray

    logabsdet: loom._loom.ndarray

class EighResult(tuple):
    """EighResult(eigenvalues, eigenvectors)"""

    __slots__: tuple = ()

    _fields: tuple = ('eigenvalues', 'eigenvectors')

    _field_defaults: dict = {}

    __match_args__: tuple = ('eigenvalues', 'eigenvectors')

    eigenvalues: loom._loom.ndarray

    eigenvectors: loom._loom.ndarray

class EigResult(tuple):
    """EigResult(eigenvalues, eigenvectors)"""

    __slots__: tuple = ()

    _fields: tuple = ('eigenvalues', 'eigenvectors')

    _field_defaults: dict = {}

    __match_args__: tuple = ('eigenvalues', 'eigenvectors')

    eigenvalues: loom._loom.ndarray

    eigenvectors: loom._loom.ndarray

class SVDResult(tuple):
    """SVDResult(U, S, Vh)"""

    __slots__: tuple = ()

    _fields: tuple = ('U', 'S', 'Vh')

    _field_defaults: dict = {}

    __match_args__: tuple = ('U', 'S', 'Vh')

    U: loom._loom.ndarray

    S: loom._loom.ndarray

    Vh: loom._loom.ndarray

class QRResult(tuple):
    """QRResult(Q, R)"""

    __slots__: tuple = ()

    _fields: tuple = ('Q', 'R')

    _field_defaults: dict = {}

    __match_args__: tuple = ('Q', 'R')

    Q: loom._loom.ndarray

    R: loom._loom.ndarray

def solve(a: object, b: object) -> loom._loom.ndarray:
    """
    numpy.linalg.solve: x with a @ x == b, batched over leading axes (b of shape (n,) is one vector). LinAlgError for a singular matrix, naming its batch index.
    """

def inv(a: object) -> loom._loom.ndarray:
    """numpy.linalg.inv, batched; LinAlgError for a singular matrix."""

def det(a: object) -> loom._loom.ndarray:
    """
    numpy.linalg.det, batched (sign * exp(log|det|) of one LU factorisation).
    """

def slogdet(a: object) -> object:
    """
    numpy.linalg.slogdet: (sign, logabsdet); a singular matrix gives (0, -inf).
    """

def cholesky(a: object, *, upper: bool = False) -> loom._loom.ndarray:
    """
    numpy.linalg.cholesky: L with a = L @ L.T (upper=True: U = L.T); LinAlgError for a matrix that is not positive definite, naming its batch index.
    """

def eigh(a: object, UPLO: str = 'L') -> object:
    """
    numpy.linalg.eigh: ascending eigenvalues and eigenvectors (columns) of symmetric matrices, reading the lower ('L') or upper ('U') triangle.
    """

def eigvalsh(a: object, UPLO: str = 'L') -> loom._loom.ndarray:
    """numpy.linalg.eigvalsh: the eigenvalues of eigh, ascending."""

def eig(a: object) -> object:
    """
    numpy.linalg.eig: eigenvalues and unit-norm right eigenvectors (columns) of general square matrices. The results are complex for every input (NumPy returns real arrays when every eigenvalue of a real matrix is real; here the dtype never depends on the values).
    """

def eigvals(a: object) -> loom._loom.ndarray:
    """numpy.linalg.eigvals: the eigenvalues of eig, complex for every input."""

def svd(a: object, full_matrices: bool = True, compute_uv: bool = True, hermitian: bool = False) -> object:
    """
    numpy.linalg.svd: (U, S, Vh) with a = U @ diag(S) @ Vh, S descending, batched; S alone with compute_uv=False. hermitian is accepted and ignored (the general SVD is used).
    """

def svdvals(x: object) -> loom._loom.ndarray:
    """numpy.linalg.svdvals: the singular values, descending."""

def qr(a: object, mode: str = 'reduced') -> object:
    """
    numpy.linalg.qr: mode 'reduced' (Q (m, k), R (k, n)), 'complete' (Q (m, m), R (m, n)), 'r' (R only) or 'raw' (LAPACK's h and tau), batched.
    """

def pinv(a: object, rcond: object | None = None, hermitian: bool = False, *, rtol: object | None = None) -> loom._loom.ndarray:
    """
    numpy.linalg.pinv through the SVD; singular values at or below rcond (or rtol) * max(s) are dropped (default max(m, n) * eps).
    """

def matrix_rank(A: object, tol: object | None = None, hermitian: bool = False, *, rtol: object | None = None) -> loom._loom.ndarray:
    """
    numpy.linalg.matrix_rank: the number of singular values above tol (default max(s) * max(m, n) * eps, or rtol * max(s)).
    """

def lstsq(a: object, b: object, rcond: object | None = None) -> tuple:
    """numpy.linalg.lstsq through the SVD: (x, residuals, rank, s)."""
