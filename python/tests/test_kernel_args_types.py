"""Kernel arguments meet their parameters' C types on every device (issue 19): Python
scalars convert by NumPy's rules instead of passing their bits, array dtypes must match
pointer element types, and raw addresses pass only through loom.driver allocations or
ctypes.c_void_p."""
import ctypes

import numpy as np
import pytest

import loom

SOURCE = r"""
extern "C" __global__ void axpb(float* y, const float* __restrict__ x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + 1.0f;
}
extern "C" __global__ void put(float* y, float a, int n, unsigned char c, bool b) {
  int i = threadIdx.x;
  if (i < n) y[i] = a + c + (b ? 1000.0f : 0.0f);
}
template <typename T> __global__ void scale(T* y, T a, int n) {
  int i = threadIdx.x;
  if (i < n) y[i] *= a;
}
"""


def mod():
    return loom.RawModule(SOURCE, name_expressions=("scale<double>",))


def test_python_numbers_convert_to_the_parameter_type(device, rng):
    put = mod().get_function("put")
    y = loom.zeros(8, dtype=loom.float32, device=device)
    put((1,), (8,), (y, 2, 8, 3, True))   # the int 2 is 2.0f, not the bits 3e-45
    np.testing.assert_array_equal(y.numpy(), np.full(8, 1005, np.float32))
    put((1,), (8,), (y, True, np.int16(8), np.uint8(200), False))
    np.testing.assert_array_equal(y.numpy(), np.full(8, 201, np.float32))
    put((1,), (8,), (y, np.float64(0.1), 8, 0, False))  # same_kind: float64 rounds to float32
    np.testing.assert_array_equal(y.numpy(), np.full(8, np.float32(0.1)))


@pytest.mark.parametrize("args, error, words", [
    (("y", 2.0, 8.0, 0, False), TypeError, ["put", "parameter 2 (int n)", "Python float"]),
    (("y", 2.0, 8, 300, False), OverflowError, ["put", "300", "unsigned char c", "uint8"]),
    (("y", 2.0, 8, -1, False), OverflowError, ["put", "-1", "unsigned char c"]),
    (("y", 2.0, 8, 0, 1), TypeError, ["put", "bool b", "True or False"]),
    (("y", 2.0, 8, np.int64(1), False), TypeError, ["put", "int64", "uint8", "same_kind"]),
    (("y", np.complex64(1), 8, 0, False), TypeError, ["put", "float a"]),
    (("y", 1j, 8, 0, False), TypeError, ["put", "float a"]),
    (("y", 2.0, 2**70, 0, False), OverflowError, ["put", "64 bits"]),
    ((12345, 2.0, 8, 0, False), TypeError, ["put", "float* y", "pointer", "c_void_p"]),
    (("y", "y", 8, 0, False), TypeError, ["put", "float32 array", "float a"]),
])
def test_refused_arguments_name_the_kernel_and_parameter(device, args, error, words):
    put = mod().get_function("put")
    y = loom.zeros(8, dtype=loom.float32, device=device)
    with pytest.raises(error) as e:
        put((1,), (8,), tuple(y if a == "y" else a for a in args))
    for w in words:
        assert w in str(e.value), (w, str(e.value))


def test_array_dtypes_must_match_pointer_element_types(device, rng):
    k = mod().get_function("axpb")
    x = rng.standard_normal(100).astype(np.float32)
    y = loom.zeros(100, dtype=loom.float32, device=device)
    k((1,), (128,), (y, loom.asarray(x, device=device), 2, 100))
    np.testing.assert_allclose(y.numpy(), 2 * x + 1, rtol=1e-6)
    with pytest.raises(TypeError, match=r"axpb.*int32 array.*const float\* __restrict__ x.*float32"):
        k((1,), (128,), (y, loom.asarray(x.astype(np.int32), device=device), 2.0, 100))
    with pytest.raises(TypeError, match=r"axpb.*float64 array.*const float\* __restrict__ x"):
        k((1,), (128,), (y, loom.In(x.astype(np.float64)), 2.0, 100))
    out = np.zeros(100, np.float32)
    k((1,), (128,), (loom.Out(out), loom.In(x), 2.0, 100))  # matching In/Out pass
    np.testing.assert_allclose(out, 2 * x + 1, rtol=1e-6)


def test_templates_through_name_expressions(device, rng):
    scale = mod().get_function("scale<double>")
    host = rng.standard_normal(16)
    y = loom.asarray(host.copy(), device=device)  # on cpu() asarray may share the buffer
    scale((1,), (16,), (y, 3, 16))  # T = double: the int 3 is 3.0
    np.testing.assert_allclose(y.numpy(), host * 3, rtol=1e-15)
    with pytest.raises(TypeError, match=r"scale<double>.*float32 array.*pointer to float64"):
        scale((1,), (16,), (loom.zeros(16, dtype=loom.float32, device=device), 3.0, 16))


def test_sourcemodule_kernels_are_typed(device):
    k = loom.SourceModule("__global__ void twice(float *a, int n) { int i = threadIdx.x; if (i < n) a[i] *= 2; }")
    f = k.get_function("twice")
    a = loom.asarray(np.arange(4, dtype=np.float32), device=device)
    f(a, 4, block=(4, 1, 1))
    np.testing.assert_array_equal(a.numpy(), [0, 2, 4, 6])
    with pytest.raises(TypeError, match="twice.*int n"):
        f(a, 4.0, block=(4, 1, 1))


def test_raw_addresses_pass_through_allocations_and_c_void_p(device, rng):
    k = mod().get_function("axpb")
    x = rng.standard_normal(32).astype(np.float32)
    dst = loom.driver.mem_alloc(32 * 4, device=device)
    xs = loom.asarray(x, device=device)
    k((1,), (32,), (dst, xs, 1.0, 32))
    got = np.empty(32, np.float32)
    loom.driver.memcpy_dtoh(got, dst)
    np.testing.assert_allclose(got, x + 1, rtol=1e-6)
    k((1,), (32,), (ctypes.c_void_p(int(dst)), xs, 2.0, 32))  # the escape hatch: unchecked
    loom.driver.memcpy_dtoh(got, dst)
    np.testing.assert_allclose(got, 2 * x + 1, rtol=1e-6)
    with pytest.raises(TypeError, match="axpb.*pointer"):
        k((1,), (32,), (int(dst), xs, 2.0, 32))


def test_parameters_of_unknown_type_keep_the_size_rules(device):
    # A typedef loom cannot resolve, and a kernel whose two #if branches differ: by size.
    src = r"""
    typedef float real;
    extern "C" __global__ void k(real* y, real a) { y[threadIdx.x] = a; }
    #define ARGS float* y, float a
    extern "C" __global__ void macro(ARGS) { y[threadIdx.x] = a; }
    #ifdef WIDE
    extern "C" __global__ void t(double* y, double a) { y[threadIdx.x] = a; }
    #else
    extern "C" __global__ void t(float* y, float a) { y[threadIdx.x] = a; }
    #endif
    """
    m = loom.RawModule(src)
    y = loom.zeros(4, dtype=loom.float32, device=device)
    m.get_function("k")((1,), (4,), (y, 1.5))
    np.testing.assert_array_equal(y.numpy(), np.full(4, 1.5, np.float32))
    m.get_function("macro")((1,), (4,), (y, 0.75))  # one declaration, two parameters
    np.testing.assert_array_equal(y.numpy(), np.full(4, 0.75, np.float32))
    m.get_function("t")((1,), (4,), (y, np.float32(2.5)))
    np.testing.assert_array_equal(y.numpy(), np.full(4, 2.5, np.float32))
    with pytest.raises(TypeError, match="t.*8 bytes|t.*4 bytes"):
        m.get_function("t")((1,), (4,), (y, np.float64(2.5)))  # a NumPy scalar passes its own size


def test_16_bit_float_parameters(device):
    import ml_dtypes

    src = r"""
    #include <cuda_fp16.h>
    #include <cuda_bf16.h>
    extern "C" __global__ void halves(float* y, __half h, __nv_bfloat16 b) {
      y[0] = __half2float(h);
      y[1] = __bfloat162float(b);
    }
    """
    k = loom.RawModule(src).get_function("halves")
    y = loom.zeros(2, dtype=loom.float32, device=device)
    k((1,), (1,), (y, 1.5, 2))  # Python numbers convert to __half and __nv_bfloat16
    np.testing.assert_array_equal(y.numpy(), [1.5, 2.0])
    k((1,), (1,), (y, np.float16(0.25), ml_dtypes.bfloat16(-3)))
    np.testing.assert_array_equal(y.numpy(), [0.25, -3.0])
    k((1,), (1,), (y, np.float64(0.125), np.int64(4)))  # same_kind: float64 and int64 to 16-bit floats
    np.testing.assert_array_equal(y.numpy(), [0.125, 4.0])
    with pytest.raises(TypeError, match="halves.*__half h"):
        k((1,), (1,), (y, np.complex64(1), 1.0))
