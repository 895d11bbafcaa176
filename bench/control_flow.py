"""Control flow and higher-order derivatives (issue 39's speed targets): loom next to JAX in
the same run, on the default device (a GPU when there is one, else cpu()).

    python3 bench/control_flow.py          # PYTHONPATH=python when loom is built in-tree
    python3 bench/control_flow.py --quick

Cases:
  (a) lax.scan over 1000 steps of a small RNN cell (h = tanh(h W + x U + b), batch 16, 64
      hidden, 32 inputs) under jit: loom's scan primitive vs the same steps as a Python loop
      under eager loom, and vs JAX's jit(lax.scan);  targets <= 1.5x JAX, >= 5x the Python loop
  (b) grad of the RNN's loss through the scan (the backward scan), under jit, vs JAX; no target
  (c) hessian of a 1000-input function (sum(sin(x) x^2) + (sum x)^2) under jit, vs JAX's
      jit(hessian);                                                     target <= 1.5x JAX
Timings are medians (ms). A benchmark, never a test; JAX prints n/a when it is not installed.
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import loom  # noqa: E402
from loom import lax  # noqa: E402
from table import print_rows  # noqa: E402
from timing import timed  # noqa: E402

STEPS, BATCH, HIDDEN, INPUTS, HESS_N = 1000, 16, 64, 32, 1000


def rnn_data(rng):
    f = lambda *s: (rng.standard_normal(s) / np.sqrt(s[0])).astype(np.float32)  # noqa: E731
    return f(HIDDEN, HIDDEN), f(INPUTS, HIDDEN), np.zeros(HIDDEN, np.float32), \
        rng.standard_normal((STEPS, BATCH, INPUTS)).astype(np.float32), np.zeros((BATCH, HIDDEN), np.float32)


def rnn_loss(np_, scan, w, u, b, xs, h0):
    """The RNN over xs through `scan` (JAX's or loom's signature), and a scalar loss of it."""
    def cell(h, x):
        h = np_.tanh(h @ w + x @ u + b)
        return h, np_.sum(h)
    h, ys = scan(cell, h0, xs)
    return np_.sum(ys) + np_.sum(h * h)


def python_loop(w, u, b, xs, h0):
    h = h0
    for t in range(xs.shape[0]):
        h = loom.tanh(h @ w + xs[t] @ u + b)
    return h


def hess_f(np_):
    return lambda x: np_.sum(np_.sin(x) * x * x) + np_.sum(x) ** 2


def jax_rows(rng_data, hx, reps, gpu):
    try:
        import jax
        import jax.numpy as jnp
        dev = [d for d in jax.devices() if d.platform == "gpu"] if gpu else jax.devices("cpu")
        if not dev:
            return None, None, None, "jax: no GPU device"
        dev = dev[0]
    except Exception as e:  # noqa: BLE001
        return None, None, None, f"jax: {type(e).__name__}: {str(e)[:60]}"
    w, u, b, xs, h0 = (jax.device_put(a, dev) for a in rng_data)
    fwd = jax.jit(lambda w, u, b, xs, h0: rnn_loss(jnp, jax.lax.scan, w, u, b, xs, h0))
    grd = jax.jit(jax.grad(lambda w, u, b, xs, h0: rnn_loss(jnp, jax.lax.scan, w, u, b, xs, h0), argnums=(0, 1, 2)))
    hes = jax.jit(jax.hessian(hess_f(jnp)))
    x = jax.device_put(hx, dev)
    block = lambda r: jax.tree_util.tree_map(lambda a: a.block_until_ready(), r)  # noqa: E731
    t_fwd = timed(lambda: block(fwd(w, u, b, xs, h0)), lambda: None, reps, 5) * 1e3
    t_grd = timed(lambda: block(grd(w, u, b, xs, h0)), lambda: None, reps, 5) * 1e3
    t_hes = timed(lambda: block(hes(x)), lambda: None, reps, 3) * 1e3
    return t_fwd, t_grd, t_hes, None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    reps = 3 if args.quick else 7
    gpu = loom.num_gpus() > 0
    dev = loom.gpu(0) if gpu else loom.cpu()
    sync = lambda: loom.synchronize(dev)  # noqa: E731
    rng = np.random.default_rng(0)
    data = rnn_data(rng)
    w, u, b, xs, h0 = (loom.asarray(a, device=dev) for a in data)
    hx = rng.standard_normal(HESS_N)

    fwd = loom.jit(lambda w, u, b, xs, h0: rnn_loss(loom, lax.scan, w, u, b, xs, h0))
    grd = loom.jit(loom.grad(lambda w, u, b, xs, h0: rnn_loss(loom, lax.scan, w, u, b, xs, h0), argnums=(0, 1, 2)))
    hes = loom.jit(loom.hessian(hess_f(loom)))
    x = loom.asarray(hx, device=dev)
    t_loop = timed(lambda: python_loop(w, u, b, xs, h0), sync, reps, 1) * 1e3
    t_fwd = timed(lambda: fwd(w, u, b, xs, h0), sync, reps, 5) * 1e3
    t_grd = timed(lambda: grd(w, u, b, xs, h0), sync, reps, 5) * 1e3
    t_hes = timed(lambda: hes(x), sync, reps, 3) * 1e3
    j_fwd, j_grd, j_hes, note = jax_rows(data, hx, reps, gpu)

    ratio = lambda a, b_: None if b_ is None else a / b_  # noqa: E731
    fmt = lambda v: "n/a" if v is None else (f"{v:.3f}" if v < 10 else f"{v:.1f}")  # noqa: E731
    met = lambda m: "-" if m is None else ("yes" if m else "NO")  # noqa: E731
    r_fwd = ratio(t_fwd, j_fwd)
    rows = [
        ["(a) jit lax.scan RNN, 1000 steps", fmt(t_loop), fmt(t_fwd), fmt(j_fwd), fmt(r_fwd),
         "<= 1.5x JAX, >= 5x loop", met(None if r_fwd is None else (r_fwd <= 1.5 and t_loop >= 5 * t_fwd))],
        ["(b) jit grad through the scan", "-", fmt(t_grd), fmt(j_grd), fmt(ratio(t_grd, j_grd)), "-", "-"],
        ["(c) jit hessian, 1000 inputs", "-", fmt(t_hes), fmt(j_hes), fmt(ratio(t_hes, j_hes)), "<= 1.5x JAX",
         met(None if j_hes is None else t_hes <= 1.5 * j_hes)],
    ]
    print(f"\nControl flow and hessians on {dev} (ms)")
    print_rows(["case", "loom Python loop", "loom jit", "JAX jit", "loom / JAX", "target", "met"], rows)
    if note:
        print("  note:", note)


if __name__ == "__main__":
    main()
