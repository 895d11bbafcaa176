"""The one-axis correlation kernel of loom.scipy.ndimage (what correlate1d, gaussian_filter
and uniform_filter run on a GPU) against scipy.ndimage on fresh random images: on every GPU
natively, on cpu() through the kernel emulator (forced: cpu() otherwise keeps the generic
path), and its sources through NVRTC."""
import numpy as np
import pytest
import scipy.ndimage as nd
from conftest import needs_nvrtc

import loom
from loom.scipy import ndimage as ln
from loom.scipy.ndimage import _correlate_kernel
from scipy_compare import check


@pytest.fixture
def kernel_path(device, monkeypatch):
    """The device, with the kernel path taken on cpu() too; and a spy counting its launches."""
    monkeypatch.setattr(_correlate_kernel, "force_on_cpu", True)
    calls = []
    real = _correlate_kernel.correlate_axis
    monkeypatch.setattr(_correlate_kernel, "correlate_axis", lambda *a, **k: calls.append(1) or real(*a, **k))
    return device, calls


@pytest.mark.parametrize("mode", ["reflect", "mirror", "nearest", "wrap", "constant", "grid-wrap"])
@pytest.mark.parametrize("shape, axis", [((37,), 0), ((20, 17), 0), ((20, 17), 1), ((6, 7, 9), 1), ((3, 1, 5), 1)])
def test_correlate1d_modes_and_axes(kernel_path, rng, mode, shape, axis):
    device, calls = kernel_path
    x = rng.standard_normal(shape)
    for size, origin in [(5, 0), (4, -2), (7, 3), (1, 0)]:
        w = rng.standard_normal(size)
        got = ln.correlate1d(loom.asarray(x, device=device), w, axis=axis, mode=mode, cval=-0.75, origin=origin)
        check(got, nd.correlate1d(x, w, axis=axis, mode=mode, cval=-0.75, origin=origin), device=device, rtol=1e-12)
    assert len(calls) == 4


@pytest.mark.parametrize("in_dt, out_dt", [("float32", None), ("float64", None), ("float32", "float64"),
                                           ("float64", "float32")])
def test_dtypes_as_scipy(kernel_path, rng, in_dt, out_dt):
    """SciPy sums in float64 whatever the image's dtype, then rounds once to the output's."""
    device, calls = kernel_path
    x = (rng.standard_normal((30, 40)) * 100).astype(in_dt)
    got = ln.gaussian_filter(loom.asarray(x, device=device), 1.5, output=out_dt)
    check(got, nd.gaussian_filter(x, 1.5, output=out_dt), device=device, rtol=1e-6 if "float32" in (in_dt, out_dt) else 1e-12)
    assert len(calls) == 2


def test_filters_built_on_it(kernel_path, rng):
    device, calls = kernel_path
    x = rng.standard_normal((25, 31)).astype(np.float32)
    lx = loom.asarray(x, device=device)
    check(ln.uniform_filter(lx, 5), nd.uniform_filter(x, 5), device=device, rtol=1e-6)
    check(ln.gaussian_filter1d(lx, 2.0, axis=0, order=2, mode="nearest"),
          nd.gaussian_filter1d(x, 2.0, axis=0, order=2, mode="nearest"), device=device, rtol=1e-5)
    check(ln.convolve1d(lx, [1.0, -2.0, 0.0, 3.0], mode="wrap"), nd.convolve1d(x, [1.0, -2.0, 0.0, 3.0], mode="wrap"),
          device=device, rtol=1e-6)
    assert len(calls) == 4


def test_output_array_and_nonfinite_values(kernel_path, rng):
    """A given output array is written; a zero weight adds 0 * inf = NaN, as in SciPy's correlate1d."""
    device, calls = kernel_path
    x = rng.standard_normal((12, 10))
    x[3, 4] = np.inf
    out = loom.empty((12, 10), dtype=loom.float32, device=device)
    got = ln.correlate1d(loom.asarray(x, device=device), [0.5, 0.0, 0.25], axis=1, output=out)
    assert got is out
    want = nd.correlate1d(x, [0.5, 0.0, 0.25], axis=1, output=np.float32)
    np.testing.assert_array_equal(np.isnan(out.numpy()), np.isnan(want))
    np.testing.assert_allclose(out.numpy(), want, rtol=1e-6)
    assert len(calls) == 1
    # SciPy's N-D correlate leaves out weights of at most DBL_EPSILON: no NaN there.
    w2 = np.array([[0.0, 0.5], [0.25, 1e-17]])
    got = ln.correlate(loom.asarray(x, device=device), w2)
    want = nd.correlate(x, w2)
    np.testing.assert_array_equal(np.isnan(got.numpy()), np.isnan(want))
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12)


def test_other_inputs_take_the_generic_path(kernel_path, rng):
    """Integer images or outputs and complex weights are not the kernel's: they still match."""
    device, calls = kernel_path
    xi = rng.integers(-50, 50, (15, 12)).astype(np.int16)
    check(ln.correlate1d(loom.asarray(xi, device=device), [0.3, 0.5, 0.2]), nd.correlate1d(xi, [0.3, 0.5, 0.2]),
          device=device, int_atol=1)
    xf = rng.standard_normal((15, 12))
    check(ln.correlate1d(loom.asarray(xf, device=device), [0.5, 1.0], output=np.int32),
          nd.correlate1d(xf, [0.5, 1.0], output=np.int32), device=device, int_atol=1)
    assert not calls


def test_64_bit_indices(kernel_path, rng, monkeypatch):
    """The variant for images of 2^31 elements or more (32-bit indices otherwise), forced."""
    device, calls = kernel_path
    monkeypatch.setattr(_correlate_kernel, "wide_from", 0)
    x = rng.standard_normal((14, 11, 6))
    for axis, mode in [(0, "reflect"), (1, "constant"), (2, "wrap")]:
        got = ln.gaussian_filter1d(loom.asarray(x, device=device), 1.2, axis=axis, mode=mode, cval=0.5)
        check(got, nd.gaussian_filter1d(x, 1.2, axis=axis, mode=mode, cval=0.5), device=device, rtol=1e-12)
    assert len(calls) == 3


@needs_nvrtc
@pytest.mark.parametrize("in_dt, out_dt", [("float32", "float32"), ("float64", "float32"), ("float64", "float64")])
@pytest.mark.parametrize("wide", [False, True])
def test_kernel_compiles_for_a_gpu(in_dt, out_dt, wide):
    k = _correlate_kernel._kernel(in_dt, out_dt, wide)
    loom._loom._compile_for_testing(k.code, k.name, 90)


@pytest.mark.parametrize("forced", [True, False])
@pytest.mark.parametrize("weights", [[1.0, 2.0, 3.0, 2.0, 1.0], [-1.0, -0.5, 0.0, 0.5, 1.0], [0.25, 0.0, 0.25]])
def test_symmetric_filters_sum_in_pairs_as_scipy(device, rng, monkeypatch, forced, weights):
    """(Anti)symmetric filters are summed as SciPy's correlate1d sums them, (x[-j] +- x[j]) * w:
    the same NaNs where infinities meet (inf - inf), on the kernel and the generic path."""
    monkeypatch.setattr(_correlate_kernel, "force_on_cpu", forced)
    x = rng.standard_normal((9, 40))
    x[2, 10] = x[2, 14] = np.inf
    x[5, 20] = -np.inf
    want = nd.correlate1d(x, weights, axis=1, mode="nearest")
    got = ln.correlate1d(loom.asarray(x, device=device), weights, axis=1, mode="nearest").numpy()
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    np.testing.assert_allclose(got, want, rtol=1e-12)
