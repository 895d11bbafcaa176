"""jacfwd, jacrev, hessian, linearize, jvp/vjp/grad with has_aux, argnums tuples and pytrees,
against finite differences (float64) and analytic results, alone and under jit and vmap."""
import numpy as np
import pytest

import loom
from conftest import assert_matches


def _x(rng, shape, device):
    return loom.asarray(rng.standard_normal(shape), device=device)


def fd_jacobian(f, x, eps=1e-6):
    """Central differences of a NumPy function: shape f(x).shape + x.shape."""
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(f(x))
    jac = np.zeros(y.shape + x.shape)
    for idx in np.ndindex(x.shape):
        d = np.zeros_like(x)
        d[idx] = eps
        jac[(Ellipsis,) + idx] = (np.asarray(f(x + d)) - np.asarray(f(x - d))) / (2 * eps)
    return jac


def assert_fd(got, want, device):
    """Against central differences: their error is absolute (about 1e-10 here), not relative."""
    assert isinstance(got, loom.ndarray) and got.device == device
    assert got.shape == np.shape(want), (got.shape, np.shape(want))
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-6, atol=1e-8)


def f_loom(x):
    return loom.sin(x) * loom.sum(x ** 2) + loom.tanh(x[::-1])


def f_np(x):
    return np.sin(x) * np.sum(x ** 2) + np.tanh(x[::-1])


@pytest.mark.parametrize("jac", [loom.jacfwd, loom.jacrev])
def test_jacobian_matches_finite_differences(jac, rng, device):
    xn = rng.standard_normal(5)
    got = jac(f_loom)(loom.asarray(xn, device=device))
    assert_fd(got, fd_jacobian(f_np, xn), device)


@pytest.mark.parametrize("jac", [loom.jacfwd, loom.jacrev])
def test_jacobian_shapes_matrix_in_matrix_out(jac, rng, device):
    a = rng.standard_normal((3, 4))
    w = loom.asarray(rng.standard_normal((4, 2)), device=device)
    got = jac(lambda a: loom.tanh(a @ w))(loom.asarray(a, device=device))
    assert got.shape == (3, 2, 3, 4)
    wn = np.asarray(w)
    assert_fd(got, fd_jacobian(lambda a: np.tanh(a @ wn), a), device)


@pytest.mark.parametrize("jac", [loom.jacfwd, loom.jacrev])
def test_jacobian_scalar_in_and_out(jac, rng, device):
    x = float(rng.standard_normal())
    got = jac(lambda x: loom.sin(x) * x)(loom.asarray(x, device=device))
    assert_matches(got, np.cos(x) * x + np.sin(x), device=device)


def test_jacobian_identity_and_affine(rng, device):
    # The cotangent reaches the argument unchanged: the core's transpose lost it once.
    x = _x(rng, 4, device)
    for jac in (loom.jacfwd, loom.jacrev):
        assert_matches(jac(lambda x: x)(x), np.eye(4), device=device, exact=True)
        assert_matches(jac(lambda x: x + 1.0)(x), np.eye(4), device=device, exact=True)
        assert_matches(jac(lambda x: x.reshape(2, 2))(x), np.eye(4).reshape(2, 2, 4), device=device, exact=True)
    _, t = loom.jvp(lambda x: x - loom.stop_gradient(x), (x,), (loom.ones_like(x),))
    assert_matches(t, np.ones(4), device=device, exact=True)


@pytest.mark.parametrize("jac", [loom.jacfwd, loom.jacrev])
def test_jacobian_argnums_tuple_and_pytrees(jac, rng, device):
    an, bn = rng.standard_normal(3), rng.standard_normal(2)
    a, b = loom.asarray(an, device=device), loom.asarray(bn, device=device)

    def f(d, c):
        return {"u": d["a"] * c, "v": (loom.sum(d["b"][0] ** 2) * c,)}

    got = jac(f, argnums=(0, 1))({"a": a, "b": (b,)}, loom.asarray(2.0, device=device))
    assert set(got) == {"u", "v"}
    du, dc = got["u"]
    assert_matches(du["a"], 2.0 * np.eye(3), device=device)
    assert_matches(du["b"][0], np.zeros((3, 2)), device=device)
    assert_matches(dc, an, device=device)
    (dv, dvc), = [got["v"][0]]
    assert_matches(dv["b"][0], 2 * 2.0 * bn, device=device)
    assert_matches(dvc, np.sum(bn ** 2), device=device)


@pytest.mark.parametrize("jac", [loom.jacfwd, loom.jacrev])
def test_jacobian_has_aux(jac, rng, device):
    x = _x(rng, 3, device)
    j, aux = jac(lambda x: (x ** 2, {"norm": loom.sum(x)}), has_aux=True)(x)
    assert_matches(j, np.diag(2 * np.asarray(x)), device=device)
    assert_matches(aux["norm"], np.sum(np.asarray(x)), device=device)


@pytest.mark.parametrize("jac", [loom.jacfwd, loom.jacrev])
def test_jacobian_refuses_integers(jac, device):
    with pytest.raises(TypeError, match=jac.__name__):
        jac(lambda x: x * 2)(loom.arange(3, device=device))


def test_hessian_analytic(rng, device):
    an = rng.standard_normal((4, 4))
    a = loom.asarray(an, device=device)
    xn = rng.standard_normal(4)
    # f = x^T A x + sum(x^3): H = A + A^T + diag(6x)
    h = loom.hessian(lambda x: x @ (a @ x) + loom.sum(x ** 3))(loom.asarray(xn, device=device))
    assert_matches(h, an + an.T + np.diag(6 * xn), device=device, rtol=1e-10)


def test_hessian_under_jit_and_vmap(rng, device):
    xs = rng.standard_normal((3, 2))

    def f(x):
        return loom.sum(loom.exp(x) * x[0])

    def h_np(x):
        e = np.exp(x)
        h = np.diag(e * x[0])
        h[0, :] += e
        h[:, 0] += e
        return h

    h = loom.hessian(f)
    assert_matches(loom.jit(h)(loom.asarray(xs[0], device=device)), h_np(xs[0]), device=device, rtol=1e-10)
    assert_matches(loom.vmap(h)(loom.asarray(xs, device=device)), np.stack([h_np(x) for x in xs]),
                   device=device, rtol=1e-10)


def test_compositions_with_jit_and_vmap(rng, device):
    xs = rng.standard_normal((4, 3))
    want = np.stack([fd_jacobian(lambda v: np.tanh(v) * v.sum(), x) for x in xs])

    def f(x):
        return loom.tanh(x) * loom.sum(x)

    x = loom.asarray(xs, device=device)
    for t in (loom.vmap(loom.jacrev(f)), loom.vmap(loom.jacfwd(f)), loom.jit(loom.vmap(loom.jacfwd(f))),
              loom.vmap(loom.jit(loom.jacrev(f)))):
        assert_fd(t(x), want, device)
    assert_fd(loom.jit(loom.jacfwd(f))(x[1]), want[1], device)
    assert_fd(loom.jit(loom.jacrev(f))(x[2]), want[2], device)


def test_jacobian_of_closure_inside_jit(rng, device):
    # The function closes over jit's traced argument: the jacobian must see its values.
    wn, xn = rng.standard_normal((3, 3)), rng.standard_normal(3)
    g = loom.jit(lambda w, x: loom.jacfwd(lambda x: loom.sin(w @ x))(x))
    got = g(loom.asarray(wn, device=device), loom.asarray(xn, device=device))
    assert_matches(got, np.cos(wn @ xn)[:, None] * wn, device=device, rtol=1e-10)
    g = loom.jit(lambda w, x: loom.jacrev(lambda x: loom.sin(w @ x))(x))
    assert_matches(g(loom.asarray(wn, device=device), loom.asarray(xn, device=device)),
                   np.cos(wn @ xn)[:, None] * wn, device=device, rtol=1e-10)


def test_linearize(rng, device):
    xn, tn = rng.standard_normal(5), rng.standard_normal(5)
    out, f_jvp = loom.linearize(f_loom, loom.asarray(xn, device=device))
    assert_matches(out, f_np(xn), device=device, rtol=1e-12)
    assert_fd(f_jvp(loom.asarray(tn, device=device)), fd_jacobian(f_np, xn) @ tn, device)
    assert_fd(f_jvp(loom.asarray(2 * tn, device=device)), 2 * fd_jacobian(f_np, xn) @ tn, device)
    with pytest.raises(TypeError, match="linearize"):
        f_jvp()


def test_jvp_and_vjp_has_aux(rng, device):
    xn, tn = rng.standard_normal(3), rng.standard_normal(3)
    x, t = loom.asarray(xn, device=device), loom.asarray(tn, device=device)
    y, ty, aux = loom.jvp(lambda x: (loom.sin(x), x * 3), (x,), (t,), has_aux=True)
    assert_matches(y, np.sin(xn), device=device)
    assert_matches(ty, np.cos(xn) * tn, device=device)
    assert_matches(aux, 3 * xn, device=device)
    y, pb, aux = loom.vjp(lambda x: (loom.sin(x), {"a": x}), x, has_aux=True)
    assert_matches(pb(t)[0], np.cos(xn) * tn, device=device)
    assert_matches(aux["a"], xn, device=device)


def test_grad_argnums_has_aux_pytrees(rng, device):
    wn, bn, xn = rng.standard_normal((3, 2)), rng.standard_normal(2), rng.standard_normal(3)
    params = {"w": loom.asarray(wn, device=device), "b": [loom.asarray(bn, device=device)]}
    x = loom.asarray(xn, device=device)

    def loss(p, x):
        y = x @ p["w"] + p["b"][0]
        return loom.sum(y ** 2), y

    (value, y), (gp, gx) = loom.value_and_grad(loss, argnums=(0, 1), has_aux=True)(params, x)
    yn = xn @ wn + bn
    assert_matches(value, np.sum(yn ** 2), device=device)
    assert_matches(y, yn, device=device)
    assert_matches(gp["w"], np.outer(xn, 2 * yn), device=device)
    assert_matches(gp["b"][0], 2 * yn, device=device)
    assert_matches(gx, wn @ (2 * yn), device=device)
    g, aux = loom.grad(loss, has_aux=True)(params, x)
    assert set(g) == {"w", "b"} and isinstance(g["b"], list)
    assert_matches(aux, yn, device=device)
