"""loom.scipy.ndimage.generic_filter and generic_filter1d against scipy.ndimage on fresh random
images, on every device: with a loom.RawKernel or a loom.ReductionKernel (CuPy's forms, run on
the GPU or in the kernel emulator) and with a Python function (SciPy's form); the generated
sources through NVRTC."""
import numpy as np
import pytest
import scipy.ndimage as nd
from conftest import needs_nvrtc

import loom
from loom.scipy import ndimage as ln
from loom.scipy.ndimage import _generic, _generic_reduction
from scipy_compare import check, same_error

RMS = loom.RawKernel(r'''extern "C" __global__
void rms(const double* x, int filter_size, double* y) {
    double ss = 0;
    for (int i = 0; i < filter_size; ++i) { ss += x[i] * x[i]; }
    y[0] = ss / filter_size;
}''', "rms")
LESS = loom.RawKernel(r'''extern "C" __global__
void lt(const double* x, int filter_size, double* y) {
    int n = 0;
    double c = x[filter_size / 2];
    for (int i = 0; i < filter_size; ++i) { n += c > x[i]; }
    y[0] = n;
}''', "lt")
SHIFT = loom.RawKernel(r'''extern "C" __global__
void shift(const double* in, ptrdiff_t in_length, double* out, ptrdiff_t out_length) {
    for (int i = 0; i < out_length; ++i) { out[i] = in[i] + 0.5 * in[i + in_length - out_length]; }
}''', "shift")

# CuPy's form of a window reduction: `_raw_x` is the window, `_in_ind.size()` its size.
LESS_RED = loom.ReductionKernel("X x", "Y y", "_raw_x[_in_ind.size() / 2] > x", "a + b", "y = a", "0", "lt",
                                reduce_type="int")
RMS_RED = loom.ReductionKernel("X x", "float64 y", "double(x) * x", "a + b", "y = a / _in_ind.size()", None, "rms",
                               reduce_type="float64")
RANGE_RED = loom.ReductionKernel("T x", "T y", "x", "max(a, b)", "y = a - _raw_x[0]", None, "top_minus_first")


def rms(x):
    return (x * x).sum() / len(x)


def less(x):
    return (x[len(x) // 2] > x).sum()


def top_minus_first(x):
    return x.max() - x[0]


def shift(src, dst):
    dst[:] = src[:dst.size] + 0.5 * src[src.size - dst.size:]


@pytest.mark.parametrize("dtype", [np.float64, np.uint8, np.int16])
@pytest.mark.parametrize("kernel, function", [(RMS, rms), (LESS, less)])
def test_generic_filter(device, rng, dtype, kernel, function):
    x = (rng.random((6, 7, 5)) * 50).astype(dtype)
    lx = loom.asarray(x, device=device)
    for kw in ({"size": 3}, {"footprint": np.array([[1, 0, 1], [0, 1, 1]], bool), "mode": "constant", "cval": 1.0, "axes": (0, 2)},
               {"size": (3, 4, 2), "origin": (0, 1, 0), "mode": "wrap"}, {"size": 3, "output": np.float64}):
        want = nd.generic_filter(x, function, **kw)
        check(ln.generic_filter(lx, kernel, **kw), want, device=device)
        check(ln.generic_filter(lx, function, **kw), want, device=device)


@pytest.mark.parametrize("dtype", [np.float64, np.uint8, np.int16, np.float32])
@pytest.mark.parametrize("kernel, function", [(LESS_RED, less), (RMS_RED, rms), (RANGE_RED, top_minus_first)])
def test_generic_filter_reduction_kernel(device, rng, dtype, kernel, function):
    x = (rng.random((6, 7, 5)) * 50).astype(dtype)
    lx = loom.asarray(x, device=device)
    for kw in ({"size": 3}, {"footprint": np.array([[1, 0, 1], [0, 1, 1]], bool), "mode": "constant", "cval": 1.0,
                             "axes": (0, 2)},
               {"size": (3, 4, 2), "origin": (0, 1, 0), "mode": "wrap"}, {"size": 3, "output": np.float64}):
        check(ln.generic_filter(lx, kernel, **kw), nd.generic_filter(x, function, **kw), device=device, rtol=1e-5)


@pytest.mark.parametrize("dtype", [np.float64, np.uint8])
def test_generic_filter1d(device, rng, dtype):
    x = (rng.random((6, 7)) * 50).astype(dtype)
    lx = loom.asarray(x, device=device)
    for size, axis, kw in ((3, 0, {}), (4, -1, {"mode": "nearest"}), (2, 1, {"origin": -1, "mode": "mirror"}),
                           (5, 0, {"output": np.float64, "mode": "constant", "cval": 2.0})):
        want = nd.generic_filter1d(x, shift, size, axis=axis, **kw)
        check(ln.generic_filter1d(lx, SHIFT, size, axis=axis, **kw), want, device=device)
        check(ln.generic_filter1d(lx, shift, size, axis=axis, **kw), want, device=device)


def test_errors(device):
    x = np.ones((4, 5))
    lx = loom.asarray(x, device=device)
    same_error(lambda: ln.generic_filter1d(lx, shift, 0), lambda: nd.generic_filter1d(x, shift, 0))
    same_error(lambda: ln.generic_filter1d(lx, shift, 3, origin=2), lambda: nd.generic_filter1d(x, shift, 3, origin=2))
    same_error(lambda: ln.generic_filter(lx, rms), lambda: nd.generic_filter(x, rms))
    with pytest.raises(TypeError, match="RawKernel, a loom.ReductionKernel or a Python callable"):
        ln.generic_filter(lx, "rms", size=3)
    with pytest.raises(TypeError, match="gives the function whole lines"):
        ln.generic_filter1d(lx, LESS_RED, 3)
    two = loom.ReductionKernel("T x, T w", "T y", "x * w", "a + b", "y = a", "0", "dot")
    with pytest.raises(TypeError, match="one input and one output"):
        ln.generic_filter(lx, two, size=3)
    with pytest.raises(TypeError, match="not an ElementwiseKernel"):
        ln.generic_filter(lx, loom.ElementwiseKernel("T x", "T y", "y = x", "copy"), size=3)


@needs_nvrtc
def test_driver_source_compiles_for_a_gpu():
    for kernel, kind in ((RMS, "element"), (SHIFT, "line")):
        driver = _generic._driver(kernel, kind)
        loom._loom._compile_for_testing(driver.code, driver.name, 90)
    for kernel, dtype in ((LESS_RED, np.uint8), (RMS_RED, np.int16), (RANGE_RED, np.float32)):
        raw, _ = _generic_reduction.window_reduction(kernel, dtype, dtype)
        loom._loom._compile_for_testing(raw.code, raw.name, 90)
