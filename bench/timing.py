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


def timed_together(fns, syncs, rounds, inner):
    """Median seconds per call of each fns[k] (synced by syncs[k]) over `rounds` rounds that
    run every one in turn, `inner` calls each: drifts of a shared, noisy host (clock speed,
    other load) then reach every contender alike. Python's garbage collector runs between
    samples, not inside them."""
    import gc
    for k, fn in fns.items():
        fn()
        syncs[k]()
    samples = {k: [] for k in fns}
    for _ in range(rounds):
        for k, fn in fns.items():
            gc.collect()
            gc.disable()
            try:
                t0 = time.perf_counter()
                for _ in range(inner):
                    fn()
                syncs[k]()
                samples[k].append((time.perf_counter() - t0) / inner)
            finally:
                gc.enable()
    return {k: statistics.median(v) for k, v in samples.items()}
