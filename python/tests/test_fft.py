"""loom.fft against numpy.fft on fresh random data, on every device: the one-axis transforms
(n smaller and larger than the axis, odd/even/prime lengths, every norm, negative axes), the
n-d ones (s, axes in any order, repeated axes), dtypes (float32/float64/complex64/complex128,
integers, float16), non-contiguous inputs, NumPy's errors, fftfreq/rfftfreq, the shifts, and
the transforms (jit replays, vmap batches, grad refuses with NotImplementedError).

Tolerances follow the transform's scale: an FFT's rounding error grows like eps * log2(n) times
the largest output, so each check bounds max|got - want| by C * eps * log2(2N) * max|want|."""
import numpy as np
import pytest

import loom
from conftest import random_array

EPS = {"complex64": 1.2e-7, "float32": 1.2e-7, "float16": 1e-3, "complex128": 2.3e-16, "float64": 2.3e-16}
NORMS = [None, "backward", "ortho", "forward"]
DTYPES = ["float32", "float64", "complex64", "complex128", "int32"]
ONE_AXIS = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]
N_AXES = ["fftn", "ifftn", "rfftn", "irfftn", "fft2", "ifft2", "rfft2", "irfft2"]


def _fftw_on_cpu():
    try:
        loom.fft.fft(loom.ones(4, device=loom.cpu()))
        return True
    except NotImplementedError as e:
        assert "[fft.fft] loom was built without FFTW" in str(e)
        return False


@pytest.fixture
def dev(device):
    if device == loom.cpu() and not _fftw_on_cpu():
        pytest.skip("loom was built without FFTW")
    return device


def signal(rng, shape, dtype):
    """Random values of `dtype`; integers stay small, complex ones have both parts random."""
    if dtype.startswith("complex"):
        part = "float32" if dtype == "complex64" else "float64"
        return (random_array(rng, shape, part) + 1j * random_array(rng, shape, part)).astype(dtype)
    if dtype.startswith(("int", "uint")):
        return random_array(rng, shape, dtype, low=-50, high=50)
    return random_array(rng, shape, dtype)


def check(got, want, points, dtype=None):
    """got (loom) matches want (NumPy): dtype, shape, and values within the FFT's error bound."""
    want = np.asarray(want)
    assert isinstance(got, loom.ndarray)
    assert got.dtype == np.dtype(dtype or want.dtype), f"dtype {got.dtype} != {dtype or want.dtype}"
    assert got.shape == want.shape, f"shape {got.shape} != {want.shape}"
    g = np.asarray(got).astype(np.complex128)
    w = want.astype(np.complex128)
    if w.size == 0:
        return
    eps = EPS[got.dtype.name]
    scale = float(np.max(np.abs(w))) or 1.0
    err = float(np.max(np.abs(g - w)))
    assert err <= 16 * eps * np.log2(2 * max(points, 1)) * scale, f"max error {err:.3g}, scale {scale:.3g}"


def run_both(dev, fn_name, x, *args, **kw):
    """numpy.fft.<fn>(x, ...) and loom.fft.<fn>(x on dev, ...); when NumPy raises, loom must
    raise the same type. Returns (loom result, NumPy result) or None."""
    try:
        want = getattr(np.fft, fn_name)(x, *args, **kw)
    except Exception as e:  # noqa: BLE001 - the type is what is compared
        with pytest.raises(type(e)):
            getattr(loom.fft, fn_name)(loom.asarray(x, device=dev), *args, **kw)
        return None
    got = getattr(loom.fft, fn_name)(loom.asarray(x, device=dev), *args, **kw)
    assert got.device == dev
    return got, want


# ---- one axis ---------------------------------------------------------------------------------

@pytest.mark.parametrize("fn", ONE_AXIS)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("length", [8, 9, 13])
def test_one_axis(dev, rng, fn, dtype, length):
    x = signal(rng, (3, length, 4), dtype)
    for axis in (1, -2, -1, 0):
        m = x.shape[axis]
        for n in (None, max(m - 3, 1), m + 5):
            for norm in NORMS:
                r = run_both(dev, fn, x, n=n, axis=axis, norm=norm)
                if r is not None:
                    check(*r, points=n or m)


@pytest.mark.parametrize("fn", ONE_AXIS)
@pytest.mark.parametrize("n", [1, 2, 31, 64, 97, 1000, 4096])
def test_lengths_1d(dev, rng, fn, n):
    x = signal(rng, (n,), "complex128" if fn in ("fft", "ifft", "irfft", "hfft") else "float64")
    r = run_both(dev, fn, x)
    if r is not None:
        check(*r, points=n)


def test_single_precision_stays_single(dev, rng):
    x32 = signal(rng, (5, 16), "float32")
    c64 = signal(rng, (5, 16), "complex64")
    assert loom.fft.fft(loom.asarray(x32, device=dev)).dtype == loom.complex64
    assert loom.fft.rfft(loom.asarray(x32, device=dev)).dtype == loom.complex64
    assert loom.fft.irfft(loom.asarray(c64, device=dev)).dtype == loom.float32
    assert loom.fft.hfft(loom.asarray(c64, device=dev)).dtype == loom.float32
    assert loom.fft.ihfft(loom.asarray(x32, device=dev)).dtype == loom.complex64
    assert loom.fft.fft(loom.asarray(np.arange(6), device=dev)).dtype == loom.complex128
    assert loom.fft.rfft(loom.asarray(np.ones(6, bool), device=dev)).dtype == loom.complex128
    h = signal(rng, (16,), "float16")
    check(*run_both(dev, "fft", h), points=16)
    check(*run_both(dev, "irfft", h), points=30)  # float16 in, float16 out (NumPy's real_dtype)


@pytest.mark.parametrize("fn", ONE_AXIS)
def test_non_contiguous_inputs(dev, rng, fn):
    dtype = "complex128" if fn in ("fft", "ifft", "irfft", "hfft") else "float64"
    base = signal(rng, (6, 10, 7), dtype)
    lb = loom.asarray(base, device=dev)
    views = [(lambda a: a.transpose(2, 0, 1)), (lambda a: a[:, ::2, 1:]), (lambda a: a[::-1, :, ::3])]
    for view in views:
        for axis in (0, 1, -1):
            want = getattr(np.fft, fn)(view(base), axis=axis)
            got = getattr(loom.fft, fn)(view(lb), axis=axis)
            check(got, want, points=view(base).shape[axis])
    np.testing.assert_array_equal(lb.numpy(), base)  # the inputs are left as they were


def test_out_argument(dev, rng):
    x = signal(rng, (4, 8), "float64")
    out = loom.empty((4, 5), dtype=loom.complex128, device=dev)
    r = loom.fft.rfft(loom.asarray(x, device=dev), out=out)
    assert r is out
    check(out, np.fft.rfft(x), points=8)
    with pytest.raises(ValueError, match=r"\[fft.rfft\] output array has wrong shape"):
        loom.fft.rfft(loom.asarray(x, device=dev), out=loom.empty((4, 4), dtype=loom.complex128, device=dev))


# ---- n axes ------------------------------------------------------------------------------------

ND_CASES = [
    dict(),
    dict(axes=(0, 2)),
    dict(axes=(2, 0)),
    dict(axes=(-1, -3)),
    dict(axes=(1,)),
    dict(s=(3, 8), axes=(1, -1)),
    dict(s=(7, -1), axes=(-3, 1)),
    dict(s=(2, 9, 5), axes=(0, 1, 2)),
    dict(axes=(0, 0)),  # NumPy transforms a repeated axis again
    dict(axes=(1, 2, 1)),
]


@pytest.mark.parametrize("fn", N_AXES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_n_axes(dev, rng, fn, dtype):
    x = signal(rng, (4, 5, 6), dtype)
    for case in ND_CASES:
        if fn.endswith("2") and len(case.get("axes", (0, 0))) != 2:
            continue
        for norm in NORMS:
            r = run_both(dev, fn, x, norm=norm, **case)
            if r is not None:
                check(*r, points=x.size * 4)


@pytest.mark.parametrize("fn", N_AXES)
def test_n_axes_batched_and_strided(dev, rng, fn):
    base = signal(rng, (3, 8, 9, 2), "complex64" if fn.startswith(("i", "fft")) else "float32")
    for view in (lambda a: a, lambda a: a.transpose(3, 1, 0, 2), lambda a: a[:, 1::2, ::-1]):
        want = getattr(np.fft, fn)(view(base), axes=(1, 2))
        got = getattr(loom.fft, fn)(view(loom.asarray(base, device=dev)), axes=(1, 2))
        check(got, want, points=72)


def test_s_without_axes_warns_as_numpy(dev, rng):
    x = signal(rng, (4, 6), "float64")
    with pytest.warns(DeprecationWarning):
        got = loom.fft.fftn(loom.asarray(x, device=dev), s=(4, 4))
    with pytest.warns(DeprecationWarning):
        want = np.fft.fftn(x, s=(4, 4))
    check(got, want, points=16)


# ---- errors ------------------------------------------------------------------------------------

ERROR_CASES = [
    ("fft", (5,), dict(n=0), ValueError),
    ("rfft", (5,), dict(n=-2), ValueError),
    ("irfft", (1,), dict(), ValueError),  # n defaults to 0
    ("fft", (0,), dict(), ValueError),  # zero points
    ("fft", (), dict(), IndexError),  # 0-d
    ("fft", (), dict(n=3), IndexError),  # AxisError, an IndexError and a ValueError
    ("fft", (4,), dict(axis=1), IndexError),
    ("ifft", (4, 3), dict(axis=-3), IndexError),
    ("fft", (4,), dict(norm="bogus"), ValueError),
    ("hfft", (4,), dict(norm="Ortho"), ValueError),
    ("fftn", (3, 4), dict(s=(3,), axes=(0, 1)), ValueError),
    ("fftn", (3, 4), dict(axes=(0, 5)), IndexError),
    ("rfftn", (3, 4), dict(axes=()), IndexError),
    ("irfft2", (3, 4), dict(axes=(0, 2)), IndexError),
    ("fft2", (4,), dict(), IndexError),
]


@pytest.mark.parametrize("fn,shape,kw,exc", ERROR_CASES)
def test_errors_as_numpy(dev, rng, fn, shape, kw, exc):
    x = signal(rng, shape, "float64")
    with pytest.raises(exc):
        getattr(np.fft, fn)(x, **kw)
    with pytest.raises(exc, match=rf"\[fft.{fn}\]"):
        getattr(loom.fft, fn)(loom.asarray(x, device=dev), **kw)


def test_zero_size_batches_and_padding_of_empty_axes(dev, rng):
    check(*run_both(dev, "fft", np.ones((3, 0)), axis=0), points=3)
    check(*run_both(dev, "rfft", np.ones((0, 4))), points=4)
    check(*run_both(dev, "fft", np.ones((0,)), n=4), points=4)
    check(*run_both(dev, "fftn", np.ones(())), points=1)  # no axes: the input, unchanged


def test_complex_input_to_real_transforms_is_a_type_error(dev, rng):
    z = loom.asarray(signal(rng, (8,), "complex128"), device=dev)
    for fn in ("rfft", "ihfft", "rfftn", "rfft2"):
        x = z if not fn.endswith("2") else loom.reshape(z, (2, 4))
        with pytest.raises(TypeError, match=rf"\[fft.{fn}\]"):
            getattr(loom.fft, fn)(x)


# ---- helpers -----------------------------------------------------------------------------------

@pytest.mark.parametrize("n", [1, 2, 7, 8, 13])
@pytest.mark.parametrize("d", [1.0, 0.1, 3, -2.5])
def test_fftfreq_rfftfreq(dev, n, d):
    for fn in ("fftfreq", "rfftfreq"):
        got = getattr(loom.fft, fn)(n, d, device=dev)
        assert got.device == dev and got.dtype == loom.float64
        np.testing.assert_array_equal(got.numpy(), getattr(np.fft, fn)(n, d))


def test_fftfreq_errors(dev):
    for fn in ("fftfreq", "rfftfreq"):
        with pytest.raises(ZeroDivisionError):
            getattr(loom.fft, fn)(0, device=dev)
        with pytest.raises(ZeroDivisionError):
            getattr(loom.fft, fn)(4, 0.0, device=dev)
        with pytest.raises(ValueError):
            getattr(loom.fft, fn)(-3, device=dev)
        with pytest.raises(TypeError):
            getattr(loom.fft, fn)(4.0, device=dev)


@pytest.mark.parametrize("fn", ["fftshift", "ifftshift"])
@pytest.mark.parametrize("shape", [(), (1,), (7,), (8,), (4, 5), (3, 0, 5), (3, 4, 5)])
def test_shifts(dev, rng, fn, shape):
    x = signal(rng, shape, "float32")
    if not shape:  # NumPy's roll fails on 0-d arrays (ValueError), so loom refuses them too
        for axes in (None, ()):
            with pytest.raises(ValueError):
                getattr(np.fft, fn)(x, axes=axes)
            with pytest.raises(ValueError, match=rf"\[fft.{fn}\]"):
                getattr(loom.fft, fn)(loom.asarray(x, device=dev), axes=axes)
        return
    for axes in (None, 0, -1, (0,), (-1, 0), (0, 0), ()):
        want = getattr(np.fft, fn)(x, axes=axes)
        got = getattr(loom.fft, fn)(loom.asarray(x, device=dev), axes=axes)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got.numpy(), want)
    if shape:
        with pytest.raises(IndexError):
            getattr(loom.fft, fn)(loom.asarray(x, device=dev), axes=len(shape))


def test_shift_of_frequencies_is_sorted(dev):
    f = loom.fft.fftshift(loom.fft.fftfreq(9, device=dev))
    assert np.all(np.diff(f.numpy()) > 0)
    np.testing.assert_array_equal(loom.fft.ifftshift(f).numpy(), np.fft.fftfreq(9))


# ---- transforms ----------------------------------------------------------------------------------

def test_jit_records_and_replays(dev, rng):
    f = loom.jit(lambda x: loom.fft.irfft(loom.fft.rfft(x, norm="ortho") * 2, n=x.shape[-1], norm="ortho"))
    g = loom.jit(lambda z: loom.fft.fftn(z, axes=(0, 2), norm="forward"))
    for _ in range(3):  # traced once, replayed on fresh inputs
        x = signal(rng, (4, 11), "float64")
        check(f(loom.asarray(x, device=dev)), 2 * x, points=11)
        z = signal(rng, (3, 4, 5), "complex64")
        check(g(loom.asarray(z, device=dev)), np.fft.fftn(z, axes=(0, 2), norm="forward"), points=15)


def test_vmap_batches_every_primitive(dev, rng):
    x = signal(rng, (5, 6, 16), "float32")
    z = signal(rng, (5, 6, 9), "complex128")
    lx, lz = loom.asarray(x, device=dev), loom.asarray(z, device=dev)
    check(loom.vmap(loom.fft.rfft)(lx), np.fft.rfft(x), points=16)
    check(loom.vmap(lambda a: loom.fft.fft(a, axis=0))(lz), np.fft.fft(z, axis=1), points=6)
    check(loom.vmap(lambda a: loom.fft.irfft(a, n=16))(lz), np.fft.irfft(z, n=16), points=16)
    check(loom.vmap(loom.fft.ifft2, in_axes=2)(lz), np.moveaxis(np.fft.ifft2(z, axes=(0, 1)), 2, 0), points=30)


def test_grad_through_fft(dev, rng):
    # Parseval: sum |fft(x)|^2 = n sum x^2, whose gradient is 2 n x (test_grad_fft.py has the rules).
    x = signal(rng, (8,), "float64")
    g = loom.grad(lambda a: loom.sum(loom.abs(loom.fft.fft(a)) ** 2))(loom.asarray(x, device=dev))
    np.testing.assert_allclose(g.numpy(), 16 * x, rtol=1e-10)
    g = loom.grad(lambda a: loom.sum(loom.fft.irfft(loom.fft.rfft(a), n=8) * a))(loom.asarray(x, device=dev))
    np.testing.assert_allclose(g.numpy(), 2 * x, rtol=1e-10)


def test_fft_ops_pass_the_dispatch_point(dev, rng):
    x = loom.asarray(signal(rng, (4, 6), "float32"), device=dev)
    rec = loom._loom._DispatchRecorder()
    rec.start()
    try:
        loom.fft.rfft2(x)
    finally:
        rec.stop()
    events = {name: family for name, family, _, _ in rec.events()}
    assert events.get("fft_r2c") == "fft" and events.get("fft_c2c") == "fft"
