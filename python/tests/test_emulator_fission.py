"""Loop fission of Python kernels with barriers (pykernel/fission.py): the kernels whose barriers
every thread of a block reaches together carry a whole-block form, which the CPU emulator runs
instead of one fiber per thread. Each kernel runs on every device, on cpu() both ways
(LOOM_EMULATOR_FISSION=0 keeps the fibers), against NumPy on fresh random data."""
import numpy as np
import pytest

import loom
from loom import cuda
from conftest import needs_nvrtc

TPB = 16


@cuda.jit
def tree_sum(x, out):
    buf = cuda.shared.array(128, np.float64)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    buf[t] = x[i] if i < x.size else 0.0
    cuda.syncthreads()
    s = cuda.blockDim.x // 2
    while s > 0:
        if t < s:
            buf[t] += buf[t + s]
        cuda.syncthreads()
        s //= 2
    if t == 0:
        out[cuda.blockIdx.x] = buf[0]


@cuda.jit
def tiled_matmul(a, b, c):
    sa = cuda.shared.array(shape=(TPB, TPB), dtype=np.float32)
    sb = cuda.shared.array(shape=(TPB, TPB), dtype=np.float32)
    x, y = cuda.grid(2)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    acc = np.float32(0.0)
    for k in range((a.shape[1] + TPB - 1) // TPB):
        sa[ty, tx] = 0
        sb[ty, tx] = 0
        if y < a.shape[0] and tx + k * TPB < a.shape[1]:
            sa[ty, tx] = a[y, tx + k * TPB]
        if x < b.shape[1] and ty + k * TPB < b.shape[0]:
            sb[ty, tx] = b[ty + k * TPB, x]
        cuda.syncthreads()
        for j in range(TPB):
            acc += sa[ty, j] * sb[j, tx]
        cuda.syncthreads()
    if y < c.shape[0] and x < c.shape[1]:
        c[y, x] = acc


@cuda.jit
def reverse_with_early_exit(x, out, n):
    """Threads past n return before the barrier; the others still meet there (a GPU's barrier
    does not wait for exited threads)."""
    buf = cuda.shared.array(64, np.int64)
    t = cuda.threadIdx.x
    if t >= n:
        return
    buf[t] = x[cuda.blockIdx.x * n + t]
    cuda.syncthreads()
    out[cuda.blockIdx.x, t] = buf[n - 1 - t]


@cuda.jit
def odd_blocks_rotate(x, out):
    """A barrier under a test that differs between blocks but not within one; a per-thread
    local array and a widened parameter live across barriers."""
    buf = cuda.shared.array(32, np.float64)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    keep = cuda.local.array(2, np.float64)
    keep[0] = x[i]
    keep[1] = 2.0 * x[i]
    shift = 1
    if cuda.blockIdx.x % 2 == 1:
        buf[t] = keep[0]
        cuda.syncthreads()
        shift = 3
        keep[0] = buf[(t + shift) % cuda.blockDim.x]
        cuda.syncthreads()
    out[i] = keep[0] + keep[1] + shift


@cuda.jit
def prefix_steps(x, out, steps):
    """A for loop over a scalar argument's range with two barriers a step, and a parameter
    reassigned (widened to float) before them."""
    buf = cuda.shared.array(64, np.float64)
    t = cuda.threadIdx.x
    steps = steps * 1.0
    buf[t] = x[cuda.grid(1)]
    cuda.syncthreads()
    for d in range(int(steps)):
        off = 1 << d
        v = buf[t - off] if t >= off else 0.0
        cuda.syncthreads()
        buf[t] += v
        cuda.syncthreads()
    out[cuda.grid(1)] = buf[t] + steps


@cuda.jit
def loop_on_shared_value(x, out):
    """The loop's test reads shared memory: uniform only at run time, so it keeps the fibers."""
    flag = cuda.shared.array(1, np.int32)
    buf = cuda.shared.array(32, np.float64)
    t = cuda.threadIdx.x
    if t == 0:
        flag[0] = 3
    buf[t] = x[cuda.grid(1)]
    cuda.syncthreads()
    while flag[0] > 0:
        v = buf[t] * 0.5 + buf[(t + 1) % 32]
        cuda.syncthreads()
        buf[t] = v
        if t == 0:
            flag[0] -= 1
        cuda.syncthreads()
    out[cuda.grid(1)] = buf[t]


@cuda.jit
def barrier_loop_with_break(x, out):
    """A barrier in a loop left by `break`: the fibers."""
    buf = cuda.shared.array(32, np.float64)
    t = cuda.threadIdx.x
    buf[t] = x[cuda.grid(1)]
    for k in range(8):
        cuda.syncthreads()
        if k == 3:
            break
        buf[t] += 1.0
    out[cuda.grid(1)] = buf[t]


def _forms(kernel):
    return "\n".join(kernel.inspect_source().values())


@pytest.fixture(params=["fission", "fibers"])
def mode(request, device, monkeypatch):
    if request.param == "fibers":
        if device != loom.cpu():
            pytest.skip("only the CPU emulator has the two forms")
        monkeypatch.setenv("LOOM_EMULATOR_FISSION", "0")
    return request.param


def test_tree_reduction(device, mode, rng):
    x = rng.standard_normal(128 * 9 - 5)
    out = loom.zeros(9, dtype=loom.float64, device=device)
    tree_sum[9, 128](loom.asarray(x, device=device), out)
    ref = np.add.reduceat(np.concatenate([x, np.zeros(5)]), np.arange(0, 128 * 9, 128))
    # A block's sum can cancel to ~1e-4 (128 normal values): its tree order's rounding is then
    # far above rtol of the result, so the bound is absolute too (a few ulp of the terms).
    np.testing.assert_allclose(out.numpy(), ref, rtol=1e-12, atol=1e-13)
    assert "LOOM_EMU_WHOLE_BLOCK(loom_pk_tree_sum," in _forms(tree_sum)


def test_tiled_matmul_in_a_range_loop(device, mode, rng):
    a = rng.standard_normal((37, 45)).astype(np.float32)
    b = rng.standard_normal((45, 29)).astype(np.float32)
    c = loom.zeros((37, 29), dtype=loom.float32, device=device)
    grid = ((29 + TPB - 1) // TPB, (37 + TPB - 1) // TPB)
    tiled_matmul[grid, (TPB, TPB)](loom.asarray(a, device=device), loom.asarray(b, device=device), c)
    np.testing.assert_allclose(c.numpy(), a.astype(np.float64) @ b, rtol=1e-4, atol=1e-4)
    assert "LOOM_EMU_WHOLE_BLOCK(loom_pk_tiled_matmul," in _forms(tiled_matmul)


def test_threads_that_return_before_a_barrier(device, mode, rng):
    n = 40
    x = rng.integers(-1000, 1000, 3 * n)
    out = loom.full((3, 64), -7, dtype=loom.int64, device=device)
    reverse_with_early_exit[3, 64](loom.asarray(x, device=device), out, n)
    ref = np.full((3, 64), -7)
    ref[:, :n] = x.reshape(3, n)[:, ::-1]
    np.testing.assert_array_equal(out.numpy(), ref)  # the threads that returned wrote nothing


def test_barriers_under_a_per_block_test(device, mode, rng):
    x = rng.standard_normal(32 * 4)
    out = loom.zeros(32 * 4, dtype=loom.float64, device=device)
    odd_blocks_rotate[4, 32](loom.asarray(x, device=device), out)
    xb = x.reshape(4, 32)
    ref = xb + 2 * xb + 1
    ref[1::2] = np.roll(xb[1::2], -3, axis=1) + 2 * xb[1::2] + 3
    np.testing.assert_allclose(out.numpy(), ref.ravel(), rtol=1e-14)
    assert "LOOM_EMU_WHOLE_BLOCK(loom_pk_odd_blocks_rotate," in _forms(odd_blocks_rotate)


def test_range_loop_over_an_argument_with_a_widened_parameter(device, mode, rng):
    x = rng.standard_normal(64 * 3)
    out = loom.zeros(64 * 3, dtype=loom.float64, device=device)
    prefix_steps[3, 64](loom.asarray(x, device=device), out, 6)
    ref = np.cumsum(x.reshape(3, 64), axis=1) + 6.0
    np.testing.assert_allclose(out.numpy(), ref.ravel(), rtol=1e-12, atol=1e-12)
    assert "LOOM_EMU_WHOLE_BLOCK(loom_pk_prefix_steps," in _forms(prefix_steps)


def test_a_test_read_from_memory_keeps_the_fibers(device, mode, rng):
    x = rng.standard_normal(32 * 2)
    out = loom.zeros(32 * 2, dtype=loom.float64, device=device)
    loop_on_shared_value[2, 32](loom.asarray(x, device=device), out)
    ref = x.reshape(2, 32).copy()
    for _ in range(3):
        ref = ref * 0.5 + np.roll(ref, -1, axis=1)
    np.testing.assert_allclose(out.numpy(), ref.ravel(), rtol=1e-13)
    assert "LOOM_EMU_WHOLE_BLOCK" not in _forms(loop_on_shared_value)


def test_a_barrier_loop_with_break_keeps_the_fibers(device, mode, rng):
    x = rng.standard_normal(32)
    out = loom.zeros(32, dtype=loom.float64, device=device)
    barrier_loop_with_break[1, 32](loom.asarray(x, device=device), out)
    np.testing.assert_allclose(out.numpy(), x + 3.0, rtol=1e-14)
    assert "LOOM_EMU_WHOLE_BLOCK" not in _forms(barrier_loop_with_break)


@needs_nvrtc
def test_nvrtc_compiles_the_kernel_without_its_form():
    """NVRTC (no GPU needed) skips the #ifdef'd whole-block form: the PTX has the kernel with
    its barriers and nothing of the form."""
    ptx, _ = cuda.compile_ptx(tiled_matmul.py_func, "void(float32[:, :], float32[:, :], float32[:, :])")
    assert "bar.sync" in ptx and "loom_pk_tiled_matmul" in ptx
    assert "whole_block" not in ptx
