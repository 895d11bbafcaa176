"""x.at[i].multiply/min/max and np.multiply.at/np.minimum.at/np.maximum.at on complex arrays,
against NumPy's unbuffered ufunc.at on fresh random data with many repeated indices: the
multiplies of one element in the order of the values (complex128 on a GPU folds each run of
equal indices in order after a sort; complex64 uses a 64-bit compare-and-swap, whose order
is free), minimum/maximum in NumPy's lexicographic order with NaN (in either part) winning."""
import numpy as np
import pytest

import loom

UFUNC = {"multiply": np.multiply, "min": np.minimum, "max": np.maximum}
TOL = {"complex64": 2e-6, "complex128": 1e-14}


def crand(rng, shape, dtype, scale=1.0):
    return (scale * (rng.standard_normal(shape) + 1j * rng.standard_normal(shape))).astype(dtype)


def reference(x, idx, v, op):
    r = x.copy()
    UFUNC[op].at(r, idx, v)
    return r


def check(got, want, dtype, op):
    if op == "multiply":  # a product of up to ~40 factors: rounding grows with their number
        np.testing.assert_allclose(got, want, rtol=TOL[dtype] * 40, atol=0)
    else:  # a selection: exactly one of the values
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("op", ["multiply", "min", "max"])
def test_at_complex_matches_numpy_with_repeats(device, rng, dtype, op):
    x = crand(rng, (50,), dtype)
    # Values near the unit circle keep long products finite.
    v = np.exp(1j * rng.uniform(-np.pi, np.pi, 2000)).astype(dtype) * rng.uniform(0.98, 1.02, 2000).astype(dtype)
    idx = rng.integers(-50, 50, 2000)  # 40 repeats per element on average, negative ones too
    got = getattr(loom.asarray(x, device=device).at[loom.asarray(idx, device=device)], op)(
        loom.asarray(v, device=device))
    check(got.numpy(), reference(x, idx, v, op), dtype, op)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("op", ["multiply", "min", "max"])
def test_np_ufunc_at_complex_in_place(device, rng, dtype, op):
    x = crand(rng, (6, 7), dtype)
    v = crand(rng, (300, 7), dtype, 0.7)
    idx = rng.integers(0, 6, 300)
    xl = loom.asarray(x, device=device, copy=True)
    UFUNC[op].at(xl, loom.asarray(idx, device=device), loom.asarray(v, device=device))
    check(xl.numpy(), reference(x, idx, v, op), dtype, op)
    # Two index arrays, a broadcast scalar value, and a strided (transposed) target.
    y = crand(rng, (5, 4), dtype)
    i0, i1 = rng.integers(0, 5, 60), rng.integers(0, 4, 60)
    got = getattr(loom.asarray(y, device=device).at[loom.asarray(i0, device=device), loom.asarray(i1, device=device)],
                  op)(np.complex128(0.5 - 1.5j))
    check(got.numpy(), reference(y, (i0, i1), dtype_scalar(dtype, 0.5 - 1.5j), op), dtype, op)
    t = loom.asarray(y, device=device).T
    w = crand(rng, (60, 5), dtype, 0.7)
    got = getattr(t.at[loom.asarray(i1, device=device)], op)(loom.asarray(w, device=device))
    check(got.numpy(), reference(y.T, i1, w, op), dtype, op)


def dtype_scalar(dtype, v):
    return np.dtype(dtype).type(v)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("op", ["min", "max"])
def test_at_complex_min_max_order_and_nan(device, rng, dtype, op):
    """Ties in the real part decided by the imaginary part; a NaN in either part of the
    current value or of any value wins (the first NaN stays)."""
    x = np.array([1 + 1j, 1 + 1j, 2 - 1j, 0, 5 + 5j, 3 + 0j], dtype)
    nan = np.nan
    v = np.array([1 + 2j, 1 + 0j, 2 - 1j, complex(nan, 1), complex(1, nan), 3 + 0j,
                  complex(4, nan), 3 - 1j, 1 + 0.5j, 2 - 2j, 7 + 0j, complex(nan, nan)], dtype)
    idx = np.array([0, 1, 2, 3, 4, 5, 4, 5, 0, 2, 3, 3])
    got = getattr(loom.asarray(x, device=device).at[loom.asarray(idx, device=device)], op)(
        loom.asarray(v, device=device)).numpy()
    want = reference(x, idx, v, op)
    np.testing.assert_array_equal(np.isnan(got.real) | np.isnan(got.imag), np.isnan(want.real) | np.isnan(want.imag))
    ok = ~(np.isnan(want.real) | np.isnan(want.imag))
    np.testing.assert_array_equal(got[ok], want[ok])
    # The NaN that wins keeps its parts (NaN payload aside): the first NaN seen in order.
    for i in np.flatnonzero(~ok):
        np.testing.assert_array_equal(np.isnan([got[i].real, got[i].imag]), np.isnan([want[i].real, want[i].imag]))
