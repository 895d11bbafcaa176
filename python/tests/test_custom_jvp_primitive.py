"""loom.custom_jvp as the core's custom_jvp_call: the rule runs only when a derivative is
taken (not under a plain jit), grad transposes it, second derivatives differentiate it, a
derivative the rule replaces is never formed, and vmap batches it."""
import numpy as np

import loom


def make_counted():
    calls = []

    @loom.custom_jvp
    def f(x):
        return loom.sin(x) * 2.0

    @f.defjvp
    def f_jvp(primals, tangents):
        calls.append(1)
        (x,), (t,) = primals, tangents
        return f(x), 3.0 * loom.cos(x) * t  # deliberately not the true derivative (2 cos x)

    return f, calls


def test_plain_jit_runs_the_function_only(rng):
    f, calls = make_counted()
    x = loom.asarray(rng.uniform(-2, 2, 7))
    np.testing.assert_allclose(loom.jit(f)(x).numpy(), 2 * np.sin(x.numpy()), rtol=1e-13)
    assert calls == []


def test_grad_and_jvp_follow_the_rule(rng):
    f, calls = make_counted()
    xs = rng.uniform(-2, 2, 7)
    x = loom.asarray(xs)
    np.testing.assert_allclose(loom.grad(lambda v: loom.sum(f(v)))(x).numpy(), 3 * np.cos(xs), rtol=1e-13)
    t = loom.asarray(rng.uniform(-1, 1, 7))
    _, tangent = loom.jvp(f, (x,), (t,))
    np.testing.assert_allclose(tangent.numpy(), 3 * np.cos(xs) * t.numpy(), rtol=1e-13)
    assert calls  # the rule ran for the derivatives
    # Second order differentiates the rule's ops: d/dx 3 cos(x) = -3 sin(x).
    g2 = loom.grad(lambda v: loom.sum(loom.grad(lambda w: loom.sum(f(w)))(v)))(x)
    np.testing.assert_allclose(g2.numpy(), -3 * np.sin(xs), rtol=1e-12)


def test_a_replaced_derivative_is_never_formed():
    @loom.custom_jvp
    def f(x):
        return x / (1 + loom.sqrt(x))

    @f.defjvp
    def f_jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        return f(x), (loom.sqrt(x) + 2) / (2 * (loom.sqrt(x) + 1) ** 2) * t

    g = loom.grad(lambda v: loom.sum(f(v)))(loom.asarray([0.0, 1.0]))
    np.testing.assert_allclose(g.numpy(), [1.0, 3 / 8], rtol=1e-14)  # JAX's value at 0, not nan


def test_vmap_of_grad(rng):
    f, _ = make_counted()
    xs = rng.uniform(-2, 2, (3, 4))
    g = loom.vmap(loom.grad(lambda v: loom.sum(f(v))))(loom.asarray(xs))
    np.testing.assert_allclose(g.numpy(), 3 * np.cos(xs), rtol=1e-13)
