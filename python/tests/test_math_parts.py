"""numpy's i0, ldexp, frexp, modf, spacing, bitwise_count, float_power, divmod, fix,
isposinf/isneginf (ops/math_parts.h) against NumPy on fresh random data with the special
values, on every device and over dtypes; and the errors."""
import numpy as np
import pytest

import loom


def L(x, device):
    return loom.asarray(x, device=device)


def specials(rng, dtype, n=40):
    x = (rng.standard_normal(n) * 40).astype(dtype)
    if np.dtype(dtype).kind == "f":
        x[:8] = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -2.0, np.finfo(dtype).tiny / 4]
    return x


def same(got, want):
    got = got.numpy()
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want))


@pytest.mark.parametrize("dtype", ["float64", "float32", "float16", "int16", "int8", "bool"])
def test_frexp_modf_fix_exact(device, rng, dtype):
    x = specials(rng, dtype) if dtype != "bool" else rng.random(9) > 0.5
    with np.errstate(all="ignore"):
        for got, want in zip(loom.frexp(L(x, device)), np.frexp(x)):
            same(got, want)
        for got, want in zip(loom.modf(L(x, device)), np.modf(x)):
            same(got, want)
        if dtype != "bool":
            same(loom.fix(L(x, device)), np.fix(x))
            same(loom.isposinf(L(x, device)), np.isposinf(x))
            same(loom.isneginf(L(x, device)), np.isneginf(x))


@pytest.mark.parametrize("dtype", ["float64", "float32", "float16", "int32"])
def test_spacing(device, rng, dtype):
    x = specials(rng, dtype)
    if dtype == "float16":  # NumPy's float16 spacing of negative numbers steps toward +inf
        x = np.abs(x)
        x = x[x < 65504]
    with np.errstate(all="ignore"):
        same(loom.spacing(L(x, device)), np.spacing(x))


@pytest.mark.parametrize("dtype", ["float64", "float32", "int8"])
def test_ldexp_and_i0(device, rng, dtype):
    x = specials(rng, dtype)
    e = rng.integers(-60, 60, size=x.shape).astype("int32")
    with np.errstate(all="ignore"):
        same(loom.ldexp(L(x, device), L(e, device)), np.ldexp(x, e))
        same(loom.ldexp(L(x, device), 3), np.ldexp(x, 3))
    # float32 stays below i0's overflow (near 88.7), where NumPy's float32 arithmetic
    # overflows a little earlier than loom's double series rounded to float32.
    top = 80.0 if dtype == "float32" else 700.0
    y = np.concatenate([(rng.random(30) * 2 - 1) * top, [0.0, -1e-3, top]]).astype(dtype if dtype != "int8" else "float64")
    if dtype == "int8":
        y = rng.integers(-50, 50, size=20).astype("int8")
    got, want = loom.i0(L(y, device)).numpy(), np.i0(y)
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=1e-13 if got.dtype == np.float64 else 1e-6)
    assert loom.i0(L(np.array([np.inf, np.nan]), device)).numpy()[0] == np.inf  # NumPy's is NaN


def test_bitwise_count(device, rng):
    for dtype in ("int8", "int64", "uint16", "uint64"):
        info = np.iinfo(dtype)
        x = rng.integers(info.min, info.max, size=50, dtype=dtype, endpoint=True)
        x[:2] = [info.min, info.max]
        same(loom.bitwise_count(L(x, device)), np.bitwise_count(x))
    b = rng.random(7) > 0.5
    same(loom.bitwise_count(L(b, device)), np.bitwise_count(b))


def test_float_power_and_divmod(device, rng):
    a = rng.standard_normal(30).astype("float32")
    b = rng.integers(-3, 4, size=30).astype("int16")
    with np.errstate(all="ignore"):
        np.testing.assert_allclose(loom.float_power(L(np.abs(a), device), L(a, device)).numpy(),
                                   np.float_power(np.abs(a), a), rtol=1e-14)
        assert loom.float_power(L(a, device), L(b, device)).dtype == loom.float64
        z = (a + 1j * a[::-1]).astype("complex64")
        np.testing.assert_allclose(loom.float_power(L(z, device), 2).numpy(), np.float_power(z, 2), rtol=1e-13)
        for x1, x2 in ((rng.integers(-20, 20, 40), rng.integers(1, 7, 40) * rng.choice([-1, 1], 40)),
                       (a.astype("float64"), b.astype("float64"))):
            for got, want in zip(loom.divmod(L(x1, device), L(x2, device)), np.divmod(x1, x2)):
                np.testing.assert_array_equal(got.numpy(), want)


def test_table_ufuncs_fmod_gcd_lcm_nextafter_fabs(device, rng):
    a = rng.integers(-1000, 1000, 60)
    b = rng.integers(-40, 40, 60)
    for name in ("fmod", "gcd", "lcm"):
        with np.errstate(all="ignore"):
            np.testing.assert_array_equal(getattr(loom, name)(L(a, device), L(b, device)).numpy(), getattr(np, name)(a, b))
    x = rng.standard_normal(20)
    out = loom.empty((20,), dtype=loom.float64, device=device)
    r = loom.nextafter(L(x, device), np.inf, out=out)
    assert r is out
    np.testing.assert_array_equal(out.numpy(), np.nextafter(x, np.inf))
    np.testing.assert_array_equal(loom.fabs(L(b.astype("int8"), device)).numpy(), np.fabs(b.astype("int8")))


def test_errors_name_the_op(device):
    z = L(np.array([1 + 1j]), device)
    for name in ("frexp", "modf", "spacing", "i0", "fix", "isposinf"):
        with pytest.raises(TypeError, match=name):
            getattr(loom, name)(z)
    with pytest.raises(TypeError, match="ldexp"):
        loom.ldexp(L(np.ones(2), device), L(np.ones(2), device))
    with pytest.raises(TypeError, match="bitwise_count"):
        loom.bitwise_count(L(np.ones(2), device))
    with pytest.raises(TypeError, match="nextafter"):
        loom.nextafter(L(np.ones(2, "float16"), device), 2)
