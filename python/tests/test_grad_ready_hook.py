"""value_and_grad_with_hook: each gradient handed over once, as soon as it is final, as the
very array returned, and writable without touching any other gradient."""
import numpy as np
import pytest

import loom
from loom import nn
from loom.transforms._grad import value_and_grad, value_and_grad_with_hook


def mlp_loss(p, x):
    h = loom.maximum(x @ p["w1"] + p["b1"], 0.0)
    shared = h @ p["w2"] + p["b2"]
    # p["s"] and p["t"] meet in one add, whose rule passes one cotangent to both.
    return loom.sum((shared + p["s"] + p["t"]) ** 2)


def params(rng):
    f = lambda *s: loom.asarray(rng.standard_normal(s))  # noqa: E731
    return {"w1": f(5, 4), "b1": f(4), "w2": f(4, 3), "b2": f(3), "s": f(6, 3), "t": f(6, 3)}


def test_every_gradient_is_handed_once():
    rng = np.random.default_rng()
    p, x = params(rng), loom.asarray(rng.standard_normal((6, 5)))
    seen = []
    value, g = value_and_grad_with_hook(mlp_loss, lambda i, ct: seen.append((i, ct)))(p, x)
    names = sorted(p)
    assert sorted(i for i, _ in seen) == list(range(len(names)))
    for i, ct in seen:
        np.testing.assert_array_equal(ct.numpy(), g[names[i]].numpy())
    # The first layer's parameters are read first, so they are final last.
    order = [names[i] for i, _ in seen]
    assert order.index("w1") > order.index("w2") and order.index("b1") > order.index("b2")
    plain_value, plain = value_and_grad(mlp_loss)(p, x)
    np.testing.assert_allclose(value.numpy(), plain_value.numpy())
    for n in names:
        np.testing.assert_allclose(g[n].numpy(), plain[n].numpy(), rtol=1e-12, err_msg=n)


def test_the_handed_gradient_is_the_returned_one_and_writing_it_changes_no_other():
    rng = np.random.default_rng()
    p, x = params(rng), loom.asarray(rng.standard_normal((6, 5)))
    plain = value_and_grad(mlp_loss)(p, x)[1]
    names = sorted(p)

    def scale(i, ct):  # in place, during the backward pass
        loom.copyto(ct, ct * 10.0)
    g = value_and_grad_with_hook(mlp_loss, scale)(p, x)[1]
    for n in names:
        np.testing.assert_allclose(g[n].numpy(), 10 * plain[n].numpy(), rtol=1e-12, err_msg=n)


def test_nn_hook_names_parameters():
    net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
    x = loom.asarray(np.random.default_rng().standard_normal((3, 4)).astype("float32"))
    seen = {}
    loss = lambda m, xb: loom.sum(m(xb) ** 2)  # noqa: E731
    _, g = nn.module.value_and_grad_with_hook(net, loss, lambda n, ct: seen.setdefault(n, ct))(net, x)
    assert set(seen) == set(g) == {n for n, _ in net.named_parameters()}
    for n in g:
        np.testing.assert_array_equal(seen[n].numpy(), g[n].numpy())


def test_an_error_in_the_hook_reaches_the_caller():
    p = params(np.random.default_rng())

    def boom(i, ct):
        raise RuntimeError("hook failed")
    with pytest.raises(RuntimeError, match="hook failed"):
        value_and_grad_with_hook(mlp_loss, boom)(p, loom.ones((6, 5)))
