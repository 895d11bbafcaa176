"""Named matrices and matrix products of scipy.linalg: hadamard, helmert, dft, hilbert,
leslie, fiedler, convolution_matrix, khatri_rao, bandwidth. Matrices defined by their size
alone are built on the host and placed on the default device; those built from arrays are
computed on the arrays' device."""
import numpy as np

import loom

from .. import _util
from ._special_matrices import _gather


def hadamard(n, dtype=int):
    """The n x n Hadamard matrix of Sylvester's construction; n a power of 2."""
    if n < 1 or (int(n) & (int(n) - 1)) != 0:
        raise ValueError("n must be an positive integer, and n must be a power of 2")
    h = np.array([[1]], dtype=dtype)
    while h.shape[0] < n:
        h = np.block([[h, h], [h, -h]])
    return loom.asarray(h)


def helmert(n, full=False):
    """The Helmert matrix of order n: orthonormal rows, the first one constant (left out
    unless full)."""
    h = np.tril(np.ones((n, n)), -1) - np.diag(np.arange(n))
    d = np.arange(n) * np.arange(1, n + 1)
    if n:
        h[0] = 1
        d[0] = n
    h = h / np.sqrt(d)[:, None]
    return loom.asarray(h if full else h[1:])


def dft(n, scale=None):
    """The n x n discrete Fourier transform matrix, scaled by 1 (None), 1/sqrt(n) ('sqrtn')
    or 1/n ('n')."""
    if scale not in (None, "sqrtn", "n"):
        raise ValueError(f"scale must be None, 'sqrtn', or 'n'; {scale!r} is not valid.")
    k = np.arange(n)
    m = np.exp(-2j * np.pi * np.outer(k, k) / max(n, 1))
    if scale == "sqrtn":
        m = m / np.sqrt(n)
    elif scale == "n":
        m = m / n
    return loom.asarray(m)


def hilbert(n):
    """The n x n Hilbert matrix, 1 / (i + j + 1)."""
    k = np.arange(n)
    return loom.asarray(1.0 / (k[:, None] + k[None, :] + 1.0))


def leslie(f, s):
    """The Leslie matrix: fecundities f on the first row, survival rates s on the
    subdiagonal; leading axes are batch axes."""
    f, s = _util.asarray(f), _util.asarray(s)
    if f.ndim == 0 or s.ndim == 0 or f.shape[-1] != s.shape[-1] + 1:
        raise ValueError("Incorrect lengths for f and s. The length of s along the last axis must be one less "
                         "than the length of f.")
    if s.shape[-1] == 0:
        raise ValueError("The length of s must be at least 1.")
    n = f.shape[-1]
    batch = np.broadcast_shapes(f.shape[:-1], s.shape[:-1])
    dt = loom.result_type(f.dtype, s.dtype)
    vals = loom.concatenate([loom.broadcast_to(f, batch + (n,)).astype(dt), loom.broadcast_to(s, batch + (n - 1,)).astype(dt),
                             loom.zeros(batch + (1,), dtype=dt, device=f.device)], axis=-1)
    index = np.full((n, n), 2 * n - 1)          # the zero at the end
    index[0] = np.arange(n)                      # the first row: f
    index[np.arange(1, n), np.arange(n - 1)] = n + np.arange(n - 1)  # the subdiagonal: s
    return _gather(vals, index)


def fiedler(a):
    """|a[i] - a[j]| for a vector a; leading axes are batch axes."""
    a = _util.asarray(a)
    if a.size == 0:
        return loom.zeros((0,), dtype=loom.float64, device=a.device)
    return loom.abs(a[..., :, None] - a[..., None, :])


def convolution_matrix(a, n, mode="full"):
    """The matrix A with A @ v == numpy.convolve(a, v, mode) for every v of length n;
    leading axes of a are batch axes."""
    if n <= 0:
        raise ValueError("n must be a positive integer.")
    a = _util.asarray(a)
    if a.ndim == 0 or a.shape[-1] == 0:
        raise ValueError("len(a) must be at least 1.")
    if mode not in ("full", "valid", "same"):
        raise ValueError("'mode' argument must be one of ('full', 'valid', 'same')")
    m = a.shape[-1]
    rows = np.arange(m + n - 1)
    if mode == "same":  # numpy.convolve's: max(m, n) outputs, centred
        start = (min(m, n) - 1) // 2
        rows = rows[start:start + max(m, n)]
    elif mode == "valid":
        rows = rows[min(m, n) - 1:max(m, n)]
    lag = rows[:, None] - np.arange(n)[None, :]   # A[k, j] = a[k - j] where 0 <= k - j < m
    index = np.where((lag >= 0) & (lag < m), lag, m)
    vals = loom.concatenate([a, loom.zeros(a.shape[:-1] + (1,), dtype=a.dtype, device=a.device)], axis=-1)
    return _gather(vals, index)


def khatri_rao(a, b):
    """The column-wise Kronecker product: column j is kron(a[:, j], b[:, j])."""
    a, b = _util.asarray(a), _util.asarray(b)
    if a.ndim != 2 or b.ndim != 2:
        raise ValueError("The both arrays should be 2-dimensional.")
    if a.shape[1] != b.shape[1]:
        raise ValueError("The number of columns for both arrays should be equal.")
    return (a[:, None, :] * b[None, :, :]).reshape((a.shape[0] * b.shape[0], a.shape[1]))


def bandwidth(a):
    """(lower, upper): how far below and above the diagonal a 2-D array has nonzero entries."""
    a = _util.asarray(a)
    if a.ndim != 2:
        raise ValueError("Input array must be a 2D NumPy array.")
    if a.size == 0:
        return 0, 0
    offset = loom.asarray(np.arange(a.shape[0])[:, None] - np.arange(a.shape[1])[None, :], device=a.device)
    nonzero = a != 0
    lower = int(loom.max(loom.where(nonzero, offset, 0)))
    upper = int(loom.max(loom.where(nonzero, -offset, 0)))
    return lower, upper
