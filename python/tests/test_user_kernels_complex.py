"""complex64/complex128 parameters of CuPy-form ElementwiseKernel and ReductionKernel
(`complex<float>` / `complex<double>` in the source: loom_user_complex.cuh), on every device,
against NumPy on fresh random data."""
import numpy as np
import pytest

import loom
from conftest import needs_nvrtc, randn


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_elementwise_complex_arithmetic_and_math(device, rng, dtype):
    x, y = randn(rng, (40,), True).astype(dtype), randn(rng, (40,), False)
    k = loom.ElementwiseKernel("T x, float64 y, T s", "T z", "z = exp(x) * s + conj(x) * y", "cmath")
    s = 0.5 - 2j
    got = k(loom.asarray(x, device=device), loom.asarray(y, device=device), s)
    assert got.dtype == dtype and got.device == device
    tol = 2e-5 if dtype == "complex64" else 1e-12
    want = np.exp(x) * np.asarray(s, dtype) + np.conj(x) * y
    terms = np.abs(np.exp(x) * s) + np.abs(x * y)  # the rounding scales with the terms, not the sum
    assert np.all(np.abs(got.numpy() - want) <= tol * terms)


def test_elementwise_complex_to_real_and_real_to_complex(device, rng):
    x = randn(rng, (30,), True)
    parts = loom.ElementwiseKernel("complex128 x", "float64 r, float64 m", "r = x.real() + x.imag(); m = abs(x)",
                                   "parts")
    r, m = parts(loom.asarray(x, device=device))
    np.testing.assert_allclose(r.numpy(), x.real + x.imag, rtol=1e-12)
    np.testing.assert_allclose(m.numpy(), np.abs(x), rtol=1e-12)
    widen = loom.ElementwiseKernel("float32 x", "complex64 z", "z = complex<float>(x, -x)", "widen")
    f = randn(rng, (30,), False).astype(np.float32)
    np.testing.assert_array_equal(widen(loom.asarray(f, device=device)).numpy(), (f - 1j * f).astype(np.complex64))
    with pytest.raises(TypeError, match="same_kind"):
        loom.ElementwiseKernel("float64 x", "float64 y", "y = x", "cp")(loom.asarray(x, device=device))


def test_reduction_complex(device, rng):
    x = randn(rng, (7, 300), True).astype(np.complex64)
    sumsq = loom.ReductionKernel("T x", "T y", "x * x", "a + b", "y = a", "0", "csumsq")
    got = sumsq(loom.asarray(x, device=device), axis=1)
    x2 = x.astype(np.complex128)
    scale = np.sum(np.abs(x2) ** 2, axis=1)  # complex64 partial sums: the error scales with it
    assert np.all(np.abs(got.numpy() - np.sum(x2 ** 2, axis=1)) <= 1e-5 * scale)


@needs_nvrtc
def test_complex_kernels_compile_with_nvrtc(rng):
    x = loom.asarray(randn(rng, (8,), True), device=loom.cpu())
    k = loom.ElementwiseKernel("T x", "T y", "y = sqrt(x) + pow(x, 2.0) / polar(1.0, 0.25)", "c_nvrtc")
    assert "loom_user_complex.cuh" in k._source(x)
    k._compile(x)
