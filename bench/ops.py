"""NumPy operations: loom next to NumPy on the CPU and CuPy, PyTorch and JAX on the GPU.

    make bench                   # transfer.py, then this
    python3 bench/ops.py         # PYTHONPATH=python when loom is built in-tree
    python3 bench/ops.py --quick # smaller repetition counts

GPU section (when loom sees a GPU; peers that are missing or have no GPU show "n/a"):
  add of 2^27 float32 (GB/s: 3 arrays moved), sum of 2^27 float32 (GB/s), cos(x)**2 +
  sin(x)**2 on 1e7 float32, eager (ms), matmul 1000 and 8192 in float32 (exact: no TF32
  on any library) and bfloat16 (TFLOP/s), the per-call cost of a 1000-element add from
  Python (us, launches queued back to back), median, percentile, histogram, bincount, take,
  roll and pad on 2^24 elements against CuPy and PyTorch (ms; bench/ops_numpy_functions.py;
  --functions runs only these), and the first call of a never-seen
  elementwise kernel in a fresh process with a cold and with a warm disk cache (ms).
CPU section (always): loom on cpu() against NumPy: add and sum of 1e7 float32 (GB/s),
  matmul 1024 float32 (GFLOP/s).
Timings are medians of --reps runs after a warm-up; each run times --inner calls between
two synchronisations. The last column is loom / best peer (higher is better for rates,
lower for times). A benchmark, never a test.
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np

import loom
import ops_numpy_functions
from table import print_rows
from timing import timed

NA = "n/a"


class Peer:
    """One library's GPU (or CPU) namespace: arrays from NumPy, the ops, a sync."""

    def __init__(self, name, asarray, ops, sync):
        self.name, self.asarray, self.ops, self.sync = name, asarray, ops, sync


def loom_peer(dev):
    ops = {k: getattr(loom, k, None) for k in ("add", "sum", "cos", "sin", "matmul")}
    return Peer("loom", lambda x: loom.asarray(x, device=dev), ops, lambda: loom.synchronize(dev))


def torch_peer():
    try:
        import torch
    except ImportError:
        return None, "not installed"
    if not torch.cuda.is_available():
        return None, "no CUDA device"
    torch.backends.cuda.matmul.allow_tf32 = False  # exact float32, as loom's default

    def asarray(x):
        if x.dtype.name == "bfloat16":  # torch has no NumPy bfloat16: move the bits
            return torch.from_numpy(x.view(np.int16)).cuda().view(torch.bfloat16)
        return torch.from_numpy(np.ascontiguousarray(x)).cuda()

    return Peer("torch", asarray, {"add": torch.add, "sum": torch.sum, "cos": torch.cos,
                                   "sin": torch.sin, "matmul": torch.matmul},
                torch.cuda.synchronize), None


def cupy_peer():
    try:
        import cupy
    except ImportError:
        return None, "not installed"
    try:
        cupy.cuda.runtime.getDeviceCount()
    except Exception as e:  # noqa: BLE001 - no driver or device
        return None, f"no CUDA device ({type(e).__name__})"
    return Peer("cupy", cupy.asarray, {"add": cupy.add, "sum": cupy.sum, "cos": cupy.cos, "sin": cupy.sin,
                                       "matmul": cupy.matmul},
                cupy.cuda.Device().synchronize), None


def jax_peer():
    try:
        import jax
        import jax.numpy as jnp
    except ImportError:
        return None, "not installed"
    try:
        gpu = jax.devices("gpu")[0]
    except Exception:  # noqa: BLE001
        return None, "no GPU backend"
    jax.config.update("jax_default_matmul_precision", "highest")  # no TF32 for float32
    last = []

    def keep(f):
        def g(*a):
            r = f(*a)
            last[:] = [r]
            return r
        return g

    def sync():
        for r in last:
            r.block_until_ready()

    return Peer("jax", lambda x: jax.device_put(x, gpu),
                {k: keep(f) for k, f in {"add": jnp.add, "sum": jnp.sum, "cos": jnp.cos, "sin": jnp.sin,
                                         "matmul": jnp.matmul}.items()}, sync), None


def gpu_inputs(args):
    """Fresh random inputs of the GPU cases (never zeros)."""
    rng = np.random.default_rng(0)
    n_add = 1 << 27 if not args.quick else 1 << 24
    a32 = rng.standard_normal(n_add, dtype=np.float32)
    b32 = rng.standard_normal(n_add, dtype=np.float32)
    t32 = rng.standard_normal(10_000_000, dtype=np.float32)
    small = rng.standard_normal(1000, dtype=np.float32)
    mats = {n: rng.standard_normal((n, n), dtype=np.float32) for n in (1000, 8192)}
    return n_add, a32, b32, t32, small, mats


def run_gpu(args, table, notes):
    dev = loom.gpu(0)
    peers = [loom_peer(dev)]
    for make in (torch_peer, cupy_peer, jax_peer):
        p, why = make()
        name = make.__name__.replace("_peer", "")
        if p is None:
            notes.append(f"{name}: {why}")
        else:
            peers.append(p)
    names = [p.name for p in peers]
    n_add, a32, b32, t32, small, mats = gpu_inputs(args)
    reps, inner = (3, 3) if args.quick else (7, 10)
    import ml_dtypes

    def each(label, unit, higher, body):
        row = {}
        for p in peers:
            try:
                row[p.name] = body(p)
            except Exception as e:  # noqa: BLE001 - a missing op is "n/a", with the reason
                row[p.name] = None
                notes.append(f"{p.name}, {label}: {type(e).__name__}: {str(e).splitlines()[0][:100]}")
        table.append((label, unit, higher, row))

    def add_case(p):
        x, y = p.asarray(a32), p.asarray(b32)
        t = timed(lambda: p.ops["add"](x, y), p.sync, reps, inner)
        return 3 * a32.nbytes / t / 1e9

    def sum_case(p):
        x = p.asarray(a32)
        t = timed(lambda: p.ops["sum"](x), p.sync, reps, inner)
        return a32.nbytes / t / 1e9

    def trig_case(p):
        x = p.asarray(t32)
        cos, sin = p.ops["cos"], p.ops["sin"]
        t = timed(lambda: cos(x) ** 2 + sin(x) ** 2, p.sync, reps, inner)
        return t * 1e3

    def mm_case(n, dt):
        def body(p):
            m = mats[n] if dt == "float32" else mats[n].astype(ml_dtypes.bfloat16)
            x = p.asarray(m)
            t = timed(lambda: p.ops["matmul"](x, x), p.sync, reps, 3 if n > 4000 else inner)
            return 2 * n ** 3 / t / 1e12
        return body

    def percall_case(p):
        x, y = p.asarray(small), p.asarray(small)
        add = p.ops["add"]
        calls = 2000 if args.quick else 20000
        t = timed(lambda: add(x, y), p.sync, 5, calls)
        return t * 1e6

    each(f"add 2^{n_add.bit_length() - 1} float32", "GB/s", True, add_case)
    each(f"sum 2^{n_add.bit_length() - 1} float32", "GB/s", True, sum_case)
    each("cos(x)**2 + sin(x)**2, 1e7 float32", "ms", False, trig_case)
    for n in (1000, 8192):
        for dt in ("float32", "bfloat16"):
            each(f"matmul {n} {dt}", "TFLOP/s", True, mm_case(n, dt))
    each("add of 1000 float32, per call", "us", False, percall_case)
    table.extend(ops_numpy_functions.rows(dev, reps, inner, timed, notes))
    first_call_rows(table, notes)
    return names


FIRST_CALL = {
    "loom": """
import time, loom, numpy as np
d = loom.gpu(0)
x = loom.asarray(np.arange(1, 1001, dtype=np.float32), device=d)
(x + x).block_until_ready()            # context, module and an unrelated kernel warm
t0 = time.perf_counter()
loom.hypot(loom.arctan2(x, x), x).block_until_ready()
print((time.perf_counter() - t0) * 1e3 / 2)   # two never-seen kernels; ms per kernel
""",
    "cupy": """
import time, cupy, numpy as np
x = cupy.arange(1, 1001, dtype=cupy.float32)
(x + x).get()
k = cupy.ElementwiseKernel('float32 a, float32 b', 'float32 c', 'c = hypotf(atan2f(a, b), a) * 1.25f',
                           'loom_bench_first_call')
t0 = time.perf_counter()
k(x, x).get()
print((time.perf_counter() - t0) * 1e3)
""",
}


def first_call_rows(table, notes):
    """Fresh processes: cold (empty cache directory) then warm (the same directory)."""
    cold, warm = {}, {}
    env_keys = {"loom": "LOOM_CACHE_DIR", "cupy": "CUPY_CACHE_DIR"}
    for name, code in FIRST_CALL.items():
        with tempfile.TemporaryDirectory() as d:
            env = dict(os.environ, **{env_keys[name]: d})
            for store in (cold, warm):
                r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
                if r.returncode != 0:
                    store[name] = None
                    notes.append(f"{name} first call: {r.stderr.strip().splitlines()[-1][:120] if r.stderr else r.returncode}")
                else:
                    store[name] = float(r.stdout.split()[-1])
    table.append(("never-seen elementwise kernel, cold cache", "ms", False, cold))
    table.append(("never-seen elementwise kernel, warm disk cache", "ms", False, warm))


def run_cpu(args, table, notes):
    rng = np.random.default_rng(1)
    n = 10_000_000
    a = rng.standard_normal(n, dtype=np.float32)
    b = rng.standard_normal(n, dtype=np.float32)
    m = rng.standard_normal((1024, 1024), dtype=np.float32)
    cpu = loom.cpu()
    la, lb, lm = loom.array(a, device=cpu), loom.array(b, device=cpu), loom.array(m, device=cpu)
    reps, inner = (3, 2) if args.quick else (9, 5)
    none = lambda: None  # noqa: E731
    cases = [
        ("cpu: add 1e7 float32", "GB/s", lambda f, x, y: 3 * a.nbytes / timed(lambda: f(x, y), none, reps, inner) / 1e9,
         ("add", la, lb), (np.add, a, b)),
        ("cpu: sum 1e7 float32", "GB/s", lambda f, x, y: a.nbytes / timed(lambda: f(x), none, reps, inner) / 1e9,
         ("sum", la, None), (np.sum, a, None)),
        ("cpu: matmul 1024 float32", "GFLOP/s",
         lambda f, x, y: 2 * 1024 ** 3 / timed(lambda: f(x, x), none, reps, inner) / 1e9,
         ("matmul", lm, None), (np.matmul, m, None)),
    ]
    for label, unit, measure, mine, theirs in cases:
        row = {}
        for name, (f, x, y) in (("loom", mine), ("numpy", theirs)):
            try:
                # loom's ops are looked up late, so a missing op is "n/a", not a crash.
                row[name] = measure(getattr(loom, f) if isinstance(f, str) else f, x, y)
            except Exception as e:  # noqa: BLE001
                row[name] = None
                notes.append(f"{name}, {label}: {type(e).__name__}: {str(e).splitlines()[0][:100]}")
        table.append((label, unit, True, row))


def fmt(v):
    if v is None:
        return NA
    return f"{v:.3g}" if abs(v) < 10 else f"{v:.0f}" if abs(v) >= 1000 else f"{v:.1f}"


def print_table(table, notes):
    cols = []
    for _, _, _, row in table:
        for k in row:
            if k not in cols:
                cols.append(k)
    header = ["case", "unit"] + cols + ["loom/best peer"]
    lines = []
    for label, unit, higher, row in table:
        peers = [v for k, v in row.items() if k != "loom" and v is not None]
        mine = row.get("loom")
        ratio = NA
        if mine is not None and peers:
            best = max(peers) if higher else min(peers)
            ratio = f"{mine / best:.2f}x" if higher else f"{best / mine:.2f}x (time)"
        lines.append([label, unit] + [fmt(row.get(c)) for c in cols] + [ratio])
    print_rows(header, lines, title="NumPy operations")
    for n in notes:
        print(f"note: {n}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="smaller sizes and fewer repetitions")
    ap.add_argument("--cpu-only", action="store_true", help="skip the GPU section")
    ap.add_argument("--functions", action="store_true",
                    help="only the GPU rows of median, percentile, histogram, bincount, take, roll, pad")
    args = ap.parse_args()
    table, notes = [], []
    print(f"loom {loom.__version__}; {loom.num_gpus()} GPU(s); numpy {np.__version__}")
    if args.functions:
        table.extend(ops_numpy_functions.rows(loom.gpu(0), 7, 10, timed, notes))
        print_table(table, notes)
        return
    if loom.num_gpus() and not args.cpu_only:
        print(f"GPU: {loom.gpu(0).name}")
        run_gpu(args, table, notes)
    else:
        notes.append("no GPU: GPU section skipped")
    run_cpu(args, table, notes)
    print_table(table, notes)


if __name__ == "__main__":
    main()
