"""vmap of a function that closes over an enclosing trace's arrays (jit, grad, an outer vmap):
the closed-over array is the same for every example, never a fresh buffer. Against NumPy on
fresh random data, on every device."""
import numpy as np
import pytest

import loom


def test_vmap_under_jit_reads_the_closed_over_array(device, rng):
    w = rng.standard_normal((3, 4))
    xs = rng.standard_normal((5, 4))
    f = loom.jit(lambda w, xs: loom.vmap(lambda x: w @ x)(xs))
    got = f(loom.asarray(w, device=device), loom.asarray(xs, device=device))
    np.testing.assert_allclose(got.numpy(), xs @ w.T, rtol=1e-12)


def test_grad_through_vmap_of_a_closure(device, rng):
    w = rng.standard_normal((3, 4))
    xs = rng.standard_normal((5, 4))

    def loss(w, xs):
        return loom.sum(loom.vmap(lambda x: loom.tanh(w @ x))(xs) ** 2)
    g = loom.grad(loss)(loom.asarray(w, device=device), loom.asarray(xs, device=device))
    t = np.tanh(xs @ w.T)  # d/dw sum(tanh(x.w)^2) = sum_x 2 t (1 - t^2) x^T
    np.testing.assert_allclose(g.numpy(), (2 * t * (1 - t ** 2)).T @ xs, rtol=1e-10)


def test_nested_vmap_closes_over_the_outer_example(device, rng):
    xs, ys = rng.standard_normal(4), rng.standard_normal(6)
    got = loom.vmap(lambda x: loom.vmap(lambda y: x * y + x)(loom.asarray(ys, device=device)))(
        loom.asarray(xs, device=device))
    np.testing.assert_allclose(got.numpy(), np.outer(xs, ys) + xs[:, None], rtol=1e-12)


def test_writing_a_closed_over_array_in_place_is_refused(device, rng):
    def f(acc, xs):
        def body(x):
            acc[...] = x  # every example would write the one array
            return x
        return loom.vmap(body)(xs)
    with pytest.raises(ValueError, match=r"\[vmap\].*outside it in place"):
        loom.jit(f)(loom.zeros(3, device=device), loom.asarray(rng.standard_normal((4, 3)), device=device))
