"""The comparison the loom.scipy tests share: a loom result against SciPy's, by dtype,
shape, device, and values within a relative tolerance of the result's largest magnitude
(filters and transforms give values near zero whose own relative error means nothing)."""
import numpy as np
import pytest

import loom

RTOL = {"float64": 1e-6, "complex128": 1e-6, "float32": 2e-4, "complex64": 2e-4}


def check(got, want, *, device=None, rtol=None, dtype=True, int_atol=0):
    """got (a loom array) matches want (SciPy's NumPy result). int_atol: integer results
    cast from float sums (a filter with float weights, interpolation) may be one unit apart
    where the sum lands within rounding of a cut (63.4999... and 63.5000...)."""
    assert isinstance(got, loom.ndarray), type(got)
    want = np.asarray(want)
    if dtype:
        assert got.dtype == want.dtype, f"dtype {got.dtype} != {want.dtype}"
    assert got.shape == want.shape, f"shape {got.shape} != {want.shape}"
    if device is not None:
        assert got.device == device, f"device {got.device} != {device}"
    g = got.numpy()
    if want.dtype.kind in "biu" and g.dtype.kind in "biu":
        if int_atol:
            diff = np.abs(g.astype(np.int64) - want.astype(np.int64))
            assert diff.max(initial=0) <= int_atol and np.mean(diff != 0) < 0.05, "integer results differ"
        else:
            np.testing.assert_array_equal(g, want)
        return
    tol = RTOL.get(want.dtype.name, 1e-6) if rtol is None else rtol
    # SciPy gives NaN where a result is undefined (a label with no elements): loom must
    # give NaN at the same places, and the rest is compared.
    nan = np.isnan(want)
    np.testing.assert_array_equal(np.isnan(g), nan, err_msg="NaN at other places than SciPy's")
    g, want = g[~nan], want[~nan]
    scale = max(1.0, float(np.max(np.abs(want)))) if want.size else 1.0
    err = float(np.max(np.abs(g.astype(np.complex128) - want.astype(np.complex128)))) if want.size else 0.0
    assert err <= tol * scale, f"max error {err:.3g} > {tol:g} x {scale:.3g}"


def same_error(loom_call, scipy_call):
    """Both calls raise, loom with SciPy's exception type; returns loom's exception."""
    with pytest.raises(Exception) as ref:
        scipy_call()
    with pytest.raises(type(ref.value)) as got:
        loom_call()
    return got.value
