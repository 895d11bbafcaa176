"""Linear algebra: loom next to NumPy on the CPU (the symmetric products, and the
decompositions at a tenth of issue 15's GPU sizes), and on a GPU next to CuPy and PyTorch.

    make bench                     # with the other benchmarks
    python3 bench/linalg.py        # PYTHONPATH=python when loom is built in-tree
    python3 bench/linalg.py --quick

Cases (cpu(), against NumPy with its BLAS in the same run):
  x @ x.T and x.T @ x on 3000 x 3000 (1000 with --quick), float32 and float64: both run
  as a symmetric rank-k update (syrk, half the multiply-adds, one triangle mirrored), as
  NumPy does;  target loom >= 0.9x NumPy's speed.
  x @ x.conj().T on 1500 x 1500 complex64 (750 with --quick), the conjugate taken in each
  call: loom runs it as a Hermitian rank-k update (cherk: x.conj() remembers x), NumPy as
  a cgemm with the conjugate it made.
  solve 410 float32, cholesky 820 float32, svd 205 float32, eigh 410 float64, inv of a
  batch of 1000 8 x 8 float32 (issue 15's GPU cases at a tenth of the size): LAPACK on
  both sides; target >= 0.9x NumPy.
Timings are the best of --reps runs in each of --rounds processes per library, the two
libraries' processes alternating (BLAS threads make medians noisy on 2 cores, and a slow
spell of the host would otherwise fall on one side only).

Cases on gpu(0), when there is one (against CuPy and PyTorch in the same process, each
timed to the end of its device work): solve 4096 float32 (one right-hand side), cholesky
8192 float32, svd 2048 float32, eigh 4096 float64, inv of a batch of 10,000 8 x 8 float32,
svd of a batch of 10,000 8 x 8 float32, x @ x.conj().T on 4096 x 4096 complex64 (PyTorch's
conj is a lazy view, which its matmul reads with cuBLAS's op C); target loom >= 0.95x the
best of them. A benchmark, never a test.
"""
import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import loom  # noqa: E402
from table import print_rows  # noqa: E402


def best_ms(fn, reps):
    fn()
    out = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return min(out) * 1e3


def cases(n):
    """(name, NumPy's function, loom's function, NumPy arguments) of every row."""
    rng = np.random.default_rng(1)

    def spd(k, dtype):
        a = rng.standard_normal((k, k))
        return (a @ a.T + k * np.eye(k)).astype(dtype)
    out = []
    for dtype in (np.float32, np.float64):
        x = np.random.default_rng(0).standard_normal((n, n)).astype(dtype)
        name = np.dtype(dtype).name
        out.append((f"x @ x.T {n}^2 {name}", lambda x: x @ x.T, lambda x: x @ x.T, (x,)))
        out.append((f"x.T @ x {n}^2 {name}", lambda x: x.T @ x, lambda x: x.T @ x, (x,)))
    h = n // 2
    z = (rng.standard_normal((h, h)) + 1j * rng.standard_normal((h, h))).astype(np.complex64)
    out.append((f"x @ x.conj().T {h}^2 complex64", lambda x: x @ x.conj().T, lambda x: x @ x.conj().T, (z,)))
    out += [
        ("solve 410^2 float32", np.linalg.solve, loom.linalg.solve,
         (rng.standard_normal((410, 410)).astype(np.float32) + 410 * np.eye(410, dtype=np.float32),
          rng.standard_normal((410, 1)).astype(np.float32))),
        ("cholesky 820^2 float32", np.linalg.cholesky, loom.linalg.cholesky, (spd(820, np.float32),)),
        ("svd 205^2 float32", np.linalg.svd, loom.linalg.svd, (rng.standard_normal((205, 205)).astype(np.float32),)),
        ("eigh 410^2 float64", np.linalg.eigh, loom.linalg.eigh, (spd(410, np.float64),)),
        ("inv 1000 x 8^2 float32", np.linalg.inv, loom.linalg.inv,
         (rng.standard_normal((1000, 8, 8)).astype(np.float32) + 8 * np.eye(8, dtype=np.float32),)),
    ]
    return out


def one_side(side, n, reps):
    """Times one library's rows in this process and prints them as JSON."""
    import json
    times = {}
    for name, theirs, mine, args_np in cases(n):
        if side == "loom":
            # Copies: an array viewing NumPy's memory is one loom cannot track, whose
            # conjugates are never reused (docs/ARCHITECTURE.md §13).
            args = [loom.asarray(a, device=loom.cpu(), copy=True) for a in args_np]
            try:
                times[name] = best_ms(lambda: mine(*args), reps)
            except NotImplementedError:  # a build without LAPACK (the GPU machine has no OpenBLAS)
                times[name] = None
        else:
            times[name] = best_ms(lambda: theirs(*args_np), reps)
    print(json.dumps(times))


def gpu_cases():
    """(name, function name in each library's linalg or a function of the arrays, NumPy
    arguments) of every GPU row."""
    rng = np.random.default_rng(2)

    def spd(k, dtype):
        a = rng.standard_normal((k, k)).astype(dtype)
        return (a @ a.T + k * np.eye(k, dtype=dtype)).astype(dtype)

    def well(shape):
        return (rng.standard_normal(shape) + shape[-1] * np.eye(shape[-1])).astype(np.float32)
    return [
        ("solve 4096^2 float32", "solve", (well((4096, 4096)), rng.standard_normal((4096, 1)).astype(np.float32))),
        ("cholesky 8192^2 float32", "cholesky", (spd(8192, np.float32),)),
        ("svd 2048^2 float32", "svd", (rng.standard_normal((2048, 2048)).astype(np.float32),)),
        ("eigh 4096^2 float64", "eigh", (spd(4096, np.float64),)),
        ("inv 10000 x 8^2 float32", "inv", (well((10000, 8, 8)),)),
        ("svd 10000 x 8^2 float32", "svd", (rng.standard_normal((10000, 8, 8)).astype(np.float32),)),
        ("x @ x.conj().T 4096^2 complex64", lambda x: x @ x.conj().T,
         ((rng.standard_normal((4096, 4096)) + 1j * rng.standard_normal((4096, 4096))).astype(np.complex64),)),
    ]


def gpu_peers():
    """{name: (asarray, linalg namespace, synchronize)} of loom and the peers importable here."""
    dev = loom.gpu(0)
    peers = {"loom": (lambda x: loom.asarray(x, device=dev), loom.linalg, lambda: loom.synchronize(dev))}
    try:
        import cupy
        cupy.cuda.runtime.getDeviceCount()
        peers["CuPy"] = (cupy.asarray, cupy.linalg, cupy.cuda.Device().synchronize)
    except Exception:  # noqa: BLE001 - not installed or no driver: the row says so
        pass
    try:
        import torch
        if torch.cuda.is_available():
            peers["PyTorch"] = (lambda x: torch.from_numpy(x).cuda(), torch.linalg, torch.cuda.synchronize)
    except ImportError:
        pass
    return peers


def gpu_table(reps):
    peers = gpu_peers()
    names = [p for p in ("CuPy", "PyTorch") if p in peers]
    rows = []
    for name, fn, args_np in gpu_cases():
        ms = {}
        for peer, (asarray, linalg, sync) in peers.items():
            args = [asarray(a) for a in args_np]
            f = fn if callable(fn) else getattr(linalg, fn)
            ms[peer] = best_ms(lambda: (f(*args), sync()), reps)
            del args
        best = min(ms[p] for p in names) if names else None
        ratio = best / ms["loom"] if best else None
        rows.append([name, "ms", f"{ms['loom']:.2f}"] + [f"{ms[p]:.2f}" for p in names] +
                    ([f"{ratio:.2f}x", "yes" if ratio >= 0.95 else "NO"] if ratio else ["", ""]))
    print(f"\nloom linear algebra on gpu(0) ({loom.gpu(0).name}), best of {reps} runs to the end of the device work")
    print_rows(["case", "unit", "loom"] + names + ["speed vs best", ">= 0.95x"], rows)


def main():
    import json
    import subprocess
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=3, help="processes per library, alternating (3)")
    ap.add_argument("--side", choices=["loom", "numpy"], help=argparse.SUPPRESS)
    args = ap.parse_args()
    n = 1000 if args.quick else 3000
    if args.side:
        return one_side(args.side, n, args.reps)
    # Each library in a process of its own: two OpenBLAS instances in one process keep
    # their threads spinning after each call and slow each other down on 2 cores.
    # The processes alternate (loom, NumPy, loom, ...) and each case keeps its best time: a
    # slow spell of a shared 2-core host (seconds long) then reaches both sides, where one
    # process per side let a single spell decide a row.
    base = [sys.executable, os.path.abspath(__file__), "--reps", str(args.reps)] + (["--quick"] if args.quick else [])
    side = {"loom": {}, "numpy": {}}
    for _ in range(max(1, args.rounds)):
        for s in ("loom", "numpy"):
            got = json.loads(subprocess.run(base + ["--side", s], check=True, capture_output=True, text=True)
                             .stdout.strip().splitlines()[-1])
            for name, t in got.items():
                old_t = side[s].get(name)
                side[s][name] = t if old_t is None or t is None else min(old_t, t)
    rows = []
    for name in side["loom"]:
        lt, nt = side["loom"][name], side["numpy"][name]
        if lt is None:
            rows.append((name, "ms", "n/a (no LAPACK)", f"{nt:.2f}", "", ""))
            continue
        rows.append((name, "ms", f"{lt:.2f}", f"{nt:.2f}", f"{nt / lt:.2f}x", "yes" if nt / lt >= 0.9 else "NO"))
    print(f"\nloom linear algebra on cpu() (BLAS: {loom._loom.build_info()['blas']}; each library in its own process)")
    print_rows(["case", "unit", "loom", "NumPy", "speed vs NumPy", ">= 0.9x"], rows)
    if loom.num_gpus() > 0:
        gpu_table(args.reps)


if __name__ == "__main__":
    main()
