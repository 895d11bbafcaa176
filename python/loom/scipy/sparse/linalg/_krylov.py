"""Krylov bases stored as rows of one preallocated device array, written in place: rows are
contiguous, and B^H w is the conjugate of B @ conj(w), so no pass copies the basis."""
import loom


def project(B, w):
    """B^H w: the components of w along the rows of B."""
    return loom.conj(B @ loom.conj(w)) if w.dtype.kind == "c" else B @ w


def orthogonalize(B, w):
    """w with its components along the orthonormal rows of B removed, twice over: the second
    pass (classical Gram-Schmidt again) restores the orthogonality that rounding loses in the
    first. Returns (w, the summed coefficients)."""
    h = project(B, w)
    w = w - h @ B
    h2 = project(B, w)
    return w - h2 @ B, h + h2
