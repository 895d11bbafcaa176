"""loom.scipy.fft against scipy.fft on fresh random data, on every device."""
import warnings

import numpy as np
import pytest
import scipy.fft as sf

import loom
from loom.scipy import fft as lf
from scipy_compare import check, same_error

NORMS = [None, "backward", "ortho", "forward"]


@pytest.mark.parametrize("name", ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"])
@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128, np.int32])
def test_one_axis(device, rng, name, norm, dtype):
    if name in ("rfft", "ihfft") and np.dtype(dtype).kind == "c":
        pytest.skip("a real transform")
    x = rng.standard_normal((4, 10)) * 5
    x = (x + 1j * rng.standard_normal((4, 10)) if np.dtype(dtype).kind == "c" else x).astype(dtype)
    for kw in ({}, {"n": 7}, {"n": 16, "axis": 0}):
        got = getattr(lf, name)(loom.asarray(x, device=device), norm=norm, **kw)
        check(got, getattr(sf, name)(x, norm=norm, **kw), device=device)


@pytest.mark.parametrize("name", ["fft2", "ifft2", "fftn", "ifftn", "rfftn", "irfftn", "rfft2", "irfft2",
                                  "hfftn", "ihfftn", "hfft2", "ihfft2"])
@pytest.mark.parametrize("norm", NORMS)
def test_several_axes(device, rng, name, norm):
    x = rng.standard_normal((3, 6, 5))
    if name.startswith(("i", "h")) and name not in ("ihfftn", "ihfft2") or name in ("fft2", "fftn"):
        x = x + 1j * rng.standard_normal(x.shape)
    # SciPy's forms beyond NumPy's: axes=None on a 2-d name, one integer for s or axes, s
    # without axes (no NumPy DeprecationWarning), -1 in s for "this axis's length"
    forms = ({}, {"axes": (0, 2)}, {"s": (4, 8), "axes": (1, 2)}, {"axes": None}, {"s": (4, 8)},
             {"s": 4, "axes": 1}, {"s": (-1, 7), "axes": (2, 0)})
    for kw in forms:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            got = getattr(lf, name)(loom.asarray(x, device=device), norm=norm, **kw)
        check(got, getattr(sf, name)(x, norm=norm, **kw), device=device)


def test_helpers(device, rng):
    check(lf.fftfreq(9, 0.3), sf.fftfreq(9, 0.3))
    check(lf.rfftfreq(8), sf.rfftfreq(8))
    x = np.arange(12.0).reshape(3, 4)
    check(lf.fftshift(loom.asarray(x, device=device), axes=1), sf.fftshift(x, axes=1))
    check(lf.ifftshift(loom.asarray(x, device=device)), sf.ifftshift(x))
    for n in [0, 1, 5, 7, 11, 13, 97, 1021, 4097, 10007, 1052671] + [int(v) for v in 10 ** rng.uniform(0, 8, 200)]:
        assert lf.next_fast_len(n) == sf.next_fast_len(n), n
        assert lf.next_fast_len(n, real=True) == sf.next_fast_len(n, real=True), n
        if n:
            assert lf.prev_fast_len(n) == sf.prev_fast_len(n), n
            assert lf.prev_fast_len(n, real=True) == sf.prev_fast_len(n, real=True), n


@pytest.mark.parametrize("kind", [1, 2, 3, 4])
@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("name", ["dct", "idct", "dst", "idst"])
def test_real_transforms(device, rng, kind, norm, name):
    x = rng.standard_normal((3, 9))
    for kw in ({}, {"n": 5}, {"n": 12, "axis": 0}, {"orthogonalize": False}, {"orthogonalize": True}):
        got = getattr(lf, name)(loom.asarray(x, device=device), type=kind, norm=norm, **kw)
        check(got, getattr(sf, name)(x, type=kind, norm=norm, **kw), device=device)


@pytest.mark.parametrize("name", ["dct", "idct", "dst", "idst"])
def test_real_transform_dtypes_and_sizes(device, rng, name):
    for dtype in (np.float32, np.int64, np.complex128):
        x = (rng.standard_normal(8) * 4).astype(dtype) if dtype != np.complex128 else \
            rng.standard_normal(8) + 1j * rng.standard_normal(8)
        check(getattr(lf, name)(loom.asarray(x, device=device)), getattr(sf, name)(x))
    for n in (1, 2, 3):
        x = rng.standard_normal(n)
        for kind in (2, 3, 4) if name in ("dct", "idct") and n == 1 else (1, 2, 3, 4):
            check(getattr(lf, name)(loom.asarray(x, device=device), type=kind), getattr(sf, name)(x, type=kind))


@pytest.mark.parametrize("name", ["dctn", "idctn", "dstn", "idstn"])
def test_nd_real_transforms(device, rng, name):
    x = rng.standard_normal((4, 5, 6))
    for kw in ({}, {"axes": (0, 2)}, {"s": (3, 7), "axes": (1, 2)}, {"type": 1, "norm": "ortho"}, {"s": (-1, 3)},
               {"s": 4, "axes": -1}):
        check(getattr(lf, name)(loom.asarray(x, device=device), **kw), getattr(sf, name)(x, **kw), device=device)


def test_errors(device):
    x = np.ones(4)
    lx = loom.asarray(x, device=device)
    assert "type" in str(same_error(lambda: lf.dct(lx, type=5), lambda: sf.dct(x, type=5)))
    assert "data points" in str(same_error(lambda: lf.dct(lx, n=0), lambda: sf.dct(x, n=0)))
    assert "norm" in str(same_error(lambda: lf.dct(lx, norm="bad"), lambda: sf.dct(x, norm="bad")))
    assert "norm" in str(same_error(lambda: lf.fft(lx, norm="bad"), lambda: sf.fft(x, norm="bad")))
    assert "data points" in str(same_error(lambda: lf.fft(lx, n=0), lambda: sf.fft(x, n=0)))
    same_error(lambda: lf.dct(loom.ones(1, device=device), type=1), lambda: sf.dct(np.ones(1), type=1))
    same_error(lambda: lf.dct(loom.ones(0, device=device)), lambda: sf.dct(np.ones(0)))
    same_error(lambda: lf.next_fast_len(-1), lambda: sf.next_fast_len(-1))
    same_error(lambda: lf.next_fast_len(1.5), lambda: sf.next_fast_len(1.5))
    same_error(lambda: lf.fftn(loom.ones((2, 2), device=device), s=(2, 2, 2)), lambda: sf.fftn(np.ones((2, 2)), s=(2, 2, 2)))
    same_error(lambda: lf.rfft(loom.ones(3, device=device) * 1j), lambda: sf.rfft(np.ones(3) * 1j))
    x2, lx2 = np.ones((2, 3)), loom.ones((2, 3), device=device)
    for kw in ({"s": (2.5,)}, {"s": (1, 2, 3)}, {"axes": (0, 0)}, {"axes": (2,)}, {"s": (0,)}, {"s": (2, 2), "axes": 0}):
        for name in ("fftn", "dctn", "rfft2"):
            same_error(lambda: getattr(lf, name)(lx2, **kw), lambda: getattr(sf, name)(x2, **kw))


def test_scipy_fft_backend(device, rng):
    # loom.scipy.fft as scipy.fft's backend (cupyx.scipy.fft's use): loom arrays go to loom,
    # NumPy arrays stay with SciPy.
    x = rng.standard_normal((4, 8))
    lx = loom.asarray(x, device=device)
    with sf.set_backend(lf):
        y = sf.rfft(lx, axis=0)
        assert isinstance(y, loom.ndarray) and y.device == device
        np.testing.assert_allclose(y.numpy(), np.fft.rfft(x, axis=0), rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(sf.dctn(lx, norm="ortho").numpy(), sf.dctn(x, norm="ortho"), rtol=1e-12, atol=1e-12)
        assert isinstance(sf.fft(x), np.ndarray)


@pytest.mark.parametrize("mu", [0.3, 0.5, -1.2])
@pytest.mark.parametrize("n", [1, 2, 9, 10])
@pytest.mark.parametrize("bias", [0.0, 0.8, -0.5])
def test_fast_hankel_transform(device, mu, n, bias):
    r = np.logspace(-4, 4, n) if n > 1 else np.array([1.0])
    dln = float(np.log(r[1] / r[0])) if n > 1 else 0.1
    a = np.stack([r ** (mu + 1) * np.exp(-r ** 2 / 2)] * 2)  # a batch of two
    for offset in (0.0, 0.1, sf.fhtoffset(dln, mu, bias=bias)):
        assert lf.fhtoffset(dln, mu, initial=offset, bias=bias) == pytest.approx(sf.fhtoffset(dln, mu, initial=offset, bias=bias))
        for name in ("fht", "ifht"):
            with np.errstate(all="ignore"):
                want = getattr(sf, name)(a, dln, mu, offset=offset, bias=bias)
            got = getattr(lf, name)(loom.asarray(a, device=device), dln, mu, offset=offset, bias=bias)
            np.testing.assert_allclose(got.numpy(), want, rtol=1e-10, atol=1e-10 * np.abs(want).max())
    for dt in (np.float32, np.float16, np.int32):
        with np.errstate(all="ignore"):
            want = sf.fht(a.astype(dt), dln, mu, bias=bias)
        check(lf.fht(loom.asarray(a.astype(dt), device=device), dln, mu, bias=bias), want, device=device, rtol=1e-3)
