"""loom's host cost per call, loom alone: the rows that show whether a change to dispatch, jit
or the records made calls dearer. One run, one process; `--json` prints the row values as one
JSON line (bench/compare_trees.py runs two builds of loom against each other with it).

    python3 bench/host_overhead.py [--json] [--reps N]

Rows (on gpu(0) when there is one, else cpu() with the nn steps at batch 16):
  add 1000 float32, SELU 1e6 eager and under loom.jit, jit(vmap) of a 150x100 matvec over 10
  vectors, one training step of bench/nn.py's MLP and LeNet (eager, and the whole step under
  loom.jit: nn.py's loom_step), and on cpu() jit(x + 1) and add of 1000 float32.
A benchmark, never a test.
"""
import argparse
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import loom  # noqa: E402
import nn as bench_nn  # noqa: E402
from table import print_rows  # noqa: E402
from timing import timed  # noqa: E402


def selu(x, alpha=1.67, lmbda=1.05):
    return lmbda * loom.where(x > 0, x, alpha * loom.exp(x) - alpha)


def rows(reps):
    """{row name: value}, microseconds (_us) or milliseconds (_ms)."""
    rng = np.random.default_rng(0)
    gpu = loom.num_gpus() > 0
    dev = loom.gpu(0) if gpu else loom.cpu()
    sync = (lambda: loom.synchronize(dev)) if gpu else (lambda: None)
    out = {}
    a = loom.asarray(rng.standard_normal(1000).astype(np.float32), device=dev)
    b = loom.asarray(rng.standard_normal(1000).astype(np.float32), device=dev)
    out["add 1000 f32 (us)"] = timed(lambda: a + b, sync, reps, 2000) * 1e6
    x = loom.asarray(rng.standard_normal(1_000_000).astype(np.float32), device=dev)
    f = loom.jit(selu)
    f(x)
    sync()
    loom._loom._wait_for_background_compiles()  # the jitted kernels' (as bench/nn.py waits)
    out["SELU 1e6 eager (us)"] = timed(lambda: selu(x), sync, reps, 200 if gpu else 5) * 1e6
    out["SELU 1e6 jit (us)"] = timed(lambda: f(x), sync, reps, 1000 if gpu else 20) * 1e6
    mat = loom.asarray(rng.standard_normal((150, 100)).astype(np.float32), device=dev)
    vs = loom.asarray(rng.standard_normal((10, 100)).astype(np.float32), device=dev)
    bf = loom.jit(loom.vmap(lambda v: mat @ v))
    out["jit(vmap) matvec (us)"] = timed(lambda: bf(vs), sync, reps, 1000) * 1e6
    batch = 256 if gpu else 16
    for name, make, shape in (("MLP", bench_nn.mlp, (batch, 784)), ("LeNet", bench_nn.lenet, (batch, 1, 28, 28))):
        for jit in (False, True):
            net = make().to(dev)
            xb = loom.asarray(rng.standard_normal(shape).astype(np.float32), device=dev)
            yb = loom.asarray(rng.integers(0, 10, batch), device=dev)
            step = bench_nn.loom_step(net, jit)
            for _ in range(3):
                step(xb, yb)
            sync()
            loom._loom._wait_for_background_compiles()
            out[f"{name} b{batch} step {'jit' if jit else 'eager'} (ms)"] = timed(lambda: step(xb, yb), sync, reps, 20) * 1e3
    c = loom.asarray(rng.standard_normal(1000).astype(np.float32), device=loom.cpu())
    g = loom.jit(lambda t: t + 1)
    out["cpu() jit x+1 (us)"] = timed(lambda: g(c), lambda: None, reps, 2000) * 1e6
    out["cpu() add 1000 (us)"] = timed(lambda: c + c, lambda: None, reps, 2000) * 1e6
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="one JSON line of the row values")
    ap.add_argument("--reps", type=int, default=5, help="timing rounds per row (median)")
    args = ap.parse_args()
    values = rows(args.reps)
    if args.json:
        print(json.dumps(values))
        return
    print_rows(["row", "loom"], [[k, f"{v:.3f}"] for k, v in values.items()],
               title=f"host cost per call, {'gpu(0)' if loom.num_gpus() else 'cpu()'}")


if __name__ == "__main__":
    main()
