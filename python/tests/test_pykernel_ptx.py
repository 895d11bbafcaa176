"""PTX of Python kernels and device functions (Numba's cuda.compile_ptx, cuda.compile,
kernel.inspect_asm), made by NVRTC without a GPU; and builtin max/min on floats, which
follow Numba (fmax/fmin: PTX max.f64, a NaN loses to a number)."""
import re

import numpy as np
import pytest

import loom
from loom import cuda
from loom.cuda import f2, float32, float64, int32

pytestmark = pytest.mark.skipif(not loom.build_info()["cuda"], reason="loom built without CUDA (no NVRTC)")


def add(a, b):
    return a + b


def to_int8(x):
    return np.int8(x)


def test_compile_ptx_device_function_numba_abi():
    ptx, resty = cuda.compile_ptx(add, (float32, float32), device=True)
    assert resty == float32
    # Numba's ABI: the value through a pointer, an int status returned
    assert re.search(r"\.visible \.func\s+\(\.param \.b32 func_retval0\) add\(\s*\.param \.b64", ptx)
    assert "add.f32" in ptx or "add.rn.f32" in ptx


def test_compile_ptx_device_function_c_abi_and_declared_return():
    ptx, resty = cuda.compile_ptx(add, "float64(float32, float32)", device=True, abi="c",
                                  abi_info={"abi_name": "my_add"})
    assert resty == float64
    assert re.search(r"\.visible \.func\s+\(\.param \.b64 func_retval0\) my_add\(", ptx)
    assert "cvt.f64.f32" in ptx


def test_compile_ptx_casts_as_numba():
    ptx, resty = cuda.compile_ptx(to_int8, (f2,), device=True)
    assert "cvt.rzi.s8.f16" in ptx and str(resty) == "int8"


def test_compile_ptx_kernel_for_an_arch():
    def k(a, n):
        i = cuda.grid(1)
        if i < a.size:
            a[i] += n

    ptx, resty = cuda.compile_ptx(k, "void(float32[:], int32)", cc=(9, 0))
    assert str(resty) == "void"
    assert ".target sm_90" in ptx and ".visible .entry loom_pk_k(" in ptx
    ptx2, _ = cuda.compile(k, (float32[:], int32), device=False, abi="numba")
    assert ".visible .entry loom_pk_k(" in ptx2


def test_compile_ptx_bad_arguments():
    with pytest.raises(ValueError, match="cc is a"):
        cuda.compile_ptx(add, (float32, float32), device=True, cc=90)
    with pytest.raises(NotImplementedError, match="LTO-IR"):
        cuda.compile(add, (float32, float32), output="ltoir")
    with pytest.raises(loom.TypingError, match="returns void"):
        cuda.compile_ptx(add, "float32(float32, float32)")


@cuda.jit
def builtin_max_min(a, b, hi, lo):
    i = cuda.grid(1)
    if i < hi.size:
        hi[i] = max(a[i], b[i])
        lo[i] = min(a[i], b[i])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_inspect_asm_and_float_max_min_as_numba(device, rng, dtype):
    n = 300
    a, b = rng.standard_normal(n).astype(dtype), rng.standard_normal(n).astype(dtype)
    a[::7], b[::5] = np.nan, np.nan
    hi = loom.zeros(n, dtype=dtype, device=device)
    lo = loom.zeros(n, dtype=dtype, device=device)
    builtin_max_min[(n + 127) // 128, 128](loom.asarray(a, device=device), loom.asarray(b, device=device), hi, lo)
    np.testing.assert_array_equal(hi.numpy(), np.fmax(a, b))
    np.testing.assert_array_equal(lo.numpy(), np.fmin(a, b))
    bits = "f32" if dtype == "float32" else "f64"
    asm = builtin_max_min.inspect_asm()
    ptx = next(p for sig, p in asm.items() if str(sig[0].dtype) == dtype)
    assert f"max.{bits}" in ptx and f"min.{bits}" in ptx
    sig = next(sig for sig in asm if str(sig[0].dtype) == dtype)
    assert builtin_max_min.inspect_asm(sig) == ptx
