"""loom.transforms._grad (grad, value_and_grad, vjp, jvp, stop_gradient) on cpu(): each primitive
family's gradient against central finite differences in float64 on fresh random data,
jvp against the vjp transposed, compositions with grad and jit, pytrees, has_aux,
argnums, integer inputs and the errors."""
import numpy as np
import pytest

import loom
from loom.transforms._grad import grad, jvp, stop_gradient, value_and_grad, vjp


def arr(x):
    return loom.asarray(np.asarray(x, dtype=np.float64))


def num_grad(f, args, i, h=1e-6):
    """Central differences of scalar f(*args) in argument i (NumPy float64 arrays)."""
    x = np.array(args[i], dtype=np.float64)
    g = np.zeros_like(x)
    for j in np.ndindex(x.shape):
        lo, hi = x.copy(), x.copy()
        lo[j] -= h
        hi[j] += h
        a_lo, a_hi = list(args), list(args)
        a_lo[i], a_hi[i] = arr(lo), arr(hi)
        g[j] = (float(f(*a_hi).numpy()) - float(f(*a_lo).numpy())) / (2 * h)
    return g


def check(f, *shapes, rng=None, tol=1e-6):
    rng = rng or np.random.default_rng()
    args = [arr(rng.standard_normal(s)) for s in shapes]
    argnums = tuple(range(len(args)))
    got = grad(f, argnums=argnums)(*args)
    for i in argnums:
        want = num_grad(f, args, i)
        np.testing.assert_allclose(got[i].numpy(), want, rtol=tol, atol=tol)


# One case per primitive family (the op table's elementwise rules are tested with theirs).
CASES = {
    "arithmetic": (lambda x, y: loom.sum(loom.exp(x) * (y + 2.0)), [(3, 4), (4,)]),
    "sum_mean": (lambda x: loom.sum(loom.sin(loom.sum(x, axis=1) * loom.mean(x, axis=(0, 1), keepdims=True)[0])),
                 [(3, 4, 5)]),
    "prod": (lambda x: loom.sum(loom.prod(x, axis=0)), [(3, 4)]),
    "min_max": (lambda x: loom.sum(loom.max(x, axis=1) * loom.min(x, axis=0).sum()), [(3, 4)]),
    "var_std": (lambda x: loom.sum(loom.var(x, axis=0)) + loom.sum(loom.std(x, axis=1, ddof=1)), [(3, 4)]),
    "norms": (lambda x: loom.linalg.norm(x) + loom.sum(loom.linalg.norm(x, ord=1, axis=0))
              + loom.sum(loom.linalg.norm(x, ord=np.inf, axis=1)) + loom.sum(loom.linalg.norm(x, ord=3, axis=1)),
              [(3, 4)]),
    "transposed_view": (lambda x: loom.sum(loom.sin(loom.sum(x.T, axis=0))), [(3, 4)]),
    "cumsum": (lambda x: loom.sum(loom.sin(loom.cumsum(x, axis=1))), [(3, 4)]),
    "cumprod": (lambda x: loom.sum(loom.sin(loom.cumprod(x))), [(3, 4)]),
    "matmul": (lambda a, b: loom.sum(loom.sin(a @ b)), [(3, 4), (4, 2)]),
    "batched_matmul": (lambda a, b: loom.sum(loom.sin(loom.matmul(a, b))), [(2, 3, 4), (4, 5)]),
    "einsum": (lambda a, b: loom.sum(loom.sin(loom.einsum("bij,jk->bik", a, b))), [(2, 3, 4), (4, 2)]),
    "getitem": (lambda x: loom.sum(loom.sin(x[np.array([2, 0, 2])] * x[1:, ::-1][:, 0])), [(4, 3)]),
    "at_add": (lambda x, v: loom.sum(loom.sin(x.at[np.array([1, 1, 3])].add(v))), [(5,), (3,)]),
    "at_set": (lambda x, v: loom.sum(loom.sin(x.at[np.array([1, 3])].set(v))), [(5, 2), (2, 2)]),
    "at_multiply": (lambda x, v: loom.sum(loom.sin(x.at[np.array([0, 3])].multiply(v))), [(5,), (2,)]),
    "at_multiply_repeated": (lambda x, v: loom.sum(loom.sin(x.at[np.array([0, 3, 0, 0])].multiply(v))),
                             [(5,), (4,)]),
    "at_min_max": (lambda x, v: loom.sum(loom.sin(x.at[np.array([0, 3])].min(v) + x.at[1:3].max(v))),
                   [(5,), (2,)]),
    "repeat": (lambda x: loom.sum(loom.sin(loom.repeat(x, [1, 3, 2], axis=0))), [(3, 2)]),
    "concatenate_flip": (lambda x: loom.sum(loom.sin(loom.concatenate([x, x[::-1]], axis=0))), [(3, 2)]),
    "sort": (lambda x: loom.sum(loom.sort(x) * loom.arange(4.0)), [(3, 4)]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_grad_matches_finite_differences(name):
    f, shapes = CASES[name]
    check(f, *shapes)


@pytest.mark.parametrize("x", [[0.0, 2.0, 3.0], [0.0, 2.0, 0.0], [[1.5, 0.0, 2.0], [0.0, 0.0, 1.0]],
                               [[-0.5, 3.0, 0.0, 2.0], [0.0, 1.5, -2.0, 0.0]]])
def test_prod_and_cumprod_through_zeros(x):
    # y / x would be inf or NaN where x is 0: the rules take the product of the others.
    rng = np.random.default_rng()
    x = arr(x)
    w = arr(rng.standard_normal(x.shape))
    for f in (lambda v: loom.sum(loom.prod(v, axis=-1) * loom.arange(1.0, 1.0 + v[..., 0].size).reshape(v.shape[:-1])),
              lambda v: loom.sum(loom.cumprod(v, axis=-1) * w)):
        np.testing.assert_allclose(grad(f)(x).numpy(), num_grad(f, [x], 0), rtol=1e-6, atol=1e-8)
        assert np.isfinite(grad(lambda v: loom.sum(grad(f)(v)))(x).numpy()).all()


@pytest.mark.parametrize("v", [[0.0, 2.0, 0.5, -1.5], [0.0, 0.0, 3.0, 1.0], [2.0, 0.0, 0.0, 0.0]])
def test_at_multiply_with_repeated_indices_through_zeros(v):
    # Places written several times: each value's cotangent holds the others' product, also
    # where some of them are 0 (a quotient would be inf or NaN there).
    rng = np.random.default_rng()
    x = arr(rng.standard_normal(5))
    f = lambda x, v: loom.sum(loom.sin(x.at[np.array([1, 1, 1, 3])].multiply(v)))  # noqa: E731
    got = grad(f, argnums=(0, 1))(x, arr(v))
    for i in (0, 1):
        np.testing.assert_allclose(got[i].numpy(), num_grad(f, [x, arr(v)], i), rtol=1e-6, atol=1e-8)


def test_astype():
    # Through float32 finite differences would measure its rounding: compare with cos of
    # the float32 value in float32 (a few ulps: near a zero of cos a relative bound fails).
    x = arr(np.random.default_rng().standard_normal(4))
    g = grad(lambda x: loom.sum(loom.sin(x.astype(loom.float32)).astype(loom.float64)))(x)
    assert g.dtype == x.dtype
    want = np.cos(x.numpy().astype(np.float32)).astype(np.float64)
    np.testing.assert_allclose(g.numpy(), want, rtol=2e-7, atol=2.5e-7)


def test_setitem_into_a_copy():
    def f(x, y):
        c = x.copy()
        c[1:3] = loom.sin(y)
        return loom.sum(c * c)
    check(f, (4, 2), (2, 2))


def test_jvp_is_the_vjp_transposed():
    rng = np.random.default_rng()
    f = lambda a, b: (loom.sin(a @ b), loom.sum(loom.exp(a), axis=1))
    x = (arr(rng.standard_normal((3, 4))), arr(rng.standard_normal((4, 2))))
    t = (arr(rng.standard_normal((3, 4))), arr(rng.standard_normal((4, 2))))
    u = (arr(rng.standard_normal((3, 2))), arr(rng.standard_normal(3)))
    out, jt = jvp(f, x, t)
    out2, f_vjp = vjp(f, *x)
    jtu = f_vjp(u)
    lhs = sum(float(loom.sum(a * b).numpy()) for a, b in zip(jt, u))
    rhs = sum(float(loom.sum(a * b).numpy()) for a, b in zip(t, jtu))
    assert lhs == pytest.approx(rhs, rel=1e-9, abs=1e-9)
    np.testing.assert_array_equal(out[0].numpy(), out2[0].numpy())


def test_grad_of_grad_and_jit_of_grad():
    x = arr(np.random.default_rng().standard_normal(5))
    d2 = grad(lambda x: loom.sum(grad(lambda y: loom.sum(loom.sin(y)))(x)))(x)
    np.testing.assert_allclose(d2.numpy(), -np.sin(x.numpy()), rtol=1e-12, atol=1e-12)
    df = loom.jit(grad(lambda y: loom.sum(loom.sin(y) * y)))
    want = np.cos(x.numpy()) * x.numpy() + np.sin(x.numpy())
    for _ in range(2):
        np.testing.assert_allclose(df(x).numpy(), want, rtol=1e-12)
    assert df._cache_size == 1


def test_pytrees_argnums_and_has_aux():
    rng = np.random.default_rng()
    params = {"w": arr(rng.standard_normal((3, 2))), "b": (arr(rng.standard_normal(2)),)}
    x = arr(rng.standard_normal((4, 3)))

    def loss(p, x):
        y = loom.tanh(x @ p["w"] + p["b"][0])
        return loom.mean(y * y), {"y": y, "n": 4}

    (value, aux), g = value_and_grad(loss, has_aux=True)(params, x)
    assert set(g) == {"w", "b"} and isinstance(g["b"], tuple) and g["w"].shape == (3, 2)
    assert aux["n"] == 4 and aux["y"].shape == (4, 2)
    flat = lambda w, b, x: loss({"w": w, "b": (b,)}, x)[0]
    np.testing.assert_allclose(g["w"].numpy(), num_grad(flat, [params["w"], params["b"][0], x], 0), rtol=1e-6,
                               atol=1e-8)
    gw, gx = grad(lambda p, x: loss(p, x)[0], argnums=(0, 1))(params, x)
    np.testing.assert_allclose(gw["w"].numpy(), g["w"].numpy())
    assert gx.shape == (4, 3)
    g2, aux2 = grad(loss, has_aux=True)(params, x)
    np.testing.assert_allclose(g2["b"][0].numpy(), g["b"][0].numpy())


def test_stop_gradient():
    x = arr([1.0, 2.0, 3.0])
    g = grad(lambda x: loom.sum(x * stop_gradient(x)))(x)
    np.testing.assert_array_equal(g.numpy(), x.numpy())
    np.testing.assert_array_equal(stop_gradient(x).numpy(), x.numpy())


def test_integer_inputs():
    x = arr([1.0, 2.0])
    n = loom.asarray(np.array([3, 4]))
    g = grad(lambda x, n: loom.sum(x * n))(x, n)  # n is not differentiated
    np.testing.assert_array_equal(g.numpy(), [3.0, 4.0])
    with pytest.raises(TypeError, match="float or complex inputs"):
        grad(lambda x, n: loom.sum(x * n), argnums=1)(x, n)
    _, f_vjp = vjp(lambda x, n: loom.sum(x * n), x, n)
    gx, gn = f_vjp(arr(1.0))
    assert gn.dtype == n.dtype and not gn.numpy().any()


def test_errors():
    x = arr([1.0, 2.0])
    with pytest.raises(TypeError, match="must be a scalar, got shape \\(2,\\)"):
        grad(lambda x: loom.sin(x))(x)
    with pytest.raises(TypeError, match="float scalar"):
        grad(lambda x: loom.sum(x > 0))(x)
    with pytest.raises(ValueError, match="argnums"):
        grad(lambda x: loom.sum(x), argnums=3)(x)
    with pytest.raises(TypeError, match="has_aux"):
        grad(lambda x: loom.sum(x), has_aux=True)(x)


def test_cotangents_taken_without_copies_never_alias():
    """The backward pass takes a rule's result as a cotangent without copying it and shares
    a passed-through one (docs/TRANSFORMS.md §6): the gradients it returns must still be
    arrays of their own, and later contributions must not write into a shared one."""
    rng = np.random.default_rng()
    a, b = loom.asarray(rng.standard_normal(5)), loom.asarray(rng.standard_normal(5))
    # add passes one cotangent to both operands: two gradients, two buffers.
    ga, gb = grad(lambda x, y: loom.sum((x + y) * 3.0), argnums=(0, 1))(a, b)
    ga += 1.0
    np.testing.assert_array_equal(gb.numpy(), np.full(5, 3.0))
    np.testing.assert_array_equal(ga.numpy(), np.full(5, 4.0))

    # A shared cotangent that later contributions add to: t = x + y feeds both u and the
    # final sum; y's cotangent is t's, x's gets more from x * x.
    def f(x, y):
        t = x + y
        u = t * 2.0
        return loom.sum(u) + loom.sum(t) + loom.sum(x * x)
    gx, gy = grad(f, argnums=(0, 1))(a, b)
    np.testing.assert_allclose(gx.numpy(), 3.0 + 2 * a.numpy(), rtol=1e-12)
    np.testing.assert_allclose(gy.numpy(), np.full(5, 3.0), rtol=1e-12)

    # A transposed weight (x @ w.T) gets its gradient in its own layout, and a partial
    # write after a pass-through zeroes only its region.
    x, w = loom.asarray(rng.standard_normal((3, 4))), loom.asarray(rng.standard_normal((2, 4)))
    gw = grad(lambda ww: loom.sum((x @ ww.T) ** 2))(w)
    np.testing.assert_allclose(gw.numpy(), 2 * ((x.numpy() @ w.numpy().T).T @ x.numpy()), rtol=1e-12)

    def g(v):
        z = v * 1.0
        z[1:3] = 0.0
        return loom.sum(z * v)
    np.testing.assert_allclose(grad(g)(a).numpy(), np.where(np.isin(np.arange(5), [1, 2]), 0, 2) * a.numpy(),
                               rtol=1e-12)
