"""CUDA C kernels on every device (issue 5, DESIGN.md §4): on cpu() they run in the kernel
emulator, on a GPU natively; each test gives both the same fresh random inputs and checks
the same NumPy answer. The seeds' doublify kernels (1-d, 2-d, 3-d, PyCUDA's SourceModule
with InOut), shared memory (tiled matmul, tree reduction, dynamic), atomics from many
blocks. The emulator's own errors and debug mode are in test_emulator_debug.py. Kernel
objects are built once per source (module-level cache): on cpu() each new source costs a
host compile.
"""
import functools
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import loom
from conftest import random_array

F32_EPS = float(np.finfo(np.float32).eps)


@functools.lru_cache(maxsize=None)
def raw(src, name):
    """One RawKernel per (source, name) for the whole run: parametrisations reuse it."""
    return loom.RawKernel(src, name)


DOUBLIFY_1D = r"""
extern "C" __global__ void doublify(float* a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] *= 2.0f;
}
"""


def _emulator_built():
    """True unless launching a trivial kernel on a CPU array says the emulator is missing.

    Any other failure counts as "built": the cpu() tests then run and show it.
    """
    try:
        a = loom.asarray(np.full(4, 1.5, np.float32), device=loom.cpu())
        raw(DOUBLIFY_1D, "doublify")((1,), (4,), (a, 4))
    except NotImplementedError as e:
        # Only the launch's "needs the CPU kernel emulator" means missing; another
        # NotImplementedError from a built emulator must show up as failures.
        return "emulator" not in str(e)
    except Exception:  # noqa: BLE001 - reported by the tests themselves
        return True
    return True


EMULATOR_BUILT = _emulator_built()


def on(device):
    """Skips on cpu() while the emulator is missing; returns the device."""
    if device == loom.cpu() and not EMULATOR_BUILT:
        pytest.skip("the CPU kernel emulator is not built")
    return device


def cpu_only(device, why):
    on(device)
    if device != loom.cpu():
        pytest.skip(why)


def to(device, host):
    """A loom copy of `host` on `device` (on cpu() asarray would share NumPy's memory)."""
    return loom.asarray(np.array(host, copy=True), device=device)


def cdiv(a, b):
    return (a + b - 1) // b


# ---------------------------------------------------------------- doublify (the seeds)

@pytest.mark.parametrize("n", [1, 255, 1000, 100003])
def test_doublify_1d(device, rng, n):
    on(device)
    host = random_array(rng, n, np.float32)
    a = to(device, host)
    raw(DOUBLIFY_1D, "doublify")((cdiv(n, 256),), (256,), (a, n))
    np.testing.assert_array_equal(a.numpy(), host * np.float32(2))


# Adding the flat index catches a wrong thread-to-element mapping, which doubling alone
# (a permutation of the same work) would not. 2*a is exact, so one rounding on both sides,
# with or without FMA contraction.
DOUBLIFY_2D = r"""
extern "C" __global__ void doublify2d(float* a, int rows, int cols) {
  int c = blockDim.x * blockIdx.x + threadIdx.x;
  int r = blockDim.y * blockIdx.y + threadIdx.y;
  if (r < rows && c < cols) a[r * cols + c] = 2.0f * a[r * cols + c] + (float)(r * cols + c);
}
"""


@pytest.mark.parametrize("shape,block", [((37, 53), (16, 8)), ((1, 300), (32, 4)), ((64, 64), (16, 16))])
def test_doublify_2d_over_a_grid(device, rng, shape, block):
    on(device)
    rows, cols = shape
    host = random_array(rng, shape, np.float32)
    a = to(device, host)
    raw(DOUBLIFY_2D, "doublify2d")((cdiv(cols, block[0]), cdiv(rows, block[1])), block, (a, rows, cols))
    idx = np.arange(rows * cols, dtype=np.float32).reshape(shape)
    np.testing.assert_array_equal(a.numpy(), host * np.float32(2) + idx)


DOUBLIFY_3D = r"""
extern "C" __global__ void doublify3d(double* a, int nx, int ny, int nz) {
  int x = blockDim.x * blockIdx.x + threadIdx.x;
  int y = blockDim.y * blockIdx.y + threadIdx.y;
  int z = blockDim.z * blockIdx.z + threadIdx.z;
  if (x < nx && y < ny && z < nz) {
    long long i = ((long long)z * ny + y) * nx + x;
    a[i] = 2.0 * a[i] + (x + 100.0 * y + 10000.0 * z);
  }
}
"""


@pytest.mark.parametrize("shape,block", [((5, 9, 13), (8, 8, 4)), ((3, 1, 70), (32, 2, 2))])
def test_doublify_3d(device, rng, shape, block):
    on(device)
    nz, ny, nx = shape
    host = random_array(rng, shape, np.float64)
    a = to(device, host)
    grid = (cdiv(nx, block[0]), cdiv(ny, block[1]), cdiv(nz, block[2]))
    raw(DOUBLIFY_3D, "doublify3d")[grid, block](a, nx, ny, nz)
    z, y, x = np.meshgrid(np.arange(nz), np.arange(ny), np.arange(nx), indexing="ij")
    np.testing.assert_array_equal(a.numpy(), 2.0 * host + (x + 100.0 * y + 10000.0 * z))


PYCUDA_DOUBLIFY = """
__global__ void doublify(float *a)
{
  int idx = threadIdx.x + threadIdx.y*4;
  a[idx] *= 2;
}
"""


@functools.lru_cache(maxsize=None)
def pycuda_doublify():
    return loom.SourceModule(PYCUDA_DOUBLIFY).get_function("doublify")


def test_pycuda_source_module_doublify_with_inout(device, rng):
    on(device)
    a = random_array(rng, (4, 4), np.float32)
    expected = a * 2
    with loom.device(device):  # InOut copies to the default device: the only placement hint
        pycuda_doublify()(loom.InOut(a), block=(4, 4, 1))
    np.testing.assert_array_equal(a, expected)


# ---------------------------------------------------------------- shared memory

# Bs has a padded row (TILE + 1) as GPU code often does; edge tiles load zeros.
MATMUL = r"""
#define TILE 16
extern "C" __global__ void matmul_tiled(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE + 1];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
    int ka = t * TILE + tx, kb = t * TILE + ty;
    As[ty][tx] = (row < M && ka < K) ? A[row * K + ka] : 0.0f;
    Bs[ty][tx] = (kb < K && col < N) ? B[kb * N + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = acc;
}
"""


@pytest.mark.parametrize("m,k,n", [(70, 45, 33), (1, 17, 100), (33, 129, 31)])
def test_tiled_matmul_with_shared_memory(device, rng, m, k, n):
    on(device)
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    c = loom.empty((m, n), dtype=loom.float32, device=device)
    raw(MATMUL, "matmul_tiled")((cdiv(n, 16), cdiv(m, 16)), (16, 16), (to(device, a), to(device, b), c, m, n, k))
    exact = a.astype(np.float64) @ b.astype(np.float64)
    # float32 dot products of length k: |error| <= k * eps * (|a| @ |b|) (with FMA or not).
    bound = (k + 2) * F32_EPS * (np.abs(a).astype(np.float64) @ np.abs(b).astype(np.float64))
    err = np.abs(c.numpy().astype(np.float64) - exact)
    assert np.all(err <= bound), f"max error {err.max()} (bound {bound[err > bound].min()})"


# 256 threads sum 512 elements per block: 8 halving steps, one barrier each.
BLOCK_SUMS = r"""
extern "C" __global__ void block_sums(const float* x, float* partial, int n) {
  __shared__ float s[256];
  unsigned t = threadIdx.x;
  unsigned i = blockIdx.x * (blockDim.x * 2) + t;
  float v = 0.0f;
  if (i < n) v = x[i];
  if (i + blockDim.x < n) v += x[i + blockDim.x];
  s[t] = v;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) partial[blockIdx.x] = s[0];
}
"""


def check_block_sums(device, rng, n):
    x = random_array(rng, n, np.float32)
    blocks = cdiv(n, 512)
    partial = loom.empty(blocks, dtype=loom.float32, device=device)
    raw(BLOCK_SUMS, "block_sums")((blocks,), (256,), (to(device, x), partial, n))
    padded = np.zeros(blocks * 512)
    padded[:n] = x
    per_block = padded.reshape(blocks, 512)
    exact = per_block.sum(axis=1)
    # A tree of depth 9 plus the final rounding: 16 ulps of the block's sum of magnitudes.
    bound = 16 * F32_EPS * np.abs(per_block).sum(axis=1)
    err = np.abs(partial.numpy().astype(np.float64) - exact)
    assert np.all(err <= bound), f"blocks {np.flatnonzero(err > bound)[:10]} wrong"


@pytest.mark.parametrize("n", [512, 512 * 300 + 77])
def test_shared_memory_tree_reduction_per_block(device, rng, n):
    on(device)
    check_block_sums(device, rng, n)


def test_tree_reduction_stays_right_in_debug_mode(device, rng, monkeypatch):
    # Debug mode shuffles thread order between barriers and fills shared memory with junk:
    # a correctly synchronised kernel must not notice.
    on(device)
    monkeypatch.setenv("LOOM_EMULATOR_DEBUG", "1")
    check_block_sums(device, rng, 512 * 40 + 3)


# A static __shared__ variable next to the dynamic array: the two must not overlap (the
# dynamic writes would clobber `offset`).
DYNAMIC_SHARED = r"""
extern "C" __global__ void reverse_blocks(float* a, int per_block) {
  extern __shared__ float tile[];
  float* base = a + blockIdx.x * per_block;
  for (int i = threadIdx.x; i < per_block; i += blockDim.x) tile[i] = base[i];
  __syncthreads();
  for (int i = threadIdx.x; i < per_block; i += blockDim.x) base[i] = tile[per_block - 1 - i];
}
extern "C" __global__ void neighbour_sums(const double* x, double* out, int per_block) {
  __shared__ int offset;
  extern __shared__ double buf[];
  if (threadIdx.x == 0) offset = blockIdx.x * per_block;
  __syncthreads();
  for (int i = threadIdx.x; i < per_block; i += blockDim.x) buf[i] = x[offset + i];
  __syncthreads();
  for (int i = threadIdx.x; i < per_block; i += blockDim.x) out[offset + i] = buf[i] + buf[(i + 1) % per_block];
}
"""


@pytest.mark.parametrize("per_block", [100, 3000])
def test_dynamic_shared_memory(device, rng, per_block):
    on(device)
    blocks = 7
    host = random_array(rng, blocks * per_block, np.float32)
    a = to(device, host)
    raw(DYNAMIC_SHARED, "reverse_blocks")((blocks,), (128,), (a, per_block), shared_mem=per_block * 4)
    np.testing.assert_array_equal(a.numpy(), host.reshape(blocks, per_block)[:, ::-1].ravel())

    x = random_array(rng, (blocks, per_block), np.float64)
    out = loom.empty(blocks * per_block, dtype=loom.float64, device=device)
    raw(DYNAMIC_SHARED, "neighbour_sums")((blocks,), (96,), (to(device, x), out, per_block),
                                          shared_mem=per_block * 8)
    np.testing.assert_array_equal(out.numpy(), (x + np.roll(x, -1, axis=1)).ravel())


# ---------------------------------------------------------------- atomics

ATOMICS = r"""
extern "C" __global__ void atomics(const float* x, const int* v, int n, int* count, float* fsum, int* vmax,
                                   unsigned* hist) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    if (x[i] > 0.0f) atomicAdd(count, 1);
    atomicAdd(fsum, x[i]);
    atomicMax(vmax, v[i]);
    atomicAdd(&hist[v[i] & 15], 1u);
  }
}
"""


def test_atomics_from_many_blocks_into_one_counter(device, rng):
    on(device)
    n = 70001  # 274 blocks of 256
    # Multiples of 1/64 with |x| <= 4: every partial sum, in any order, is exact in float32
    # (|sum| < 2^18), so the float total is exact whatever order the atomics land in.
    x = (rng.integers(-256, 257, n) / 64).astype(np.float32)
    v = rng.integers(-10**6, 10**6, n).astype(np.int32)
    c0, f0 = int(rng.integers(0, 1000)), float(rng.integers(-64, 64)) / 64
    count = to(device, np.array([c0], np.int32))
    fsum = to(device, np.array([f0], np.float32))
    vmax = to(device, np.array([v.min()], np.int32))  # atomicMax must raise it
    h0 = rng.integers(0, 100, 16).astype(np.uint32)
    hist = to(device, h0)
    raw(ATOMICS, "atomics")((cdiv(n, 256),), (256,), (to(device, x), to(device, v), n, count, fsum, vmax, hist))
    assert int(count.numpy()[0]) == c0 + int(np.count_nonzero(x > 0))
    assert float(fsum.numpy()[0]) == f0 + float(x.astype(np.float64).sum())
    assert int(vmax.numpy()[0]) == int(v.max())
    np.testing.assert_array_equal(hist.numpy(), h0 + np.bincount(v & 15, minlength=16))



# 16-bit atomics with the toolkit's own headers (loom points NVRTC at them, as nvcc does).
# Each bucket's sum stays exact in bfloat16 (at most 200 ones: integers to 256 are exact).
ATOMICS_16 = r"""
#include <cuda_fp16.h>
#include <cuda_bf16.h>
extern "C" __global__ void atomics16(const float* x, int n, __half* hsum, __nv_bfloat16* bsum, unsigned short* first) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicAdd(&hsum[i % 4], __float2half(x[i]));
    atomicAdd(&bsum[i % 4], __float2bfloat16(x[i]));
    atomicCAS(&first[i % 4], (unsigned short)0, (unsigned short)(i + 1));
  }
}
"""


def test_16_bit_atomics(device, rng):
    on(device)
    n = 800
    x = rng.integers(0, 2, n).astype(np.float32)
    hsum = loom.zeros(4, dtype=loom.float16, device=device)
    bsum = loom.zeros(4, dtype=loom.bfloat16, device=device)
    first = loom.zeros(4, dtype=loom.uint16, device=device)
    raw(ATOMICS_16, "atomics16")((cdiv(n, 128),), (128,), (to(device, x), n, hsum, bsum, first))
    want = x.reshape(-1, 4).sum(axis=0)
    np.testing.assert_array_equal(hsum.numpy().astype(np.float32), want)
    np.testing.assert_array_equal(bsum.numpy().astype(np.float32), want)
    got = first.numpy().astype(np.int64)
    assert ((got - 1) % 4 == np.arange(4)).all() and (got >= 1).all() and (got <= n).all(), got


@pytest.mark.skipif(not loom.build_info()["cuda"], reason="loom built without CUDA (no NVRTC)")
def test_toolkit_headers_compile_with_nvrtc_without_a_gpu():
    # NVRTC searches no folder by itself: loom adds the CUDA toolkit's include folder.
    loom.RawModule(ATOMICS_16).compile(arch=90)
