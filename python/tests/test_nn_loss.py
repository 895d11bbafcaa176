"""The fused softmax cross-entropy op (loom._loom.softmax_cross_entropy, under
nn.losses.cross_entropy): values against a float64 reference with more classes than a
warp has lanes, NaN for labels out of range, a second derivative through its gradient
against central differences, and the errors. On cpu() and each GPU (test_nn_losses.py
covers the loss through nn.losses)."""
import numpy as np
import pytest

import loom
from conftest import central_differences as num_grad
from loom.nn import losses


def test_fused_cross_entropy_second_derivative(device, rng):
    """d/dx |d loss/dx|^2 and the derivative through the fused gradient's cotangent, against
    central differences of the float64 reference: the fused op's rules nest."""
    x = rng.standard_normal((5, 7))
    y = np.array([0, 6, 3, 3, 1])
    yl = loom.asarray(y, device=device)

    def grad_x(v):
        return loom.grad(lambda u: losses.cross_entropy(u, yl, reduction="sum"))(v)
    hv = loom.grad(lambda v: loom.sum(grad_x(v) ** 2))(loom.asarray(x, device=device)).numpy()

    def ref(v):
        p = np.exp(v - v.max(1, keepdims=True))
        p /= p.sum(1, keepdims=True)
        g = p.copy()
        g[np.arange(5), y] -= 1
        return float(np.sum(g ** 2))
    np.testing.assert_allclose(hv, num_grad(ref, x, h=1e-6), rtol=1e-5, atol=1e-7)


def test_fused_cross_entropy_op(device, rng):
    x = rng.standard_normal((4, 40))  # more classes than a warp's lanes
    y = np.array([3, 39, 0, 17])
    got = loom._loom.softmax_cross_entropy(loom.asarray(x, device=device), loom.asarray(y.astype(np.int32), device=device))
    m = x.max(1)
    want = m + np.log(np.exp(x - m[:, None]).sum(1)) - x[np.arange(4), y]
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12)
    bad = loom._loom.softmax_cross_entropy(loom.asarray(x, device=device), loom.asarray([0, 40, -1, 2], device=device))
    assert np.isnan(bad.numpy()[1:3]).all() and np.isfinite(bad.numpy()[[0, 3]]).all()
    with pytest.raises(TypeError, match=r"\[softmax_cross_entropy\] needs float32 or float64"):
        loom._loom.softmax_cross_entropy(loom.asarray(x, device=device).astype(loom.float16), loom.asarray(y, device=device))
    with pytest.raises(TypeError, match=r"\[softmax_cross_entropy\] labels must be integers"):
        loom._loom.softmax_cross_entropy(loom.asarray(x, device=device), loom.asarray(y * 1.0, device=device))
    with pytest.raises(ValueError, match=r"\[softmax_cross_entropy\] labels must have shape \(4,\)"):
        loom._loom.softmax_cross_entropy(loom.asarray(x, device=device), loom.asarray(y[:3], device=device))
