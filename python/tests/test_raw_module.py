"""RawModule / RawKernel / SourceModule launches on a GPU: the three call forms, templates,
2-d/3-d indexing, shared memory, streams, In/Out/InOut, scalars and argument checks."""
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import loom

DOUBLIFY = r"""
extern "C" __global__ void doublify(float* a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] *= 2.0f;
}
"""


def test_three_launch_forms_match_numpy(gpu, rng):
    k = loom.RawKernel(DOUBLIFY, "doublify")
    host = rng.standard_normal(1000).astype(np.float32)
    a = loom.asarray(host, device=gpu)
    k((4,), (256,), (a, host.size))             # CuPy
    k(a, np.int32(host.size), grid=(4, 1), block=(256, 1, 1))   # PyCUDA
    k[4, 256](a, host.size)                     # Numba
    np.testing.assert_array_equal(a.numpy(), host * 8)
    s = loom.Stream(gpu)
    k[2, 256, s, 0](a, host.size)               # Numba with a stream: only the first 512 elements
    k[4, 256](a, host.size)                     # the same configuration again (reused launcher)
    s.synchronize()
    expected = host * 16
    expected[:512] *= 2
    np.testing.assert_array_equal(a.numpy(), expected)


def test_pycuda_doublify_with_inout(gpu, rng):
    mod = loom.SourceModule("""
    __global__ void doublify(float *a) {
      int idx = threadIdx.x + threadIdx.y * 4;
      a[idx] *= 2;
    }""")
    f = mod.get_function("doublify")
    a = rng.standard_normal((4, 4)).astype(np.float32)
    expected = a * 2
    f(loom.InOut(a), block=(4, 4, 1))
    np.testing.assert_array_equal(a, expected)


def test_in_and_out_copy_around_the_launch(gpu, rng):
    mod = loom.SourceModule("""
    __global__ void multiply_them(float *dest, float *a, float *b) {
      const int i = threadIdx.x;
      dest[i] = a[i] * b[i];
    }""")
    f = mod.get_function("multiply_them")
    a = rng.standard_normal(400).astype(np.float32)
    b = rng.standard_normal(400).astype(np.float32)
    dest = np.zeros_like(a)
    f(loom.driver.Out(dest), loom.driver.In(a), loom.driver.In(b), block=(400, 1, 1), grid=(1, 1))
    np.testing.assert_array_equal(dest, a * b)


def test_templates_through_name_expressions(gpu, rng):
    mod = loom.RawModule(r"""
    template <typename T> __global__ void axpy(T* y, const T* x, T alpha, int n) {
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < n) y[i] += alpha * x[i];
    }""", name_expressions=("axpy<float>", "axpy<double>"))
    for dt, alpha in [(np.float32, np.float32(1.5)), (np.float64, 2.25)]:
        x = rng.standard_normal(300).astype(dt)
        y = rng.standard_normal(300).astype(dt)
        lx, ly = loom.asarray(x, device=gpu), loom.asarray(y, device=gpu)
        k = mod.get_function(f"axpy<{np.dtype(dt).name.replace('float32', 'float').replace('float64', 'double')}>")
        k((2,), (256,), (ly, lx, alpha, 300))
        # The GPU fuses a * x + y into one rounding (FMA); NumPy rounds twice.
        np.testing.assert_allclose(ly.numpy(), y + dt(alpha) * x, rtol=1e-5, atol=1e-6)


def test_2d_and_3d_indexing(gpu, rng):
    mod = loom.RawModule(r"""
    extern "C" __global__ void add2d(float* out, const float* a, const float* b, int rows, int cols) {
      int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
      if (r < rows && c < cols) out[r * cols + c] = a[r * cols + c] + b[r * cols + c];
    }
    extern "C" __global__ void index3d(int* out, int nx, int ny, int nz) {
      int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
      int z = blockIdx.z * blockDim.z + threadIdx.z;
      if (x < nx && y < ny && z < nz) out[(z * ny + y) * nx + x] = x + 100 * y + 10000 * z;
    }""")
    a = rng.standard_normal((37, 53)).astype(np.float32)
    b = rng.standard_normal((37, 53)).astype(np.float32)
    la, lb = loom.asarray(a, device=gpu), loom.asarray(b, device=gpu)
    out = loom.empty((37, 53), dtype=loom.float32, device=gpu)
    mod.get_function("add2d")((4, 3), (16, 16), (out, la, lb, 37, 53))
    np.testing.assert_array_equal(out.numpy(), a + b)
    nz, ny, nx = 5, 9, 13
    o3 = loom.empty((nz, ny, nx), dtype=loom.int32, device=gpu)
    mod.get_function("index3d")[(2, 2, 2), (8, 8, 4)](o3, nx, ny, nz)
    z, y, x = np.meshgrid(np.arange(nz), np.arange(ny), np.arange(nx), indexing="ij")
    np.testing.assert_array_equal(o3.numpy(), x + 100 * y + 10000 * z)


def test_dynamic_shared_memory_and_opt_in_above_48k(gpu, rng):
    k = loom.RawKernel(r"""
    extern "C" __global__ void reverse_blocks(float* a, int n_per_block) {
      extern __shared__ float tile[];
      float* base = a + blockIdx.x * n_per_block;
      for (int i = threadIdx.x; i < n_per_block; i += blockDim.x) tile[i] = base[i];
      __syncthreads();
      for (int i = threadIdx.x; i < n_per_block; i += blockDim.x) base[i] = tile[n_per_block - 1 - i];
    }""", "reverse_blocks")
    for per_block in (256, 16384):  # 1 KiB, then 64 KiB of shared memory (needs the opt-in)
        host = rng.standard_normal(3 * per_block).astype(np.float32)
        a = loom.asarray(host, device=gpu)
        k((3,), (256,), (a, per_block), shared_mem=per_block * 4)
        np.testing.assert_array_equal(a.numpy(), host.reshape(3, per_block)[:, ::-1].ravel())


def test_launch_on_a_stream(gpu, rng):
    k = loom.RawKernel(DOUBLIFY, "doublify")
    host = rng.standard_normal(5000).astype(np.float32)
    s = loom.Stream(gpu)
    a = loom.asarray(host, device=gpu)
    k((20,), (256,), (a, 5000), stream=s)
    s.synchronize()
    np.testing.assert_array_equal(a.numpy(), host * 2)


def test_scalars_take_the_parameter_size(gpu):
    k = loom.RawKernel(r"""
    extern "C" __global__ void store(double* out, char c, short s, int i, long long l, float f, double d,
                                     unsigned u) {
      out[0] = c; out[1] = s; out[2] = i; out[3] = (double)l; out[4] = f; out[5] = d; out[6] = u;
    }""", "store")
    out = loom.empty(7, dtype=loom.float64, device=gpu)
    k((1,), (1,), (out, -5, 1234, -70000, 2**40 + 3, 0.5, 1e300, 0xFFFFFFFF))
    np.testing.assert_array_equal(out.numpy(), [-5, 1234, -70000, 2**40 + 3, 0.5, 1e300, 0xFFFFFFFF])
    with pytest.raises(OverflowError, match="parameter 1"):
        k((1,), (1,), (out, 300, 1, 1, 1, 1.0, 1.0, 1))
    # NumPy scalars convert to the parameter's type under same_kind (issue 19): a 4-byte
    # np.int32 widens to long long, an np.float64 rounds to float; a float for an int does not.
    k((1,), (1,), (out, 1, 1, 1, np.int32(7), np.float64(0.25), 1.0, 1))
    np.testing.assert_array_equal(out.numpy()[3:5], [7, 0.25])
    with pytest.raises(TypeError, match="parameter 4"):
        k((1,), (1,), (out, 1, 1, 1, np.float32(7), 1.0, 1.0, 1))


def test_argument_count_and_kinds_are_checked(gpu):
    k = loom.RawKernel(DOUBLIFY, "doublify")
    a = loom.ones(4, dtype=loom.float32, device=gpu)
    with pytest.raises(TypeError, match="takes 2 arguments"):
        k((1,), (4,), (a,))
    with pytest.raises(TypeError, match="takes 2 arguments"):
        k((1,), (4,), (a, 4, 5))
    with pytest.raises(TypeError, match="argument 1 is a float32 array"):
        k((1,), (4,), (a, a))
    with pytest.raises(TypeError, match="NumPy array"):
        k((1,), (4,), (np.ones(4, np.float32), 4))
    c = loom.ones(4, dtype=loom.float32, device=loom.cpu())
    k((1,), (4,), (c, 4))  # CPU arrays run on the CPU kernel emulator
    np.testing.assert_array_equal(c.numpy(), np.full(4, 2, np.float32))
    np.testing.assert_array_equal(a.numpy(), np.ones(4, np.float32))  # nothing launched


def test_launch_limits_raise_value_error_before_launching(gpu):
    k = loom.RawKernel(DOUBLIFY, "doublify")
    a = loom.ones(4, dtype=loom.float32, device=gpu)
    with pytest.raises(ValueError, match="at most"):
        k((1,), (32, 64), (a, 4))
    with pytest.raises(ValueError, match="largest block dimensions"):
        k((1,), (2048,), (a, 4))
    with pytest.raises(ValueError, match="largest block dimensions"):
        k((1,), (1, 1, 65), (a, 4))
    with pytest.raises(ValueError, match="dynamic shared memory"):
        k((1,), (4,), (a, 4), shared_mem=10**7)
    with pytest.raises(ValueError, match="zero dimension"):
        k((1,), (0,), (a, 4))
    np.testing.assert_array_equal(a.numpy(), np.ones(4, np.float32))


def test_a_zero_grid_dimension_is_refused_on_every_device(device):
    # A GPU refuses it (CUDA_ERROR_INVALID_VALUE); the emulator used to run it as a no-op.
    k = loom.RawKernel(DOUBLIFY, "doublify")
    a = loom.ones(4, dtype=loom.float32, device=device)
    for grid in ((0,), (1, 0), (2, 1, 0)):
        with pytest.raises(ValueError, match=r"\[RawKernel doublify\] grid \(.*0.*\) has a zero dimension.*CUDA_ERROR_INVALID_VALUE"):
            k(grid, (4,), (a, 4))
    with pytest.raises(ValueError, match="zero dimension"):
        k[0, 4](a, 4)
    np.testing.assert_array_equal(a.numpy(), np.ones(4, np.float32))


def test_missing_kernel_name_and_attributes(gpu):
    mod = loom.RawModule(DOUBLIFY)
    with pytest.raises(ValueError, match="no kernel named 'doublfy'"):
        mod.get_function("doublfy")
    attrs = mod.get_function("doublify").attributes()
    assert attrs["param_sizes"] == [8, 4]
    assert 0 < attrs["max_threads_per_block"] <= 1024


def test_driver_memory_as_kernel_arguments(gpu, rng):
    host = rng.standard_normal(100).astype(np.float32)
    d = loom.driver.mem_alloc(host.nbytes)
    loom.driver.memcpy_htod(d, host)
    loom.RawKernel(DOUBLIFY, "doublify")((1,), (128,), (d, 100))
    back = np.empty_like(host)
    loom.driver.memcpy_dtoh(back, d)
    np.testing.assert_array_equal(back, host * 2)


def test_cupy_arrays_pass_through_cuda_array_interface(gpu, rng):
    cp = pytest.importorskip("cupy")
    host = rng.standard_normal(64).astype(np.float32)
    x = cp.asarray(host)
    loom.RawKernel(DOUBLIFY, "doublify")((1,), (64,), (x, 64))
    np.testing.assert_array_equal(cp.asnumpy(x), host * 2)


def test_illegal_address_raises_and_the_context_is_lost(gpu):
    # Run in a child: a lost context cannot be recovered in this process.
    code = textwrap.dedent(r'''
        import loom
        k = loom.RawKernel('extern "C" __global__ void bad_write(float* p) { p[1ll << 40] = 1.0f; }', "bad_write")
        a = loom.ones(4, dtype=loom.float32, device=loom.gpu(0))
        k((1,), (1,), (a,))
        try:
            a.numpy()  # the first host read after the launch sees the fault
            print("NO ERROR")
        except loom.CudaError as e:
            print("FIRST", e)
        try:
            loom.ones(4, device=loom.gpu(0)).numpy()
            print("NO SECOND ERROR")
        except loom.CudaError as e:
            print("SECOND", e)
    ''')
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("FIRST") and "bad_write" in lines[0], out.stdout
    assert lines[1].startswith("SECOND") and "context lost" in lines[1] and "bad_write" in lines[1], out.stdout
