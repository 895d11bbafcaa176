"""FFTs: loom.fft next to NumPy on the CPU and next to CuPy and PyTorch on a GPU (issue 15).

    make bench                  # with the other benchmarks
    python3 bench/fft.py        # PYTHONPATH=python when loom is built in-tree
    python3 bench/fft.py --reps 20

Cases:
  cpu() (FFTW against NumPy's pocketfft, same run): fft of 2^20 complex64 and rfft of a batch
  of 102 x 4096 float32. The GPU cases at a tenth of their size, except that 2^24 / 10 is not
  a power of two, and a length with a factor of 5 would time another algorithm than the GPU
  case's radix-2 one: 2^20 (a sixteenth) keeps the same kind of transform. Target loom >=
  0.9x NumPy.
  gpu(0) (cuFFT on every side), when loom sees a GPU: fft of 2^24 complex64 and rfft of
  1024 x 4096 float32, against CuPy and PyTorch (each when importable); device-synchronised
  timing. Target loom >= 0.95x the best of them.
Timings are the best of --reps runs after a warm-up call (which also makes each library's
plan). A benchmark, never a test.
"""
import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import loom  # noqa: E402
from table import print_rows  # noqa: E402


def best_ms(fn, sync, reps):
    fn()  # warm-up: plans, pools, kernels
    sync()
    out = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        sync()
        out.append(time.perf_counter() - t0)
    return min(out) * 1e3


def inputs(n_fft, rows):
    rng = np.random.default_rng(0)
    z = (rng.standard_normal(n_fft) + 1j * rng.standard_normal(n_fft)).astype(np.complex64)
    x = rng.standard_normal((rows, 4096)).astype(np.float32)
    return [(f"fft 2^{n_fft.bit_length() - 1} complex64", "fft", z),
            (f"rfft {rows} x 4096 float32", "rfft", x)]


def cpu_rows(reps):
    rows = []
    for name, fn, x in inputs(1 << 20, 102):
        lx = loom.asarray(x, device=loom.cpu())
        try:
            lt = best_ms(lambda: getattr(loom.fft, fn)(lx), lambda: None, reps)
        except NotImplementedError:  # built without FFTW
            rows.append((name, "ms", "n/a (no FFTW)", "", "", ""))
            continue
        nt = best_ms(lambda: getattr(np.fft, fn)(x), lambda: None, reps)
        rows.append((name, "ms", f"{lt:.3f}", f"{nt:.3f}", f"{nt / lt:.2f}x", "yes" if nt / lt >= 0.9 else "NO"))
    print("\nloom.fft on cpu() (FFTW) against NumPy (pocketfft), best of", reps)
    print_rows(["case", "unit", "loom", "NumPy", "speed vs NumPy", ">= 0.9x"], rows)


def gpu_peers():
    """(name, to-device function, namespace with fft/rfft, sync) of each importable GPU peer."""
    peers = []
    try:
        import cupy
        cupy.cuda.runtime.getDeviceCount()
        peers.append(("CuPy", cupy.asarray, cupy.fft, cupy.cuda.Device().synchronize))
    except Exception:  # noqa: BLE001 - not installed, or no GPU for it
        pass
    try:
        import torch
        if torch.cuda.is_available():
            peers.append(("PyTorch", lambda x: torch.from_numpy(x).cuda(), torch.fft, torch.cuda.synchronize))
    except Exception:  # noqa: BLE001
        pass
    return peers


def gpu_rows(reps):
    dev = loom.gpu(0)
    peers = gpu_peers()
    rows = []
    for name, fn, x in inputs(1 << 24, 1024):
        lx = loom.asarray(x, device=dev)
        lt = best_ms(lambda: getattr(loom.fft, fn)(lx), lambda: loom.synchronize(dev), reps)
        theirs = {}
        for pname, to_dev, ns, sync in peers:
            px = to_dev(x)
            theirs[pname] = best_ms(lambda: getattr(ns, fn)(px), sync, reps)
        best = min(theirs.values()) if theirs else None
        cells = [f"{theirs[p]:.3f}" if p in theirs else "n/a" for p in ("CuPy", "PyTorch")]
        ratio = f"{best / lt:.2f}x" if best else ""
        ok = ("yes" if best / lt >= 0.95 else "NO") if best else ""
        rows.append((name, "ms", f"{lt:.3f}", *cells, ratio, ok))
    print(f"\nloom.fft on {dev} (cuFFT) against CuPy and PyTorch, best of", reps)
    print_rows(["case", "unit", "loom", "CuPy", "PyTorch", "speed vs best", ">= 0.95x"], rows)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=10)
    args = ap.parse_args()
    cpu_rows(args.reps)
    if loom.num_gpus() > 0:
        gpu_rows(args.reps)


if __name__ == "__main__":
    main()
