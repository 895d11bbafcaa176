"""dask.array over loom chunks: a reduction and a matmul on a local cluster of 2 worker
processes against the same in one process, plain loom and Dask's threaded scheduler.

    python3 bench/dask_cluster.py            # PYTHONPATH=python when loom is built in-tree
    python3 bench/dask_cluster.py --quick    # smaller arrays, fewer repetitions
    python3 bench/dask_cluster.py --device gpu:0

Rows: sum(axis=0) of an n x n float64 array (GB/s read), the matmul of two n x n float64
arrays left on the workers (persist: GFLOP/s), and the same matmul with compute() bringing
the product to the client (GFLOP/s; the product crosses a process boundary). Inputs are made
where they are used (the "loom" backend's da.random on the workers), chunks of n/2 x n/2.
Columns: plain loom in this process (loom's own CPU threads), Dask's threaded scheduler in
this process (2 threads), and distributed.LocalCluster(n_workers=2, processes=True,
threads_per_worker=1) (each worker's loom on one CPU thread: loom.dask_backend sets
LOOM_NUM_THREADS=1 for workers). The last column: cluster / plain loom. Medians of --reps
runs after a warm-up. A benchmark, never a test. Needs dask[array] and distributed.
"""
import argparse
import itertools
import os
import time

import loom
from table import print_rows
from timing import timed


def workloads(da, dask, n, device):
    """The inputs (made by the loom backend's da.random, chunks of n/2) and the three jobs."""
    with dask.config.set({"array.backend": "loom"}):
        rng = da.random.default_rng(0)
        x = rng.random((n, n), chunks=n // 2, device=device)
        a = rng.random((n, n), chunks=n // 2, device=device)
        b = rng.random((n, n), chunks=n // 2, device=device)
    return x, a, b


_runs = itertools.count()


def _same(block):
    return block


def fresh(x):
    """x under a new name (one task per chunk that returns it): Dask names results by their
    inputs, and a cluster that still holds the last run's result would not compute it again."""
    return x.map_blocks(_same, name=f"run-{next(_runs)}-{x.name}")


def dask_column(da, dask, wait, n, device, reps, scheduler=None):
    """Seconds of the reduction, the persisted matmul and the computed matmul under the
    current scheduler (scheduler= for the threaded one; None: the Client's)."""
    kw = {} if scheduler is None else {"scheduler": scheduler}
    x, a, b = workloads(da, dask, n, device)
    x, a, b = dask.persist(x, a, b, **kw)
    wait((x, a, b))
    reduce = timed(lambda: fresh(x).sum(axis=0).compute(**kw), lambda: None, reps, 1)

    def product():
        p = (fresh(a) @ b).persist(**kw)
        wait(p)
    persist = timed(product, lambda: None, reps, 1)
    computed = timed(lambda: (fresh(a) @ b).compute(**kw), lambda: None, reps, 1)
    return reduce, persist, computed


def loom_column(n, device, reps):
    rng = loom.random.default_rng(0)
    x = rng.random((n, n), device=device)
    a, b = rng.random((n, n), device=device), rng.random((n, n), device=device)
    sync = lambda: loom.synchronize(device)  # noqa: E731
    reduce = timed(lambda: loom.sum(x, axis=0), sync, reps, 1)
    persist = timed(lambda: a @ b, sync, reps, 1)
    return reduce, persist, persist


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="n=2048 and 2 repetitions")
    ap.add_argument("--n", type=int, default=None, help="array side (default 4096; --quick 2048)")
    ap.add_argument("--reps", type=int, default=None)
    ap.add_argument("--device", default="cpu", help="loom device of the chunks (cpu, gpu:0, ...)")
    args = ap.parse_args()
    try:
        import dask
        import dask.array as da
        import distributed
    except ImportError as e:
        print(f"dask_cluster: needs dask[array] and distributed ({e})")
        return
    import loom.dask_backend  # noqa: F401 - registers loom with Dask (and with its workers)

    n = args.n or (2048 if args.quick else 4096)
    reps = args.reps or (2 if args.quick else 3)
    device = loom.Device(args.device)

    t0 = time.perf_counter()
    plain = loom_column(n, device, reps)
    # Persisted with the threaded scheduler, the chunks are in memory: nothing to wait for.
    threads = dask_column(da, dask, lambda obj: None, n, device, reps, scheduler="threads")
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                                  dashboard_address=None) as cluster, distributed.Client(cluster):
        cluster_times = dask_column(da, dask, distributed.wait, n, device, reps)

    gb = n * n * 8 / 1e9
    gflop = 2 * n**3 / 1e9
    names = [f"sum(axis=0), {n}x{n} float64 (GB/s)", f"matmul {n}x{n} float64, persisted (GFLOP/s)",
             f"matmul {n}x{n} float64, compute() to the client (GFLOP/s)"]
    work = [gb, gflop, gflop]
    lines = []
    for i, name in enumerate(names):
        rates = [work[i] / col[i] for col in (plain, threads, cluster_times)]
        lines.append([name] + [f"{r:.2f}" for r in rates] + [f"{rates[2] / rates[0]:.2f}x"])
    print(f"dask.array over loom chunks on {device}: {os.cpu_count()} cores, n={n}, medians of {reps} "
          f"({time.perf_counter() - t0:.0f} s in all)")
    print_rows(["workload", "loom, 1 process", "dask threads, 1 process", "dask LocalCluster, 2 processes",
                "cluster / loom"], lines, title="dask.array over loom chunks: 2 worker processes vs 1 process")


if __name__ == "__main__":
    main()
