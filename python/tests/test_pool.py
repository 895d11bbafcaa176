"""loom.max_pool2d and avg_pool2d (cuDNN on a GPU, loops on a CPU) against NumPy float64
references on fresh random data, their gradients against central differences, NaN and
16-bit inputs, vmap and jit, a second derivative through average pooling, and the errors.
On cpu() and each GPU."""
import numpy as np
import pytest

import loom
from conftest import central_differences

L = loom._loom

def np_pool(x, k, s, p, fill, reduce):
    xp = np.pad(x, ((0, 0), (0, 0), (p[0], p[0]), (p[1], p[1])), constant_values=fill)
    oh = (x.shape[2] + 2 * p[0] - k[0]) // s[0] + 1
    ow = (x.shape[3] + 2 * p[1] - k[1]) // s[1] + 1
    views = [xp[:, :, i:i + s[0] * (oh - 1) + 1:s[0], j:j + s[1] * (ow - 1) + 1:s[1]]
             for i in range(k[0]) for j in range(k[1])]
    return reduce(np.stack(views, -1), axis=-1)


POOLS = [((2, 2), (2, 2), (0, 0)), ((3, 3), (2, 2), (1, 1)), ((3, 2), (1, 2), (1, 0))]


@pytest.mark.parametrize("k,s,p", POOLS, ids=str)
def test_pools_match_numpy_with_gradients(device, rng, k, s, p):
    # Distinct values at least 0.04 apart (a shuffled grid, jittered): central differences
    # with h = 1e-6 never straddle a change of a window's maximum, which made this flaky.
    shape = (2, 3, 7, 6)
    x = (rng.permutation(int(np.prod(shape))).reshape(shape) - 126) * 0.05 + rng.uniform(0, 0.01, shape)
    xl = loom.asarray(x, device=device)
    np.testing.assert_array_equal(L.max_pool2d(xl, k, s, p).numpy(), np_pool(x, k, s, p, -np.inf, np.max))
    # An average of inputs up to 6.3 that nearly cancel has rounding errors near 1e-14 in
    # absolute terms, which relative to the tiny result can exceed 1e-12 (another summation
    # order than NumPy's): judged against the inputs' magnitude too.
    np.testing.assert_allclose(L.avg_pool2d(xl, k, s, p).numpy(), np_pool(x, k, s, p, 0, np.mean), rtol=1e-12,
                               atol=1e-12)
    r = rng.standard_normal(np_pool(x, k, s, p, 0, np.mean).shape)
    for op, fill, red in ((L.max_pool2d, -np.inf, np.max), (L.avg_pool2d, 0, np.mean)):
        g = loom.grad(lambda v: loom.sum(op(v, k, s, p) * loom.asarray(r, device=device)))(xl).numpy()
        want = central_differences(lambda v: float(np.sum(np_pool(v, k, s, p, fill, red) * r)), x)
        np.testing.assert_allclose(g, want, rtol=1e-6, atol=1e-7)


def test_pools_low_precision_nan_and_errors(device, rng):
    x = rng.standard_normal((1, 2, 6, 6)).astype(np.float32)
    x[0, 1, 2, 3] = np.nan
    xl = loom.asarray(x, device=device)
    got = L.max_pool2d(xl, (2, 2), (2, 2)).numpy()
    np.testing.assert_array_equal(np.isnan(got), np.isnan(np_pool(x, (2, 2), (2, 2), (0, 0), -np.inf, np.max)))
    h = L.avg_pool2d(xl.astype(loom.float16), (3, 3), (1, 1), (1, 1))
    assert h.dtype == loom.float16
    want = np_pool(x.astype(np.float16).astype(np.float64), (3, 3), (1, 1), (1, 1), 0, np.mean)
    np.testing.assert_allclose(h.astype(loom.float64).numpy(), want, rtol=2e-3, atol=2e-3)
    with pytest.raises(ValueError, match=r"\[max_pool2d\] padding"):
        L.max_pool2d(xl, (2, 2), (2, 2), (2, 0))
    with pytest.raises(ValueError, match=r"\[avg_pool2d\] stride must be >= 1"):
        L.avg_pool2d(xl, (2, 2), (0, 2))
    with pytest.raises(ValueError, match=r"\[max_pool2d\] the window"):
        L.max_pool2d(xl, (7, 7), (1, 1))
    with pytest.raises(TypeError, match=r"\[max_pool2d\] needs a floating array"):
        L.max_pool2d(xl.astype(loom.int32), (2, 2), (2, 2))


def test_pool_transforms(device, rng):
    xs = loom.asarray(rng.standard_normal((3, 2, 2, 6, 6)), device=device)
    for op in (L.max_pool2d, L.avg_pool2d):
        f = lambda x: op(x, (2, 2), (2, 2), (0, 0))  # noqa: E731,B023
        want = np.stack([f(xs[i]).numpy() for i in range(3)])
        np.testing.assert_array_equal(loom.vmap(f)(xs).numpy(), want)
        np.testing.assert_array_equal(loom.jit(f)(xs[0]).numpy(), want[0])
    # Average pooling is linear: its second derivative is zero, reached through its adjoint.
    x = xs[0]
    hv = loom.grad(lambda v: loom.sum(loom.grad(lambda u: loom.sum(L.avg_pool2d(u, (2, 2), (1, 1)) ** 2))(v) ** 2))(x)
    f = lambda v: float(np.sum(loom.grad(lambda u: loom.sum(L.avg_pool2d(u, (2, 2), (1, 1)) ** 2))(  # noqa: E731
        loom.asarray(v, device=device)).numpy() ** 2))
    np.testing.assert_allclose(hv.numpy(), central_differences(f, x.numpy(), h=1e-5), rtol=1e-5, atol=1e-6)
    # Max pooling's routing has no derivative rule yet: a second derivative says so.
    with pytest.raises(NotImplementedError, match="max_pool2d_grad"):
        loom.grad(lambda v: loom.sum(loom.grad(lambda u: loom.sum(L.max_pool2d(u, (2, 2), (2, 2)) ** 2))(v)))(x)
