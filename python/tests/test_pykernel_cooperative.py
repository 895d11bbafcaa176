"""Cooperative groups on every device: Numba's cuda.cg.this_grid() and grid.sync() in Python
kernels, and CUDA C's cooperative_groups in RawKernels. A grid barrier that is needed (each
thread reads what a thread of another block wrote in the round before), kernels marked
cooperative, Numba's max_cooperative_grid_blocks, and errors in place of a GPU's hangs."""
import numpy as np
import pytest

import loom
from loom import cuda
from loom.cuda import int32


def sequential_rows(M):
    col = cuda.grid(1)
    g = cuda.cg.this_grid()
    for row in range(1, M.shape[0]):
        M[row, col] = M[row - 1, M.shape[1] - col - 1] + 1  # the mirror column: another block's
        g.sync()


SIG = (int32[:, ::1],)


def test_grid_sync_orders_rounds_across_blocks(device):
    k = cuda.jit(SIG)(sequential_rows)
    ov = k.overloads[SIG]
    assert ov.cooperative
    blocks = min(ov.max_cooperative_grid_blocks(32), 16)
    assert blocks >= 2
    M = loom.zeros((200, blocks * 32), dtype=loom.int32, device=device)
    k[blocks, 32](M)
    np.testing.assert_array_equal(M.numpy(), np.tile(np.arange(200), (blocks * 32, 1)).T)


def test_cooperative_marks_and_block_limits(device):
    k = cuda.jit(SIG)(sequential_rows)
    ov = k.overloads[SIG]
    # the limit depends on the threads of a block, not on its shape
    assert ov.max_cooperative_grid_blocks(256) == ov.max_cooperative_grid_blocks((16, 16)) \
        == ov.max_cooperative_grid_blocks((16, 4, 4)) > 0

    @cuda.jit
    def plain(a):
        a[0] = cuda.grid(1)

    @cuda.jit
    def grid_only(a):
        cuda.cg.this_grid()
        a[0] = 1.0

    a = loom.zeros(1, device=device)
    plain[1, 1](a)
    grid_only[1, 1](a)
    assert not any(o.cooperative for o in plain.overloads.values())
    assert all(o.cooperative for o in grid_only.overloads.values()) and a.numpy()[0] == 1.0


CG_SOURCE = r"""
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void grid_sum(const float* x, float* partial, float* out, int n) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();
  __shared__ float s[128];
  float acc = 0.0f;
  for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size()) acc += x[i];
  s[block.thread_rank()] = acc;
  block.sync();
  if (block.thread_rank() == 0) {
    float t = 0.0f;
    for (unsigned k = 0; k < block.size(); ++k) t += s[k];
    partial[blockIdx.x] = t;
  }
  grid.sync();  // every block's partial sum is written
  if (grid.thread_rank() == 0) {
    float t = 0.0f;
    for (unsigned b = 0; b < gridDim.x; ++b) t += partial[b];
    out[0] = t;
  }
}
"""


def test_raw_kernel_grid_reduction(device, rng):
    k = loom.RawModule(CG_SOURCE).get_function("grid_sum")
    assert k.cooperative
    blocks = min(k.max_cooperative_blocks(128, device=device), 8)
    x = rng.standard_normal(10000).astype(np.float32)
    partial = loom.zeros(blocks, dtype=loom.float32, device=device)
    out = loom.zeros(1, dtype=loom.float32, device=device)
    k((blocks,), (128,), (loom.asarray(x, device=device), partial, out, np.int32(x.size)))
    np.testing.assert_allclose(out.numpy()[0], x.astype(np.float64).sum(), rtol=1e-4, atol=1e-3)


def test_too_large_cooperative_grid_is_refused(device):
    k = loom.RawModule(CG_SOURCE).get_function("grid_sum")
    most = k.max_cooperative_blocks(128, device=device)
    x = loom.zeros(10, dtype=loom.float32, device=device)
    partial = loom.zeros(most + 1, dtype=loom.float32, device=device)
    with pytest.raises(ValueError, match="cooperative launch"):
        k((most + 1,), (128,), (x, partial, x, np.int32(10)))


def test_emulator_reports_what_would_hang_a_gpu():
    @cuda.jit
    def leaves_early(a):
        if cuda.blockIdx.x == 1:
            return
        cuda.cg.this_grid().sync()
        a[0] = 1

    @cuda.jit
    def diverges(a):
        if cuda.threadIdx.x == 0:
            cuda.cg.this_grid().sync()
        else:
            cuda.syncthreads()
        a[0] = 1

    a = loom.zeros(1, dtype=loom.int32, device=loom.cpu())
    with pytest.raises(RuntimeError, match="returned while others wait at a grid barrier"):
        leaves_early[4, 8](a)
    with pytest.raises(RuntimeError, match="divergent"):
        diverges[2, 8](a)


@pytest.mark.skipif(not loom.build_info()["cuda"], reason="loom built without CUDA (no NVRTC)")
def test_cooperative_kernels_compile_with_nvrtc():
    ptx, _ = cuda.compile_ptx(sequential_rows, SIG, cc=(9, 0))
    assert ".entry" in ptx
    loom.RawModule(CG_SOURCE).compile(90)
