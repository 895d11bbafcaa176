"""A tour of loom: devices, arrays on them, moving data, and what it costs.

Run it with `make demo` (or `python examples/tour.py` with loom importable). It runs on
any machine: without a GPU every array lives on cpu() and the same code runs there.
Each section is one small function; later milestones add sections of their own.
"""
import math
import time

import numpy as np

import loom
from loom import cuda
from tour_complex import complex_numbers
from tour_fft import fourier_transforms
from tour_linalg import decompositions
from tour_transforms import transforms


def section(title):
    print(f"\n== {title} " + "=" * max(0, 66 - len(title)))


def gib(nbytes):
    return f"{nbytes / 2**30:.1f} GiB"


def check(label, got, want, **tol):
    """Compares a loom array with a NumPy reference and prints one line."""
    got = got.numpy() if hasattr(got, "numpy") else np.asarray(got)
    if tol:
        ok = got.shape == want.shape and np.allclose(got, want, **tol)
    else:
        ok = got.shape == want.shape and np.array_equal(got, want)
    print(f"  {label:<44} {'ok' if ok else 'MISMATCH'}")
    if not ok:
        raise SystemExit(f"tour: {label} differs from NumPy:\n{got}\nvs\n{want}")


def show_devices():
    section("devices")
    cuda = "with" if loom.build_info().get("cuda") else "without"
    print(f"loom {loom.__version__}, built {cuda} the CUDA backend")
    print(f"GPUs: {loom.num_gpus()}")
    for d in loom.devices():
        if d.type == "cpu":
            print(f"  {d!r:<8} {d.name}")
            continue
        major, minor = d.compute_capability
        print(f"  {d!r:<8} {d.name}: {gib(d.total_memory)} ({gib(d.free_memory)} free), "
              f"compute capability {major}.{minor}, {d.multiprocessor_count} SMs")
    default = loom.default_device()
    print(f"default device: {default!r}")
    if loom.num_gpus() == 0:
        print("no GPU here: everything below runs on cpu()")
    return default


def create_arrays(default):
    section("creating arrays")
    x = loom.arange(6, dtype=loom.float32)
    print(f"loom.arange(6) lands on the default device:\n  {x!r}")
    assert x.device == default
    for d in loom.try_all_gpus():
        z = loom.zeros((2, 3), dtype=loom.float16, device=d)
        f = loom.full((2, 2), 7, dtype=loom.int32, device=d)
        print(f"on {d!r}: zeros {z.shape} {z.dtype}, full {f.tolist()}, "
              f"eye(3)[1] = {loom.eye(3, device=d).numpy()[1].tolist()}")
    check("arange(2, 20, 3, int64) == NumPy", loom.arange(2, 20, 3, dtype=loom.int64),
          np.arange(2, 20, 3, dtype=np.int64))
    check("linspace(0, 1, 11) == NumPy", loom.linspace(0, 1, 11), np.linspace(0, 1, 11),
          rtol=0, atol=1e-15)
    check("eye(3, 4, k=1) == NumPy", loom.eye(3, 4, k=1), np.eye(3, 4, k=1))


def move_data(default):
    section("moving data between host and devices")
    host = np.random.default_rng(0).standard_normal((3, 4)).astype(np.float32)
    for d in loom.try_all_gpus():
        x = loom.asarray(host, device=d)            # host -> device
        assert x.to(d) is x                         # already there: the same array
        back = x.copy_to(loom.cpu())                # device -> host, always a copy
        print(f"{d!r}: asarray -> {x.device!r}, copy_to(cpu()) -> {back.device!r}")
        check(f"round trip through {d!r}", back, host)
        check(f"{d!r} .numpy()", x, host)
    y = loom.asarray(host).to(loom.cpu())
    print(f"default {default!r} -> .to(cpu()) -> {y.device!r}")


def compute(default):
    section("computing (on the default device)")
    rng = np.random.default_rng(1)
    a = rng.standard_normal((4, 5)).astype(np.float32)
    x = loom.asarray(a, device=default)
    half = x.astype(loom.float16)
    check("float32 -> float16 -> float32 == NumPy", half.astype(loom.float32),
          a.astype(np.float16).astype(np.float32))
    check("x.T.copy() == a.T", x.T.copy(), a.T)
    print(f"  x.T is a view: shape {x.T.shape}, strides {x.T.strides}")
    ints = loom.arange(10, dtype=loom.int32, device=default).astype(loom.float64)
    check("arange(10, int32).astype(float64)", ints, np.arange(10, dtype=np.float64))


def numpy_ops(default):
    section("NumPy operations (the same code with np and loom)")
    rng = np.random.default_rng(2)
    a = rng.standard_normal((64, 48)).astype(np.float32)
    b = rng.standard_normal((48, 32)).astype(np.float32)
    x, y = loom.asarray(a, device=default), loom.asarray(b, device=default)

    def program(xp, p, q):
        z = xp.cos(p) ** 2 + xp.sin(p) ** 2          # elementwise, broadcasting
        m = (p @ q).astype(xp.float64)                 # matmul (cuBLAS / OpenBLAS)
        return z.sum(axis=1), m.std(axis=0), xp.sort(p[::2, 5:9], axis=0), xp.argmax(p, axis=1)

    for name, got, want in zip(["cos^2 + sin^2, summed", "std of a @ b", "sort of a strided view",
                                "argmax"], program(loom, x, y), program(np, a, b)):
        check(name, got, want, rtol=1e-4)
    mask = x > 0
    check("boolean-mask gather", x[mask], a[a > 0])
    key = loom.random.key(0)
    u = loom.random.uniform(key, (4,), device=default)
    same = u.to(loom.cpu()).numpy() == loom.random.uniform(key, (4,), device=loom.cpu()).numpy()
    print(f"  random.uniform(key(0)) on {default} and cpu(): {'same bits' if same.all() else 'DIFFERENT'}")
    print(f"  x.at[[0, 0]].add(1)[0, 0] - x[0, 0] = {float((x.at[[0, 0]].add(1.0) - x)[0, 0].item()):.1f}")


def memory(default):
    section("memory")
    before = loom.memory.stats(default)
    big = loom.ones((1024, 1024), dtype=loom.float32, device=default)
    after = loom.memory.stats(default)
    print(f"{default!r}: a 4 MiB array moves in_use from {before['in_use']} to "
          f"{after['in_use']} bytes (peak {after['peak']}, cached {after['cached']})")
    del big


def timed(fn, repeat=5):
    """Best wall time of fn() in seconds; fn must wait for its own result."""
    best = float("inf")
    fn()  # warm-up: allocator pools, first-touch pages, compiled kernels
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def timings(default):
    section("timings")
    nbytes = 64 * 2**20
    host = np.random.default_rng(2).random(nbytes // 4, dtype=np.float32)
    rows = []
    for d in loom.try_all_gpus():
        if d.type == "cpu":
            # On cpu() asarray and .numpy() share memory with NumPy: time real copies.
            upload, download = loom.array, np.array
            print("  on cpu(): loom.array(host) and np.array(x) copy; asarray and .numpy() would not")
        else:
            upload, download = loom.asarray, lambda x: x.numpy()
        dev = upload(host, device=d).block_until_ready()
        h2d = timed(lambda: upload(host, device=d).block_until_ready())
        d2h = timed(lambda: download(dev))
        rows.append((f"host -> {d!r} (64 MiB)", h2d, nbytes / h2d / 1e9))
        rows.append((f"{d!r} -> host (64 MiB)", d2h, nbytes / d2h / 1e9))
        small = loom.ones((1000,), dtype=loom.float32, device=d)
        op = timed(lambda: small.astype(loom.float16).block_until_ready(), repeat=50)
        rows.append((f"astype on {d!r}, 1000 elements", op, None))
        loom.synchronize(d)
    print(f"  {'what':<36} {'time':>12} {'GB/s':>8}")
    for what, t, gbs in rows:
        shown = f"{t * 1e3:9.3f} ms" if t >= 1e-3 else f"{t * 1e6:9.1f} us"
        print(f"  {what:<36} {shown:>12} {'' if gbs is None else f'{gbs:8.2f}':>8}")


def streams_and_events(default):
    section("streams and events")
    s = loom.Stream(device=default)
    start, end = loom.Event(), loom.Event()
    with s:
        start.record(s)
        x = loom.ones((2048, 2048), dtype=loom.float32, device=default).astype(loom.float16)
        end.record(s)
    end.synchronize()
    print(f"{default!r}: ones + astype on a side stream took "
          f"{start.elapsed_time(end):.3f} ms by events; result {x.shape} {x.dtype}")


# PyCUDA's first example, verbatim: SourceModule wraps it in extern "C" as PyCUDA does.
DOUBLIFY = """
__global__ void doublify(float *a)
{
  int idx = threadIdx.x + threadIdx.y*4;
  a[idx] *= 2;
}
"""

# 2D indexing: one thread per element of a rows x cols array, the grid rounded up.
INDEX_2D = r"""
extern "C" __global__ void scale_2d(float* a, int rows, int cols) {
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < rows && col < cols) {
        int i = row * cols + col;
        a[i] = 2.0f * a[i] + (float)(100 * row + col);
    }
}
"""

# 3D indexing: x runs along the last (contiguous) axis, z along the first.
INDEX_3D = r"""
extern "C" __global__ void index_3d(const float* in, float* out, int depth, int rows, int cols) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x < cols && y < rows && z < depth) {
        int i = (z * rows + y) * cols + x;
        out[i] = in[i] + (float)(x + 10 * y + 100 * z);
    }
}
"""

# Shared memory: a tiled transpose. A 32x32 tile is read with coalesced rows, and written
# back transposed, again in rows; the +1 column keeps the column reads off one bank.
TRANSPOSE = r"""
#define TILE 32
extern "C" __global__ void transpose(const float* in, float* out, int rows, int cols) {
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int k = 0; k < TILE; k += blockDim.y)
        if (x < cols && y + k < rows) tile[threadIdx.y + k][threadIdx.x] = in[(y + k) * cols + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int k = 0; k < TILE; k += blockDim.y)
        if (x < rows && y + k < cols) out[(y + k) * rows + x] = tile[threadIdx.x][threadIdx.y + k];
}
"""

# Dynamic shared memory (sized by the launch): each block reverses its slice.
REVERSE = r"""
extern "C" __global__ void reverse_blocks(const float* in, float* out) {
    extern __shared__ float buf[];
    int base = blockIdx.x * blockDim.x;
    buf[threadIdx.x] = in[base + threadIdx.x];
    __syncthreads();
    out[base + threadIdx.x] = buf[blockDim.x - 1 - threadIdx.x];
}
"""

# An off-by-one: thread n - 1 reads a[n], one past the end (`i < n` should be `i + 1 < n`).
OFF_BY_ONE = r"""
extern "C" __global__ void shift_left(float* a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float next = 0.0f;
    if (i < n) next = a[i + 1];
    __syncthreads();
    if (i < n) a[i] = next;
}
"""


def cuda_kernels(default):
    section("Kernels from CUDA C source")
    if not hasattr(loom, "RawModule"):
        print("loom.RawModule is not in this build yet")
        return
    modules = [("doublify", loom.SourceModule, DOUBLIFY), ("scale_2d", loom.RawModule, INDEX_2D),
               ("index_3d", loom.RawModule, INDEX_3D), ("transpose (__shared__ tile)", loom.RawModule, TRANSPOSE),
               ("reverse_blocks (extern __shared__)", loom.RawModule, REVERSE)]
    if loom.num_gpus() == 0:
        print("no GPU here: the kernels below run on cpu() in the CPU kernel emulator (the host C++\n"
              "compiler builds them); NVRTC still compiles them for a GPU (compile(arch=90)):")
        for name, module, src in modules:
            try:
                module(src).compile(arch=90)
                print(f"  {name:<36} compiles for sm_90")
            except NotImplementedError as e:  # a build without the CUDA backend
                print(f"  cannot compile for a GPU here: {e}")
                break

    dev = default  # gpu(0), or cpu() and the kernel emulator
    rng = np.random.default_rng(5)
    # PyCUDA: func(cuda.InOut(a), block=(4, 4, 1)) doubles a host array in place (on the
    # default device).
    a = rng.standard_normal((4, 4)).astype(np.float32)
    doublify = loom.SourceModule(DOUBLIFY).get_function("doublify")
    host = a.copy()
    doublify(loom.InOut(host), block=(4, 4, 1))   # copied to the device, doubled, copied back
    check("doublify(InOut(host 4x4), block=(4,4,1))", host, a * 2)
    x = loom.array(a, device=dev)                  # a copy (asarray would share a's memory on cpu())
    doublify(x, block=(4, 4, 1))                   # a loom array: no copies, stays where it is
    check(f"doublify(loom array on {dev!r})", x, a * 2)

    # 2D: a 37 x 50 array, 16 x 8 blocks, a 4 x 5 grid (the last blocks hang over the edge).
    rows, cols, bx, by = 37, 50, 16, 8
    b = rng.standard_normal((rows, cols)).astype(np.float32)
    x = loom.array(b, device=dev)
    scale_2d = loom.RawModule(INDEX_2D).get_function("scale_2d")
    scale_2d(x, np.int32(rows), np.int32(cols), block=(bx, by, 1),
             grid=((cols + bx - 1) // bx, (rows + by - 1) // by))
    r, c = np.indices((rows, cols))
    check("2D indexing, blocks (16, 8), grid (4, 5)", x, 2 * b + (100 * r + c).astype(np.float32))

    # 3D, in CuPy's call form k(grid, block, args): Python ints take the parameter's size.
    shape = depth, rows, cols = 5, 6, 7
    v = rng.standard_normal(shape).astype(np.float32)
    out = loom.empty(shape, dtype=loom.float32, device=dev)
    index_3d = loom.RawKernel(INDEX_3D, "index_3d")
    index_3d((1, 2, 3), (8, 4, 2), (loom.array(v, device=dev), out, depth, rows, cols))
    z, y, xs = np.indices(shape)
    check("3D indexing, blocks (8, 4, 2), grid (1, 2, 3)", out, v + (xs + 10 * y + 100 * z).astype(np.float32))

    # Shared memory, in Numba's launch form k[grid, block](*args).
    rows, cols = 100, 75
    m = rng.standard_normal((rows, cols)).astype(np.float32)
    out = loom.empty((cols, rows), dtype=loom.float32, device=dev)
    transpose = loom.RawKernel(TRANSPOSE, "transpose")
    transpose[((cols + 31) // 32, (rows + 31) // 32), (32, 8)](loom.array(m, device=dev), out, rows, cols)
    check("tiled transpose through __shared__ memory", out, m.T)
    n, block = 1024, 128
    w = rng.standard_normal(n).astype(np.float32)
    out = loom.empty((n,), dtype=loom.float32, device=dev)
    reverse = loom.RawKernel(REVERSE, "reverse_blocks")
    reverse((n // block,), (block,), (loom.array(w, device=dev), out), shared_mem=block * 4)
    check("block-wise reversal, dynamic shared memory", out, w.reshape(-1, block)[:, ::-1].ravel())


    # The emulator's debug mode on cpu(): threads in a random order, junk shared memory and
    # bounds checks on loom arrays, so an off-by-one that a GPU may silently survive raises.
    off_by_one = loom.RawKernel(OFF_BY_ONE, "shift_left")
    x = loom.asarray(np.arange(100, dtype=np.float32), device=loom.cpu())
    try:
        off_by_one((1,), (128,), (x, 100), debug=True)
        print("  debug mode missed the out-of-bounds read")
    except IndexError as e:
        print(f"  debug=True on cpu(): IndexError\n    {e}")


# ---------------------------------------------------------------- kernels in Python
# Numba's CUDA API: change `from numba import cuda` into `from loom import cuda`. Without a
# GPU the kernels run on cpu() in the CPU kernel emulator (cuda.is_available() is False).

MAX_DIMS = 4
TPB = 16


@cuda.jit(device=True)
def to_index(ordinal, shape, out_index):
    """minitorch: the multi-index of a flat position."""
    cur = ordinal
    for i in range(len(shape) - 1, -1, -1):
        out_index[i] = cur % shape[i]
        cur = cur // shape[i]


@cuda.jit(device=True)
def index_to_position(index, strides):
    pos = 0
    for i in range(len(strides)):
        pos += index[i] * strides[i]
    return pos


@cuda.jit
def map_relu(out, in_storage, in_strides, shape):
    """minitorch's tensor map: a device function, a local array, a 2-D grid with a guard."""
    out_index = cuda.local.array(MAX_DIMS, np.int32)
    r, c = cuda.grid(2)
    if r < shape[0] and c < shape[1]:
        out_index[0] = r
        out_index[1] = c
        v = in_storage[index_to_position(out_index, in_strides)]
        out[r, c] = v if v > 0 else 0.0


@cuda.jit
def add_kernel(x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = x[i] + y[i]


@cuda.jit
def fast_matmul(A, B, C):
    """Numba's documentation example: square tiles of A and B in shared memory."""
    sA = cuda.shared.array(shape=(TPB, TPB), dtype=np.float32)
    sB = cuda.shared.array(shape=(TPB, TPB), dtype=np.float32)
    x, y = cuda.grid(2)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    bpg = cuda.gridDim.x
    tmp = np.float32(0.)
    for i in range(bpg):
        sA[ty, tx] = 0
        sB[ty, tx] = 0
        if y < A.shape[0] and (tx + i * TPB) < A.shape[1]:
            sA[ty, tx] = A[y, tx + i * TPB]
        if x < B.shape[1] and (ty + i * TPB) < B.shape[0]:
            sB[ty, tx] = B[ty + i * TPB, x]
        cuda.syncthreads()
        for j in range(TPB):
            tmp += sA[ty, j] * sB[j, tx]
        cuda.syncthreads()
    if y < C.shape[0] and x < C.shape[1]:
        C[y, x] = tmp


@cuda.jit
def histogram(x, xmin, xmax, hist):
    nbins = hist.shape[0]
    width = (xmax - xmin) / nbins
    start = cuda.grid(1)
    for i in range(start, x.shape[0], cuda.gridsize(1)):
        v = x[i]
        if xmin <= v <= xmax:  # NumPy's bins: the last one includes its right edge
            b = min(int((v - xmin) / width), nbins - 1)
            cuda.atomic.add(hist, b, 1)


@loom.vectorize(["float32(float32)", "float64(float64)"], target="cuda")
def cos2_plus_sin2(x):
    return math.cos(x) ** 2 + math.sin(x) ** 2


def python_kernels(default):
    section("Kernels in Python (Numba style)")
    where = "a GPU" if cuda.is_available() else "cpu(), in the CPU kernel emulator"
    print(f"  from loom import cuda; kernels run on {where}")
    rng = np.random.default_rng(7)

    # minitorch: strides and shape as small arrays, a local index array, device functions.
    a = rng.standard_normal((37, 50)).astype(np.float32)
    storage = cuda.to_device(a.reshape(-1))
    out = cuda.device_array((37, 50), dtype=np.float32)
    map_relu[(3, 4), (16, 16)](out, storage, cuda.to_device(np.array([50, 1], np.int32)),
                               cuda.to_device(np.array([37, 50], np.int32)))
    check("minitorch map (device fns, local array, 2-D grid)", out, np.maximum(a, 0))

    n = 100_000
    x, y = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    dx, dy = cuda.to_device(x), cuda.to_device(y)
    dout = cuda.device_array_like(dx)
    add_kernel[(n + 255) // 256, 256](dx, dy, dout)
    check("add_kernel + to_device/copy_to_host", dout.copy_to_host(), x + y)

    m = 200
    A, B = rng.random((m, m), dtype=np.float32), rng.random((m, m), dtype=np.float32)
    C = cuda.device_array((m, m), dtype=np.float32)
    blocks = (m + TPB - 1) // TPB
    fast_matmul[(blocks, blocks), (TPB, TPB)](cuda.to_device(A), cuda.to_device(B), C)
    check("shared-memory tiled matmul 200x200", C, A @ B, rtol=1e-4)

    data = rng.standard_normal(50_000)
    hist = cuda.to_device(np.zeros(20, dtype=np.int64))
    histogram[64, 128](cuda.to_device(data), -3.0, 3.0, hist)
    check("atomic histogram (20 bins)", hist, np.histogram(data, 20, (-3.0, 3.0))[0])

    v = loom.asarray(rng.random(10_000).astype(np.float32), device=default)
    check("vectorize cos(x)**2 + sin(x)**2", cos2_plus_sin2(v), np.ones(10_000, np.float32), rtol=1e-6)
    print("  generated CUDA C++ of add_kernel (first lines of the kernel):")
    src = next(iter(add_kernel.inspect_source().values()))
    body = src[src.index('extern "C"'):].splitlines()
    for line in body[:6]:
        print("    " + line)


def main():
    default = show_devices()
    create_arrays(default)
    move_data(default)
    compute(default)
    numpy_ops(default)
    complex_numbers(default, section, check)
    fourier_transforms(default, section, check)
    decompositions(default, section, check)
    memory(default)
    timings(default)
    streams_and_events(default)
    cuda_kernels(default)
    python_kernels(default)
    transforms(default, section, check)
    print("\ntour done.")


if __name__ == "__main__":
    main()
