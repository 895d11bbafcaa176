"""matrix_power: integer powers of a square sparse matrix by repeated squaring (SciPy's
scipy.sparse.linalg.matrix_power), every product a sparse product on the matrix's device."""
import operator

import numpy as np

from .._construct import eye_array


def _exponent(power):
    """power as a Python int: integer types only (SciPy also rejects 2.0, as inexact)."""
    if np.ndim(power) != 0 or isinstance(power, bool):
        raise ValueError(f"matrix_power: exponent must be an integer, got {power!r}")
    try:
        return operator.index(power)
    except TypeError:
        raise ValueError(f"matrix_power: exponent must be an integer, got {power!r}") from None


def matrix_power(A, power):
    """A ** power as a matrix product for a square sparse A and an integer power >= 0: the
    identity (a DIA sparse array, as SciPy's eye_array) for 0, a copy of A for 1, else repeated
    squaring (about 2 log2(power) sparse products)."""
    m, n = A.shape
    if m != n:
        raise TypeError(f"matrix_power: sparse matrix is not square (shape {A.shape})")
    power = _exponent(power)
    if power < 0:
        raise ValueError(f"matrix_power: exponent must be >= 0, got {power}")
    if power == 0:
        return eye_array(m, dtype=A.dtype, format="dia", device=getattr(A, "device", None))  # SciPy's DIA identity
    if power == 1:
        return A.copy()
    half = matrix_power(A, power // 2)
    return A @ half @ half if power % 2 else half @ half
