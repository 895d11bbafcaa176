"""numpy's tri, tril, triu, diag and diagflat against NumPy on fresh random data, on every
device: offsets k in and beyond range, batched (..., n, m) inputs, 1-d inputs (broadcast to a
square), every dtype family (bool keeps its dtype), non-contiguous views, and the errors."""
import numpy as np
import pytest

import loom

KS = [-7, -2, -1, 0, 1, 3, 9]


@pytest.mark.parametrize("k", KS)
def test_tri(device, k):
    for n, m in [(4, None), (3, 5), (5, 2), (0, 3)]:
        got = loom.tri(n, m, k, device=device)
        assert got.device == device and got.dtype == np.float64
        np.testing.assert_array_equal(got.numpy(), np.tri(n, m, k))
    np.testing.assert_array_equal(loom.tri(3, k=k, dtype=loom.int32, device=device).numpy(),
                                  np.tri(3, k=k, dtype=np.int32))
    with pytest.raises(ValueError, match="negative dimensions"):
        loom.tri(-1, device=device)


@pytest.mark.parametrize("k", KS)
@pytest.mark.parametrize("dtype", ["float32", "int64", "bool", "complex64"])
def test_tril_triu(device, rng, k, dtype):
    x = rng.standard_normal((2, 3, 5, 4)) * 3
    x = (x + 1j * x[::-1]).astype(dtype) if dtype == "complex64" else x.astype(dtype)
    lx = loom.asarray(x, device=device)
    for fn in ("tril", "triu"):
        got = getattr(loom, fn)(lx, k)
        assert got.dtype == x.dtype
        np.testing.assert_array_equal(got.numpy(), getattr(np, fn)(x, k))
        view = lx[:, ::-1, :, 1:]  # a non-contiguous view
        np.testing.assert_array_equal(getattr(loom, fn)(view, k).numpy(), getattr(np, fn)(x[:, ::-1, :, 1:], k))
        np.testing.assert_array_equal(getattr(loom, fn)(lx[0, 0, 0], k).numpy(), getattr(np, fn)(x[0, 0, 0], k))


def test_tril_of_0d_raises(device):
    with pytest.raises(ValueError, match=r"\[tril\]"):
        loom.tril(loom.asarray(np.array(3.0), device=device))


@pytest.mark.parametrize("k", KS)
def test_diag_and_diagflat(device, rng, k):
    v = rng.standard_normal(5)
    got = loom.diag(loom.asarray(v, device=device), k)
    assert got.device == device
    np.testing.assert_array_equal(got.numpy(), np.diag(v, k))
    m = rng.standard_normal((4, 6))
    np.testing.assert_array_equal(loom.diag(loom.asarray(m, device=device), k).numpy(), np.diag(m, k))
    np.testing.assert_array_equal(loom.diag(loom.asarray(m, device=device).T, k).numpy(), np.diag(m.T, k))
    f = rng.integers(-5, 5, size=(2, 3))
    np.testing.assert_array_equal(loom.diagflat(loom.asarray(f, device=device), k).numpy(), np.diagflat(f, k))
    with pytest.raises(ValueError, match="1- or 2-d"):
        loom.diag(loom.zeros((2, 2, 2), device=device))


def test_diag_of_a_matrix_is_a_view(device):
    m = loom.zeros((3, 3), device=device)
    d = loom.diag(m)
    d[...] = 1
    np.testing.assert_array_equal(m.numpy(), np.eye(3))
