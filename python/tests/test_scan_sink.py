"""The part of a scan's step that only makes ys runs once after the loop over the stacked
values it reads (transforms/scan_sink.h): results, derivatives and batching must be those of
the plain loop, the step must not copy what it hands out (its carry is read from the y's
row), what the carry needs or what reads the carry argument must stay, and the move must
happen."""
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


def _cell(w):
    def cell(h, x):
        h = loom.tanh(h @ w + x)
        return h, (loom.sum(h, axis=1), h * 2.0 + x)   # both only for the ys: move
    return cell


def _np_loop(w, h, xs):
    ys1, ys2 = [], []
    for x in xs:
        h = np.tanh(h @ w + x)
        ys1.append(h.sum(axis=1))
        ys2.append(h * 2.0 + x)
    return h, np.stack(ys1), np.stack(ys2)


def _data(rng, device):
    n = [rng.standard_normal(s) / 2 for s in ((5, 5), (3, 5), (L, 3, 5))]
    return n, [loom.asarray(a, device=device) for a in n]


@pytest.mark.parametrize("reverse", [False, True])
def test_results_are_the_loops_and_the_y_only_ops_run_once(reverse, rng, device):
    n, (w, h, xs) = _data(rng, device)
    run = lambda h, xs: lax.scan(_cell(w), h, xs, reverse=reverse)  # noqa: E731
    (hn, (y1, y2)), ops = _ops(run, h, xs)
    if reverse:
        want = _np_loop(n[0], n[1], n[2][::-1])
        want = (want[0], want[1][::-1], want[2][::-1])
    else:
        want = _np_loop(*n)
    for got, exp in zip((hn, y1, y2), want):
        assert_matches(got, exp, device=device, rtol=1e-9)
    assert ops["sum"] == 1, ops                 # every step's sum(h) at once, after the loop
    assert ops["matmul"] == L, ops              # the carry's own work stays per step
    assert ops["copyto"] <= 1, ops              # h is written into its row, not copied there
    jitted = loom.jit(run)
    for _ in range(2):
        hn, (y1, y2) = jitted(h, xs)
        for got, exp in zip((hn, y1, y2), want):
            assert_matches(got, exp, device=device, rtol=1e-9)


def test_grad_and_vmap_through_the_moved_ops(rng, device):
    n, (w, h, xs) = _data(rng, device)

    def loss(w, h, xs, python_loop=False):
        if python_loop:
            cell, total = _cell(w), 0.0
            for t in range(L):
                h, (y1, y2) = cell(h, xs[t])
                total = total + loom.sum(y1 * y1) + loom.sum(y2)
            return loom.sum(h * h) + total
        hn, (y1, y2) = lax.scan(_cell(w), h, xs)
        return loom.sum(hn * hn) + loom.sum(y1 * y1) + loom.sum(y2)

    want = loom.grad(lambda *a: loss(*a, python_loop=True), argnums=(0, 1, 2))(w, h, xs)
    for fn in (loom.grad(loss, argnums=(0, 1, 2)), loom.jit(loom.grad(loss, argnums=(0, 1, 2)))):
        for got, exp in zip(fn(w, h, xs), want):
            assert_matches(got, np.asarray(exp), device=device, rtol=1e-10)
    xb = rng.standard_normal((2, L, 3, 5)) / 2
    hb, (y1, y2) = loom.vmap(lambda xs: lax.scan(_cell(w), h, xs))(loom.asarray(xb, device=device))
    for b in range(2):
        wh, wy1, wy2 = _np_loop(n[0], n[1], xb[b])
        assert_matches(hb[b], wh, device=device, rtol=1e-9)
        assert_matches(y1[b], wy1, device=device, rtol=1e-9)
        assert_matches(y2[b], wy2, device=device, rtol=1e-9)


def test_a_y_of_the_carry_argument_stays_in_the_loop(rng, device):
    """sum(h) of the step's incoming h: that value is no result of the step, so stacking it
    would cost a copy a step; the op stays."""
    n, (w, h, xs) = _data(rng, device)

    def cell(h, x):
        return loom.tanh(h @ w + x), loom.sum(h)

    (hn, ys), ops = _ops(lambda: lax.scan(cell, h, xs))
    hs, want = n[1], []
    for x in n[2]:
        want.append(hs.sum())
        hs = np.tanh(hs @ n[0] + x)
    assert_matches(ys, np.array(want), device=device, rtol=1e-9)
    assert_matches(hn, hs, device=device, rtol=1e-9)
    assert ops["sum"] == L, ops


def test_a_large_stacked_value_stays_in_the_loop(rng, device):
    """A carry of 600 x 600 stacked over the steps would be far larger than the xs: the
    y's reduction stays per step."""
    xsn = rng.standard_normal((L, 3))
    xs = loom.asarray(xsn, device=device)
    h0 = loom.zeros((600, 600), dtype=loom.float64, device=device)

    def cell(h, x):
        h = h + loom.sum(x)
        return h, loom.sum(h)

    (hn, ys), ops = _ops(lambda: lax.scan(cell, h0, xs))
    steps = np.cumsum(xsn.sum(axis=1))
    assert_matches(ys, steps * 360000, device=device, rtol=1e-9)
    assert ops["sum"] >= L, ops


def test_a_map_with_large_step_values_keeps_them_per_step(rng, device):
    """lax.map runs step by step to bound memory: work too large to batch over all the steps
    (an outer product of each x) stays in the loop rather than moving after it."""
    xsn = rng.standard_normal((L, 600))
    xs = loom.asarray(xsn, device=device)
    ys, ops = _ops(lambda: lax.map(lambda x: loom.sum(x[:, None] * x[None, :], axis=0), xs))
    assert_matches(ys, np.stack([np.outer(x, x).sum(axis=0) for x in xsn]), device=device, rtol=1e-9)
    assert ops["sum"] == L, ops
