"""Whole-array reductions inside kernels (pykernel/array_reductions.py): a.sum(), np.max(a),
prod, min, all, any, mean over arrays and views, in NumPy's result types, against NumPy on
fresh data on every device; NaN propagates through max and min; arguments are refused."""
import numpy as np
import pytest

import loom
from loom import cuda
from conftest import skip_cpu_kernels


@cuda.jit
def k_reduce(out, iout, a, b):
    out[0] = a.sum()
    out[1] = np.max(a[1:])
    out[2] = a.min()
    out[3] = a.mean()
    out[4] = a[1].sum()
    out[5] = np.mean(a[:, ::2])
    iout[0] = np.prod(b[:3])
    iout[1] = np.all(b)
    iout[2] = b.any()
    iout[3] = b.sum()


def test_reductions_match_numpy(device, rng):
    skip_cpu_kernels(device)
    dev = loom.Device(device)
    for _ in range(3):
        a = rng.standard_normal((3, 5))
        b = rng.integers(-3, 4, 6).astype(np.int32)
        out, iout = loom.zeros(6, device=dev), loom.zeros(4, dtype=loom.int64, device=dev)
        k_reduce[1, 1](out, iout, loom.array(a, device=dev), loom.array(b, device=dev))
        np.testing.assert_allclose(out.to(loom.cpu()).numpy(),
                                   [a.sum(), a[1:].max(), a.min(), a.mean(), a[1].sum(), a[:, ::2].mean()],
                                   rtol=1e-13)
        np.testing.assert_array_equal(iout.to(loom.cpu()).numpy(), [b[:3].prod(), b.all(), b.any(), b.sum()])


@cuda.jit
def k_nan(out, a):
    out[0] = a.max()
    out[1] = a.min()


def test_nan_propagates(device):
    skip_cpu_kernels(device)
    dev = loom.Device(device)
    for a in ([1.0, np.nan, 3.0], [np.nan, 1.0], [2.0, 5.0, np.nan]):
        out = loom.zeros(2, device=dev)
        k_nan[1, 1](out, loom.array(np.array(a), device=dev))
        assert np.isnan(out.to(loom.cpu()).numpy()).all()


def test_axis_is_refused():
    @cuda.jit
    def k(out, a):
        out[0] = a.sum(axis=0)[0]

    with pytest.raises(loom.UnsupportedError, match=r"\[k\] a.sum\(\) takes no arguments in kernels"):
        k[1, 1](loom.zeros(1, device=loom.cpu()), loom.zeros((2, 2), device=loom.cpu()))
