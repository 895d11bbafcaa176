"""SciPy's shape checks, with its messages."""
import loom

from .. import _util


def square(a, name="a", check_finite=True):
    """a as a float/complex loom array whose last two axes are square."""
    a = _util.inexact(a)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"Expected square matrix, got {name}.shape={tuple(a.shape)}")
    return _util.check_finite(a, check_finite)


def matrix(a, check_finite=True):
    a = _util.inexact(a)
    if a.ndim < 2:
        raise ValueError("expected matrix")
    return _util.check_finite(a, check_finite)


def conj_t(a):
    """The conjugate transpose of the last two axes."""
    a = a.swapaxes(-1, -2)
    return a.conj() if a.dtype.kind == "c" else a


def common(*arrays):
    """The arrays cast to one result dtype (float64 for integers)."""
    arrays = [_util.inexact(x) for x in arrays]
    dt = loom.result_type(*[x.dtype for x in arrays])
    return [x.astype(dt) if x.dtype != dt else x for x in arrays]
