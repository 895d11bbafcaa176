"""loom.pycuda's kernels on every device: SourceModule calls with PyCUDA's argument rules,
prepared calls, get_global, vector types, and the generated Elementwise/Reduction/Scan
kernels, against NumPy on fresh random data."""
import numpy as np
import pytest

import loom
import loom.pycuda.driver as drv
from loom.pycuda import gpuarray
from loom.pycuda.compiler import SourceModule
from loom.pycuda.elementwise import ElementwiseKernel
from loom.pycuda.reduction import ReductionKernel
from loom.pycuda.scan import ExclusiveScanKernel, InclusiveScanKernel

from conftest import needs_nvrtc

MULTIPLY = """
__global__ void multiply_them(float *dest, float *a, float *b)
{
  const int i = threadIdx.x;
  dest[i] = a[i] * b[i];
}
"""


@pytest.fixture
def ctx(device):
    with loom.device(device):
        c = drv.Device(0).make_context()
        yield c
        c.pop()


def test_calls_with_handlers_allocations_and_integer_offsets(ctx, rng):
    f = SourceModule(MULTIPLY).get_function("multiply_them")
    a, b = (rng.standard_normal(400).astype(np.float32) for _ in range(2))
    dest = np.zeros_like(a)
    f(drv.Out(dest), drv.In(a), drv.In(b), block=(400, 1, 1))
    np.testing.assert_array_equal(dest, a * b)
    a_gpu, b_gpu = drv.to_device(a), drv.to_device(b)
    dest = np.zeros_like(a)
    f(drv.Out(dest), np.intp(a_gpu) + a.itemsize, b_gpu, block=(399, 1, 1))  # a pointer + offset
    np.testing.assert_array_equal(dest[:-1], a[1:] * b[:-1])
    seconds = f(drv.Out(dest), a_gpu, b_gpu, block=(400, 1, 1), time_kernel=True)
    assert seconds >= 0
    np.testing.assert_array_equal(dest, a * b)


def test_arrays_pass_as_addresses_whatever_the_element_type(ctx):
    # PyCUDA passes a GPUArray's address: an int* kernel may write a float32 array's memory.
    k = SourceModule("__global__ void k(int *d) { d[threadIdx.x] = threadIdx.x; }").get_function("k")
    x = gpuarray.zeros(64, np.float32)
    k(x, block=(64, 1, 1))
    np.testing.assert_array_equal(x.get().view(np.int32), np.arange(64))


def test_prepared_calls(ctx, rng):
    a = rng.standard_normal((4, 4)).astype(np.float32)
    a_gpu = drv.to_device(a)
    f = SourceModule("""
    __global__ void doublify(float *a, int scale)
    { a[threadIdx.x + threadIdx.y * blockDim.x] *= scale; }""").get_function("doublify")
    f.prepare("Pi")
    f.prepared_call((1, 1), (4, 4, 1), a_gpu, 2, shared_size=20)
    np.testing.assert_array_equal(drv.from_device_like(a_gpu, a), 2 * a)
    f.prepare([np.intp, np.int32])
    f.prepared_call((1, 1), (15, 1, 1), int(a_gpu) + a.itemsize, 3)
    np.testing.assert_array_equal(drv.from_device_like(a_gpu, a).ravel()[1:], 6 * a.ravel()[1:])
    timer = f.prepared_timed_call((1, 1), (1, 1, 1), a_gpu, 1)
    assert timer() >= 0
    with pytest.raises(TypeError, match="prepared for 2 arguments"):
        f.prepared_call((1, 1), (1, 1, 1), a_gpu)


def test_get_global_constant_memory(ctx, rng):
    mod = SourceModule("""
    __constant__ float const_array[32];
    __device__ int offset;
    __global__ void copy_constant_into_global(float* out)
    { out[threadIdx.x] = const_array[threadIdx.x] + offset; }""")
    f = mod.get_function("copy_constant_into_global")
    const_array, nbytes = mod.get_global("const_array")
    assert nbytes == 32 * 4
    offset, size = mod.get_global("offset")
    assert size == 4
    host = rng.integers(0, 255, 32).astype(np.float32)
    drv.memcpy_htod(const_array, host)
    drv.memcpy_htod(offset, np.array([7], np.int32))
    out = drv.mem_alloc_like(host)
    f(out, grid=(1, 1), block=(32, 1, 1))
    np.testing.assert_array_equal(drv.from_device_like(out, host), host + 7)
    with pytest.raises(ValueError, match="no variable named 'missing'"):
        mod.get_global("missing")


def test_a_kernel_after_an_include_keeps_c_linkage(ctx):
    mod = SourceModule("#include <stdio.h>\n__global__ void kernel(int *d) { d[threadIdx.x] = 2 * threadIdx.x; }")
    d = gpuarray.zeros(16, np.int32)
    mod.get_function("kernel")(d, block=(16, 1, 1))
    np.testing.assert_array_equal(d.get(), 2 * np.arange(16))


def test_vector_types_by_value_and_through_out(ctx, rng):
    f = SourceModule("""
    __global__ void set_them(float3 *dest, float3 x) { dest[threadIdx.x] = x; }""").get_function("set_them")
    x, y, z = (float(v) for v in rng.standard_normal(3).astype(np.float32))
    v = gpuarray.vec.make_float3(x, y, z)
    dest = np.empty(50, gpuarray.vec.float3)
    f(drv.Out(dest), v, block=(50, 1, 1))
    assert (dest == v).all()
    assert gpuarray.vec.float4.itemsize == 16 and gpuarray.vec.double3.itemsize == 24


def test_texture_references_are_refused_with_the_reason(ctx):
    mod = SourceModule(MULTIPLY)
    with pytest.raises(drv.LogicError, match="removed in CUDA 12"):
        mod.get_texref("tex")
    with pytest.raises(ValueError, match="block size"):
        mod.get_function("multiply_them")(np.intp(0), np.intp(0), np.intp(0))


def test_elementwise_kernel_with_ranges(ctx, rng):
    a, b = (rng.standard_normal(5000).astype(np.float32) for _ in range(2))
    lin_comb = ElementwiseKernel("float a, float *x, float b, float *y, float *z",
                                 "z[i] = a*x[i] + b*y[i]", "linear_combination")
    z = gpuarray.empty(5000, np.float32)
    lin_comb(5, gpuarray.to_gpu(a), 6, gpuarray.to_gpu(b), z)
    # atol: the GPU fuses a*x + b*y into one rounding (FMA), NumPy rounds twice.
    np.testing.assert_allclose(z.get(), 5 * a + 6 * b, rtol=1e-6, atol=1e-6)
    seven = ElementwiseKernel("float *z", "z[i] = 7", "set_to_seven")
    for slc in (slice(5, 4000), slice(5, 4000, 17), slice(3000, 5, -1)):
        x = gpuarray.zeros(5000, np.float32)
        seven(x, slice=slc)
        want = np.zeros(5000, np.float32)
        want[slc] = 7
        np.testing.assert_array_equal(x.get(), want)


@pytest.mark.parametrize("n", [1, 255, 256, 5000, 70001])
def test_reduction_kernels(ctx, rng, n):
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    dot = ReductionKernel(np.float32, neutral="0", reduce_expr="a+b", map_expr="x[i]*y[i]",
                          arguments="float *x, float *y")
    got = dot(gpuarray.to_gpu(x), gpuarray.to_gpu(y)).get()
    # float32 partial sums: the error scales with the sum of the magnitudes.
    np.testing.assert_allclose(got, np.dot(x.astype(np.float64), y), rtol=0, atol=1e-5 * np.sum(np.abs(x * y)) + 1e-6)
    biggest = ReductionKernel(np.float32, neutral="-1e38", reduce_expr="fmaxf(a, b)", arguments="float *in")
    out = gpuarray.zeros(2, np.float32)
    biggest(gpuarray.to_gpu(x), out=out[1])
    assert out.get()[1] == x.max() and out.get()[0] == 0


@pytest.mark.parametrize("n", [1, 10, 2047, 2048, 2049, 70000])
def test_scan_kernels(ctx, rng, n):
    host = rng.integers(0, 10, n).astype(np.int32)
    data = gpuarray.to_gpu(host)
    InclusiveScanKernel(np.int32, "a+b")(data)
    np.testing.assert_array_equal(data.get(), np.cumsum(host))
    out = gpuarray.empty_like(data)
    ExclusiveScanKernel(np.int32, "max(a, b)", "0")(gpuarray.to_gpu(host), out)
    want = np.concatenate([[0], np.maximum.accumulate(host)[:-1]])
    np.testing.assert_array_equal(out.get(), want)


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.uint32, np.uint64, np.int64, np.float32])
def test_scan_kernels_of_every_type(ctx, rng, dtype):
    # C names of more than one word ("unsigned char") among them: PyCUDA's test_big_array_scan.
    host = rng.integers(0, 4, 3000).astype(dtype)
    data = gpuarray.to_gpu(host)
    InclusiveScanKernel(dtype, "a+b")(data)
    np.testing.assert_array_equal(data.get(), np.cumsum(host, dtype=dtype))
    out = gpuarray.empty_like(data)
    ExclusiveScanKernel(dtype, "a+b", "0")(gpuarray.to_gpu(host), out)
    np.testing.assert_array_equal(out.get(), np.concatenate([[0], np.cumsum(host, dtype=dtype)[:-1]]).astype(dtype))


def _vector_type_source():
    lines = ["__global__ void every_type(float *out) {",
             "  uint a = 1; ushort b = 2; ulong c = 3; out[0] = a + b + c;"]
    i = 1
    for base in ("char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "longlong",
                 "ulonglong", "float", "double"):
        for n in (1, 2, 3, 4):
            values = ", ".join(str(k + 2) for k in range(n))
            last = "xyzw"[n - 1]
            lines.append(f"  {{ {base}{n} v = make_{base}{n}({values}); out[{i}] = (float)(v.x + v.{last}); }}")
            i += 1
    lines.append("}")
    return "\n".join(lines), i


def test_short_unsigned_names_and_every_vector_type(ctx):
    # nvcc's CUDA C has uint/ushort/ulong (glibc's) and every vector type with its make_*.
    source, n = _vector_type_source()
    out = gpuarray.zeros(n, np.float32)
    SourceModule(source).get_function("every_type")(out, block=(1, 1, 1))
    want = [6.0] + [2.0 + (k % 4 + 2) for k in range(n - 1)]
    np.testing.assert_array_equal(out.get(), want)


@needs_nvrtc
def test_short_unsigned_names_compile_with_nvrtc():
    source, _ = _vector_type_source()
    loom.SourceModule(source).compile(90)  # no GPU needed


def test_complex_kernels(ctx, rng):
    # pycuda::complex<T> (loom's complex64/complex128 with std::complex's API) in every form.
    a = (rng.standard_normal(700) + 1j * rng.standard_normal(700)).astype(np.complex64)
    k = ElementwiseKernel("pycuda::complex<float> *x, pycuda::complex<float> *y, float s",
                          "y[i] = exp(x[i]) * s + conj(x[i]) + x[i].real() * abs(x[i])", "cx")
    y = gpuarray.empty(700, np.complex64)
    k(gpuarray.to_gpu(a), y, 2.0)
    terms = np.abs(np.exp(a) * 2) + np.abs(a) + np.abs(a.real * np.abs(a))  # float32 rounding scales with them
    np.testing.assert_array_less(np.abs(y.get() - (np.exp(a) * 2 + np.conj(a) + a.real * np.abs(a))), 1e-5 * terms + 1e-30)
    sq = ReductionKernel(np.complex128, "0", "a+b", "x[i]*x[i]", "pycuda::complex<double> *x")
    a2 = a.astype(np.complex128)
    np.testing.assert_allclose(sq(gpuarray.to_gpu(a2)).get(), np.sum(a2 ** 2), atol=1e-10 * np.sum(np.abs(a2) ** 2))
    d = gpuarray.to_gpu(a2)
    InclusiveScanKernel(np.complex128, "a+b")(d)
    np.testing.assert_allclose(d.get(), np.cumsum(a2), atol=1e-12 * np.sum(np.abs(a2)))
    mod = SourceModule("#include <pycuda-complex.hpp>\n#include <stdio.h>\n"
                       "__global__ void twice(pycuda::complex<double> *z) { z[threadIdx.x] *= 2; }")
    z = gpuarray.to_gpu(a.astype(np.complex128))
    mod.get_function("twice")(z, block=(700, 1, 1))
    np.testing.assert_array_equal(z.get(), 2 * a.astype(np.complex128))


@needs_nvrtc
def test_complex_header_compiles_with_nvrtc():
    loom.RawModule('#include "loom_user_complex.cuh"\n'
                   'extern "C" __global__ void k(complex<float>* z, pycuda::complex<double>* w) {\n'
                   '  z[0] = pow(sqrt(z[0]) / 2.0f, 3.0f) + polar(1.0f, 0.5f);\n'
                   '  w[0] = atanh(w[0]) + pycuda::norm(w[0]);\n}').compile(90)


DYNAMIC = """
__global__ void child(int *x, int n) { int i = threadIdx.x; if (i < n) x[i] = x[i] * 2 + 1; }
__global__ void parent(int *x, int n) { if (threadIdx.x == 0) child<<<1, n>>>(x, n); }
"""


def test_dynamic_parallelism(ctx, device, rng):
    """A kernel launching a kernel (relocatable code linked with the device runtime) on a GPU;
    cpu()'s emulator runs no device-side launches and says so."""
    from loom.pycuda.compiler import DynamicModule, DynamicSourceModule
    if device.type != "cuda":
        with pytest.raises(NotImplementedError, match="DynamicSourceModule.*needs a GPU"):
            DynamicSourceModule(DYNAMIC)
        with pytest.raises(NotImplementedError, match="DynamicModule.*needs a GPU"):
            DynamicModule()
        return
    x = rng.integers(-50, 50, 32).astype(np.int32)
    xg = drv.to_device(x)
    DynamicSourceModule(DYNAMIC).get_function("parent")(xg, np.int32(32), block=(32, 1, 1))
    np.testing.assert_array_equal(drv.from_device_like(xg, x), x * 2 + 1)
    # Two sources linked into one module; the device runtime is implied.
    mod = DynamicModule()
    mod.add_source(DYNAMIC.split("\n__global__ void parent")[0], nvcc_options=["-rdc=true", "-lcudadevrt"])
    mod.add_source("__global__ void child(int *x, int n);\n__global__ void parent" + DYNAMIC.split("__global__ void parent")[1])
    mod.add_stdlib("cudadevrt").link()
    xg = drv.to_device(x)
    mod.get_function("parent")(xg, np.int32(32), block=(1, 1, 1))
    np.testing.assert_array_equal(drv.from_device_like(xg, x), x * 2 + 1)
