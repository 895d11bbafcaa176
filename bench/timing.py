"""Timing shared by the benchmarks in this folder."""
import statistics
import time


def timed(fn, sync, reps, inner):
    """Median seconds per call of fn over `reps` runs of `inner` calls each (after a warm-up)."""
    fn()
    sync()
    samples = []
    for _ in range(reps):
        t0 = time.perf_counter()
        for _ in range(inner):
            fn()
        sync()
        samples.append((time.perf_counter() - t0) / inner)
    return statistics.median(samples)
