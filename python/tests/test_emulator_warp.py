"""Warp intrinsics and counting barriers in CUDA C kernels (issue 12: Python kernels are
translated to CUDA C that calls them): on cpu() in the kernel emulator, on each GPU
natively, against NumPy on fresh random data, in normal and debug mode. Shuffles (all four,
every width, every dtype CUDA has them for), votes, __activemask with a partial last warp,
the counting __syncthreads, a block reduction mixing both, 2-D blocks whose warps span rows.
"""
import functools

import numpy as np
import pytest

import loom
from test_emulator import on, to, cdiv

FULL = 0xFFFFFFFF

# C type of each dtype the shuffles are overloaded for; long/unsigned long as CUDA's LP64.
C_TYPES = {
    "int32": "int", "uint32": "unsigned int", "int64": "long long", "uint64": "unsigned long long",
    "long": "long", "ulong": "unsigned long", "float32": "float", "float64": "double",
}
NP_TYPES = {"long": np.int64, "ulong": np.uint64}


@functools.lru_cache(maxsize=None)
def module(src):
    """One RawModule per source for the whole run: on cpu() each new source is a host compile."""
    return loom.RawModule(src)


def kernel(src, name):
    return module(src).get_function(name)


def launch(device, src, name, grid, block, args, debug=False):
    on(device)
    k = kernel(src, name)
    if device == loom.cpu():
        with loom.cpu():
            k(grid, block, args, debug=debug)
    else:
        k(grid, block, args, debug=debug)


def debug_modes(device):
    return [False, True] if device == loom.cpu() else [False]


# ---------------------------------------------------------------- shuffles, per dtype

SHUFFLES_BODY = r"""
extern "C" __global__ void shuffles_NAME(const T* x, T* out, int src, int delta, int lm, int w, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  T v = i < n ? x[i] : (T)0;
  T a = __shfl_sync(0xffffffffu, v, src, w);
  T b = __shfl_up_sync(0xffffffffu, v, delta, w);
  T c = __shfl_down_sync(0xffffffffu, v, delta, w);
  T d = __shfl_xor_sync(0xffffffffu, v, lm, w);
  if (i < n) { out[4 * i] = a; out[4 * i + 1] = b; out[4 * i + 2] = c; out[4 * i + 3] = d; }
}
"""
SHUFFLES = "".join(SHUFFLES_BODY.replace("NAME", k).replace("T", t) for k, t in C_TYPES.items())
assert "shuffles_float64(const double* x, double* out" in SHUFFLES


def np_dtype(name):
    return np.dtype(NP_TYPES.get(name, name))


def shuffle_sources(n, src, delta, lm, w):
    """CUDA's rules (programming guide) for each thread's source index, per shuffle."""
    i = np.arange(n)
    lane, base = i % 32, i - i % 32
    seg = lane // w * w
    idx = base + seg + (src & (w - 1))
    up = np.where(lane % w >= delta, i - delta, i)
    down = np.where(lane % w + delta < w, i + delta, i)
    j = lane ^ lm
    xor = np.where(j < seg + w, base + j, i)  # earlier segments yes, later ones no
    return idx, up, down, xor


def random_values(rng, dtype, n):
    if dtype.kind == "f":
        return rng.standard_normal(n).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)


@pytest.mark.parametrize("name", list(C_TYPES))
def test_shuffles_of_every_dtype_and_width(device, rng, name):
    dtype = np_dtype(name)
    n = 32 * 6  # blocks of 64: two warps each
    for debug in debug_modes(device):
        for w in (1, 2, 4, 8, 16, 32):
            x = random_values(rng, dtype, n)
            src, delta, lm = int(rng.integers(-40, 40)), int(rng.integers(0, 32)), int(rng.integers(0, 32))
            out = loom.empty(4 * n, dtype=dtype, device=device)
            launch(device, SHUFFLES, "shuffles_" + name, (cdiv(n, 64),), (64,),
                   (to(device, x), out, src, delta, lm, w, n), debug=debug)
            got = out.numpy().reshape(n, 4)
            for col, (what, idx) in enumerate(zip(("shfl", "up", "down", "xor"), shuffle_sources(n, src, delta, lm, w))):
                np.testing.assert_array_equal(got[:, col], x[idx], err_msg=f"{what} w={w} debug={debug}")


# ---------------------------------------------------------------- reductions and scans

REDUCTIONS = r"""
extern "C" __global__ void warp_sum_down(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  if ((threadIdx.x & 31) == 0 && i < n) out[i / 32] = v;
}
extern "C" __global__ void butterfly_max(const int* x, int* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = x[i];
  for (int m = 1; m < 32; m <<= 1) v = max(v, __shfl_xor_sync(0xffffffffu, v, m));
  out[i] = v;  // every lane holds its warp's max
}
extern "C" __global__ void inclusive_scan(const long long* x, long long* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31;
  long long v = x[i];
  for (int d = 1; d < 32; d <<= 1) {
    long long u = __shfl_up_sync(0xffffffffu, v, d);
    if (lane >= d) v += u;
  }
  out[i] = v;
}
extern "C" __global__ void broadcast(const double* x, double* out, int src, int w) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = __shfl_sync(0xffffffffu, x[i], src, w);
}
"""


def test_warp_shuffle_sum_reduction(device, rng):
    n = 32 * 37 - 5
    x = (rng.integers(-512, 513, n) / 32).astype(np.float32)  # exact sums in any order
    for debug in debug_modes(device):
        out = loom.empty(cdiv(n, 32), dtype=loom.float32, device=device)
        launch(device, REDUCTIONS, "warp_sum_down", (cdiv(n, 128),), (128,), (to(device, x), out, n), debug=debug)
        padded = np.concatenate([x, np.zeros(cdiv(n, 32) * 32 - n, np.float32)])
        np.testing.assert_array_equal(out.numpy(), padded.reshape(-1, 32).sum(axis=1))


def test_shfl_xor_butterfly_gives_every_lane_the_warp_max(device, rng):
    x = rng.integers(-(2**31), 2**31 - 1, 32 * 24, dtype=np.int32)
    for debug in debug_modes(device):
        out = loom.empty(x.size, dtype=loom.int32, device=device)
        launch(device, REDUCTIONS, "butterfly_max", (3,), (256,), (to(device, x), out), debug=debug)
        np.testing.assert_array_equal(out.numpy(), np.repeat(x.reshape(-1, 32).max(axis=1), 32))


def test_shfl_up_inclusive_scan(device, rng):
    x = rng.integers(-(2**40), 2**40, 32 * 16, dtype=np.int64)
    for debug in debug_modes(device):
        out = loom.empty(x.size, dtype=loom.int64, device=device)
        launch(device, REDUCTIONS, "inclusive_scan", (4,), (128,), (to(device, x), out), debug=debug)
        np.testing.assert_array_equal(out.numpy(), np.cumsum(x.reshape(-1, 32), axis=1).ravel())


@pytest.mark.parametrize("width", [8, 16])
def test_shfl_sync_broadcast_within_width(device, rng, width):
    x = rng.standard_normal(32 * 8)
    for debug in debug_modes(device):
        src = int(rng.integers(0, 64))
        out = loom.empty(x.size, dtype=loom.float64, device=device)
        launch(device, REDUCTIONS, "broadcast", (2,), (128,), (to(device, x), out, src, width), debug=debug)
        i = np.arange(x.size)
        np.testing.assert_array_equal(out.numpy(), x[i // width * width + src % width])


# ---------------------------------------------------------------- votes and barriers

VOTES = r"""
extern "C" __global__ void votes(const int* p, unsigned* out) {
  // 2-D blocks: the linear index (x fastest) makes the warps, across rows.
  int t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  int g = blockIdx.x * blockDim.x * blockDim.y * blockDim.z + t;
  int pred = p[g];
  unsigned b = __ballot_sync(0xffffffffu, pred);
  int all = __all_sync(0xffffffffu, pred), any = __any_sync(0xffffffffu, pred);
  __syncwarp();
  int count = __syncthreads_count(pred), land = __syncthreads_and(pred), lor = __syncthreads_or(pred);
  out[6 * g] = b; out[6 * g + 1] = all; out[6 * g + 2] = any;
  out[6 * g + 3] = count; out[6 * g + 4] = land; out[6 * g + 5] = lor;
}
extern "C" __global__ void active(unsigned* out, int live) {
  int t = threadIdx.x;
  if (t >= live) return;
  out[blockIdx.x * blockDim.x + t] = __activemask();
}
"""


def expected_votes(p, block_threads):
    """Per thread: ballot, all, any (over its warp: 32 consecutive linear indices of its
    block, the last warp partial) and count, and, or (over its block)."""
    rows = []
    for blk in p.reshape(-1, block_threads):
        for t in range(block_threads):
            lanes = blk[t // 32 * 32:t // 32 * 32 + 32] != 0
            ballot = int(sum(1 << l for l in np.flatnonzero(lanes)))
            count = int((blk != 0).sum())
            rows.append([ballot, lanes.all(), lanes.any(), count, count == block_threads, count > 0])
    return np.array(rows, dtype=np.uint32)


@pytest.mark.parametrize("block", [(48, 1, 1), (128, 1, 1), (12, 5, 1), (8, 3, 3)])
def test_ballot_all_any_and_counting_barriers(device, rng, block):
    nthreads = int(np.prod(block))
    blocks = 5
    for debug in debug_modes(device):
        # Per block a different density: none, all, or random predicates.
        p = (rng.random((blocks, nthreads)) < rng.choice([0.0, 1.0, 0.5, 0.1, 0.9], (blocks, 1)))
        p = (p * rng.integers(1, 100, p.shape)).astype(np.int32).ravel()
        out = loom.empty(6 * p.size, dtype=loom.uint32, device=device)
        launch(device, VOTES, "votes", (blocks,), block, (to(device, p), out), debug=debug)
        np.testing.assert_array_equal(out.numpy().reshape(-1, 6), expected_votes(p, nthreads),
                                      err_msg=f"block={block} debug={debug}")


@pytest.mark.parametrize("live", [48, 40, 20, 33])
def test_activemask_with_a_partial_last_warp(device, live):
    # A block of 48 threads: warp 0 full, warp 1 of 16 lanes; threads past `live` return.
    for debug in debug_modes(device):
        out = loom.full(96, 7, dtype=loom.uint32, device=device)
        launch(device, VOTES, "active", (2,), (48,), (out, live), debug=debug)
        masks = np.array([(1 << min(live, 32)) - 1, (1 << max(0, min(live, 48) - 32)) - 1], dtype=np.uint64)
        t = np.tile(np.arange(48), 2)
        want = np.where(t < live, masks[t // 32], 7).astype(np.uint32)
        np.testing.assert_array_equal(out.numpy(), want, err_msg=f"debug={debug}")


MATCHES_BODY = r"""
extern "C" __global__ void matches_NAME(const T* v, const int* p, unsigned* any, unsigned* all, int* pred,
                                        int* uni, int live) {
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  if (t >= live) return;
  any[g] = __match_any_sync(0xffffffffu, v[g]);
  int q;
  all[g] = __match_all_sync(0xffffffffu, v[g], &q);
  pred[g] = q;
  uni[g] = __uni_sync(0xffffffffu, p[g]);
}
"""


@pytest.mark.parametrize("name", ["int32", "uint32", "int64", "uint64", "float32", "float64"])
@pytest.mark.parametrize("live", [64, 45])
def test_match_any_match_all_and_uni_compare_bits_over_live_lanes(device, rng, name, live):
    """__match_any_sync: the lanes holding the caller's bits; __match_all_sync: all lanes or
    none (with its predicate); __uni_sync: whether the predicate is uniform. Floats compare as
    bits (0.0 and -0.0 differ). Per warp a different mix: uniform, two values, random."""
    dt = np.dtype(name)
    src = MATCHES_BODY.replace("NAME", name).replace("T*", C_TYPES[name] + "*")
    pool = np.array([0.0, -0.0, 1.5, 3.0] if dt.kind == "f" else [0, 1, 7, 2**31 - 1], dtype=dt)
    for debug in debug_modes(device):
        v = pool[rng.integers(0, len(pool), 128)]
        v[:32] = pool[rng.integers(len(pool))]  # a uniform warp
        v[32:64] = pool[rng.integers(0, 2, 32)]
        p = (rng.random(128) < rng.choice([0.0, 1.0, 0.5], 128 // 32).repeat(32)).astype(np.int32)
        outs = [loom.full(128, 7, dtype=d, device=device) for d in (loom.uint32, loom.uint32, loom.int32, loom.int32)]
        launch(device, src, f"matches_{name}", (2,), (64,), (to(device, v), to(device, p), *outs, live), debug=debug)
        want = np.full((4, 128), 7, dtype=np.int64)
        bits = v.view(np.uint32 if dt.itemsize == 4 else np.uint64)
        for g in range(128):
            t = g % 64
            if t >= live:
                continue
            w0 = g // 32 * 32
            lanes = [k for k in range(32) if (w0 + k) % 64 < live]
            same = sum(1 << k for k in lanes if bits[w0 + k] == bits[g])
            group = sum(1 << k for k in lanes)
            want[:, g] = [same, group if same == group else 0, same == group,
                          len({bool(p[w0 + k]) for k in lanes}) == 1]
        for o, w, what in zip(outs, want, ("match_any", "match_all", "match_all's predicate", "uni")):
            np.testing.assert_array_equal(o.numpy().astype(np.int64), w, err_msg=f"{what} debug={debug}")


DIVERGENT_ACTIVE = r"""
extern "C" __global__ void branches(unsigned* a, unsigned* b, int k) {
  int t = threadIdx.x;
  if (t % k == 0) a[t] = __activemask();
  else b[t] = __activemask();
}
"""


@pytest.mark.parametrize("k", [2, 3])
def test_activemask_in_divergent_branches_names_the_branchs_lanes(device, k):
    """Each branch of an `if` sees only its own lanes (Volta's independent scheduling; on
    cpu() the lanes waiting at the same __activemask call)."""
    for debug in debug_modes(device):
        a, b = (loom.zeros(64, dtype=loom.uint32, device=device) for _ in range(2))
        launch(device, DIVERGENT_ACTIVE, "branches", (1,), (64,), (a, b, k), debug=debug)
        t = np.arange(64)
        mask = [sum(1 << l for l in range(32) if ((w * 32 + l) % k == 0) == side) for w in (0, 1) for side in (1, 0)]
        want_a = np.where(t % k == 0, [mask[(x // 32) * 2] for x in t], 0).astype(np.uint32)
        want_b = np.where(t % k != 0, [mask[(x // 32) * 2 + 1] for x in t], 0).astype(np.uint32)
        np.testing.assert_array_equal(a.numpy(), want_a, err_msg=f"debug={debug}")
        np.testing.assert_array_equal(b.numpy(), want_b, err_msg=f"debug={debug}")


BLOCK_SUM = r"""
__device__ float warp_sum(float v) {
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  return v;
}
extern "C" __global__ void block_sum(const float* x, float* out, int n) {
  __shared__ float partial[32];
  int t = threadIdx.x + blockDim.x * threadIdx.y, lane = t & 31, warp = t >> 5;
  int nthreads = blockDim.x * blockDim.y;
  int i = blockIdx.x * nthreads + t;
  float v = warp_sum(i < n ? x[i] : 0.0f);
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = warp_sum(lane < (nthreads + 31) / 32 ? partial[lane] : 0.0f);
    if (lane == 0) out[blockIdx.x] = v;
  }
}
"""


@pytest.mark.parametrize("block", [(256, 1), (32, 8), (24, 4)])
def test_block_reduction_mixing_syncthreads_and_shuffles(device, rng, block):
    nthreads = block[0] * block[1]
    n = nthreads * 40 - 7
    x = (rng.integers(-512, 513, n) / 64).astype(np.float32)  # exact sums in any order
    for debug in debug_modes(device):
        out = loom.empty(40, dtype=loom.float32, device=device)
        launch(device, BLOCK_SUM, "block_sum", (40,), block, (to(device, x), out, n), debug=debug)
        padded = np.concatenate([x, np.zeros(40 * nthreads - n, np.float32)])
        np.testing.assert_array_equal(out.numpy(), padded.reshape(40, -1).sum(axis=1))


def test_environment_debug_mode_gives_the_same_answers(device, rng, monkeypatch):
    on(device)
    monkeypatch.setenv("LOOM_EMULATOR_DEBUG", "1")
    test_block_reduction_mixing_syncthreads_and_shuffles(device, rng, (32, 8))
    test_shfl_up_inclusive_scan(device, rng)


# ---------------------------------------------------------------- what a GPU leaves undefined

READS_RETURNED = r"""
extern "C" __global__ void reads_returned(float* a) {
  int t = threadIdx.x;
  if (t >= 16) return;
  a[t] = __shfl_down_sync(0xffffffffu, a[t], 1);
}
"""


def test_a_shuffle_reading_a_returned_lane_gets_its_own_value_or_an_error_in_debug_mode(rng):
    on(loom.cpu())
    x = rng.standard_normal(32).astype(np.float32)
    a = to(loom.cpu(), x)
    launch(loom.cpu(), READS_RETURNED, "reads_returned", (1,), (32,), (a,))
    want = x.copy()
    want[:15] = x[1:16]  # lane 15 reads lane 16, which returned: its own value here
    np.testing.assert_array_equal(a.numpy(), want)
    with pytest.raises(RuntimeError, match=r"reads_returned.*line 5.*reads lane 16, which has returned"):
        launch(loom.cpu(), READS_RETURNED, "reads_returned", (1,), (32,), (to(loom.cpu(), x),), debug=True)
