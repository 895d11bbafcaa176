"""SciPy on the device: loom.scipy next to SciPy on the CPU and next to CuPy (cupyx.scipy),
PyTorch and JAX (jax.scipy) on a GPU (issue 38).

    make bench                            # with the other benchmarks
    python3 bench/scipy_functions.py      # PYTHONPATH=python when loom is built in-tree
    python3 bench/scipy_functions.py --quick --cpu-only

(Not bench/scipy.py: every script in this folder has the folder first on sys.path, so a
scipy.py here would be imported in place of SciPy by this script and by the others' peers,
JAX and cupyx.scipy among them.)

Cases (float32 throughout; the sizes on a GPU, then on cpu()):
  erfinv, gammaln, ndtri, gammainc (a = 2.5), digamma of 2^24 elements (2^22 on cpu():
  loom's host erfinv, ndtri and gammainc take about 0.2 us an element, so 2^24 would spend
  minutes on warm-ups and rounds alone); scipy.special against cupyx.scipy.special,
  torch.special and jax.scipy.special.
  gaussian_filter, sigma 2, of a 4096^2 image (1024^2 on cpu(): same filter, a sixteenth of
  the pixels); scipy.ndimage against cupyx.scipy.ndimage (PyTorch and jax.scipy.ndimage
  have none).
  fftconvolve of 2^20 by 2^12 elements (both sides): scipy.signal against
  cupyx.scipy.signal and jax.scipy.signal (PyTorch has no equivalent).
  SpMV (A @ x) of a CSR matrix of 10^7 nonzeros (10^6 rows of 10), and cg, 100
  iterations (far from converging at the default tolerance, so every library does the same
  work) on the 5-point Poisson matrix of a 1024^2 grid (512^2 on cpu()): loom.scipy.sparse
  is not built yet, so loom's cell says so and the peers' numbers stand as the targets;
  once it exists, the rows time it through SciPy's API.
Targets (issue 38): on a GPU, loom >= 0.9x the best peer on every row; on cpu(), >= 1x
SciPy on the elementwise and filter rows. "speed vs best" is the best peer's time over
loom's (above 1: loom is faster).

Timing: median over --rounds rounds that run every library in turn (bench/timing.py's
timed_together), each round --inner calls between two synchronisations, after a warm-up
call (which also compiles JAX's jitted functions: JAX is timed under jax.jit, its fast path;
the others eagerly). Each library is synchronised its own way: loom.synchronize, CuPy's
device, torch.cuda.synchronize, block_until_ready on JAX's last result. Each library runs
as users get it, threads included (SciPy's functions here use one).
A missing peer loses its column, with a note. A benchmark, never a test.
"""
import argparse
import collections
import os
import platform
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import loom  # noqa: E402
from table import print_rows  # noqa: E402
from timing import timed_together  # noqa: E402

# JAX takes 75% of the GPU's memory at start-up unless told otherwise; the others need theirs.
os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
SPECIAL = ("erfinv", "gammaln", "ndtri", "gammainc", "digamma")
A = 2.5            # gammainc's a
CG_ITERS = 100
Csr = collections.namedtuple("Csr", "data indices indptr shape")


class Missing(Exception):
    """A library without the case's function: its cell is n/a, with the reason as a note."""


def random_csr(rows, per_row, rng):
    cols = np.sort(rng.integers(0, rows, (rows, per_row), dtype=np.int32), axis=1)
    return Csr(rng.standard_normal(rows * per_row, dtype=np.float32), cols.ravel(),
               np.arange(0, rows * per_row + 1, per_row, dtype=np.int32), (rows, rows))


def poisson_csr(m):
    """The 5-point Laplacian of an m x m grid (zero boundary) as CSR arrays, built with NumPy
    alone (the GPU machine may lack SciPy)."""
    n = m * m
    i = np.arange(n)
    r, c = i // m, i % m
    rows, cols, vals = [i], [i], [np.full(n, 4.0)]
    for ok, d in ((c > 0, -1), (c < m - 1, 1), (r > 0, -m), (r < m - 1, m)):
        rows.append(i[ok])
        cols.append(i[ok] + d)
        vals.append(np.full(int(ok.sum()), -1.0))
    rows, cols, vals = map(np.concatenate, (rows, cols, vals))
    order = np.lexsort((cols, rows))
    indptr = np.searchsorted(rows[order], np.arange(n + 1))
    return Csr(vals[order].astype(np.float32), cols[order].astype(np.int32), indptr.astype(np.int32), (n, n))


def cases(gpu, quick):
    """(label, function key, NumPy arguments) of every row."""
    rng = np.random.default_rng(0)
    n = (1 << 24 if gpu else 1 << 22) >> (4 if quick else 0)
    side = (4096 if gpu else 1024) >> (2 if quick else 0)
    sig, ker = (1 << 20) >> (4 if quick else 0), 1 << 12
    grid = (1024 if gpu else 512) >> (1 if quick else 0)
    # Each function's inputs from its usual domain (no NaNs or poles to short-cut).
    dom = {"erfinv": (-0.999, 0.999), "gammaln": (0.01, 50), "ndtri": (1e-4, 1 - 1e-4), "gammainc": (0, 10),
           "digamma": (0.01, 50)}
    out = [(f"{k} 2^{n.bit_length() - 1} float32", k, (rng.uniform(*dom[k], n).astype(np.float32),)) for k in SPECIAL]
    out.append((f"gaussian_filter {side}^2 float32, sigma 2", "gaussian_filter",
                (rng.standard_normal((side, side), dtype=np.float32),)))
    out.append((f"fftconvolve 2^{sig.bit_length() - 1} x 2^12 float32", "fftconvolve",
                (rng.standard_normal(sig, dtype=np.float32), rng.standard_normal(ker, dtype=np.float32))))
    m = random_csr((10 ** 6) >> (4 if quick else 0), 10, rng)
    out.append((f"SpMV CSR {m.data.size:,} nonzeros float32", "spmv",
                (m, rng.standard_normal(m.shape[1], dtype=np.float32))))
    out.append((f"cg {CG_ITERS} iterations, Poisson {grid}^2 float32", "cg",
                (poisson_csr(grid), np.ones(grid * grid, dtype=np.float32))))
    return out


# Each library: (column name, builder) where the builder returns put (NumPy -> its array,
# Csr -> its sparse matrix), {key: function or Missing}, sync(last result); it raises when
# the library cannot run here (not installed, no device).
def loom_lib(dev):
    from loom.scipy import ndimage, signal, special
    put = lambda a: loom.asarray(a, device=dev, copy=True)  # noqa: E731 - a copy: loom owns it
    fns = {k: getattr(special, k) for k in SPECIAL}
    fns.update(gammainc=lambda x: special.gammainc(A, x), gaussian_filter=lambda x: ndimage.gaussian_filter(x, 2.0),
               fftconvolve=signal.fftconvolve)
    try:
        from loom.scipy import sparse
        mat = lambda c: sparse.csr_matrix((put(c.data), put(c.indices), put(c.indptr)), shape=c.shape)  # noqa: E731
        fns.update(spmv=lambda a, x: a @ x, cg=lambda a, b: sparse.linalg.cg(a, b, maxiter=CG_ITERS))
    except ImportError:
        mat, later = None, Missing("n/a (loom.scipy.sparse not built yet)")
        fns.update(spmv=later, cg=later)
    return (lambda a: mat(a) if isinstance(a, Csr) else put(a)), fns, lambda r: loom.synchronize(dev)


def scipy_lib():
    import scipy.ndimage
    import scipy.signal
    import scipy.sparse
    import scipy.sparse.linalg
    import scipy.special as sp
    fns = {k: getattr(sp, k) for k in SPECIAL}
    fns.update(gammainc=lambda x: sp.gammainc(np.float32(A), x),  # a float32 a keeps SciPy's float32 loop
               gaussian_filter=lambda x: scipy.ndimage.gaussian_filter(x, 2.0), fftconvolve=scipy.signal.fftconvolve,
               spmv=lambda a, x: a @ x, cg=lambda a, b: scipy.sparse.linalg.cg(a, b, maxiter=CG_ITERS))
    put = lambda a: scipy.sparse.csr_matrix(a[:3], shape=a.shape) if isinstance(a, Csr) else a  # noqa: E731
    return put, fns, lambda r: None


def cupy_lib():
    import cupy
    import cupyx.scipy.ndimage
    import cupyx.scipy.signal
    import cupyx.scipy.sparse
    import cupyx.scipy.sparse.linalg
    import cupyx.scipy.special as sp
    cupy.cuda.runtime.getDeviceCount()  # raises without a driver or device
    fns = {k: getattr(sp, k) for k in SPECIAL}
    fns.update(gammainc=lambda x: sp.gammainc(np.float32(A), x),
               gaussian_filter=lambda x: cupyx.scipy.ndimage.gaussian_filter(x, 2.0),
               fftconvolve=cupyx.scipy.signal.fftconvolve, spmv=lambda a, x: a @ x,
               cg=lambda a, b: cupyx.scipy.sparse.linalg.cg(a, b, maxiter=CG_ITERS))
    put = lambda a: (cupyx.scipy.sparse.csr_matrix(tuple(cupy.asarray(v) for v in a[:3]), shape=a.shape)  # noqa: E731
                     if isinstance(a, Csr) else cupy.asarray(a))
    sync = cupy.cuda.Device().synchronize
    return put, fns, lambda r: sync()


def torch_lib():
    import torch
    if not torch.cuda.is_available():
        raise RuntimeError("no CUDA device")
    t = lambda a: torch.from_numpy(a).cuda()  # noqa: E731
    a = torch.tensor(A, dtype=torch.float32, device="cuda")  # gammainc takes tensors only
    fns = {k: getattr(torch.special, k) for k in SPECIAL}
    none = Missing("no equivalent")
    fns.update(gammainc=lambda x: torch.special.gammainc(a, x), gaussian_filter=none, fftconvolve=none, cg=none,
               spmv=lambda m, x: m @ x)
    put = lambda c: (torch.sparse_csr_tensor(t(c.indptr), t(c.indices), t(c.data), size=c.shape)  # noqa: E731
                     if isinstance(c, Csr) else t(c))
    return put, fns, lambda r: torch.cuda.synchronize()


def jax_lib():
    import jax
    import jax.scipy.signal
    import jax.scipy.special as sp
    gpu = jax.devices("gpu")[0]  # raises without a GPU backend
    fns = {k: jax.jit(getattr(sp, k)) for k in SPECIAL}
    fns.update(gammainc=jax.jit(lambda x: sp.gammainc(A, x)), fftconvolve=jax.jit(jax.scipy.signal.fftconvolve),
               gaussian_filter=Missing("jax.scipy.ndimage has no gaussian_filter"),
               spmv=Missing("jax.experimental.sparse not compared"), cg=Missing("not compared"))
    return lambda a: jax.device_put(a, gpu), fns, jax.block_until_ready


def why(e):
    return f"{type(e).__name__}: {str(e).splitlines()[0][:100] if str(e) else ''}"


def prepared(f, put, sync, args_np):
    """A call of f on this library's copies of the arguments, run once (warm-up, and the
    failure of a function that does not work comes here), and its synchronisation."""
    args, last = [put(a) for a in args_np], [None]

    def call():
        last[0] = f(*args)
    call()
    sync(last[0])
    return call, lambda: sync(last[0]), getattr(last[0], "dtype", None)


def run_table(title, device, libs, rows, target_of, rounds, inner):
    """Times every row on every library that has it; prints one table (named after the
    device) with its notes, and saves it under `title` (bench/table.py adds the machine)."""
    notes, ready = [], {}
    for name, build in libs:
        try:
            ready[name] = build()
        except Exception as e:  # noqa: BLE001 - not installed, no device: the column goes
            notes.append(f"{name}: column left out ({why(e)})")
    peers = [n for n in ready if n != "loom"]
    lines, missing = [], collections.defaultdict(list)
    for label, key, args_np in rows:
        fns, syncs, cells = {}, {}, {}
        for name, (put, table, sync) in ready.items():
            f = table[key]
            if isinstance(f, Missing):
                cells[name] = str(f) if name == "loom" else "n/a"
                missing[(name, str(f))].append(key)
                continue
            try:
                fns[name], syncs[name], dt = prepared(f, put, sync, args_np)
                if dt is not None and "float32" not in str(dt):
                    notes.append(f"{name}, {label}: result is {dt}, not float32")
            except Exception as e:  # noqa: BLE001 - a failing function is n/a, with the reason
                notes.append(f"{name}, {label}: {why(e)}")
        try:
            ms = {k: v * 1e3 for k, v in timed_together(fns, syncs, rounds, inner).items()} if fns else {}
        except Exception as e:  # noqa: BLE001 - one library failing mid-rounds loses the row, not the run
            ms = {}
            notes.append(f"{label}: timing failed ({why(e)})")
        fns = syncs = None  # frees this row's device arrays before the next row's
        cells.update({k: f"{v:.3f}" if v < 10 else f"{v:.1f}" for k, v in ms.items()})
        theirs = [ms[p] for p in peers if p in ms]
        ratio = min(theirs) / ms["loom"] if theirs and "loom" in ms else None
        goal = target_of(key)
        met = "" if ratio is None or goal is None else f"{'yes' if ratio >= goal else 'NO'} (>= {goal:g}x)"
        lines.append([label, "ms", cells.get("loom", "n/a")] + [cells.get(p, "n/a") for p in peers] +
                     [f"{ratio:.2f}x" if ratio else "", met])
    print(f"\n{title}, on {device}: median of {rounds} rounds of {inner} call(s)")
    speed = "speed vs SciPy" if peers == ["SciPy"] else "speed vs best"
    print_rows(["case", "unit", "loom"] + peers + [speed, "target met"], lines, title=title)
    notes += [f"{name}: {', '.join(keys)}: {reason}" for (name, reason), keys in missing.items() if name != "loom"]
    for n in notes:
        print(f"note: {n}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=None, help="timing rounds per row (cpu 5, GPU 7)")
    ap.add_argument("--quick", action="store_true", help="a sixteenth of the sizes (a quarter of the pixels), 3 rounds")
    ap.add_argument("--cpu-only", action="store_true", help="skip the GPU table")
    ap.add_argument("--gpu-only", action="store_true", help="skip the cpu() table")
    args = ap.parse_args()
    rounds = args.rounds or (3 if args.quick else None)
    cpu = loom.cpu()
    machine = f"cpu() ({platform.processor() or platform.machine()}, {os.cpu_count()} cores)"
    if not args.gpu_only:
        run_table("loom.scipy against SciPy", machine, [("loom", lambda: loom_lib(cpu)), ("SciPy", scipy_lib)],
                  cases(False, args.quick), lambda k: 1.0 if k in SPECIAL or k == "gaussian_filter" else None,
                  rounds or 5, 1)
    if loom.num_gpus() > 0 and not args.cpu_only:
        dev = loom.gpu(0)
        libs = [("loom", lambda: loom_lib(dev)), ("CuPy", cupy_lib), ("PyTorch", torch_lib), ("JAX", jax_lib)]
        run_table("loom.scipy against CuPy, PyTorch and JAX", f"gpu(0) ({dev.name})", libs, cases(True, args.quick),
                  lambda k: 0.9, rounds or 7, 10)


if __name__ == "__main__":
    main()
