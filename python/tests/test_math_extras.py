"""numpy's deg2rad/rad2deg, sinc, heaviside, signbit, nan_to_num, logaddexp/logaddexp2,
ediff1d, trapezoid, nancumsum/nancumprod, cumulative_sum/cumulative_prod, logspace,
geomspace, vander, select, extract and compress against NumPy on fresh random data, on
every device: dtypes, special values, axes and the errors."""
import numpy as np
import pytest

import loom


def L(x, device):
    return loom.asarray(x, device=device)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32"])
def test_angles_sinc_signbit(device, rng, dtype):
    x = (rng.standard_normal((3, 5)) * 4).astype(dtype)
    if dtype != "int32":
        x[0, 0] = 0.0
    for name in ("deg2rad", "rad2deg", "radians", "degrees", "sinc"):
        got = getattr(loom, name)(L(x, device))
        want = getattr(np, name)(x)
        assert got.dtype == want.dtype, name
        np.testing.assert_allclose(got.numpy(), want, rtol=2e-6 if dtype == "float32" else 1e-14, atol=1e-7)
    s = np.array([-0.0, 0.0, -1.5, 2.0, -np.inf, np.nan, -np.nan]) if dtype != "int32" else np.array([-3, 0, 4])
    z = np.array([0.0, 0.5, -2.0], np.float16)  # sinc(0) is 1 in float16 too (NumPy 2: eps, not 1e-20)
    np.testing.assert_allclose(loom.sinc(L(z, device)).numpy(), np.sinc(z), rtol=1e-3)
    np.testing.assert_array_equal(loom.signbit(L(s, device)).numpy(), np.signbit(s))


def test_heaviside_and_logaddexp(device, rng):
    x1 = np.array([-2.0, 0.0, 3.0, np.nan, 0.0])
    x2 = np.array([0.5, 0.5, 0.5, 0.5, np.nan])
    np.testing.assert_array_equal(loom.heaviside(L(x1, device), L(x2, device)).numpy(), np.heaviside(x1, x2))
    np.testing.assert_array_equal(loom.heaviside(L(x1, device), 1.0).numpy(), np.heaviside(x1, 1.0))
    a, b = rng.standard_normal(50) * 300, rng.standard_normal(50) * 300
    a[:4] = [np.inf, -np.inf, np.inf, 5.0]
    b[:4] = [np.inf, -np.inf, -np.inf, 5.0]
    for name in ("logaddexp", "logaddexp2"):
        np.testing.assert_allclose(getattr(loom, name)(L(a, device), L(b, device)).numpy(), getattr(np, name)(a, b),
                                   rtol=1e-14)
        # A Python number is weak, as for NumPy's ufuncs: float32 stays float32.
        f = a.astype(np.float32)
        for got, want in ((getattr(loom, name)(L(f, device), 0.5), getattr(np, name)(f, 0.5)),
                          (getattr(loom, name)(2, L(f, device)), getattr(np, name)(2, f))):
            assert got.dtype == want.dtype == np.float32
            np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128", "int64"])
def test_nan_to_num(device, dtype):
    x = np.array([np.nan, np.inf, -np.inf, 1.5, -2.0])
    if dtype == "complex128":
        x = x + 1j * x[::-1]
    x = x.astype(dtype) if dtype != "int64" else np.array([1, -2, 3])
    for kw in ({}, dict(nan=-1.0, posinf=9.0, neginf=-9.0)):
        got = loom.nan_to_num(L(x, device), **kw)
        want = np.nan_to_num(x, **kw)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got.numpy(), want)


def test_ediff1d_trapezoid(device, rng):
    a = rng.standard_normal((3, 4))
    np.testing.assert_allclose(loom.ediff1d(L(a, device)).numpy(), np.ediff1d(a), rtol=1e-15)
    np.testing.assert_allclose(loom.ediff1d(L(a, device), to_end=L(np.array([7.0, 8.0]), device),
                                            to_begin=L(np.array(-1.0), device)).numpy(),
                               np.ediff1d(a, to_end=[7.0, 8.0], to_begin=-1.0), rtol=1e-15)
    y = rng.standard_normal((4, 6))
    x = np.sort(rng.uniform(0, 5, 6))
    np.testing.assert_allclose(loom.trapezoid(L(y, device)).numpy(), np.trapezoid(y), rtol=1e-13)
    np.testing.assert_allclose(loom.trapezoid(L(y, device), dx=0.5, axis=0).numpy(), np.trapezoid(y, dx=0.5, axis=0),
                               rtol=1e-13)
    np.testing.assert_allclose(loom.trapezoid(L(y, device), L(x, device)).numpy(), np.trapezoid(y, x), rtol=1e-13)


def test_nan_and_array_api_scans(device, rng):
    a = rng.standard_normal((3, 5))
    a[0, 1] = a[2, 4] = np.nan
    for axis in (None, 0, 1):
        np.testing.assert_allclose(loom.nancumsum(L(a, device), axis).numpy(), np.nancumsum(a, axis), rtol=1e-14)
        np.testing.assert_allclose(loom.nancumprod(L(a, device), axis).numpy(), np.nancumprod(a, axis), rtol=1e-14)
    # dtype= and out= as cumsum's (out= comes back itself, as NumPy's)
    for fn in ("nancumsum", "nancumprod"):
        want = getattr(np, fn)(a, 1, dtype=np.float32)
        out = loom.zeros(a.shape, dtype=loom.float32, device=device)
        assert getattr(loom, fn)(L(a, device), 1, out=out, dtype=loom.float32) is out
        np.testing.assert_allclose(out.numpy(), want, rtol=1e-6)
        assert getattr(loom, fn)(L(a, device), 0, dtype="float32").dtype == loom.float32
    b = rng.integers(1, 4, size=(3, 4))
    for include in (False, True):
        np.testing.assert_array_equal(loom.cumulative_sum(L(b, device), axis=1, include_initial=include).numpy(),
                                      np.cumulative_sum(b, axis=1, include_initial=include))
        np.testing.assert_array_equal(loom.cumulative_prod(L(b[0], device), include_initial=include).numpy(),
                                      np.cumulative_prod(b[0], include_initial=include))
    with pytest.raises(ValueError, match="axis"):
        loom.cumulative_sum(L(b, device))


def test_logspace_geomspace_vander(device, rng):
    for kw in ({}, dict(num=7, endpoint=False), dict(num=5, base=2.0)):
        np.testing.assert_allclose(loom.logspace(0.5, 3.0, device=device, **kw).numpy(), np.logspace(0.5, 3.0, **kw),
                                   rtol=1e-14)
    for start, stop in ((1.0, 1000.0), (-2.0, -512.0), (3.0, 0.25)):
        got = loom.geomspace(start, stop, 9, device=device).numpy()
        np.testing.assert_allclose(got, np.geomspace(start, stop, 9), rtol=1e-14)
        assert got[0] == start and got[-1] == stop
    with pytest.raises(ValueError, match="zero"):
        loom.geomspace(0.0, 1.0, device=device)
    x = rng.integers(-3, 4, size=5)
    for kw in ({}, dict(N=3), dict(increasing=True)):
        np.testing.assert_array_equal(loom.vander(L(x, device), **kw).numpy(), np.vander(x, **kw))
    xf = rng.standard_normal(4)
    np.testing.assert_allclose(loom.vander(L(xf, device)).numpy(), np.vander(xf), rtol=1e-14)


def test_select_extract_compress(device, rng):
    x = rng.integers(-5, 6, size=(3, 4))
    conds, choices = [x < 0, x > 2], [x * 10, x * 100]
    got = loom.select([L(c, device) for c in conds], [L(c, device) for c in choices], default=-1)
    np.testing.assert_array_equal(got.numpy(), np.select(conds, choices, default=-1))
    np.testing.assert_array_equal(loom.extract(L(x % 2, device), L(x, device)).numpy(), np.extract(x % 2, x))
    c = np.array([True, False, True])
    np.testing.assert_array_equal(loom.compress(L(c, device), L(x, device), axis=0).numpy(), np.compress(c, x, axis=0))
    np.testing.assert_array_equal(loom.compress(L(c, device), L(x, device)).numpy(), np.compress(c, x))
    with pytest.raises(TypeError):
        loom.select([L(x, device)], [L(x, device)])
    with pytest.raises(ValueError, match="empty condition list"):  # NumPy's error
        loom.select([], [])
