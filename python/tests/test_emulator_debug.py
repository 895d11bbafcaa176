"""The CPU kernel emulator's own errors (divergent barrier) and its debug mode
(bounds checks with the source line, shuffled threads, junk shared memory), on every device
with the same fresh random inputs and NumPy answers. Split from test_emulator.py, whose
helpers and kernels it shares.
"""
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import loom
from conftest import random_array
import test_emulator  # its kernels, run again in debug mode
from test_emulator import raw, on, cpu_only, to, cdiv, DOUBLIFY_1D


# ---------------------------------------------------------------- the emulator's own errors

DIVERGENT = r"""
extern "C" __global__ void diverge_two_barriers(float* a) {
  int t = threadIdx.x;
  if (t % 2) {
    __syncthreads();  // odd threads wait here...
  } else {
    a[t] *= 2.0f;
    __syncthreads();  // ...even threads at another barrier
  }
}
"""

EARLY_RETURN = r"""
extern "C" __global__ void early_return_then_barrier(float* a, int n) {
  __shared__ float s[256];
  int t = threadIdx.x;
  if (t >= n) return;  // threads past n leave before the barrier, as real kernels do
  s[t] = a[t];
  __syncthreads();
  a[t] = s[n - 1 - t];
}
"""


def test_divergent_barrier_raises_and_the_emulator_recovers(device, rng):
    cpu_only(device, "threads waiting at different barriers is undefined behaviour on a GPU")
    a = to(device, random_array(rng, 256, np.float32))
    with pytest.raises(RuntimeError) as e:
        raw(DIVERGENT, "diverge_two_barriers")((4,), (256,), (a,))
    assert not isinstance(e.value, loom.CompileError), e.value
    assert "diverge_two_barriers" in str(e.value) and "__syncthreads" in str(e.value), str(e.value)
    # The failed launch left nothing behind: the next one runs normally.
    host = random_array(rng, 1000, np.float32)
    b = to(device, host)
    raw(DOUBLIFY_1D, "doublify")((4,), (256,), (b, 1000))
    np.testing.assert_array_equal(b.numpy(), host * np.float32(2))


def test_threads_that_return_before_a_barrier_are_not_waited_for(device, rng):
    host = random_array(rng, 256, np.float32)
    a = to(device, host)
    raw(EARLY_RETURN, "early_return_then_barrier")((1,), (256,), (a, 100))
    expected = host.copy()
    expected[:100] = host[:100][::-1]
    np.testing.assert_array_equal(a.numpy(), expected)


OUT_OF_BOUNDS = r"""
extern "C" __global__ void write_past_end(float* a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) a[i] = 2.0f * i;  // off by one: a[n] is outside the array
}
"""

# In a child: without the check, the stray write could corrupt this process's heap. The
# variable is set after import and after a first launch: the emulator reads it per launch.
OOB_CHILD = textwrap.dedent(r"""
    import os, sys
    import numpy as np
    import loom
    src, ok_src = sys.argv[1], sys.argv[2]
    a = loom.asarray(np.ones(64, np.float32), device=loom.cpu())
    loom.RawKernel(ok_src, "doublify")((1,), (64,), (a, 64))
    os.environ["LOOM_EMULATOR_DEBUG"] = "1"
    b = loom.asarray(np.ones(100, np.float32), device=loom.cpu())
    try:
        loom.RawKernel(src, "write_past_end")((1,), (128,), (b, 100))
        print("NO ERROR")
    except Exception as e:
        print("RAISED", type(e).__name__, str(e).replace("\n", " "))
""")


def test_out_of_bounds_write_in_debug_mode_raises_index_error(device, monkeypatch):
    cpu_only(device, "out-of-bounds writes are undefined behaviour on a GPU (they can lose the context)")
    monkeypatch.delenv("LOOM_EMULATOR_DEBUG", raising=False)
    r = subprocess.run([sys.executable, "-c", OOB_CHILD, OUT_OF_BOUNDS, DOUBLIFY_1D],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    line = r.stdout.strip().splitlines()[-1]
    assert line.startswith("RAISED IndexError") and "write_past_end" in line, line
    # Only thread 100 writes outside (a[100]); the line is the user's (line 4 of the source).
    assert "at line 4 of the kernel source" in line, line
    assert "byte offset 400 (element 100) of a 100-element float32 array argument 0 (a)" in line, line
    assert "in thread (100, 0, 0) of block (0, 0, 0)" in line, line


# Reads out of bounds are checked before they happen: safe to run in this process.
OOB_READS = r"""
extern "C" __global__ void gather_subscript(const float* x, const int* idx, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = x[idx[i]];
}
extern "C" __global__ void gather_pointer(const float* __restrict__ x, const int* idx, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const float v = *(x + idx[i]);
    out[i] = v;
  }
}
"""


@pytest.mark.parametrize("name,line", [("gather_subscript", 5), ("gather_pointer", 10)])
@pytest.mark.parametrize("bad", [-1, 1000])
def test_out_of_bounds_read_in_debug_mode_raises_index_error(device, rng, monkeypatch, name, line, bad):
    cpu_only(device, "out-of-bounds reads are undefined behaviour on a GPU")
    monkeypatch.setenv("LOOM_EMULATOR_DEBUG", "1")
    n = 300
    x = random_array(rng, 1000, np.float32)
    idx = rng.integers(0, 1000, n).astype(np.int32)
    where = int(rng.integers(0, n))
    idx[where] = bad
    out = loom.empty(n, dtype=loom.float32, device=device)
    k = raw(OOB_READS, name)
    with pytest.raises(IndexError) as e:
        k((cdiv(n, 128),), (128,), (to(device, x), to(device, idx), out, n))
    msg = str(e.value)
    assert msg.startswith(f"[RawKernel {name}] out-of-bounds access at line {line} of the kernel source"), msg
    assert f"byte offset {4 * bad} (element {bad}) of a 1000-element float32 array argument 0 (x)" in msg, msg
    assert f"in thread ({where % 128}, 0, 0) of block ({where // 128}, 0, 0)" in msg, msg
    # The same kernel with every index in bounds gives NumPy's answer, in debug mode too.
    idx[where] = 7
    k((cdiv(n, 128),), (128,), (to(device, x), to(device, idx), out, n))
    np.testing.assert_array_equal(out.numpy(), x[idx])


# Sums row r of a 2-D view over `cols + extra` columns: with extra > 0 the last row reads
# past the view's last element (rows before it read into the parent's gap: not checked).
ROW_SUMS = r"""
extern "C" __global__ void row_sums(const double* m, double* out, int rows, int cols, int row_stride) {
  int r = threadIdx.x;
  if (r < rows) {
    double s = 0.0;
    for (int c = 0; c < cols; ++c) s += m[r * row_stride + c];
    out[r] = s;
  }
}
"""


def test_two_dimensional_view_argument_is_bounds_checked(device, rng, monkeypatch):
    cpu_only(device, "out-of-bounds reads are undefined behaviour on a GPU")
    monkeypatch.setenv("LOOM_EMULATOR_DEBUG", "1")
    host = random_array(rng, (6, 10), np.float64)
    parent = to(device, host)
    view = parent[1:4, 2:7]  # rows 1-3, columns 2-6: data at element 12, last element at 36
    out = loom.empty(3, dtype=loom.float64, device=device)
    k = raw(ROW_SUMS, "row_sums")
    k((1,), (32,), (view, out, 3, 5, 10))
    np.testing.assert_allclose(out.numpy(), host[1:4, 2:7].sum(axis=1), rtol=1e-13)
    with pytest.raises(IndexError) as e:
        k((1,), (32,), (view, out, 3, 6, 10))
    msg = str(e.value)
    # Row 2, column 5: element 25 from the view's first element, one past its last (24).
    assert "at line 6 of the kernel source" in msg, msg
    assert "byte offset 200 (element 25) of a float64 array of shape (3, 5) argument 0 (m)" in msg, msg
    assert "in thread (2, 0, 0)" in msg, msg


def test_debug_launch_option(device, rng, monkeypatch):
    # debug=True does what LOOM_EMULATOR_DEBUG=1 does, for one launch; on a GPU it does nothing.
    on(device)
    monkeypatch.delenv("LOOM_EMULATOR_DEBUG", raising=False)
    n = 300
    x = random_array(rng, 1000, np.float32)
    idx = rng.integers(0, 1000, n).astype(np.int32)
    out = loom.empty(n, dtype=loom.float32, device=device)
    k = raw(OOB_READS, "gather_subscript")
    args = (to(device, x), to(device, idx), out, np.int32(n))
    k((cdiv(n, 128),), (128,), args, debug=True)
    np.testing.assert_array_equal(out.numpy(), x[idx])
    out2 = loom.empty(n, dtype=loom.float32, device=device)
    k(args[0], args[1], out2, np.int32(n), grid=(cdiv(n, 128), 1), block=(128, 1, 1), debug=True)
    np.testing.assert_array_equal(out2.numpy(), x[idx])
    if device != loom.cpu():
        return
    idx[int(rng.integers(0, n))] = 1000
    bad = (args[0], to(device, idx), out, np.int32(n))
    with pytest.raises(IndexError, match="gather_subscript.*line 5"):
        k((cdiv(n, 128),), (128,), bad, debug=True)
    with pytest.raises(IndexError, match="gather_subscript.*line 5"):
        k(*bad, grid=(cdiv(n, 128), 1), block=(128, 1, 1), debug=True)


@pytest.mark.parametrize("kernel", ["doublify2d", "matmul_tiled", "reverse_blocks"])
def test_correct_kernels_give_numpy_answers_in_debug_mode(device, rng, monkeypatch, kernel):
    # Shuffled threads, junk shared memory and checked pointers change nothing for kernels
    # that synchronise and stay in bounds.
    on(device)
    monkeypatch.setenv("LOOM_EMULATOR_DEBUG", "1")
    if kernel == "doublify2d":
        test_emulator.test_doublify_2d_over_a_grid(device, rng, (37, 53), (16, 8))
    elif kernel == "matmul_tiled":
        test_emulator.test_tiled_matmul_with_shared_memory(device, rng, 70, 45, 33)
    else:
        test_emulator.test_dynamic_shared_memory(device, rng, 100)


# Each thread reads its left neighbour's shared slot without waiting for the write: a race.
# Run as a plain loop (x order) on the CPU the neighbour always wrote first, so the answer
# comes out right; in debug mode the threads run in a random order from junk (NaN) shared
# memory, so about half of the reads see NaN. One block of 256 threads would have to run in
# exactly increasing order (a chance of 1 in 256!) for the race to go unseen.
MISSING_BARRIER = r"""
extern "C" __global__ void shift_no_barrier(const float* x, float* out) {
  __shared__ float s[256];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  s[t] = x[i];
  // a __syncthreads() is missing here
  out[i] = t > 0 ? s[t - 1] : 0.0f;
}
extern "C" __global__ void shift_one_barrier_short(const float* x, float* out) {
  __shared__ float s[256];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  float v = 2.0f * x[i];
  __syncthreads();
  s[t] = v;
  // a __syncthreads() is missing here
  out[i] = t > 0 ? s[t - 1] : 0.0f;
}
"""


@pytest.mark.parametrize("name,scale", [("shift_no_barrier", 1), ("shift_one_barrier_short", 2)])
def test_missing_barrier_gives_a_wrong_answer_in_debug_mode(device, rng, monkeypatch, name, scale):
    cpu_only(device, "a race on a GPU may or may not show")
    monkeypatch.delenv("LOOM_EMULATOR_DEBUG", raising=False)
    blocks = 4
    x = random_array(rng, (blocks, 256), np.float32)
    expected = np.zeros_like(x)
    expected[:, 1:] = scale * x[:, :-1]
    out = loom.empty(blocks * 256, dtype=loom.float32, device=device)
    k = raw(MISSING_BARRIER, name)
    k((blocks,), (256,), (to(device, x), out))
    np.testing.assert_array_equal(out.numpy().reshape(blocks, 256), expected)  # the race goes unseen
    k((blocks,), (256,), (to(device, x), out), debug=True)
    got = out.numpy().reshape(blocks, 256)
    assert np.all(np.isnan(got).any(axis=1)), "every block should have read unwritten (junk) shared memory"
    ok = ~np.isnan(got)
    np.testing.assert_array_equal(got[ok], expected[ok])  # what was read after its write is right


UNINITIALISED_SHARED = r"""
extern "C" __global__ void read_unwritten_shared(float* f, int* i, double* d) {
  __shared__ float sf[64];
  __shared__ int si[64];
  extern __shared__ double sd[];
  int t = threadIdx.x, o = blockIdx.x * 64 + t;
  f[o] = sf[t];
  i[o] = si[t];
  d[o] = sd[t];
}
"""


def test_uninitialised_shared_memory_reads_junk_in_debug_mode(device, monkeypatch):
    cpu_only(device, "unwritten shared memory holds whatever it held on a GPU")
    monkeypatch.setenv("LOOM_EMULATOR_DEBUG", "1")
    blocks = 3
    f = to(device, np.zeros(blocks * 64, np.float32))
    i = to(device, np.zeros(blocks * 64, np.int32))
    d = to(device, np.zeros(blocks * 64, np.float64))
    raw(UNINITIALISED_SHARED, "read_unwritten_shared")((blocks,), (64,), (f, i, d), shared_mem=64 * 8)
    assert np.isnan(f.numpy()).all(), f.numpy()
    assert (i.numpy() == -1).all(), i.numpy()
    assert np.isnan(d.numpy()).all(), d.numpy()


WARP_SUMS = r"""
extern "C" __global__ void warp_sums(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  if ((threadIdx.x & 31) == 0 && i < n) out[i / 32] = v;
}
"""


def test_warp_shuffle_runs_on_every_device(device, rng):
    # Refused on cpu() until the emulator had warp intrinsics (test_emulator_warp.py has the rest).
    on(device)
    n = 32 * 50
    x = (rng.integers(-256, 257, n) / 64).astype(np.float32)  # exact sums in any order
    out = loom.empty(n // 32, dtype=loom.float32, device=device)
    raw(WARP_SUMS, "warp_sums")((cdiv(n, 128),), (128,), (to(device, x), out, n))
    np.testing.assert_array_equal(out.numpy(), x.reshape(-1, 32).sum(axis=1))
