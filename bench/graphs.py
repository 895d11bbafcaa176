"""CUDA graphs: 20 small elementwise ops launched one by one vs replayed as one graph.

    PYTHONPATH=python python3 bench/graphs.py [--n 1024] [--rounds 15] [--inner 200]

Per call of a function of 20 elementwise ops on two float32 vectors of --n elements, in
microseconds (median of --rounds rounds of --inner calls, every contender in turn per
round): loom eager, loom.cuda_graph replay (its arguments copied into the graph's inputs),
loom.jit of the function and a graph of that (the fused kernels captured), PyTorch eager
and torch.cuda.CUDAGraph replay, CuPy eager and a CuPy stream-captured graph,
where installed and a GPU is present ("n/a" otherwise). The goal: a loom replay costs at
most 1/4 of loom eager. Without a GPU, loom's rows run on cpu(), where cuda_graph calls the
function eagerly. This is a benchmark, never a test.
"""
import argparse

import numpy as np

import loom
from table import print_rows
from timing import timed_together


def chain(xp_sin, x, y):
    z = x * y                      # 1
    for _ in range(6):             # + 6 x 3
        z = xp_sin(z) + x
        z = z * 0.5
    return z + y                   # + 1 = 20 ops


def loom_cases(dev, n):
    rng = np.random.default_rng(0)
    x = loom.asarray(rng.random(n, dtype=np.float32), device=dev)
    y = loom.asarray(rng.random(n, dtype=np.float32), device=dev)
    f = lambda a, b: chain(loom.sin, a, b)  # noqa: E731
    g = loom.cuda_graph(f, x, y)
    sync = lambda: loom.synchronize(dev)  # noqa: E731
    cases = {"loom eager": (lambda: f(x, y), sync), "loom cuda_graph": (lambda: g(x, y), sync)}
    # The same function fused by loom.jit first, then captured: the graph holds the fused
    # kernels (as torch.compile's mode="reduce-overhead" fuses, then uses CUDA graphs).
    try:
        fj = loom.jit(f)
        gj = loom.cuda_graph(fj, x, y)
        cases["loom jit"] = (lambda: fj(x, y), sync)
        cases["loom cuda_graph(jit)"] = (lambda: gj(x, y), sync)
    except Exception as e:  # reported, not fatal: the other rows still mean something
        print(f"n/a: loom cuda_graph(jit) ({type(e).__name__}: {e})")
    return cases


def torch_cases(n):
    try:
        import torch
    except ImportError:
        return {}, "PyTorch not installed"
    if not torch.cuda.is_available():
        return {}, "PyTorch sees no GPU"
    x = torch.rand(n, device="cuda")
    y = torch.rand(n, device="cuda")
    sx, sy = x.clone(), y.clone()
    f = lambda a, b: chain(torch.sin, a, b)  # noqa: E731
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for _ in range(3):
            f(sx, sy)
    torch.cuda.current_stream().wait_stream(s)
    graph = torch.cuda.CUDAGraph()
    try:
        with torch.cuda.graph(graph):
            out = f(sx, sy)
    except Exception as e:
        return {"torch eager": (lambda: f(x, y), torch.cuda.synchronize)}, f"torch graph capture failed ({e})"

    def replay():
        sx.copy_(x)
        sy.copy_(y)
        graph.replay()
        return out

    sync = torch.cuda.synchronize
    return {"torch eager": (lambda: f(x, y), sync), "torch CUDAGraph": (replay, sync)}, None


def cupy_cases(n):
    try:
        import cupy as cp
    except ImportError:
        return {}, "CuPy not installed"
    try:
        if cp.cuda.runtime.getDeviceCount() == 0:
            return {}, "CuPy sees no GPU"
    except Exception as e:  # no driver
        return {}, f"CuPy sees no GPU ({type(e).__name__})"
    x = cp.random.rand(n, dtype=cp.float32)
    y = cp.random.rand(n, dtype=cp.float32)
    sx, sy = x.copy(), y.copy()
    f = lambda a, b: chain(cp.sin, a, b)  # noqa: E731
    f(sx, sy)
    stream = cp.cuda.Stream(non_blocking=True)
    eager = {"cupy eager": (lambda: f(x, y), cp.cuda.Device().synchronize)}
    try:
        with stream:
            f(sx, sy)  # the memory pool's blocks for this stream, before the capture
            stream.synchronize()
            stream.begin_capture()
            out = f(sx, sy)
            graph = stream.end_capture()
    except Exception as e:  # CuPy's capture rules vary with its version and memory pool
        return eager, f"CuPy graph capture failed ({type(e).__name__}: {e})"

    def replay():
        sx[...] = x
        sy[...] = y
        graph.launch(stream)
        return out

    def sync():
        stream.synchronize()
        cp.cuda.Device().synchronize()
    return {**eager, "cupy graph": (replay, sync)}, None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=1024, help="elements per vector (1024)")
    ap.add_argument("--rounds", type=int, default=15, help="timed rounds (15)")
    ap.add_argument("--inner", type=int, default=200, help="calls per round (200)")
    args = ap.parse_args()
    on_gpu = loom.num_gpus() > 0
    dev = loom.gpu(0) if on_gpu else loom.cpu()
    print(f"device: {dev!r}" + ("" if on_gpu else " (no GPU: cuda_graph runs the function eagerly)"))
    cases = loom_cases(dev, args.n)
    notes = []
    for make in (torch_cases, cupy_cases):
        more, why = make(args.n)
        cases.update(more)
        if why:
            notes.append(why)
    fns = {k: v[0] for k, v in cases.items()}
    syncs = {k: v[1] for k, v in cases.items()}
    us = {k: v * 1e6 for k, v in timed_together(fns, syncs, args.rounds, args.inner).items()}
    base = us["loom eager"]
    rows = [[k, f"{v:.1f}", f"{v / base:.2f}"] for k, v in us.items()]
    print(f"20 elementwise ops on float32[{args.n}], us per call (median of {args.rounds} x {args.inner})")
    print_rows(["", "us/call", "vs loom eager"], rows)
    for why in notes:
        print(f"n/a: {why}")


if __name__ == "__main__":
    main()
