"""What JAX's documentation pages needed of loom (tools/jax_docs_suite): check_grads (JAX's
test_util), x.devices(), and custom_jvp/custom_vjp whose rule replaces a derivative the function
itself does not have (sqrt at 0), against NumPy and finite differences."""
import numpy as np
import pytest

import loom


def _x(rng, shape, device, positive=False):
    v = rng.standard_normal(shape)
    return loom.asarray(np.abs(v) + 0.5 if positive else v, device=device)


def test_check_grads_passes_on_loom_derivatives(rng, device):
    x, y = _x(rng, (3,), device), _x(rng, (3,), device, positive=True)
    f = lambda a, b: loom.sum(loom.sin(a) * loom.log(b) + a * b ** 2)  # noqa: E731
    for order in (1, 2):
        for modes in (("fwd", "rev"), "fwd", ("rev",)):
            loom.check_grads(f, (x, y), order=order, modes=modes)
    # Pytree arguments and a non-scalar output.
    loom.check_grads(lambda p: loom.tanh(p["w"]) * p["b"], ({"w": x, "b": y},), order=2)


def test_check_grads_raises_on_a_wrong_derivative(rng, device):
    @loom.custom_jvp
    def f(x):
        return loom.sin(x)

    f.defjvps(lambda t, ans, x: 2.0 * loom.cos(x) * t)  # twice the true derivative
    x = _x(rng, (4,), device)
    with pytest.raises(AssertionError, match="check_grads"):
        loom.check_grads(f, (x,), order=1, modes="fwd")
    with pytest.raises(AssertionError, match="check_grads"):
        loom.check_grads(f, (x,), order=1, modes="rev")
    with pytest.raises(ValueError, match="mode"):
        loom.check_grads(f, (x,), order=1, modes="sideways")


def test_check_grads_float32_tolerance(rng, device):
    x = loom.asarray(rng.standard_normal(5).astype(np.float32), device=device)
    loom.check_grads(lambda a: loom.sum(loom.exp(a) * a), (x,), order=2)


def test_devices_is_the_set_of_the_arrays_device(rng, device):
    x = _x(rng, (2, 3), device)
    assert x.devices() == {device}
    assert loom.jit(lambda a: a * 2)(x).devices() == {x.device}


def _g(x):  # the derivative of x / (1 + sqrt(x)), NumPy
    return (np.sqrt(x) + 2) / (2 * (np.sqrt(x) + 1) ** 2)


def test_custom_jvp_rule_replaces_a_derivative_the_function_lacks(rng, device):
    @loom.custom_jvp
    def f(x):
        return x / (1 + loom.sqrt(x))

    f.defjvps(lambda t, ans, x: ((loom.sqrt(x) + 2) / (2 * (loom.sqrt(x) + 1) ** 2)) * t)
    assert np.isnan(loom.grad(lambda x: x / (1 + loom.sqrt(x)))(loom.asarray(0.0, device=device)).item())
    assert loom.grad(f)(loom.asarray(0.0, device=device)).item() == pytest.approx(1.0)
    x = _x(rng, (5,), device, positive=True)
    xs = np.asarray(x)
    np.testing.assert_allclose(np.asarray(loom.vmap(loom.grad(f))(x)), _g(xs), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(loom.jacrev(lambda v: f(v))(x)), np.diag(_g(xs)), rtol=1e-12)
    # Second derivatives still follow the rule (the rule's derivative), as before.
    h = np.asarray(loom.vmap(loom.grad(loom.grad(f)))(x))
    fd = (_g(xs + 1e-6) - _g(xs - 1e-6)) / 2e-6
    np.testing.assert_allclose(h, fd, rtol=1e-6, atol=1e-8)
