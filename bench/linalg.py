"""Linear algebra: loom next to NumPy on the CPU: the symmetric products, and the
decompositions at a tenth of issue 15's GPU sizes (the GPU rows join with cuSOLVER).

    make bench                     # with the other benchmarks
    python3 bench/linalg.py        # PYTHONPATH=python when loom is built in-tree
    python3 bench/linalg.py --quick

Cases (cpu(), against NumPy with its BLAS in the same run):
  x @ x.T and x.T @ x on 3000 x 3000 (1000 with --quick), float32 and float64: both run
  as a symmetric rank-k update (syrk, half the multiply-adds, one triangle mirrored), as
  NumPy does;  target loom >= 0.9x NumPy's speed.
  solve 410 float32, cholesky 820 float32, svd 205 float32, eigh 410 float64, inv of a
  batch of 1000 8 x 8 float32 (issue 15's GPU cases at a tenth of the size): LAPACK on
  both sides; target >= 0.9x NumPy.
Timings are the best of --reps runs, each library in a process of its own (BLAS threads
make medians noisy on 2 cores). A
benchmark, never a test.
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
            args = [loom.asarray(a, device=loom.cpu()) for a in args_np]
            try:
                times[name] = best_ms(lambda: mine(*args), reps)
            except NotImplementedError:  # a build without LAPACK (the GPU machine has no OpenBLAS)
                times[name] = None
        else:
            times[name] = best_ms(lambda: theirs(*args_np), reps)
    print(json.dumps(times))


def main():
    import json
    import subprocess
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--side", choices=["loom", "numpy"], help=argparse.SUPPRESS)
    args = ap.parse_args()
    n = 1000 if args.quick else 3000
    if args.side:
        return one_side(args.side, n, args.reps)
    # Each library in a process of its own: two OpenBLAS instances in one process keep
    # their threads spinning after each call and slow each other down on 2 cores.
    base = [sys.executable, os.path.abspath(__file__), "--reps", str(args.reps)] + (["--quick"] if args.quick else [])
    side = {s: json.loads(subprocess.run(base + ["--side", s], check=True, capture_output=True, text=True)
                          .stdout.strip().splitlines()[-1]) for s in ("loom", "numpy")}
    rows = []
    for name in side["loom"]:
        lt, nt = side["loom"][name], side["numpy"][name]
        if lt is None:
            rows.append((name, "ms", "n/a (no LAPACK)", f"{nt:.2f}", "", ""))
            continue
        rows.append((name, "ms", f"{lt:.2f}", f"{nt:.2f}", f"{nt / lt:.2f}x", "yes" if nt / lt >= 0.9 else "NO"))
    print(f"\nloom linear algebra on cpu() (BLAS: {loom._loom.build_info()['blas']}; each library in its own process)")
    print_rows(["case", "unit", "loom", "NumPy", "speed vs NumPy", ">= 0.9x"], rows)


if __name__ == "__main__":
    main()
