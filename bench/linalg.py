"""Linear algebra: loom next to NumPy on the CPU (the decompositions of issue 15 join as
they land; today the symmetric products).

    make bench                     # with the other benchmarks
    python3 bench/linalg.py        # PYTHONPATH=python when loom is built in-tree
    python3 bench/linalg.py --quick

Cases (cpu(), against NumPy with its BLAS in the same run):
  x @ x.T and x.T @ x on 3000 x 3000 (1000 with --quick), float32 and float64: both run
  as a symmetric rank-k update (syrk, half the multiply-adds, one triangle mirrored), as
  NumPy does;  target loom >= 0.9x NumPy's speed.
Timings are the best of --reps runs (BLAS threads make medians noisy on 2 cores). A
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--reps", type=int, default=5)
    args = ap.parse_args()
    n = 1000 if args.quick else 3000
    rows = []
    for dtype in (np.float32, np.float64):
        x = np.random.default_rng(0).standard_normal((n, n)).astype(dtype)
        xl = loom.asarray(x, device=loom.cpu())
        for name, mine, theirs in (("x @ x.T", lambda: xl @ xl.T, lambda: x @ x.T),
                                   ("x.T @ x", lambda: xl.T @ xl, lambda: x.T @ x)):
            lt, nt = best_ms(mine, args.reps), best_ms(theirs, args.reps)
            rows.append((f"{name} {n}^2 {np.dtype(dtype).name}", "ms", f"{lt:.1f}", f"{nt:.1f}", f"{nt / lt:.2f}x",
                         "yes" if nt / lt >= 0.9 else "NO"))
    print(f"\nloom linear algebra on cpu() (BLAS: {loom._loom.build_info()['blas']})")
    print_rows(["case", "unit", "loom", "NumPy", "speed vs NumPy", ">= 0.9x"], rows)


if __name__ == "__main__":
    main()
