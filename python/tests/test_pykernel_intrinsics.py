"""cuda.* intrinsics in Python kernels on every device against NumPy: indices, atomics under
contention, warp shuffles and votes, counting barriers, bit functions."""
import numpy as np
import pytest

import loom
from loom import cuda
from conftest import needs_nvrtc


@cuda.jit
def indices(out):
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    tz = cuda.threadIdx.z
    bx = cuda.blockIdx.x
    by = cuda.blockIdx.y
    gx, gy, gz = cuda.grid(3)
    sx, sy, sz = cuda.gridsize(3)
    if gx < out.shape[0] and gy < out.shape[1] and gz < out.shape[2]:
        out[gx, gy, gz, 0] = tx + 10 * ty + 100 * tz
        out[gx, gy, gz, 1] = bx + 10 * by + 100 * cuda.blockIdx.z
        out[gx, gy, gz, 2] = cuda.blockDim.x * cuda.gridDim.x + sx + sy + sz
        out[gx, gy, gz, 3] = cuda.laneid + 1000 * cuda.warpsize


def test_thread_block_grid_indices(device):
    block, grid = (4, 3, 2), (2, 2, 3)
    shape = tuple(b * g for b, g in zip(block, grid))
    out = loom.zeros(shape + (4,), dtype=loom.int64, device=device)
    indices[grid, block](out)
    o = out.numpy()
    gx, gy, gz = np.meshgrid(*[np.arange(s) for s in shape], indexing="ij")
    tx, ty, tz = gx % 4, gy % 3, gz % 2
    np.testing.assert_array_equal(o[..., 0], tx + 10 * ty + 100 * tz)
    np.testing.assert_array_equal(o[..., 1], gx // 4 + 10 * (gy // 3) + 100 * (gz // 2))
    np.testing.assert_array_equal(o[..., 2], 8 + 8 + 6 + 6)
    lin = tx + 4 * (ty + 3 * tz)
    np.testing.assert_array_equal(o[..., 3], lin % 32 + 32000)


@cuda.jit
def histogram(x, bins, hist):
    i = cuda.grid(1)
    if i < x.size:
        b = int(x[i] * bins)
        if b >= bins:
            b = bins - 1
        cuda.atomic.add(hist, b, 1)


@pytest.mark.parametrize("dtype", ["int32", "uint32", "int64", "uint64", "float32", "float64"])
def test_atomic_histogram_under_contention(device, rng, dtype):
    x = rng.random(20000)
    hist = loom.zeros(8, dtype=dtype, device=device)
    histogram[(20000 + 255) // 256, 256](loom.asarray(x, device=device), 8, hist)
    want = np.bincount(np.minimum((x * 8).astype(int), 7), minlength=8)
    np.testing.assert_array_equal(hist.numpy(), want.astype(dtype))


@cuda.jit
def atomics_all(x, out, old):
    i = cuda.grid(1)
    if i < x.size:
        v = x[i]
        cuda.atomic.sub(out, 0, v)
        cuda.atomic.max(out, 1, v)
        cuda.atomic.min(out, 2, v)
        cuda.atomic.add(out, (3,), v)
        old[i] = cuda.atomic.exch(out, 4, v)


@pytest.mark.parametrize("dtype", ["int32", "uint32", "int64", "uint64", "float32", "float64"])
def test_atomic_sub_min_max_exch(device, rng, dtype):
    n = 3000
    x = rng.integers(1, 1000, n).astype(dtype)
    init = np.array([10**6, 0, 10**6, 0, 0], dtype=dtype)
    out = loom.asarray(init, device=device)
    old = loom.zeros(n, dtype=dtype, device=device)
    atomics_all[(n + 127) // 128, 128](loom.asarray(x, device=device), out, old)
    o = out.numpy()
    assert o[0] == np.array(10**6, dtype=dtype) - x.sum(dtype=dtype)
    assert o[1] == x.max() and o[2] == x.min() and o[3] == x.sum(dtype=dtype)
    # exch: the n+1 values (0 and every x) each appear once as an old value or as the final one
    seen = np.sort(np.concatenate([old.numpy(), [o[4]]]))
    np.testing.assert_array_equal(seen, np.sort(np.concatenate([x, [0]])))


@cuda.jit
def atomics_nan(x, out):
    i = cuda.grid(1)
    if i < x.size:
        cuda.atomic.max(out, 0, x[i])
        cuda.atomic.min(out, 1, x[i])
        cuda.atomic.nanmax(out, 2, x[i])
        cuda.atomic.nanmin(out, 3, x[i])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_atomic_min_max_nan_rules(device, rng, dtype):
    # Numba's rules: max/min keep a stored NaN and ignore NaN values; nanmax/nanmin treat
    # NaN as missing on both sides.
    x = rng.standard_normal(2000).astype(dtype)
    x[rng.choice(2000, 200, replace=False)] = np.nan
    xs = loom.asarray(x, device=device)
    out = loom.asarray(np.array([-np.inf, np.inf, np.nan, np.nan], dtype=dtype), device=device)
    atomics_nan[(2000 + 127) // 128, 128](xs, out)
    o = out.numpy()
    assert o[0] == np.nanmax(x) and o[1] == np.nanmin(x)  # NaN values ignored
    assert o[2] == np.nanmax(x) and o[3] == np.nanmin(x)  # a stored NaN replaced
    kept = loom.asarray(np.full(4, np.nan, dtype=dtype), device=device)
    atomics_nan[(2000 + 127) // 128, 128](xs, kept)
    k = kept.numpy()
    assert np.isnan(k[0]) and np.isnan(k[1])  # a stored NaN stays
    assert k[2] == np.nanmax(x) and k[3] == np.nanmin(x)


@cuda.jit
def atomics_bits(x, out, counters):
    i = cuda.grid(1)
    if i < x.size:
        cuda.atomic.and_(out, 0, x[i])
        cuda.atomic.or_(out, 1, x[i])
        cuda.atomic.xor(out, 2, x[i])
        cuda.atomic.inc(counters, 0, 9)
        cuda.atomic.dec(counters, 1, 1000000)


@pytest.mark.parametrize("dtype", ["uint32", "uint64"])
def test_atomic_bitwise_inc_dec(device, rng, dtype):
    n = 1000
    x = rng.integers(0, 2**31, n).astype(dtype)
    out = loom.asarray(np.array([~np.array(0, dtype=dtype), 0, 0], dtype=dtype), device=device)
    counters = loom.asarray(np.array([0, 5000], dtype=dtype), device=device)
    atomics_bits[(n + 127) // 128, 128](loom.asarray(x, device=device), out, counters)
    o = out.numpy()
    assert o[0] == np.bitwise_and.reduce(x) and o[1] == np.bitwise_or.reduce(x)
    assert o[2] == np.bitwise_xor.reduce(x)
    np.testing.assert_array_equal(counters.numpy(), [n % 10, 4000])


@cuda.jit
def cas_lock(out):
    i = cuda.grid(1)
    if i < out.size - 1:
        out[i] = cuda.atomic.cas(out, out.size - 1, 0, i + 1)


def test_atomic_cas_exactly_one_winner(device):
    out = loom.zeros(257, dtype=loom.int32, device=device)
    cas_lock[2, 128](out)
    o = out.numpy()
    winner = o[-1]
    assert 1 <= winner <= 256
    assert (o[:-1] == 0).sum() == 1 and o[winner - 1] == 0


@cuda.jit
def warp_reduce(x, out):
    i = cuda.grid(1)
    v = x[i]
    offset = 16
    while offset > 0:
        v += cuda.shfl_down_sync(0xffffffff, v, offset)
        offset //= 2
    if cuda.laneid == 0:
        out[i // 32] = v


@pytest.mark.parametrize("dtype", ["int32", "int64", "float32", "float64"])
def test_warp_shuffle_reduction(device, rng, dtype):
    x = (rng.random(256) * 100).astype(dtype)
    out = loom.zeros(8, dtype=dtype, device=device)
    warp_reduce[2, 128](loom.asarray(x, device=device), out)
    np.testing.assert_allclose(out.numpy(), x.reshape(8, 32).sum(axis=1), rtol=1e-5)


@cuda.jit
def warp_ops(x, out):
    i = cuda.grid(1)
    lane = cuda.laneid
    v = x[i]
    out[i, 0] = cuda.shfl_sync(0xffffffff, v, 3)
    out[i, 1] = cuda.shfl_xor_sync(0xffffffff, v, 1)
    out[i, 2] = cuda.shfl_up_sync(0xffffffff, v, 2)
    out[i, 3] = cuda.ballot_sync(0xffffffff, v > 50)
    out[i, 4] = cuda.all_sync(0xffffffff, v >= 0)
    out[i, 5] = cuda.any_sync(0xffffffff, v > 98)
    out[i, 6] = cuda.activemask()
    out[i, 7] = cuda.popc(np.uint32(v)) + cuda.clz(np.int32(v)) * 100
    cuda.syncwarp()
    out[i, 8] = cuda.syncthreads_count(v > 50)
    out[i, 9] = cuda.syncthreads_and(v >= 0) + 10 * cuda.syncthreads_or(v > 98)


def test_warp_shuffles_votes_and_counting_barriers(device, rng):
    x = rng.integers(0, 100, 64).astype(np.int64)
    out = loom.zeros((64, 10), dtype=loom.int64, device=device)
    warp_ops[1, 64](loom.asarray(x, device=device), out)
    o = out.numpy()
    w = x.reshape(2, 32)
    lane = np.arange(64) % 32
    warp = np.arange(64) // 32
    np.testing.assert_array_equal(o[:, 0], w[warp, 3])
    np.testing.assert_array_equal(o[:, 1], w[warp, lane ^ 1])
    np.testing.assert_array_equal(o[:, 2], np.where(lane >= 2, w[warp, np.maximum(lane - 2, 0)], x))
    ballots = [(sum(1 << k for k in range(32) if w[r, k] > 50)) for r in range(2)]
    np.testing.assert_array_equal(o[:, 3], np.array(ballots)[warp])
    np.testing.assert_array_equal(o[:, 4] != 0, True)
    np.testing.assert_array_equal(o[:, 5] != 0, np.array([w[r].max() > 98 for r in range(2)])[warp])
    np.testing.assert_array_equal(o[:, 6], 0xffffffff)
    pop = np.array([bin(int(v)).count("1") for v in x])
    clz = np.array([32 - int(v).bit_length() for v in x])
    np.testing.assert_array_equal(o[:, 7], pop + 100 * clz)
    np.testing.assert_array_equal(o[:, 8], (x > 50).sum())
    np.testing.assert_array_equal(o[:, 9], 1 + 10 * int((x > 98).any()))


@cuda.jit
def warp_matches(x, p, out):
    i = cuda.grid(1)
    out[i, 0] = cuda.match_any_sync(0xffffffff, x[i])
    m, ok = cuda.match_all_sync(0xffffffff, x[i])
    out[i, 1] = m
    out[i, 2] = ok
    out[i, 3] = cuda.eq_sync(0xffffffff, p[i])
    out[i, 4] = cuda.lanemask_lt()


@pytest.mark.parametrize("dtype", [np.int32, np.uint64, np.float32, np.float64])
def test_warp_match_eq_sync_and_lanemask(device, rng, dtype):
    """Numba's match_any_sync / match_all_sync (a (mask, bool) pair), eq_sync and
    lanemask_lt: warp 0 holds one value, warp 1 two, warp 2 random ones."""
    x = rng.integers(0, 4, 96).astype(dtype)
    x[:32] = x[0]
    x[32:64] = x[32:64] % 2
    p = rng.random(96) < 0.5
    p[:32] = True
    out = loom.zeros((96, 5), dtype=loom.int64, device=device)
    warp_matches[1, 96](loom.asarray(x, device=device), loom.asarray(p, device=device), out)
    o = out.numpy()
    for i in range(96):
        w = x[i // 32 * 32:i // 32 * 32 + 32]
        same = sum(1 << k for k in range(32) if w[k] == x[i])
        uniform = same == 0xffffffff
        pw = p[i // 32 * 32:i // 32 * 32 + 32]
        assert list(o[i]) == [same, same if uniform else 0, uniform, pw.all() or not pw.any(),
                              (1 << (i % 32)) - 1], i


@pytest.mark.parametrize("sig, msg", [("void(float32[:], int32[:], int32[:])", "Mask type must be an integer"),
                                      ("void(boolean[:], int32[:], int32[:])", "Mask type must be an integer"),
                                      ("void(int32[:], float64[:], int32[:])", "Predicate must be an integer or boolean")])
def test_vote_operand_types_are_checked_as_numba(sig, msg):
    def vote(mask, pred, out):
        i = cuda.grid(1)
        out[i] = cuda.all_sync(mask[i], pred[i])
    with pytest.raises(loom.TypingError, match=msg):
        cuda.jit(sig)(vote)


def test_match_rejects_a_16_bit_value():
    def f(x, out):
        out[0] = cuda.match_any_sync(0xffffffff, x[0])
    with pytest.raises(loom.TypingError, match="match_any_sync.*32- or 64-bit"):
        cuda.jit("void(int16[:], uint32[:])")(f)


@cuda.jit
def block_sum(x, out):
    buf = cuda.shared.array(256, np.float32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    buf[t] = x[i] if i < x.size else 0
    cuda.syncthreads()
    s = cuda.blockDim.x // 2
    while s > 0:
        if t < s:
            buf[t] += buf[t + s]
        cuda.syncthreads()
        s //= 2
    if t == 0:
        out[cuda.blockIdx.x] = buf[0]


def test_shared_memory_block_reduction(device, rng):
    x = rng.random(4096 * 4, dtype=np.float32)
    out = loom.zeros(64, dtype=loom.float32, device=device)
    block_sum[64, 256](loom.asarray(x, device=device), out)
    np.testing.assert_allclose(out.numpy(), x.reshape(64, 256).sum(axis=1), rtol=1e-5)


def test_brev_and_bit_count_of_every_width(device, rng):
    """cuda.brev on 32 and 64 bits (the emulator's __brevll too) and n.bit_count() (Python's:
    the ones of |n|), against Python."""
    dev = device

    @cuda.jit
    def k(out, x32, x64, s):
        out[0] = cuda.brev(x32)
        out[1] = cuda.brev(x64)
        out[2] = x64.bit_count()
        out[3] = s.bit_count()

    for _ in range(3):
        x32 = np.uint32(rng.integers(0, 2**32))
        x64 = np.uint64(rng.integers(0, 2**63)) * np.uint64(2) + np.uint64(1)
        s = np.int16(rng.integers(-2**15, 2**15))
        out = loom.zeros(4, dtype=loom.uint64, device=dev)
        k[1, 1](out, x32, x64, s)
        want = [int(f"{int(x32):032b}"[::-1], 2), int(f"{int(x64):064b}"[::-1], 2), int(x64).bit_count(),
                int(s).bit_count()]
        assert out.to(loom.cpu()).numpy().tolist() == want


@needs_nvrtc
def test_warp_matches_compile_with_nvrtc():
    """NVRTC (no GPU needed) takes the CUDA C the match, uni and lanemask intrinsics become."""
    ptx, _ = cuda.compile_ptx(warp_matches.py_func, "void(float64[:], boolean[:], int64[:, :])")
    assert "match.any.sync.b64" in ptx and "match.all.sync.b64" in ptx and "vote.sync.uni" in ptx


@pytest.mark.parametrize("alignment", [None, 16, 64, 256])
def test_local_and_shared_arrays_take_an_alignment(device, alignment):
    """Numba's alignment= of cuda.local/shared.array: the array's address (a.ctypes.data) is a
    multiple of it."""
    @cuda.jit
    def f(out):
        loc = cuda.local.array(3, dtype=np.uint8, alignment=alignment)
        sh = cuda.shared.array((2, 3), dtype=np.float32, alignment=alignment)
        loc[0] = 1
        sh[0, 0] = 2.0
        out[0] = loc.ctypes.data
        out[1] = sh.ctypes.data
        out[2] = loc[0] + sh[0, 0]

    out = loom.zeros(3, dtype=loom.uint64, device=device)
    f[1, 1](out)
    o = out.numpy()
    assert o[2] == 3 and o[0] != 0 and o[1] != 0
    if alignment:
        assert o[0] % alignment == 0 and o[1] % alignment == 0


@pytest.mark.parametrize("alignment, error, message", [
    (3, ValueError, "Alignment must be a power of 2"), (0, ValueError, "Alignment must be a power of 2"),
    (-4, ValueError, "Alignment must be a power of 2"), (1.5, loom.TypingError, "alignment must be a constant integer"),
    ("16", loom.TypingError, "alignment must be a constant integer")])
def test_a_bad_alignment_is_refused(alignment, error, message):
    @cuda.jit
    def f(out):
        a = cuda.local.array(4, dtype=np.float32, alignment=alignment)
        a[0] = 1.0
        out[0] = a[0]

    with pytest.raises(error, match=message):
        f[1, 1](loom.zeros(1, device=loom.cpu()))


@needs_nvrtc
def test_aligned_arrays_compile_with_nvrtc():
    def f(out):
        loc = cuda.local.array(3, dtype=np.uint8, alignment=64)
        sh = cuda.shared.array(4, dtype=np.float64, alignment=128)
        loc[0] = 1
        sh[0] = 2.0
        out[0] = loc.ctypes.data + sh.ctypes.data + loc[0]

    ptx, _ = cuda.compile_ptx(f, "void(uint64[::1])")
    assert ".align 128" in ptx


def test_launch_bounds(device):
    """Numba's launch_bounds=: written as __launch_bounds__ (NVRTC's .maxntid/.minnctapersm);
    a larger block is refused, by the GPU and by the emulator alike."""
    @cuda.jit(launch_bounds=(128, 2))
    def k(x):
        x[cuda.grid(1)] = 1

    a = loom.zeros(256, device=device)
    k[2, 128](a)
    assert a.numpy().sum() == 256
    assert next(iter(k.overloads.values())).max_threads_per_block <= 128
    with pytest.raises(ValueError if device == loom.cpu() else (ValueError, loom.CudaError)):
        k[1, 256](a)
    loom.synchronize()
    if loom.build_info()["cuda"]:  # NVRTC's PTX of it
        ptx = next(iter(k.inspect_asm().values()))
        assert ".maxntid 128, 1, 1" in ptx and ".minnctapersm 2" in ptx


@pytest.mark.parametrize("bounds", [(128, 2, 4, 8), (0,), (128.0,), "128"])
def test_bad_launch_bounds_are_refused(bounds):
    with pytest.raises(ValueError, match="launch bounds|launch_bounds"):
        cuda.jit("void()", launch_bounds=bounds)(lambda: None)


def test_launch_bounds_of_a_cuda_c_kernel_bound_its_blocks_in_the_emulator():
    k = loom.RawKernel(r'''extern "C" __global__ void __launch_bounds__(64) fill(int* x) {
      x[blockIdx.x * blockDim.x + threadIdx.x] = 7; }''', "fill")
    x = loom.zeros(128, dtype=loom.int32, device=loom.cpu())
    with loom.cpu():
        k((2,), (64,), (x,))
        assert k.attributes()["max_threads_per_block"] == 64
        with pytest.raises(ValueError, match="__launch_bounds__ allows at most 64"):
            k((1,), (128,), (x,))
    assert (x.numpy() == 7).all()


@pytest.mark.parametrize("carveout, ok", [("MaxL1", True), ("MaxShared", True), ("default", True), (0, True),
                                          (100, True), (-1, True), (150, False), (-2, False), ("Max", False),
                                          (50.0, False)])
def test_shared_memory_carveout_is_checked_as_numba(carveout, ok):
    def body(x):
        x[0] = 1

    if ok:
        k = cuda.jit(shared_memory_carveout=carveout)(body)
        a = loom.zeros(1, device=loom.cpu())
        k[1, 1](a)
        assert a.numpy()[0] == 1
    else:
        with pytest.raises(ValueError, match="between -1 and 100|Invalid carveout value"):
            cuda.jit("void(float64[::1])", shared_memory_carveout=carveout)(body)
