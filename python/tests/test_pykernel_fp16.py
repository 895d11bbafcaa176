"""cuda.fp16 in Python kernels (pykernel/fp16.py), as Numba's: float16 arithmetic, comparisons
and math on every device against NumPy's float16 results (computed in float32 and rounded,
as CUDA's half intrinsics are) on fresh random data."""
import numpy as np
import pytest

import loom
from loom import cuda
from loom.cuda import fp16
from conftest import skip_cpu_kernels


@cuda.jit
def _binary_ops(r, x, y):
    i = cuda.grid(1)
    if i < r.shape[0]:
        r[i, 0] = fp16.hadd(x[i], y[i])
        r[i, 1] = fp16.hsub(x[i], y[i])
        r[i, 2] = fp16.hmul(x[i], y[i])
        r[i, 3] = fp16.hdiv(x[i], y[i])
        r[i, 4] = fp16.hmax(x[i], y[i])
        r[i, 5] = fp16.hmin(x[i], y[i])
        r[i, 6] = fp16.hfma(x[i], y[i], x[i])


@cuda.jit
def _unary_ops(r, x):
    i = cuda.grid(1)
    if i < r.shape[0]:
        r[i, 0] = fp16.hneg(x[i])
        r[i, 1] = fp16.habs(x[i])
        r[i, 2] = fp16.hsqrt(fp16.habs(x[i]))
        r[i, 3] = fp16.hexp(x[i])
        r[i, 4] = fp16.hlog(fp16.habs(x[i]))
        r[i, 5] = fp16.hfloor(x[i])
        r[i, 6] = fp16.hsin(x[i])


@cuda.jit
def _compares(r, x, y):
    i = cuda.grid(1)
    if i < r.shape[0]:
        r[i, 0] = fp16.heq(x[i], y[i])
        r[i, 1] = fp16.hne(x[i], y[i])
        r[i, 2] = fp16.hlt(x[i], y[i])
        r[i, 3] = fp16.hle(x[i], y[i])
        r[i, 4] = fp16.hgt(x[i], y[i])
        r[i, 5] = fp16.hge(x[i], y[i])


def _data(rng, n=200):
    x = (rng.standard_normal(n) * 4).astype(np.float16)
    y = (rng.standard_normal(n) * 4).astype(np.float16)
    y[::7] = x[::7]  # equal pairs for the comparisons
    y[y == 0] = 1
    return x, y


def test_arithmetic_rounds_as_float16(device, rng):
    skip_cpu_kernels(device)
    dev = loom.Device(device)
    x, y = _data(rng)
    r = loom.zeros((x.size, 7), dtype=loom.float16, device=dev)
    _binary_ops[(x.size + 63) // 64, 64](r, loom.asarray(x, device=dev), loom.asarray(y, device=dev))
    got = r.to(loom.cpu()).numpy()
    for k, want in enumerate([x + y, x - y, x * y, x / y, np.maximum(x, y), np.minimum(x, y)]):
        np.testing.assert_array_equal(got[:, k], want, err_msg=f"column {k}")
    fma = (x.astype(np.float64) * y + x).astype(np.float16)  # one rounding; fmaf then half may round twice
    np.testing.assert_allclose(got[:, 6].astype(np.float64), fma, rtol=2 ** -10, atol=2 ** -24)  # + a subnormal ulp


def test_math_matches_float32_rounded(device, rng):
    skip_cpu_kernels(device)
    dev = loom.Device(device)
    x, _ = _data(rng)
    x = np.clip(x, -10, 10)  # exp stays inside float16's range
    x[x == 0] = 1
    r = loom.zeros((x.size, 7), dtype=loom.float16, device=dev)
    _unary_ops[(x.size + 63) // 64, 64](r, loom.asarray(x, device=dev))
    got = r.to(loom.cpu()).numpy()
    f = x.astype(np.float32)
    wants = [-x, np.abs(x), np.sqrt(np.abs(f)), np.exp(f), np.log(np.abs(f)), np.floor(x), np.sin(f)]
    for k, want in enumerate(wants):
        np.testing.assert_allclose(got[:, k].astype(np.float32), np.asarray(want).astype(np.float16), rtol=2 ** -10,
                                   atol=2 ** -24, err_msg=f"column {k}")  # one half ulp, subnormals included


def test_comparisons_give_bools(device, rng):
    skip_cpu_kernels(device)
    dev = loom.Device(device)
    x, y = _data(rng)
    r = loom.zeros((x.size, 6), dtype=loom.bool_, device=dev)
    _compares[(x.size + 63) // 64, 64](r, loom.asarray(x, device=dev), loom.asarray(y, device=dev))
    want = np.stack([x == y, x != y, x < y, x <= y, x > y, x >= y], axis=1)
    np.testing.assert_array_equal(r.to(loom.cpu()).numpy(), want)


@cuda.jit
def _wrong_arity(r, x):
    r[0] = fp16.hadd(x[0])


def test_errors_name_the_function():
    with pytest.raises(cuda.TypingError, match=r"cuda.fp16.hadd\(\) takes 2 argument\(s\), got 1"):
        _wrong_arity[1, 1](loom.zeros(1, dtype=loom.float16), loom.zeros(1, dtype=loom.float16))
    with pytest.raises(RuntimeError, match="only be called inside a kernel"):
        fp16.hadd(1, 2)


@pytest.mark.skipif(not loom.build_info()["cuda"], reason="loom built without CUDA (no NVRTC)")
def test_generated_source_compiles_with_nvrtc_without_a_gpu():
    """The GPU path's compiler runs here too: NVRTC compiles the three kernels for sm_90."""
    from loom.pykernel import types as T
    from loom.pykernel.compiler import translate_kernel
    h1, h2, b2 = T.Array("float16", 1, "C"), T.Array("float16", 2, "C"), T.Array("bool", 2, "C")
    for k, types in [(_binary_ops, (h2, h1, h1)), (_unary_ops, (h2, h1)), (_compares, (b2, h1, h1))]:
        src, _ = translate_kernel(k.py_func, types)
        loom.RawModule(src).compile(90)
