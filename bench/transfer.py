"""Host <-> device bandwidth and per-call overhead: loom next to PyTorch and CuPy.

    make bench                      # or: PYTHONPATH=python python3 bench/transfer.py
    python3 bench/transfer.py --mib 64 --reps 10 --calls 20000

Bandwidth: one float32 array of --mib MiB copied host -> device (pageable NumPy memory
and page-locked memory) and back (loom's numpy() lands in its pinned host cache; the
"no pinned cache" row turns it off); median of --reps timed runs after a warm-up, in GB/s
(1e9 bytes/s). Per-call cost: creating a 1000-element float32 array on the device,
best of 5 timeit runs of --calls // 5 calls each, in microseconds per call.
Without a GPU it measures loom's cpu() device and says so; a peer that is not
installed, or has no GPU, shows "n/a". This is a benchmark, never a test.
"""
import argparse
import statistics
import time
import timeit

import numpy as np

import loom
from table import save_table

NOTES = []
ROWS = [  # key, label, moves bytes?
    ("h2d", "host -> device, pageable", True),
    ("d2h", "device -> host, pageable", True),
    ("d2h_nocache", "  same, no pinned cache", True),
    ("h2d_pinned", "host -> device, pinned", True),
    ("d2h_pinned", "device -> host, pinned", True),
    ("empty", "empty(1000) float32 per call", False),
]


def loom_cases(dev, host):
    """loom's cases on `dev` (a GPU, or cpu() when there is none)."""
    on_gpu = dev.type != "cpu"
    # On cpu() asarray may share NumPy's memory; array() always copies.
    upload = loom.asarray if on_gpu else loom.array
    pinned = loom.empty_pinned(host.shape, loom.float32)
    pinned[...] = host
    x = upload(host, device=dev).block_until_ready()

    def d2h_pinned():
        # Device -> existing page-locked buffer needs an out= form (CuPy's asnumpy has one).
        loom.asnumpy(x, out=pinned)

    def d2h_nocache():
        # numpy() into ordinary memory, as before the pinned cache (loom.memory's limit 0).
        limit = loom.memory.pinned_cache_stats()["limit"]
        loom.memory.set_pinned_cache_limit(0)
        try:
            return x.numpy()
        finally:
            loom.memory.set_pinned_cache_limit(limit)

    cases = {
        "h2d": lambda: upload(host, device=dev).block_until_ready(),
        "d2h": lambda: x.numpy(),
        "d2h_nocache": d2h_nocache,
        "h2d_pinned": lambda: upload(pinned, device=dev).block_until_ready(),
        "d2h_pinned": d2h_pinned,
        "empty": ("empty((1000,), dtype=f32, device=dev)",
                  {"empty": loom.empty, "f32": loom.float32, "dev": dev}),
    }
    try:
        d2h_pinned()
    except TypeError:
        del cases["d2h_pinned"]
        NOTES.append("loom: device -> host pinned is n/a (loom.asnumpy has no out=)")
    if not on_gpu:
        # .numpy() of a cpu() array is a view: time a real copy instead.
        cases["d2h"] = lambda: np.array(x)
        del cases["d2h_nocache"]
        NOTES.append("loom on cpu(): loom.array(host) and np.array(x), which copy")
    return cases, lambda: loom.synchronize(dev)


def torch_cases(host, on_gpu):
    try:
        import torch
    except ImportError:
        return None, "not installed"
    if on_gpu and not torch.cuda.is_available():
        return None, "no CUDA device"
    dev = "cuda" if on_gpu else "cpu"
    n = host.size
    pinned = torch.empty(n, dtype=torch.float32, pin_memory=on_gpu)
    pinned.copy_(torch.from_numpy(host))
    x = torch.from_numpy(host).to(dev)
    sync = torch.cuda.synchronize if on_gpu else (lambda: None)

    def d2h_pinned():
        pinned.copy_(x)
        sync()

    cases = {
        "h2d": lambda: (torch.from_numpy(host).to(dev, copy=True), sync()),
        "d2h": lambda: x.cpu() if on_gpu else x.clone(),
        "h2d_pinned": lambda: (pinned.to(dev, copy=True), sync()),
        "d2h_pinned": d2h_pinned,
        "empty": ("empty(1000, device=dev)", {"empty": torch.empty, "dev": dev}),
    }
    return cases, sync


def cupy_cases(host, on_gpu):
    if not on_gpu:
        return None, "GPU only"
    try:
        import cupy as cp
        import cupyx
    except ImportError:
        return None, "not installed"
    try:
        if cp.cuda.runtime.getDeviceCount() == 0:
            return None, "no CUDA device"
    except cp.cuda.runtime.CUDARuntimeError:
        return None, "no CUDA device"
    pinned = cupyx.empty_pinned(host.shape, np.float32)
    pinned[...] = host
    x = cp.asarray(host)
    sync = cp.cuda.Device().synchronize

    def d2h_pinned():
        x.get(out=pinned)
        sync()

    cases = {
        "h2d": lambda: (cp.asarray(host), sync()),
        "d2h": lambda: cp.asnumpy(x),
        "h2d_pinned": lambda: (cp.asarray(pinned), sync()),
        "d2h_pinned": d2h_pinned,
        "empty": ("empty(1000, dtype=f32)", {"empty": cp.empty, "f32": cp.float32}),
    }
    return cases, sync


def median_seconds(fn, sync, reps):
    fn()  # warm-up: allocator pools, first-touch pages, driver state
    fn()
    sync()
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        sync()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def per_call_us(stmt, env, calls, sync):
    timer = timeit.Timer(stmt, globals=env)
    timer.timeit(number=max(1, calls // 50))  # warm-up
    sync()
    per_run = max(1, calls // 5)
    best = min(timer.repeat(repeat=5, number=per_run))
    sync()
    return best / per_run * 1e6


def measure(cases, sync, nbytes, reps, calls):
    out = {}
    for key, _, moves_bytes in ROWS:
        case = cases.get(key)
        if case is None:
            continue
        if moves_bytes:
            out[key] = nbytes / median_seconds(case, sync, reps) / 1e9
        else:
            out[key] = per_call_us(case[0], case[1], calls, sync)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mib", type=int, default=256, help="transfer size in MiB (256)")
    ap.add_argument("--reps", type=int, default=12, help="timed runs per transfer (12)")
    ap.add_argument("--calls", type=int, default=100_000, help="calls timed per op (100000)")
    args = ap.parse_args()
    reps = max(args.reps, 10)

    on_gpu = loom.num_gpus() > 0
    dev = loom.gpu(0) if on_gpu else loom.cpu()
    if on_gpu:
        print(f"device: {dev!r} {dev.name}")
    else:
        print("no GPU visible: measuring loom's cpu() device (peers on the CPU where they can)")
    nbytes = args.mib * 2**20
    host = np.random.default_rng(0).random(nbytes // 4, dtype=np.float32)

    columns = []
    cases, sync = loom_cases(dev, host)
    columns.append(("loom", measure(cases, sync, nbytes, reps, args.calls), None))
    for name, make in (("torch", torch_cases), ("cupy", cupy_cases)):
        cases, sync_or_why = make(host, on_gpu)
        if cases is None:
            columns.append((name, {}, sync_or_why))
        else:
            columns.append((name, measure(cases, sync_or_why, nbytes, reps, args.calls), None))
        del cases

    print(f"{args.mib} MiB float32, bandwidth in GB/s (median of {reps}); "
          f"per-call cost in us (best of 5 x {max(1, args.calls // 5)} calls)")
    width = 32
    data_rows = []
    print(f"{'':<{width}}" + "".join(f"{name:>10}" for name, _, _ in columns))
    for key, label, moves_bytes in ROWS:
        unit = "GB/s" if moves_bytes else "us"
        cells = []
        for _, values, _ in columns:
            v = values.get(key)
            cells.append("n/a" if v is None else f"{v:.2f}")
        print(f"{label + ' [' + unit + ']':<{width}}" + "".join(f"{c:>10}" for c in cells))
        data_rows.append([label, unit] + cells)
    save_table(["case", "unit"] + [name for name, _, _ in columns], data_rows,
               title=f"host <-> device copies, {args.mib} MiB float32")
    for name, _, why in columns:
        if why:
            print(f"{name}: n/a ({why})")
    for note in NOTES:
        print(note)


if __name__ == "__main__":
    main()
