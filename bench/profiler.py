"""The profiler's cost: per-op time of a loop of small `loom.add` calls with no profile
(the hot path's one atomic check), and inside `loom.profiler.profile()` (a span per op,
an allocation and a free event; on a GPU, two CUDA events per op), on cpu() and each GPU.
The time stop() takes to wait and resolve the events is its own column.

    python3 bench/profiler.py [--calls N] [--rounds R]

Rounds alternate off and on, so drifts of a shared host reach both alike; medians.
"""
import argparse
import gc
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import loom  # noqa: E402
from table import print_rows  # noqa: E402


def one_round(x, calls, sync, profiled):
    """Seconds per call of `calls` adds (and, profiled, the seconds stop() took)."""
    p = loom.profiler.profile().start() if profiled else None
    gc.disable()
    try:
        t0 = time.perf_counter()
        for _ in range(calls):
            loom.add(x, x)
        sync()
        per_call = (time.perf_counter() - t0) / calls
    finally:
        gc.enable()
    stop_s = 0.0
    if p is not None:
        t1 = time.perf_counter()
        p.stop()
        stop_s = time.perf_counter() - t1
        assert sum(e.name == "add" for e in p.events("kernel")) == calls
    return per_call, stop_s


def measure(device, calls, rounds):
    x = loom.asarray(np.arange(16, dtype=np.float32), device=device)
    sync = (lambda: loom.synchronize(device)) if hasattr(loom, "synchronize") else (lambda: None)
    if device != loom.cpu() and not hasattr(loom, "synchronize"):
        sync = lambda: loom.asarray(x).to_device(loom.cpu())  # noqa: E731
    one_round(x, min(calls, 1000), sync, False)  # warm-up: compiles, pools
    one_round(x, min(calls, 1000), sync, True)
    off, on, stops = [], [], []
    for _ in range(rounds):
        off.append(one_round(x, calls, sync, False)[0])
        t, s = one_round(x, calls, sync, True)
        on.append(t)
        stops.append(s)
    off_us, on_us = statistics.median(off) * 1e6, statistics.median(on) * 1e6
    return [repr(device), f"add of 16 float32 x {calls}", f"{off_us:.3f}", f"{on_us:.3f}", f"{on_us - off_us:+.3f}",
            f"{statistics.median(stops) * 1e3:.1f}"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=100_000)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    rows = [measure(d, args.calls, args.rounds) for d in loom.devices()]
    print_rows(["device", "loop", "off us/op", "on us/op", "overhead us/op", "stop() ms"], rows)


if __name__ == "__main__":
    main()
