"""Foreign device functions (pykernel/foreign.py): cuda.declare_device with link= of a .cu
file or a cuda.CUSource, Numba's ABI (result through a pointer) and abi="c", CPointer
parameters fed by cffi's ffi.from_buffer, and @cuda.jit(link=...), on every device; the
generated program also compiles with NVRTC without a GPU; bad declarations name the problem."""
import numpy as np
import pytest

import loom
from loom import cuda
from conftest import skip_cpu_kernels

FUNCTIONS_CU = r"""
extern "C" __device__ int axpb(double* return_value, double a, double x, double b) {
  *return_value = a * x + b;
  return 0;
}
extern "C" __device__ int sum_f32(float* return_value, float* array, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += array[i];
  *return_value = (float)s;
  return 0;
}
extern "C" __device__ int negate_first(int* status, int* array) {
  array[0] = -array[0];
  return 0;
}
"""


@pytest.fixture(scope="module")
def functions_cu(tmp_path_factory):
    path = tmp_path_factory.mktemp("ffi") / "functions.cu"
    path.write_text(FUNCTIONS_CU)
    return str(path)


def test_declare_device_from_a_cu_file(device, rng, functions_cu):
    skip_cpu_kernels(device)
    dev = loom.Device(device)
    axpb = cuda.declare_device("axpb", "float64(float64, float64, float64)", link=functions_cu)

    @cuda.jit
    def k(out, x):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = axpb(2.5, x[i], np.float32(1.0))  # a float32 argument converts to float64

    x = rng.standard_normal(77)
    out = loom.zeros(77, device=dev)
    k[3, 32](out, loom.array(x, device=dev))
    np.testing.assert_allclose(out.to(loom.cpu()).numpy(), 2.5 * x + 1.0, rtol=1e-13)


def test_cpointer_from_ffi_buffer(device, rng, functions_cu):
    skip_cpu_kernels(device)
    cffi = pytest.importorskip("cffi")
    ffi = cffi.FFI()
    dev = loom.Device(device)
    sum_f32 = cuda.declare_device("sum_f32", "float32(CPointer(float32), int32)", link=functions_cu)
    negate_first = cuda.declare_device("negate_first", cuda.types.void(cuda.types.CPointer(cuda.types.int32)))

    @cuda.jit(link=[functions_cu])
    def k(result, array, ints):
        result[0] = sum_f32(ffi.from_buffer(array), len(array))
        negate_first(ffi.from_buffer(ints))

    a = rng.random(50).astype(np.float32)
    ints = rng.integers(1, 100, 3).astype(np.int32)
    result, d_ints = loom.zeros(1, dtype=loom.float32, device=dev), loom.array(ints, device=dev)
    k[1, 1](result, loom.array(a, device=dev), d_ints)
    np.testing.assert_allclose(result.to(loom.cpu()).numpy()[0], a.astype(np.float64).sum(), rtol=1e-6)
    np.testing.assert_array_equal(d_ints.to(loom.cpu()).numpy(), [-ints[0], ints[1], ints[2]])


def test_c_abi_and_cusource(device, rng):
    skip_cpu_kernels(device)
    dev = loom.Device(device)
    src = cuda.CUSource('extern "C" __device__ int clamp_add(int a, int b) { int s = a + b; return s > 100 ? 100 : s; }')
    clamp_add = cuda.declare_device("clamp_add", "int32(int32, int32)", link=[src], abi="c")

    @cuda.jit
    def k(out, a, b):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = clamp_add(a[i], b[i])

    a, b = rng.integers(0, 80, 40).astype(np.int32), rng.integers(0, 80, 40).astype(np.int32)
    out = loom.zeros(40, dtype=loom.int32, device=dev)
    k[2, 32](out, loom.array(a, device=dev), loom.array(b, device=dev))
    np.testing.assert_array_equal(out.to(loom.cpu()).numpy(), np.minimum(a + b, 100))


@pytest.mark.skipif(not loom.build_info()["cuda"], reason="loom built without CUDA (no NVRTC)")
def test_linked_program_compiles_with_nvrtc_without_a_gpu(functions_cu):
    from loom.pykernel import types as T
    from loom.pykernel.compiler import translate_kernel
    axpb = cuda.declare_device("axpb", "float64(float64, float64, float64)", link=functions_cu)

    def k(out):
        out[0] = axpb(1.0, out[0], 2.0)
    k.__globals__["axpb"] = axpb
    src, _ = translate_kernel(k, (T.Array("float64", 1, "C"),))
    assert "loom_ffi_axpb" in src and "*return_value = a * x + b;" in src
    loom.RawModule(src).compile(90)


def test_bad_declarations_name_the_problem(tmp_path):
    with pytest.raises(loom.UnsupportedError, match=r"\[f\] link=.*kernel\.ptx.*PTX"):
        cuda.declare_device("f", "int32(int32)", link=str(tmp_path / "kernel.ptx"))
    with pytest.raises(FileNotFoundError, match=r"\[f\] link: cannot read"):
        cuda.declare_device("f", "int32(int32)", link=str(tmp_path / "missing.cu"))
    with pytest.raises(loom.TypingError, match=r"\[f\] a foreign device function takes numbers"):
        cuda.declare_device("f", "int32(float32[:])")
    with pytest.raises(loom.TypingError, match=r"CPointer parameters are for kernels .* and foreign device functions"):
        cuda.jit("float32(CPointer(float32))", device=True)(lambda p: p[0])
    f = cuda.declare_device("f", "int32(int32)")
    with pytest.raises(TypeError, match=r"\[f\] a foreign device function .* is called from kernels only"):
        f(1)

    @cuda.jit
    def wrong_pointer(a):
        f(a[0], a[0])
    with pytest.raises(loom.TypingError, match=r"'f' is declared with 1 argument\(s\), called with 2"):
        wrong_pointer[1, 1](loom.zeros(1, dtype=loom.int32, device=loom.cpu()))


def test_linked_source_finds_headers_on_the_extra_search_paths(device, tmp_path, monkeypatch, rng):
    """Numba's config.CUDA_NVRTC_EXTRA_SEARCH_PATHS: folders (':'-separated) a linked .cu's
    #include finds headers in, on every device."""
    inc = tmp_path / "include"
    inc.mkdir()
    (inc / "loom_test_scale.h").write_text("#define LOOM_TEST_SCALE 7\n")
    cu = tmp_path / "scale.cu"
    cu.write_text('#include "loom_test_scale.h"\nextern "C" __device__ int scale(int* out, int x) '
                  "{ *out = x * LOOM_TEST_SCALE; return 0; }\n")
    monkeypatch.setattr(cuda.config, "CUDA_NVRTC_EXTRA_SEARCH_PATHS", f"{tmp_path / 'none'}:{inc}")
    scale = cuda.declare_device("scale", "int32(int32)", link=str(cu))

    @cuda.jit
    def k(r, x):
        i = cuda.grid(1)
        if i < r.size:
            r[i] = scale(x[i])

    x = rng.integers(-100, 100, 20).astype(np.int32)
    r = loom.zeros(20, dtype=loom.int32, device=device)
    k[1, 32](r, loom.asarray(x, device=device))
    np.testing.assert_array_equal(r.numpy(), 7 * x)
