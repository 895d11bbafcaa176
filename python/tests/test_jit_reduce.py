"""loom.jit fuses elementwise prologues and epilogues into reductions: fresh random data,
results equal eager loom bit for bit (the fused reduction combines in the unfused order)
and NumPy within rounding, over axes, keepdims and dtypes. On every device (GPU cases
skip without a GPU)."""
import numpy as np
import pytest

import loom
from conftest import random_array


def _check(fn, args, np_fn, rtol, atol=None):
    want = fn(*args)
    f = loom.jit(fn)
    for _ in range(2):
        got = f(*args)
        g, w = np.asarray(loom.asnumpy(got)), np.asarray(loom.asnumpy(want))
        assert g.dtype == w.dtype and g.shape == w.shape
        assert g.tobytes() == w.tobytes(), (g, w)
    ref = np_fn(*[np.asarray(loom.asnumpy(a)) for a in args])
    np.testing.assert_allclose(g.astype(np.float64), np.asarray(ref, np.float64), rtol=rtol,
                               atol=rtol if atol is None else atol)


AXES = [None, 0, 1, (0, 1)]


@pytest.mark.parametrize("axis", AXES)
@pytest.mark.parametrize("keepdims", [False, True])
def test_prologues_of_each_kind(device, rng, axis, keepdims):
    a = loom.asarray(random_array(rng, (67, 301), "float32", -2, 2), device=device)
    b = loom.asarray(random_array(rng, (67, 301), "float32", -2, 2), device=device)
    kw = dict(axis=axis, keepdims=keepdims)
    _check(lambda a, b: loom.mean((a - b) ** 2, **kw), (a, b), lambda a, b: np.mean((a - b) ** 2, **kw), 1e-5)
    _check(lambda a: loom.sum(a * a, **kw), (a,), lambda a: np.sum(a * a, **kw), 1e-5)
    _check(lambda a: loom.max(loom.abs(a), **kw), (a,), lambda a: np.max(np.abs(a), **kw), 0)
    _check(lambda a, b: loom.min(a + b, **kw), (a, b), lambda a, b: np.min(a + b, **kw), 0)
    _check(lambda a: loom.prod(1 + a * 0.01, **kw), (a,), lambda a: np.prod(1 + a * np.float32(0.01), **kw), 1e-4)
    _check(lambda a: loom.var(loom.exp(a), **kw), (a,), lambda a: np.var(np.exp(a), **kw), 1e-4)
    _check(lambda a: loom.std(a * 3, **kw), (a,), lambda a: np.std(a * 3, **kw), 1e-4)
    _check(lambda a: loom.any(a > 1.9, **kw), (a,), lambda a: np.any(a > 1.9, **kw), 0)
    _check(lambda a: loom.all(a > -1.9, **kw), (a,), lambda a: np.all(a > -1.9, **kw), 0)


@pytest.mark.parametrize("axis", [None, 0, 1])
def test_argmin_argmax_prologues(device, rng, axis):
    a = loom.asarray(random_array(rng, (40, 77), "float64"), device=device)
    b = loom.asarray(random_array(rng, (40, 77), "float64"), device=device)
    _check(lambda a, b: loom.argmax(a - b, axis=axis), (a, b), lambda a, b: np.argmax(a - b, axis=axis), 0)
    _check(lambda a: loom.argmin(loom.sin(a), axis=axis), (a,), lambda a: np.argmin(np.sin(a), axis=axis), 0)


@pytest.mark.parametrize("dtype", ["float64", "float16", "int32", "int8", "uint16", "bool"])
def test_dtypes(device, rng, dtype):
    x = loom.asarray(random_array(rng, (33, 129), dtype), device=device)
    rtol = 1e-2 if dtype == "float16" else 1e-6
    _check(lambda x: loom.sum(x + x, axis=1), (x,), lambda x: np.sum(x + x, axis=1), rtol)
    _check(lambda x: loom.max(x * 3, axis=0), (x,), lambda x: np.max(x * 3, axis=0), rtol)


def test_epilogues(device, rng):
    x = loom.asarray(random_array(rng, (50, 90), "float32", -1, 1), device=device)
    y = loom.asarray(random_array(rng, (50,), "float32"), device=device)
    _check(lambda x: loom.sqrt(loom.sum(x * x)), (x,), lambda x: np.sqrt(np.sum(x * x)), 1e-5)
    _check(lambda x: loom.mean(x, axis=1) * 2 + 1, (x,), lambda x: np.mean(x, axis=1) * 2 + 1, 1e-5)
    # The row sums are about 100 and y may cancel most of one, so the float32 summation-order
    # difference (a few ulps of 100, ~1e-5) is judged against the sum, not the difference.
    _check(lambda x, y: loom.sum(loom.exp(x), axis=1) - y, (x, y), lambda x, y: np.sum(np.exp(x), axis=1) - y,
           1e-5, atol=1e-4)
    _check(lambda x: loom.log(loom.sum(loom.exp(x), axis=1, keepdims=True)), (x,),
           lambda x: np.log(np.sum(np.exp(x), axis=1, keepdims=True)), 1e-5)


def test_unfusable_cases_stay_correct(device, rng):
    x = loom.asarray(random_array(rng, (31, 45), "float32", -2, 2), device=device)
    # Broadcast along one axis, a transposed operand, a stored intermediate, a broadcast epilogue.
    _check(lambda x: loom.sum((x - loom.mean(x, axis=1, keepdims=True)) ** 2, axis=1), (x,),
           lambda x: np.sum((x - np.mean(x, axis=1, keepdims=True)) ** 2, axis=1), 1e-4)
    _check(lambda x: loom.sum(loom.exp(x.T), axis=1), (x,), lambda x: np.sum(np.exp(x.T), axis=1), 1e-5)
    _check(lambda x: x - loom.max(x, axis=1, keepdims=True), (x,), lambda x: x - np.max(x, axis=1, keepdims=True), 0)

    def both(x):
        e = loom.exp(x)
        return loom.sum(e) + e
    _check(both, (x,), lambda x: np.sum(np.exp(x)) + np.exp(x), 1e-5)
