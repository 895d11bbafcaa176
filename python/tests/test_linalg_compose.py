"""diagonal, trace, cross and loom.linalg's trace/diagonal/cross/outer/matrix_power against
NumPy on fresh random data, on cpu() and each GPU: offsets and axes, batches, dtypes,
broadcasting, gradients through them (they compose loom's ops), and the errors."""
import numpy as np
import pytest

import loom
from conftest import central_differences


@pytest.mark.parametrize("offset,axis1,axis2", [(0, 0, 1), (1, 1, 2), (-2, 0, 2), (2, 2, 0), (7, 0, 1), (-5, 1, 2)])
def test_diagonal_and_trace(device, rng, offset, axis1, axis2):
    a = rng.standard_normal((4, 5, 6))
    x = loom.asarray(a, device=device)
    np.testing.assert_array_equal(loom.diagonal(x, offset, axis1, axis2).numpy(), np.diagonal(a, offset, axis1, axis2))
    np.testing.assert_allclose(loom.trace(x, offset, axis1, axis2).numpy(), np.trace(a, offset, axis1, axis2),
                               rtol=1e-12)
    np.testing.assert_array_equal(x.diagonal(offset, axis1, axis2).numpy(), a.diagonal(offset, axis1, axis2))


def test_diagonal_is_a_writable_view_and_trace_dtypes(device, rng):
    x = loom.zeros((3, 3), device=device)
    d = loom.diagonal(x)
    d[...] = 1.0
    np.testing.assert_array_equal(x.numpy(), np.eye(3))
    i = rng.integers(-5, 5, (4, 4)).astype(np.int32)
    got = loom.trace(loom.asarray(i, device=device))
    assert got.dtype == np.trace(i).dtype and int(got.item()) == int(np.trace(i))
    assert loom.trace(loom.asarray(i, device=device), dtype=loom.float32).dtype == loom.float32


def test_linalg_trace_diagonal_outer(device, rng):
    a = rng.standard_normal((2, 3, 5, 5)).astype(np.float32)
    x = loom.asarray(a, device=device)
    np.testing.assert_allclose(loom.linalg.trace(x, offset=1).numpy(), np.trace(a, 1, -2, -1), rtol=1e-5)
    np.testing.assert_array_equal(loom.linalg.diagonal(x, offset=-1).numpy(), np.diagonal(a, -1, -2, -1))
    u, v = rng.standard_normal(4), rng.standard_normal(3)
    np.testing.assert_allclose(loom.linalg.outer(loom.asarray(u, device=device), loom.asarray(v, device=device)).numpy(),
                               np.outer(u, v), rtol=1e-12)
    with pytest.raises(ValueError, match=r"\[linalg.outer\] both inputs must be 1-dimensional"):
        loom.linalg.outer(x, loom.asarray(v, device=device))


@pytest.mark.parametrize("sa,sb,kw", [((3,), (3,), {}), ((5, 3), (3,), {}), ((4, 1, 3), (2, 3), {}),
                                      ((3, 4), (3, 4), dict(axis=0)),
                                      ((3, 2, 5), (5, 3), dict(axisa=0, axisb=1, axisc=1))])
def test_cross(device, rng, sa, sb, kw):
    a, b = rng.standard_normal(sa), rng.standard_normal(sb)
    got = loom.cross(loom.asarray(a, device=device), loom.asarray(b, device=device), **kw)
    np.testing.assert_allclose(got.numpy(), np.cross(a, b, **kw), rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("sa,sb", [((2,), (2,)), ((2,), (3,)), ((4, 3), (1, 2)), ((5, 2), (5, 2))])
def test_cross_of_2_vectors(device, rng, sa, sb):
    """2-vectors, as NumPy 2 still takes them with a DeprecationWarning: the third component is
    0, and two 2-vectors give the z component alone."""
    a, b = rng.integers(-5, 5, sa), rng.standard_normal(sb)
    with pytest.warns(DeprecationWarning, match="2-dimensional vectors"):
        got = loom.cross(loom.asarray(a, device=device), loom.asarray(b, device=device))
    with pytest.warns(DeprecationWarning):
        want = np.cross(a, b)
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12, atol=1e-14)


def test_linalg_cross_and_errors(device, rng):
    a, b = rng.standard_normal((4, 3)), rng.standard_normal((4, 3))
    x, y = loom.asarray(a, device=device), loom.asarray(b, device=device)
    np.testing.assert_allclose(loom.linalg.cross(x, y).numpy(), np.cross(a, b), rtol=1e-12)
    with pytest.raises(ValueError, match=r"\[linalg.cross\] both inputs must be 3-vectors"):
        loom.linalg.cross(x[:, :2], y[:, :2])
    for sa, sb in (((4,), (3,)), ((1,), (2,)), ((6, 5), (6, 3))):
        with pytest.raises(ValueError, match=r"\[cross\] incompatible dimensions for cross product"):
            loom.cross(loom.ones(sa, device=device), loom.ones(sb, device=device))
    with pytest.raises(ValueError, match=r"\[diagonal\] diag requires an array of at least two dimensions"):
        loom.diagonal(loom.ones((3,), device=device))
    with pytest.raises(ValueError, match=r"\[diagonal\] axis1 and axis2 cannot be the same"):
        loom.diagonal(x, 0, 1, -1)


@pytest.mark.parametrize("n", [0, 1, 2, 5, 8])
def test_matrix_power(device, rng, n):
    a = rng.standard_normal((3, 4, 4)) / 2
    got = loom.linalg.matrix_power(loom.asarray(a, device=device), n).numpy()
    np.testing.assert_allclose(got, np.linalg.matrix_power(a, n), rtol=1e-10, atol=1e-12)
    i = rng.integers(-2, 3, (3, 3))
    np.testing.assert_array_equal(loom.linalg.matrix_power(loom.asarray(i, device=device), 3).numpy(),
                                  np.linalg.matrix_power(i, 3))


def test_matrix_power_errors(device):
    with pytest.raises(ValueError, match=r"\[matrix_power\] expected a stack of square matrices"):
        loom.linalg.matrix_power(loom.ones((2, 3), device=device), 2)
    # A negative power inverts first (test_linalg_decomp.py checks its values): a singular
    # matrix raises NumPy's LinAlgError on every device.
    expected = np.linalg.LinAlgError
    if device == loom.cpu():
        try:
            loom.linalg.det(loom.ones((1, 1), device=loom.cpu()))
        except NotImplementedError:
            expected = NotImplementedError  # built without LAPACK
    with pytest.raises(expected, match=r"\[linalg.(inv|solve)\]"):
        loom.linalg.matrix_power(loom.ones((2, 2), device=device), -1)


def test_gradients(device, rng):
    a, b = rng.standard_normal((3, 3)), rng.standard_normal((3, 3))
    x, y = loom.asarray(a, device=device), loom.asarray(b, device=device)
    g = loom.grad(lambda u: loom.sum(loom.cross(u, y) ** 2) + loom.trace(loom.linalg.matrix_power(u, 3)))(x).numpy()
    f = lambda u: float(np.sum(np.cross(u, b) ** 2) + np.trace(np.linalg.matrix_power(u, 3)))  # noqa: E731
    np.testing.assert_allclose(g, central_differences(f, a), rtol=1e-6, atol=1e-7)
