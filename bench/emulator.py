"""The CPU kernel emulator (issue 5): CUDA C kernels on loom.cpu(), no GPU needed.

    make bench                        # transfer.py, ops.py, kernels.py, then this
    python3 bench/emulator.py         # PYTHONPATH=python when loom is built in-tree
    python3 bench/emulator.py --quick # fewer repetitions, a smaller Numba sample

Cases:
  (a) shared-memory tree reduction: 4096 blocks x 256 threads, 8 __syncthreads per block
      (per-block sums of 2^20 float32);                        target <= 0.3 s on 2 cores
  (b) barrier-free elementwise kernel y[i] = a * x[i] + y[i] over 1e7 float32;
                                                      target <= 3x a plain C++ loop
Each case shows loom's first call (host compile + run, a never-seen source in a fresh
cache folder) apart from its warm time, the same work as a plain serial C++ loop (built
now with $CXX, default g++, -O2, loaded with ctypes and run on the same NumPy buffers),
NumPy where it has the operation, and, where Numba is installed, Numba's CUDA simulator
(NUMBA_ENABLE_CUDASIM=1, in a child process) on a much smaller problem, scaled linearly
to the full size. Results are checked against NumPy. Warm times are medians. It needs no
GPU (that is its point). A benchmark, never a test.
"""
import argparse
import ctypes
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

import loom
from table import print_rows
from timing import timed

NA = "n/a"
BLOCKS, THREADS = 4096, 256
SAXPY_N = 10_000_000
SAXPY_A = 0.5

# 8 barriers: one after the load, one after each of the 7 halving steps 128..2; thread 0
# adds the last pair itself.
REDUCE_SRC = r"""// loom bench emulator {tag}
extern "C" __global__ void block_sums(const float* x, float* partial) {{
  __shared__ float s[256];
  unsigned t = threadIdx.x;
  s[t] = x[blockIdx.x * 256 + t];
  __syncthreads();
  for (unsigned stride = 128; stride > 1; stride >>= 1) {{
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }}
  if (t == 0) partial[blockIdx.x] = s[0] + s[1];
}}
"""

SAXPY_SRC = r"""// loom bench emulator {tag}
extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}}
"""

# The plain C++ baselines: the same work, serial, no emulation. The reduction adds in the
# kernel's tree order so that the results compare exactly.
BASELINE_CPP = r"""
#include <cstdint>
extern "C" void saxpy(int64_t n, float a, const float* x, float* y) {
  for (int64_t i = 0; i < n; ++i) y[i] = a * x[i] + y[i];
}
extern "C" void block_sums(int64_t blocks, const float* x, float* partial) {
  float s[256];
  for (int64_t b = 0; b < blocks; ++b) {
    for (int t = 0; t < 256; ++t) s[t] = x[b * 256 + t];
    for (int stride = 128; stride > 1; stride >>= 1)
      for (int t = 0; t < stride; ++t) s[t] += s[t + stride];
    partial[b] = s[0] + s[1];
  }
}
"""

NUMBA_CHILD = r"""
import json, sys, time
import numpy as np
from numba import cuda, float32
blocks, n = int(sys.argv[1]), int(sys.argv[2])

@cuda.jit
def block_sums(x, partial):
    s = cuda.shared.array(256, float32)
    t = cuda.threadIdx.x
    s[t] = x[cuda.blockIdx.x * 256 + t]
    cuda.syncthreads()
    stride = 128
    while stride > 1:
        if t < stride:
            s[t] += s[t + stride]
        cuda.syncthreads()
        stride //= 2
    if t == 0:
        partial[cuda.blockIdx.x] = s[0] + s[1]

@cuda.jit
def saxpy(a, x, y, n):
    i = cuda.grid(1)
    if i < n:
        y[i] = a * x[i] + y[i]

rng = np.random.default_rng(0)
x = rng.standard_normal(blocks * 256).astype(np.float32)
partial = np.zeros(blocks, np.float32)
t0 = time.perf_counter()
block_sums[blocks, 256](x, partial)
t_red = time.perf_counter() - t0
ok_red = bool(np.allclose(partial, x.reshape(blocks, 256).sum(axis=1, dtype=np.float64), rtol=1e-4, atol=1e-4))
xs = rng.standard_normal(n).astype(np.float32)
ys = rng.standard_normal(n).astype(np.float32)
want = np.float32(0.5) * xs + ys
t0 = time.perf_counter()
saxpy[(n + 255) // 256, 256](np.float32(0.5), xs, ys, n)
t_ax = time.perf_counter() - t0
print(json.dumps({"reduce_s": t_red, "reduce_ok": ok_red, "saxpy_s": t_ax,
                  "saxpy_ok": bool(np.allclose(ys, want, rtol=1e-6, atol=1e-6))}))
"""


def nonce():
    return f"{os.getpid()}_{time.time_ns()}"


def cores():
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count()


# ---------------------------------------------------------------- plain C++ baseline

def build_baseline(tmp):
    """Compiles BASELINE_CPP with $CXX (default g++) -O2; returns (library, compiler, seconds)."""
    cxx = os.environ.get("CXX") or "g++"
    src, lib = os.path.join(tmp, "baseline.cpp"), os.path.join(tmp, "libbaseline.so")
    with open(src, "w") as f:
        f.write(BASELINE_CPP)
    t0 = time.perf_counter()
    r = subprocess.run([cxx, "-O2", "-shared", "-fPIC", "-o", lib, src], capture_output=True, text=True)
    secs = time.perf_counter() - t0
    if r.returncode != 0:
        raise RuntimeError(f"{cxx} failed: {r.stderr.strip()[:300]}")
    version = subprocess.run([cxx, "--version"], capture_output=True, text=True).stdout.splitlines()
    dll = ctypes.CDLL(lib)
    f32p = ctypes.POINTER(ctypes.c_float)
    dll.saxpy.argtypes = [ctypes.c_int64, ctypes.c_float, f32p, f32p]
    dll.saxpy.restype = None
    dll.block_sums.argtypes = [ctypes.c_int64, f32p, f32p]
    dll.block_sums.restype = None
    return dll, (version[0] if version else cxx), secs


def fptr(a):
    assert a.dtype == np.float32 and a.flags.c_contiguous
    return a.ctypes.data_as(ctypes.POINTER(ctypes.c_float))


# ---------------------------------------------------------------- cases

class Run:
    def __init__(self, args):
        self.quick = args.quick
        self.reps = 3 if args.quick else 7
        self.rows = []   # (label, {column: ms}, target text, met or None)
        self.notes = []
        self.cpu = loom.cpu()

    def sync(self):
        loom.synchronize(self.cpu)

    def attempt(self, what, fn):
        """fn(), or None with a note: a missing emulator must not stop the other columns."""
        try:
            return fn()
        except NotImplementedError as e:
            self.notes.append(f"loom, {what}: the CPU kernel emulator is not built ({str(e)[:80]}...)")
        except Exception as e:  # noqa: BLE001
            msg = str(e).strip().splitlines()
            self.notes.append(f"{what}: {type(e).__name__}: {msg[0][:140] if msg else ''}")
        return None

    def first_and_warm(self, what, make, launch, check):
        """(first call ms, warm ms) of a never-seen kernel: make() builds it, launch(k) runs it."""
        def first():
            t0 = time.perf_counter()
            k = make()
            launch(k)
            self.sync()
            ms = (time.perf_counter() - t0) * 1e3
            return k, ms

        got = self.attempt(f"{what} first call", first)
        if got is None:
            return None, None
        k, first_ms = got
        if not self.attempt(f"{what} check", lambda: check(k)):
            self.notes.append(f"loom, {what}: WRONG RESULT")
        warm = self.attempt(f"{what} warm", lambda: timed(lambda: launch(k), self.sync, self.reps, 1) * 1e3)
        return first_ms, warm

    def reduction(self, dll, numba):
        x = np.random.default_rng(1).standard_normal(BLOCKS * THREADS).astype(np.float32)
        lx = loom.asarray(x, device=self.cpu)
        lp = loom.empty(BLOCKS, dtype=loom.float32, device=self.cpu)
        ref = np.empty(BLOCKS, np.float32)
        dll.block_sums(BLOCKS, fptr(x), fptr(ref))
        exact = x.reshape(BLOCKS, THREADS).astype(np.float64).sum(axis=1)
        if not np.allclose(ref, exact, rtol=0, atol=1e-4 * np.abs(x).reshape(BLOCKS, THREADS).sum(axis=1).max()):
            self.notes.append("C++ baseline, reduction: WRONG RESULT")

        def check(k):
            k((BLOCKS,), (THREADS,), (lx, lp))
            self.sync()
            return np.array_equal(lp.numpy(), ref)  # same tree order, no contraction: exact

        first, warm = self.first_and_warm(
            "reduction", lambda: loom.RawKernel(REDUCE_SRC.format(tag=nonce()), "block_sums"),
            lambda k: k((BLOCKS,), (THREADS,), (lx, lp)), check)
        cpp = timed(lambda: dll.block_sums(BLOCKS, fptr(x), fptr(ref)), lambda: None, self.reps, 1) * 1e3
        xr = x.reshape(BLOCKS, THREADS)
        npy = timed(lambda: xr.sum(axis=1), lambda: None, self.reps, 1) * 1e3
        row = {"loom first": first, "loom warm": warm, "C++ loop": cpp, "NumPy": npy,
               "Numba sim (scaled)": numba.get("reduce_ms")}
        self.rows.append((f"(a) tree reduction {BLOCKS}x{THREADS}, 8 barriers/block", row,
                          "warm <= 300 ms", None if warm is None else warm <= 300.0))

    def saxpy(self, dll, numba):
        rng = np.random.default_rng(2)
        x = rng.standard_normal(SAXPY_N).astype(np.float32)
        y0 = rng.standard_normal(SAXPY_N).astype(np.float32)
        a = np.float32(SAXPY_A)
        want = a * x + y0  # exact: a power of two times x, then one rounding
        y = y0.copy()
        dll.saxpy(SAXPY_N, float(a), fptr(x), fptr(y))
        if not np.array_equal(y, want):
            self.notes.append("C++ baseline, saxpy: WRONG RESULT")
        lx = loom.asarray(x, device=self.cpu)
        ly = loom.asarray(y0.copy(), device=self.cpu)
        grid = ((SAXPY_N + 255) // 256,)

        def check(k):
            ly2 = loom.asarray(y0.copy(), device=self.cpu)
            k(grid, (256,), (a, lx, ly2, SAXPY_N))
            self.sync()
            return np.array_equal(ly2.numpy(), want)

        # Repeated launches keep adding a * x into y: 0.5 * |x| per call, no overflow.
        first, warm = self.first_and_warm(
            "saxpy", lambda: loom.RawKernel(SAXPY_SRC.format(tag=nonce()), "saxpy"),
            lambda k: k(grid, (256,), (a, lx, ly, SAXPY_N)), check)
        cpp = timed(lambda: dll.saxpy(SAXPY_N, float(a), fptr(x), fptr(y)), lambda: None, self.reps, 1) * 1e3
        tmp = np.empty_like(x)

        def numpy_saxpy():
            np.multiply(x, a, out=tmp)
            np.add(tmp, y, out=y)

        npy = timed(numpy_saxpy, lambda: None, self.reps, 1) * 1e3
        row = {"loom first": first, "loom warm": warm, "C++ loop": cpp, "NumPy": npy,
               "Numba sim (scaled)": numba.get("saxpy_ms")}
        self.rows.append((f"(b) saxpy y = a*x + y, {SAXPY_N:.0e} float32", row, "warm <= 3x C++ loop",
                          None if warm is None else warm <= 3 * cpp))

    def numba_sim(self):
        """Numba's CUDA simulator on a small sample, in a child; times scaled to the full size."""
        try:
            import importlib.util
            if importlib.util.find_spec("numba") is None:
                self.notes.append("numba: not installed (its CUDA simulator is the reference)")
                return {}
        except Exception:  # noqa: BLE001
            return {}
        # About half a second per 256-thread block in the simulator: keep the sample small.
        blocks = 2 if self.quick else 4
        n = 256 * (2 if self.quick else 8)
        env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1")
        r = subprocess.run([sys.executable, "-c", NUMBA_CHILD, str(blocks), str(n)], capture_output=True,
                           text=True, env=env, timeout=600)
        if r.returncode != 0:
            self.notes.append(f"numba simulator: {(r.stderr.strip().splitlines() or ['failed'])[-1][:140]}")
            return {}
        got = json.loads(r.stdout.strip().splitlines()[-1])
        for case in ("reduce", "saxpy"):
            if not got[f"{case}_ok"]:
                self.notes.append(f"numba simulator, {case}: WRONG RESULT")
        self.notes.append(f"Numba simulator measured on {blocks} blocks x 256 threads (reduction) and "
                          f"{n} elements (saxpy), one call each, scaled linearly")
        return {"reduce_ms": got["reduce_s"] * BLOCKS / blocks * 1e3,
                "saxpy_ms": got["saxpy_s"] * SAXPY_N / n * 1e3}


# ---------------------------------------------------------------- table

COLS = ["loom first", "loom warm", "C++ loop", "NumPy", "Numba sim (scaled)"]


def fmt(v):
    if v is None:
        return NA
    return f"{v:.3g}" if abs(v) < 10 else f"{v:.0f}" if abs(v) >= 1000 else f"{v:.1f}"


def print_table(run):
    header = ["case (ms)"] + COLS + ["loom warm / C++", "target", "met"]
    lines = []
    for label, row, target, met in run.rows:
        warm, cpp = row.get("loom warm"), row.get("C++ loop")
        ratio = f"{warm / cpp:.2f}x" if warm and cpp else NA
        lines.append([label] + [fmt(row.get(c)) for c in COLS] +
                     [ratio, target, "" if met is None else ("yes" if met else "NO")])
    print_rows(header, lines)
    print("loom first = host compile of a never-seen source + first run; C++ loop = the same work "
          "serial, compiled ahead; Numba sim is single-call, extrapolated.")
    for n in run.notes:
        print(f"note: {n}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer repetitions, a smaller Numba sample")
    args = ap.parse_args()
    print(f"loom {loom.__version__}; numpy {np.__version__}; {cores()} CPU core(s) usable "
          f"(the targets are for 2); {loom.num_gpus()} GPU(s), not used")
    tmp = tempfile.mkdtemp(prefix="loom-bench-emulator-")
    # A fresh cache: the first call really compiles. Read by loom at each disk access.
    os.environ["LOOM_CACHE_DIR"] = os.path.join(tmp, "loom")
    os.environ.pop("LOOM_DISABLE_DISK_CACHE", None)
    try:
        run = Run(args)
        dll, compiler, build_s = build_baseline(tmp)
        print(f"C++ baseline: {compiler} -O2, built in {build_s * 1e3:.0f} ms")
        numba = run.numba_sim()
        run.reduction(dll, numba)
        run.saxpy(dll, numba)
        print_table(run)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
