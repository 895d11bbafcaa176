"""numpy's window functions, convolve, correlate and unwrap (ops/signal.h) against NumPy on
fresh random data, on every device, and the errors."""
import numpy as np
import pytest

import loom


def L(x, device):
    return loom.asarray(x, device=device)


@pytest.mark.parametrize("M", [0, 1, 2, 5, 12, 101])
def test_windows(device, M):
    for name in ("bartlett", "blackman", "hamming", "hanning"):
        got = getattr(loom, name)(M, device=device)
        assert got.device == device and got.dtype == loom.float64
        np.testing.assert_allclose(got.numpy(), getattr(np, name)(M), atol=1e-15)
    for beta in (0.0, 5.5, 14.0):
        np.testing.assert_allclose(loom.kaiser(M, beta, device=device).numpy(), np.kaiser(M, beta), rtol=1e-13)


@pytest.mark.parametrize("n,m", [(7, 3), (3, 7), (5, 5), (1, 4), (6, 1), (40, 9)])
@pytest.mark.parametrize("mode", ["full", "same", "valid"])
def test_convolve_correlate(device, rng, n, m, mode):
    a = rng.standard_normal(n)
    v = rng.standard_normal(m) + 1j * rng.standard_normal(m)
    np.testing.assert_allclose(loom.convolve(L(a, device), L(v, device), mode).numpy(), np.convolve(a, v, mode),
                               rtol=1e-12, atol=1e-12)
    for x, y in ((a, v), (v, a), (a, v.real), (v.real.astype("float32"), a.astype("float32"))):
        got, want = loom.correlate(L(x, device), L(y, device), mode), np.correlate(x, y, mode)
        assert got.dtype.name == want.dtype.name
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-5, atol=1e-5)
    ai, vi = rng.integers(-9, 9, n), rng.integers(-9, 9, m)
    got = loom.convolve(L(ai, device), vi, mode)
    assert got.dtype == loom.int64
    np.testing.assert_array_equal(got.numpy(), np.convolve(ai, vi, mode))


@pytest.mark.parametrize("mode", ["full", "same", "valid"])
def test_convolve_reads_a_0d_input_as_one_weight(device, rng, mode):
    """numpy.convolve reads its inputs with ndmin=1; numpy.correlate refuses a 0-d one."""
    a, s = rng.standard_normal(6), np.float64(rng.standard_normal())
    for x, y in ((a, np.array(s)), (np.array(s), a), (np.array(s), np.array(s))):
        got = loom.convolve(L(x, device), L(y, device), mode)
        np.testing.assert_allclose(got.numpy(), np.convolve(x, y, mode), rtol=1e-14)
    with pytest.raises(ValueError, match="correlate"):
        loom.correlate(L(a, device), L(np.array(s), device))


def test_convolve_errors(device):
    x = L(np.ones(3), device)
    with pytest.raises(ValueError, match="convolve"):
        loom.convolve(x, L(np.ones(0), device))
    with pytest.raises(ValueError, match="correlate"):
        loom.correlate(L(np.ones((2, 2)), device), x)
    with pytest.raises(ValueError, match="mode"):
        loom.convolve(x, x, "middle")


@pytest.mark.parametrize("axis", [0, -1])
def test_unwrap(device, rng, axis):
    p = np.cumsum(rng.standard_normal((5, 30)) * 2, axis=axis)
    w = np.mod(p, 2 * np.pi)
    np.testing.assert_allclose(loom.unwrap(L(w, device), axis=axis).numpy(), np.unwrap(w, axis=axis), rtol=1e-12)
    np.testing.assert_allclose(loom.unwrap(L(w, device), discont=4.0, axis=axis, period=5.0).numpy(),
                               np.unwrap(w, discont=4.0, axis=axis, period=5.0), rtol=1e-12)
    w32 = w.astype("float32")
    got = loom.unwrap(L(w32, device), axis=axis)
    assert got.dtype == loom.float32
    np.testing.assert_allclose(got.numpy(), np.unwrap(w32, axis=axis), rtol=1e-5, atol=1e-4)
    np.testing.assert_allclose(loom.unwrap(L(np.array([0, 5, 1, 7]), device)).numpy(), np.unwrap([0, 5, 1, 7]))
    for dt in ("uint8", "int8", "bool"):  # steps by diff in p's own dtype, as NumPy's: uint8 7 -> 6 is +255
        q = np.array([5, 7, 6, 5, 4, 120, 3], dt)
        np.testing.assert_allclose(loom.unwrap(L(q, device)).numpy(), np.unwrap(q), rtol=1e-12)
    with pytest.raises(TypeError, match="unwrap"):
        loom.unwrap(L(w + 1j, device))
