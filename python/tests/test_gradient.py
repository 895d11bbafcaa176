"""numpy.gradient (ops/gradient.h) against NumPy on fresh random data, on every device:
uniform steps, coordinate arrays, axes, both edge orders, dtypes, and the errors."""
import numpy as np
import pytest

import loom


def L(x, device):
    return loom.asarray(x, device=device)


@pytest.mark.parametrize("edge_order", [1, 2])
def test_gradient_matches_numpy(device, rng, edge_order):
    f = rng.standard_normal((5, 7, 4))
    x = np.cumsum(rng.random(7) + 0.1)
    y = np.cumsum(rng.random(5) + 0.1)
    z = np.cumsum(rng.random(4) + 0.1)
    for args in [(), (2.0,), (y, x, z), (0.5, x, 3.0)]:
        got = loom.gradient(L(f, device), *[L(a, device) if isinstance(a, np.ndarray) else a for a in args],
                            edge_order=edge_order)
        want = np.gradient(f, *args, edge_order=edge_order)
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            assert g.device == device
            np.testing.assert_allclose(g.numpy(), w, rtol=1e-10, atol=1e-12)
    got = loom.gradient(L(f, device), x, axis=1, edge_order=edge_order)
    np.testing.assert_allclose(got.numpy(), np.gradient(f, x, axis=1, edge_order=edge_order), rtol=1e-10, atol=1e-12)
    got = loom.gradient(L(f, device), 0.3, 2.0, axis=(-1, 0), edge_order=edge_order)
    for g, w in zip(got, np.gradient(f, 0.3, 2.0, axis=(-1, 0), edge_order=edge_order)):
        np.testing.assert_allclose(g.numpy(), w, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_gradient_of_complex_values(device, rng, dtype):
    f = (rng.standard_normal((5, 6)) + 1j * rng.standard_normal((5, 6))).astype(dtype)
    x = np.cumsum(rng.random(6) + 0.1)
    tol = 1e-5 if dtype == "complex64" else 1e-12
    for args, kw in [((), {}), ((2.0, x), {"edge_order": 2}), ((x,), {"axis": 1})]:
        got = loom.gradient(L(f, device), *[L(a, device) if isinstance(a, np.ndarray) else a for a in args], **kw)
        want = np.gradient(f, *args, **kw)
        for g, w in zip(got if isinstance(got, tuple) else (got,), want if isinstance(want, tuple) else (want,)):
            assert str(g.dtype) == w.dtype.name
            np.testing.assert_allclose(g.numpy(), w, rtol=tol, atol=tol)


def test_gradient_dtypes_and_errors(device, rng):
    fi = rng.integers(-9, 9, 6)
    got = loom.gradient(L(fi, device))
    assert got.dtype == loom.float64
    np.testing.assert_allclose(got.numpy(), np.gradient(fi))
    f32 = rng.standard_normal((4, 3)).astype("float32")
    for g, w in zip(loom.gradient(L(f32, device)), np.gradient(f32)):
        assert g.dtype == loom.float32
        np.testing.assert_allclose(g.numpy(), w, rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match="too small"):
        loom.gradient(L(np.ones(2), device), edge_order=2)
    with pytest.raises(ValueError, match="gradient"):
        loom.gradient(L(np.ones(4), device), L(np.ones(3), device))
    with pytest.raises(ValueError, match="edge_order"):
        loom.gradient(L(np.ones(4), device), edge_order=3)
