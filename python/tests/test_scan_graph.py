"""A scan run again and again: on a GPU, from its second run, it replays a CUDA graph of
all its steps (transforms/scan_graph.h); every run must still compute from its own
arguments, keep earlier results intact and fall back to the steps where a graph cannot
hold the body. On cpu() the same calls check the step path. NumPy sums in another order:
float64 within 1e-9."""
import threading

import numpy as np
import pytest

import loom
from loom import lax
from conftest import assert_matches

STEPS = 24  # above the graph's minimum step count


def _np_rnn(w, u, h, xs, reverse=False):
    ys = np.empty((xs.shape[0],) + h.shape[:1])
    for t in (range(xs.shape[0] - 1, -1, -1) if reverse else range(xs.shape[0])):
        h = np.tanh(h @ w + xs[t] @ u)
        ys[t] = h.sum(axis=1)
    return h, ys


def _rnn(w, u, h, xs, reverse=False):
    def cell(h, x):
        h = loom.tanh(h @ w + x @ u)
        return h, loom.sum(h, axis=1)
    return lax.scan(cell, h, xs, reverse=reverse)


def _data(rng, device):
    n = [rng.standard_normal(s) / 3 for s in ((5, 5), (4, 5), (3, 5), (STEPS, 3, 4))]
    return n, [loom.asarray(a, device=device) for a in n]


@pytest.mark.parametrize("reverse", [False, True])
def test_every_run_computes_from_its_own_arguments(reverse, rng, device):
    f = loom.jit(lambda w, u, h, xs: _rnn(w, u, h, xs, reverse))
    kept = []
    for _ in range(4):  # step by step, capture, then replays
        n, a = _data(rng, device)
        h, ys = f(*a)
        want_h, want_ys = _np_rnn(*n, reverse=reverse)
        assert_matches(h, want_h, device=device, rtol=1e-9)
        assert_matches(ys, want_ys, device=device, rtol=1e-9)
        kept.append((h, ys, want_h, want_ys))
    for h, ys, want_h, want_ys in kept:  # a later replay did not overwrite an earlier result
        assert_matches(h, want_h, device=device, rtol=1e-9)
        assert_matches(ys, want_ys, device=device, rtol=1e-9)


def test_strided_and_repeated_arguments(rng, device):
    f = loom.jit(_rnn)
    for _ in range(3):
        n, a = _data(rng, device)
        wt = loom.asarray(n[0].T.copy(), device=device).T  # a transposed view: not C-contiguous
        h, ys = f(wt, a[1], a[2], a[3])
        want_h, want_ys = _np_rnn(*n)
        assert_matches(h, want_h, device=device, rtol=1e-9)
        assert_matches(ys, want_ys, device=device, rtol=1e-9)
    # The same array as two arguments of the scan (its two graph inputs hold one array's copies)
    sq = rng.standard_normal((5, 5)) / 3
    s = loom.asarray(sq, device=device)
    for _ in range(3):
        hn, xsn = rng.standard_normal((3, 5)), rng.standard_normal((STEPS, 3, 5))
        h, ys = f(s, s, loom.asarray(hn, device=device), loom.asarray(xsn, device=device))
        want_h, want_ys = _np_rnn(sq, sq, hn, xsn)
        assert_matches(h, want_h, device=device, rtol=1e-9)
        assert_matches(ys, want_ys, device=device, rtol=1e-9)


def test_grad_through_a_repeated_scan(rng, device):
    def loss(w, u, h, xs):
        hn, ys = _rnn(w, u, h, xs)
        return loom.sum(hn * hn) + loom.sum(loom.sin(ys))

    def loop_loss(w, u, h, xs):
        for t in range(xs.shape[0]):
            h = loom.tanh(h @ w + xs[t] @ u)
            y = loom.sum(h, axis=1)
            loss_t = loom.sum(loom.sin(y))
            total = loss_t if t == 0 else total + loss_t
        return loom.sum(h * h) + total

    g = loom.jit(loom.grad(loss, argnums=(0, 1)))
    want = loom.grad(loop_loss, argnums=(0, 1))
    for _ in range(3):
        _, a = _data(rng, device)
        for got, exp in zip(g(*a), want(*a)):
            assert_matches(got, np.asarray(exp), device=device, rtol=1e-9)


def test_a_body_that_reads_the_device_on_the_host_still_runs(rng, device):
    # A while_loop inside the step reads its predicate on the host: it cannot be captured,
    # so the scan keeps running step by step.
    def cell(c, x):
        c = lax.while_loop(lambda v: loom.sum(v) < 100.0, lambda v: v * 2.0 + 1.0, c + x)
        return c * 0.01, loom.sum(c)

    f = loom.jit(lambda c, xs: lax.scan(cell, c, xs))
    for _ in range(3):
        cn = rng.uniform(0.1, 1, 3)
        xsn = rng.uniform(0.1, 1, (STEPS, 3))
        c, ys = f(loom.asarray(cn, device=device), loom.asarray(xsn, device=device))
        want_ys = np.empty(STEPS)
        for t in range(STEPS):
            v = cn + xsn[t]
            while v.sum() < 100.0:
                v = v * 2.0 + 1.0
            cn, want_ys[t] = v * 0.01, v.sum()
        assert_matches(c, cn, device=device, rtol=1e-9)
        assert_matches(ys, want_ys, device=device, rtol=1e-9)


def test_threads_sharing_one_scan(rng, device):
    f = loom.jit(_rnn)
    f(*_data(rng, device)[1])  # traced and compiled once, before the threads
    cases = [_data(np.random.default_rng(s), device) for s in range(8)]
    errors = []

    def work(n, a):
        try:
            with loom.device(device):
                for _ in range(3):
                    h, ys = f(*a)
                    want_h, want_ys = _np_rnn(*n)
                    assert_matches(h, want_h, device=device, rtol=1e-9)
                    assert_matches(ys, want_ys, device=device, rtol=1e-9)
        except Exception as e:  # noqa: BLE001 - reported below, with the thread's failure
            errors.append(e)

    threads = [threading.Thread(target=work, args=c) for c in cases]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[0]
