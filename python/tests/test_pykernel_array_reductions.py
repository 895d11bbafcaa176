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


CASES = (np.float64([1.0, 0.0, np.inf, np.nan]), np.float64([[1.0, 1.5], [1.5, 1.0]]), np.int32([3, 4, -2]))


@cuda.jit
def k_unrolled(flags, sums, extra):
    i = 0
    for case in cuda.literal_unroll(CASES):  # arrays of different dtypes and ranks: one copy each
        flags[i] = np.all(case)
        sums[i] = case.sum()
        i += 1
    for x in cuda.literal_unroll((1, 2.5, True)):
        if x == 2.5:
            continue
        extra[0] += x


def test_literal_unroll_over_heterogeneous_tuples(device):
    skip_cpu_kernels(device)
    dev = loom.Device(device)
    flags, sums = loom.zeros(3, dtype=loom.bool, device=dev), loom.zeros(3, device=dev)
    extra = loom.zeros(1, device=dev)
    k_unrolled[1, 1](flags, sums, extra)
    np.testing.assert_array_equal(flags.to(loom.cpu()).numpy(), [np.all(c) for c in CASES])
    np.testing.assert_array_equal(sums.to(loom.cpu()).numpy(), [c.sum() for c in CASES])
    assert extra.to(loom.cpu()).numpy()[0] == 2.0


def test_break_in_an_unrolled_loop_is_refused():
    @cuda.jit
    def k(out):
        for x in cuda.literal_unroll((1, 2)):
            if x == 1:
                break
            out[0] = x

    with pytest.raises(loom.UnsupportedError, match=r"\[k\] break in a literal_unroll loop"):
        k[1, 1](loom.zeros(1, device=loom.cpu()))


@pytest.mark.skipif(not loom.build_info()["cuda"], reason="loom built without CUDA (no NVRTC)")
def test_unrolled_program_compiles_with_nvrtc_without_a_gpu():
    """Also the frozen global arrays holding inf and nan (constant initializers NVRTC accepts)."""
    from loom.pykernel import types as T
    from loom.pykernel.compiler import translate_kernel
    src, _ = translate_kernel(k_unrolled.py_func, (T.Array("bool", 1, "C"), T.Array("float64", 1, "C"),
                                                   T.Array("float64", 1, "C")))
    assert "(0.0 / 0.0)" in src and "(1.0 / 0.0)" in src
    loom.RawModule(src).compile(90)


@cuda.jit
def k_nan_reductions(out, a, b):
    out[0] = np.nansum(a)
    out[1] = np.nanmax(a)
    out[2] = np.nanmin(a)
    out[3] = np.nanmean(a)
    out[4] = np.nanprod(a)
    out[5] = np.count_nonzero(b)
    out[6] = a[:2].var()
    out[7] = np.std(b)
    out[8] = np.var(a[1:2])


def test_nan_reductions_var_std_and_count_match_numpy(device, rng):
    skip_cpu_kernels(device)
    dev = loom.Device(device)
    for _ in range(3):
        a = rng.standard_normal(7)
        a[rng.integers(2, 7, 2)] = np.nan  # a[:2] keeps numbers
        b = rng.integers(-2, 3, 9).astype(np.int32)
        out = loom.zeros(9, device=dev)
        k_nan_reductions[1, 1](out, loom.array(a, device=dev), loom.array(b, device=dev))
        want = [np.nansum(a), np.nanmax(a), np.nanmin(a), np.nanmean(a), np.nanprod(a), np.count_nonzero(b),
                a[:2].var(), np.std(b), np.var(a[1:2])]
        np.testing.assert_allclose(out.to(loom.cpu()).numpy(), want, rtol=1e-13, atol=1e-15)


def test_all_nan_max_is_nan(device):
    skip_cpu_kernels(device)

    @cuda.jit
    def k(out, a):
        out[0] = np.nanmax(a)
        out[1] = np.nanmin(a)

    out = loom.zeros(2, device=loom.Device(device))
    k[1, 1](out, loom.array(np.array([np.nan, np.nan]), device=loom.Device(device)))
    assert np.isnan(out.to(loom.cpu()).numpy()).all()
