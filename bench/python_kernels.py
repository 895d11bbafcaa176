"""Kernels written in Python (loom.cuda.jit, loom.vectorize): loom next to Numba and CuPy,
with the targets of issue 12.

    make bench                              # with the other benchmarks
    python3 bench/python_kernels.py         # PYTHONPATH=python when loom is built in-tree
    python3 bench/python_kernels.py --quick

Cases:
  (a) first call of a never-seen Python kernel (translate + compile + launch + sync; the
      kernel's module is new: a nonce constant), loom vs numba.cuda.jit;  target <= 150 ms
  (b) fresh process, warm disk cache: a subprocess imports the kernel's module and makes its
      arrays (not timed), then times the first launch + sync; run once before to warm the
      caches;                                                                target <= 5 ms
  (c) launch from Python of a 3-argument kernel, mean per call over back-to-back launches,
      loom @cuda.jit vs numba @cuda.jit (and loom's RawKernel k[grid, block] for
      reference);                                                              target <= 6 us
  (d) shared-memory tiled matmul of 2048x2048 float32 (Numba's documentation kernel, TPB 16):
      loom @cuda.jit vs numba vs the same kernel in CUDA C through loom.RawKernel;
      target >= Numba, and within 10% of the CUDA C kernel
  (e) vectorize(target='cuda') of cos(x)**2 + sin(x)**2 on 1e7 float32, loom arrays in and
      out, vs numba's vectorize (device arrays) and cupy.fuse;              target <= 0.20 ms
  (f) CPU (cpu(), the kernel emulator): the 4096-block x 256-thread shared-memory reduction
      written in Python (run as loops by the emulator's loop fission);      target <= 0.25 s (issue 42)
      (Numba's CUDA simulator takes about 35 minutes for it: not run.)
Without a GPU only (a), (b) and (f) run, on cpu(). The run uses a fresh LOOM_CACHE_DIR.
Timings are medians. A benchmark, never a test.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

os.environ.setdefault("LOOM_CACHE_DIR", tempfile.mkdtemp(prefix="loom-bench-pyk-"))
import loom  # noqa: E402
from table import print_rows  # noqa: E402
from timing import timed  # noqa: E402

NA = "n/a"
HERE = os.path.dirname(os.path.abspath(__file__))

KERNEL_MODULE = '''
import numpy as np
from {lib} import cuda
NONCE = {nonce}
TPB = 16

@cuda.jit
def add3(x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = x[i] + y[i] + NONCE
'''

MATMUL = '''
@cuda.jit
def fast_matmul(A, B, C):
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
def block_reduce(x, out):
    buf = cuda.shared.array(256, np.float32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    buf[t] = x[i]
    cuda.syncthreads()
    s = 128
    while s > 0:
        if t < s:
            buf[t] += buf[t + s]
        cuda.syncthreads()
        s //= 2
    if t == 0:
        out[cuda.blockIdx.x] = buf[0]
'''

MATMUL_C = r'''
#define TPB 16
extern "C" __global__ void fast_matmul_c(const float* A, const float* B, float* C, int n) {
  __shared__ float sA[TPB][TPB];
  __shared__ float sB[TPB][TPB];
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  int tx = threadIdx.x, ty = threadIdx.y;
  float tmp = 0.f;
  for (int i = 0; i < gridDim.x; ++i) {
    sA[ty][tx] = 0; sB[ty][tx] = 0;
    if (y < n && tx + i * TPB < n) sA[ty][tx] = A[y * n + tx + i * TPB];
    if (x < n && ty + i * TPB < n) sB[ty][tx] = B[(ty + i * TPB) * n + x];
    __syncthreads();
    for (int j = 0; j < TPB; ++j) tmp += sA[ty][j] * sB[j][tx];
    __syncthreads();
  }
  if (y < n && x < n) C[y * n + x] = tmp;
}
'''

CHILD = r'''
import sys, time, importlib
import numpy as np
sys.path.insert(0, sys.argv[1])
import loom
mod = importlib.import_module(sys.argv[2])
dev = loom.default_device()
x = loom.ones(1 << 16, dtype=loom.float32, device=dev)
out = loom.empty_like(x)
loom.synchronize(dev)
t0 = time.perf_counter()
mod.add3[256, 256](x, x, out)
loom.synchronize(dev)
t = time.perf_counter() - t0
print(t * 1e3)
'''

_serial = [0]


def write_module(folder, lib, body=""):
    _serial[0] += 1
    name = f"pyk_{lib}_{os.getpid()}_{time.time_ns()}_{_serial[0]}"
    with open(os.path.join(folder, name + ".py"), "w") as f:
        f.write(KERNEL_MODULE.format(lib=lib, nonce=_serial[0] + time.time_ns() % 1000) + body)
    return name


def import_module(folder, name):
    import importlib
    if folder not in sys.path:
        sys.path.insert(0, folder)
    return importlib.import_module(name)


def numba_cuda():
    try:
        np.row_stack = np.vstack  # Numba imports np.row_stack, gone in NumPy 2.5
        from numba import cuda
        if not cuda.is_available():
            return None, "no CUDA device"
        return cuda, None
    except Exception as e:  # noqa: BLE001
        return None, f"{type(e).__name__}: {str(e)[:60]}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    reps = 3 if args.quick else 7
    gpu = loom.num_gpus() > 0
    dev = loom.gpu(0) if gpu else loom.cpu()
    sync = lambda: loom.synchronize(dev)  # noqa: E731
    folder = tempfile.mkdtemp(prefix="loom-bench-pyk-src-")
    rows, notes = [], []
    ncuda, why = numba_cuda() if gpu else (None, "no GPU")
    if ncuda is None:
        notes.append(f"numba: {why}")

    def first_call(lib):
        times = []
        for _ in range(max(3, reps // 2)):
            m = import_module(folder, write_module(folder, lib))
            if lib == "loom":
                x = loom.ones(1 << 16, dtype=loom.float32, device=dev)
                out = loom.empty_like(x)
                s = sync
            else:
                x = ncuda.to_device(np.ones(1 << 16, np.float32))
                out = ncuda.device_array_like(x)
                s = ncuda.synchronize
            s()
            t0 = time.perf_counter()
            m.add3[256, 256](x, x, out)
            s()
            times.append(time.perf_counter() - t0)
        return statistics.median(times) * 1e3

    # one kernel first: one-time set-up (NVRTC, the emulator's precompiled header) not counted
    first_call("loom")
    a_loom = first_call("loom")
    a_numba = first_call("numba") if ncuda else None
    rows.append(("(a) first call, never-seen kernel", "ms", a_loom, a_numba, None, "<= 150", a_loom <= 150))

    name = write_module(folder, "loom")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.join(HERE, "..", "python"), os.environ.get("PYTHONPATH", "")]))
    run = lambda: float(subprocess.run([sys.executable, "-c", CHILD, folder, name], env=env, check=True,  # noqa: E731
                                       capture_output=True, text=True).stdout.strip().splitlines()[-1])
    cold = run()
    b = statistics.median([run() for _ in range(3)])
    rows.append(("(b) fresh process, warm disk cache", "ms", b, None, None, "<= 5", b <= 5))
    notes.append(f"(b) the first (cold) child took {cold:.1f} ms")

    mm = import_module(folder, write_module(folder, "loom", MATMUL))
    if gpu:
        n = 1 << 20
        m = import_module(folder, write_module(folder, "loom"))
        x = loom.ones(n, dtype=loom.float32, device=dev)
        out = loom.empty_like(x)
        c_loom = timed(lambda: m.add3[4096, 256](x, x, out), sync, reps, 2000) * 1e6
        raw = loom.RawKernel('extern "C" __global__ void add3(const float* x, const float* y, float* o, int n) '
                             "{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) o[i] = x[i] + y[i]; }", "add3")
        c_raw = timed(lambda: raw[4096, 256](x, x, out, n), sync, reps, 2000) * 1e6
        c_numba = None
        if ncuda:
            nm = import_module(folder, write_module(folder, "numba"))
            nx = ncuda.to_device(np.ones(n, np.float32))
            nout = ncuda.device_array_like(nx)
            c_numba = timed(lambda: nm.add3[4096, 256](nx, nx, nout), ncuda.synchronize, reps, 2000) * 1e6
        rows.append(("(c) launch, 3-arg kernel", "us", c_loom, c_numba, c_raw, "<= 6", c_loom <= 6))
        notes.append("(c) third column: loom.RawKernel k[grid, block] of the same kernel in CUDA C")

        N = 2048
        rng = np.random.default_rng(0)
        A, B = rng.random((N, N), dtype=np.float32), rng.random((N, N), dtype=np.float32)
        dA, dB = loom.asarray(A, device=dev), loom.asarray(B, device=dev)
        dC = loom.empty((N, N), dtype=loom.float32, device=dev)
        grid, block = ((N + 15) // 16, (N + 15) // 16), (16, 16)
        flops = 2.0 * N ** 3
        t_loom = timed(lambda: mm.fast_matmul[grid, block](dA, dB, dC), sync, reps, 3)
        assert np.allclose(dC.numpy(), A @ B, rtol=1e-3), "loom matmul wrong"
        kc = loom.RawKernel(MATMUL_C, "fast_matmul_c")
        t_c = timed(lambda: kc[grid, block](dA, dB, dC, N), sync, reps, 3)
        t_numba = None
        if ncuda:
            nmm = import_module(folder, write_module(folder, "numba", MATMUL))
            nA, nB = ncuda.to_device(A), ncuda.to_device(B)
            nC = ncuda.device_array((N, N), np.float32)
            t_numba = timed(lambda: nmm.fast_matmul[grid, block](nA, nB, nC), ncuda.synchronize, reps, 3)
        tf = lambda t: None if t is None else flops / t / 1e12  # noqa: E731
        ok = tf(t_loom) >= 0.9 * tf(t_c) and (t_numba is None or t_loom <= t_numba)
        rows.append(("(d) tiled matmul 2048 f32", "TFLOP/s", tf(t_loom), tf(t_numba), tf(t_c), ">= numba, >= 0.9 C", ok))
        notes.append("(d) third column: the same kernel in CUDA C through loom.RawKernel")

        import math

        @loom.vectorize(["float32(float32)"], target="cuda")
        def cs(x):
            return math.cos(x) ** 2 + math.sin(x) ** 2
        v = loom.asarray(rng.random(10_000_000, dtype=np.float32), device=dev)
        o = loom.empty_like(v)
        e_loom = timed(lambda: cs(v, out=o), sync, reps, 20) * 1e3
        e_numba = e_cupy = None
        if ncuda:
            from numba import vectorize as nvec

            @nvec(["float32(float32)"], target="cuda")
            def ncs(x):
                return math.cos(x) ** 2 + math.sin(x) ** 2
            nv = ncuda.to_device(v.numpy())
            no = ncuda.device_array_like(nv)
            e_numba = timed(lambda: ncs(nv, out=no), ncuda.synchronize, reps, 20) * 1e3
        try:
            import cupy

            @cupy.fuse()
            def ccs(x):
                return cupy.cos(x) ** 2 + cupy.sin(x) ** 2
            cv = cupy.asarray(v.numpy())
            e_cupy = timed(lambda: ccs(cv), cupy.cuda.Device().synchronize, reps, 20) * 1e3
            notes.append("(e) third column: cupy.fuse")
        except Exception as e:  # noqa: BLE001
            notes.append(f"(e) cupy: {type(e).__name__}")
        rows.append(("(e) vectorize cos2+sin2 1e7 f32", "ms", e_loom, e_numba, e_cupy, "<= 0.20", e_loom <= 0.20))

    cpu = loom.cpu()
    xs = loom.asarray(np.random.default_rng(1).random(4096 * 256, dtype=np.float32), device=cpu)
    outs = loom.zeros(4096, dtype=loom.float32, device=cpu)
    mm.block_reduce[4096, 256](xs, outs)  # compile (not timed)
    f = timed(lambda: mm.block_reduce[4096, 256](xs, outs), lambda: None, reps, 1)
    assert np.allclose(outs.numpy(), xs.numpy().reshape(4096, 256).sum(axis=1), rtol=1e-4)
    rows.append(("(f) cpu(): 4096x256 shared reduction", "s", f, None, None, "<= 0.25", f <= 0.25))

    fmt = lambda v: NA if v is None else (f"{v:.3f}" if v < 10 else f"{v:.1f}")  # noqa: E731
    print(f"\nPython kernels on {dev!r}" + (f" ({loom.gpu(0).name})" if gpu else ""))
    print_rows(["case", "unit", "loom", "numba", "other", "target", "met"],
               [[r[0], r[1], fmt(r[2]), fmt(r[3]), fmt(r[4]), r[5], "yes" if r[6] else "NO"] for r in rows])
    for n_ in notes:
        print("  note:", n_)
    shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
