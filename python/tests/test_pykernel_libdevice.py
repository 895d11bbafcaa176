"""cuda.libdevice's C math functions in kernels (pykernel/libdevice.py): float64 names and
their float32 `f` versions against Python's math on fresh data, on every device; the
generated program compiles with NVRTC without a GPU."""
import math

import numpy as np
import pytest

import loom
from loom import cuda
from loom.cuda import libdevice
from conftest import skip_cpu_kernels


@cuda.jit
def k_libdevice(out, out32, x, y):
    out[0] = libdevice.sin(x[0])
    out[1] = libdevice.pow(x[0], y[0])
    out[2] = libdevice.atan2(x[0], y[0])
    out[3] = libdevice.fma(x[0], y[0], 1.0)
    out[4] = libdevice.exp10(y[0])
    out[5] = libdevice.ilogb(x[0] * 1000.0)
    out32[0] = libdevice.sinf(np.float32(x[0]))
    out32[1] = libdevice.hypotf(np.float32(x[0]), np.float32(y[0]))
    out32[2] = libdevice.lgammaf(np.float32(y[0]))


def test_libdevice_functions_match_math(device, rng):
    skip_cpu_kernels(device)
    dev = loom.Device(device)
    x, y = rng.uniform(0.1, 2.0, 1), rng.uniform(0.1, 2.0, 1)
    out, out32 = loom.zeros(6, device=dev), loom.zeros(3, dtype=loom.float32, device=dev)
    k_libdevice[1, 1](out, out32, loom.array(x, device=dev), loom.array(y, device=dev))
    a, b = float(x[0]), float(y[0])
    want = [math.sin(a), a ** b, math.atan2(a, b), a * b + 1.0, 10.0 ** b, math.frexp(a * 1000.0)[1] - 1]
    np.testing.assert_allclose(out.to(loom.cpu()).numpy(), want, rtol=1e-14)
    a32, b32 = np.float32(a), np.float32(b)
    want32 = [math.sin(a32), math.hypot(a32, b32), math.lgamma(b32)]
    np.testing.assert_allclose(out32.to(loom.cpu()).numpy(), want32, rtol=2e-6)


@pytest.mark.skipif(not loom.build_info()["cuda"], reason="loom built without CUDA (no NVRTC)")
def test_libdevice_kernel_compiles_with_nvrtc_without_a_gpu():
    from loom.pykernel import types as T
    from loom.pykernel.compiler import translate_kernel
    arr = T.Array("float64", 1, "C")
    src, _ = translate_kernel(k_libdevice.py_func, (arr, T.Array("float32", 1, "C"), arr, arr))
    loom.RawModule(src).compile(90)


def test_missing_libdevice_function_is_named():
    with pytest.raises(AttributeError, match="fast_sinf"):
        libdevice.fast_sinf
