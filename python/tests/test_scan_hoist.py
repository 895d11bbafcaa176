"""The part of a scan's step that reads only its x (and captured arrays) runs once over all
the xs before the loop (transforms/scan_hoist.h): the results, derivatives and batching must
be those of the plain loop, what cannot move must stay, and the move must happen."""
from collections import Counter

import numpy as np
import pytest

import loom
from loom import lax
from conftest import assert_matches, events_of

L = 12


def _ops(fn, *args):
    names, out = events_of(fn, *args)
    return out, Counter(names)


def _cell(w, u, c):
    def cell(h, x):
        xu = x @ u               # x only: moves
        s = loom.sin(x) * c      # x and a captured array: moves
        h = loom.tanh(h @ w + xu + loom.sum(s, axis=1, keepdims=True))
        return h, (loom.sum(h, axis=1), x * 2.0)   # a y from x alone: handed over as it is
    return cell


def _np_loop(w, u, c, h, xs):
    ys1, ys2 = [], []
    for x in xs:
        h = np.tanh(h @ w + x @ u + (np.sin(x) * c).sum(axis=1, keepdims=True))
        ys1.append(h.sum(axis=1))
        ys2.append(x * 2.0)
    return h, np.stack(ys1), np.stack(ys2)


def _data(rng, device):
    n = [rng.standard_normal(s) / 2 for s in ((5, 5), (4, 5), (4,), (3, 5), (L, 3, 4))]
    return n, [loom.asarray(a, device=device) for a in n]


def _flat(r):
    hn, (y1, y2) = r
    return hn, y1, y2


@pytest.mark.parametrize("reverse", [False, True])
def test_results_are_the_loops_and_the_x_only_ops_run_once(reverse, rng, device):
    n, (w, u, c, h, xs) = _data(rng, device)
    run = lambda h, xs: lax.scan(_cell(w, u, c), h, xs, reverse=reverse)  # noqa: E731
    (hn, (y1, y2)), ops = _ops(run, h, xs)
    if reverse:
        want = _np_loop(*n[:3], n[3], n[4][::-1])
        want = (want[0], want[1][::-1], want[2][::-1])
    else:
        want = _np_loop(*n)
    for got, exp in zip((hn, y1, y2), want):
        assert_matches(got, exp, device=device, rtol=1e-9)
    assert ops["matmul"] == L + 1, ops  # x @ u once for every step, h @ w per step
    assert ops["sin"] == 1, ops
    jitted = loom.jit(run)
    for _ in range(2):
        for got, exp in zip(_flat(jitted(h, xs)), want):
            assert_matches(got, exp, device=device, rtol=1e-9)


def test_grad_and_vmap_through_the_moved_ops(rng, device):
    n, (w, u, c, h, xs) = _data(rng, device)

    def loss(w, u, c, h, xs, python_loop=False):
        if python_loop:
            cell, total = _cell(w, u, c), 0.0
            for t in range(L):
                h, (y1, y2) = cell(h, xs[t])
                total = total + loom.sum(y1) + loom.sum(y2)
            return loom.sum(h * h) + total
        hn, (y1, y2) = lax.scan(_cell(w, u, c), h, xs)
        return loom.sum(hn * hn) + loom.sum(y1) + loom.sum(y2)

    want = loom.grad(lambda *a: loss(*a, python_loop=True), argnums=(0, 1, 2, 3, 4))(w, u, c, h, xs)
    for fn in (loom.grad(loss, argnums=(0, 1, 2, 3, 4)), loom.jit(loom.grad(loss, argnums=(0, 1, 2, 3, 4)))):
        for got, exp in zip(fn(w, u, c, h, xs), want):
            assert_matches(got, np.asarray(exp), device=device, rtol=1e-10)
    # vmap over a batch of xs: each example's scan is the loop's.
    xb = rng.standard_normal((2, L, 3, 4)) / 2
    hb, (y1, _y2) = loom.vmap(lambda xs: lax.scan(_cell(w, u, c), h, xs))(loom.asarray(xb, device=device))
    for b in range(2):
        wh, wy1, _ = _np_loop(*n[:4], xb[b])
        assert_matches(hb[b], wh, device=device, rtol=1e-9)
        assert_matches(y1[b], wy1, device=device, rtol=1e-9)


def test_an_x_only_value_written_twice_stays_in_the_loop(rng, device):
    xsn = rng.standard_normal((L, 3))
    xs = loom.asarray(xsn, device=device)

    def cell(h, x):
        z = x * 2.0
        z += 1.0          # a second write of z's buffer: z is not one op's alone
        return h + z, z

    (hn, ys), ops = _ops(lambda: lax.scan(cell, loom.zeros(3, dtype=loom.float64, device=device), xs))
    assert_matches(hn, (xsn * 2 + 1).sum(axis=0), device=device, rtol=1e-9)
    assert_matches(ys, xsn * 2 + 1, device=device, rtol=1e-9)
    assert ops["multiply"] in (0, L) and ops["scan_loop"] == 1, ops  # per step (or fused), not once ahead


def test_a_large_x_only_value_stays_in_the_loop(rng, device):
    xsn = rng.standard_normal((L, 600))
    xs = loom.asarray(xsn, device=device)

    def cell(h, x):
        outer = x[:, None] * x[None, :]   # 600 x 600 a step: 12 of them are far more than the xs
        return h + loom.sum(outer), loom.sum(outer, axis=0)

    (hn, ys), ops = _ops(lambda: lax.scan(cell, loom.zeros((), dtype=loom.float64, device=device), xs))
    want_ys = np.stack([np.outer(x, x).sum(axis=0) for x in xsn])
    assert_matches(ys, want_ys, device=device, rtol=1e-9)
    assert_matches(hn, want_ys.sum(), device=device, rtol=1e-9)
    assert ops["multiply"] in (0, L) and ops["scan_loop"] == 1, ops  # per step (or fused), not once ahead
