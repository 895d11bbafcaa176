"""loom.lax.cond, switch, scan, map, associative_scan (trip counts 0, 1, many; concrete and
under jit, vmap, grad), custom_jvp, custom_vjp, checkpoint and tree_util's additions."""
import numpy as np
import pytest

import loom
from loom import lax, tree_util
from conftest import assert_matches


def _a(rng, shape, device):
    n = rng.standard_normal(shape)
    return n, loom.asarray(n, device=device)


def test_cond_concrete_runs_one_branch(rng, device):
    xn, x = _a(rng, 3, device)
    ran = []

    def t(x):
        ran.append("t")
        return x * 2

    def f(x):
        ran.append("f")
        return x - 1

    assert_matches(lax.cond(True, t, f, x), 2 * xn, device=device)
    assert ran == ["t"]
    assert_matches(lax.cond(loom.asarray(False, device=device), t, f, x), xn - 1, device=device)
    assert ran == ["t", "f"]
    assert_matches(lax.cond(1, t, f, operand=x), 2 * xn, device=device)


def test_cond_traced_jit_vmap_grad(rng, device):
    xn, x = _a(rng, (4, 3), device)

    def g(x):
        return lax.cond(loom.sum(x) > 0, lambda v: loom.sin(v), lambda v: v ** 2, x)

    def g_np(v):
        return np.sin(v) if v.sum() > 0 else v ** 2

    assert_matches(loom.jit(g)(x[0]), g_np(xn[0]), device=device)
    assert_matches(loom.vmap(g)(x), np.stack([g_np(v) for v in xn]), device=device)
    gr = loom.grad(lambda v: loom.sum(g(v)))(x[1])
    assert_matches(gr, np.cos(xn[1]) if xn[1].sum() > 0 else 2 * xn[1], device=device)
    with pytest.raises(TypeError, match="cond"):
        loom.jit(lambda x: lax.cond(x[0] > 0, lambda v: v, lambda v: v[:2], x))(x[0])
    with pytest.raises(TypeError, match="cond"):
        lax.cond(loom.asarray([True, False], device=device), lambda: 1, lambda: 2)


def test_traced_cond_differentiates_only_the_branch_taken(device):
    # The untaken branch's derivative (sqrt at a negative number: NaN) never reaches the
    # gradient: one branch runs, as in JAX (a where over both branches would give NaN).
    f = lambda v: lax.cond(v > 0, loom.sqrt, lambda u: -3.0 * u, v)  # noqa: E731
    for fn in (loom.grad(f), loom.jit(loom.grad(f))):
        assert_matches(fn(loom.asarray(-4.0, device=device)), np.asarray(-3.0), device=device)
        assert_matches(fn(loom.asarray(4.0, device=device)), np.asarray(0.25), device=device)
    g = loom.vmap(loom.grad(f))(loom.asarray([-4.0, 4.0], device=device))
    assert_matches(g, np.asarray([-3.0, 0.25]), device=device)


@pytest.mark.parametrize("index", [-3, 0, 1, 2, 7])
def test_switch_clamps(index, rng, device):
    xn, x = _a(rng, 3, device)
    branches = [lambda v: v + 1, lambda v: v * 3, lambda v: loom.exp(v)]
    refs = [xn + 1, xn * 3, np.exp(xn)]
    want = refs[min(max(index, 0), 2)]
    assert_matches(lax.switch(index, branches, x), want, device=device)
    traced = loom.jit(lambda i, x: lax.switch(i, branches, x))
    assert_matches(traced(loom.asarray(index, device=device), x), want, device=device)


def test_switch_vmap(rng, device):
    xn, x = _a(rng, (4, 3), device)
    idx = loom.asarray([2, 0, 1, 0], device=device)
    got = loom.vmap(lambda i, v: lax.switch(i, [loom.sin, loom.cos, loom.tanh], v))(idx, x)
    want = np.stack([[np.sin, np.cos, np.tanh][i](v) for i, v in zip([2, 0, 1, 0], xn)])
    assert_matches(got, want, device=device)


def _np_scan(xs, c0, reverse=False):
    c, ys = c0, []
    order = range(len(xs) - 1, -1, -1) if reverse else range(len(xs))
    for i in order:
        ys.append(c * xs[i])
        c = c + np.tanh(xs[i])
    if reverse:
        ys.reverse()
    return c, np.array(ys).reshape((len(xs),) + np.shape(c0))


def _step(c, x):
    return c + loom.tanh(x), c * x


@pytest.mark.parametrize("n", [0, 1, 5])
@pytest.mark.parametrize("reverse", [False, True])
def test_scan_eager_and_jit(n, reverse, rng, device):
    xsn, xs = _a(rng, (n, 3), device)
    c0n, c0 = _a(rng, 3, device)
    want_c, want_ys = _np_scan(xsn, c0n, reverse)
    for fn in (lambda c, x: lax.scan(_step, c, x, reverse=reverse),
               loom.jit(lambda c, x: lax.scan(_step, c, x, reverse=reverse))):
        c, ys = fn(c0, xs)
        assert_matches(c, want_c, device=device)
        assert_matches(ys, want_ys, device=device)


def test_scan_vmap_and_grad(rng, device):
    xsn, xs = _a(rng, (2, 6, 3), device)
    c0n, c0 = _a(rng, (2, 3), device)
    c, ys = loom.vmap(lambda c, x: lax.scan(_step, c, x))(c0, xs)
    for b in range(2):
        wc, wy = _np_scan(xsn[b], c0n[b])
        assert_matches(c[b], wc, device=device)
        assert_matches(ys[b], wy, device=device)
    # grad through the scan primitive (its backward pass is a scan the other way).
    g = loom.grad(lambda c: loom.sum(lax.scan(_step, c, xs[0])[1]))(c0[0])
    assert_matches(g, xsn[0].sum(axis=0), device=device)  # d/dc0 of sum_i c_i x_i, c_i = c0 + ...


def _rnn(w, h, xs, reverse=False, python_loop=False):
    """A small recurrent cell over xs, through scan or as a Python loop; w is closed over."""
    def cell(h, x):
        h = loom.tanh(h @ w + x)
        return h, h * 2 + x
    if not python_loop:
        return lax.scan(cell, h, xs, reverse=reverse)
    ys = [None] * xs.shape[0]
    for t in (range(xs.shape[0] - 1, -1, -1) if reverse else range(xs.shape[0])):
        h, ys[t] = cell(h, xs[t])
    return h, loom.stack(ys)


@pytest.mark.parametrize("reverse", [False, True])
def test_scan_grad_reaches_carry_xs_and_closed_over_weights(reverse, rng, device):
    _, w = _a(rng, (3, 3), device)
    _, h = _a(rng, 3, device)
    _, xs = _a(rng, (5, 3), device)

    def loss(w, h, xs, python_loop=False):
        hn, ys = _rnn(w, h, xs, reverse, python_loop)
        return loom.sum(hn * hn) + loom.sum(loom.sin(ys))

    want = loom.grad(lambda *a: loss(*a, python_loop=True), argnums=(0, 1, 2))(w, h, xs)
    for fn in (loom.grad(loss, argnums=(0, 1, 2)), loom.jit(loom.grad(loss, argnums=(0, 1, 2)))):
        for g, e in zip(fn(w, h, xs), want):
            assert_matches(g, np.asarray(e), device=device, rtol=1e-10)
    # Second order: the backward scan is differentiated too.
    g2 = loom.grad(lambda w: loom.sum(loom.grad(loss, argnums=1)(w, h, xs)))(w)
    e2 = loom.grad(lambda w: loom.sum(loom.grad(lambda *a: loss(*a, python_loop=True), argnums=1)(w, h, xs)))(w)
    assert_matches(g2, np.asarray(e2), device=device, rtol=1e-9)


def test_fori_loop_with_integer_bounds_is_differentiable(rng, device):
    xn, x = _a(rng, 4, device)

    def f(x):
        return loom.sum(lax.fori_loop(0, 3, lambda i, v: v * x + i, x))

    # d/dx of v_3, where v_{k+1} = v_k x + k and v_0 = x, by the chain rule.
    v, dv = xn.copy(), np.ones(4)
    for k in range(3):
        dv, v = dv * xn + v, v * xn + k
    assert_matches(loom.grad(f)(x), dv, device=device)
    assert_matches(loom.jit(loom.grad(f))(x), dv, device=device)


def test_scan_pytrees_and_length(rng, device):
    xsn, xs = _a(rng, (4, 2), device)
    (c, k), ys = lax.scan(lambda c, x: ((c[0] + x["a"], c[1] + 1), {"s": x["a"] * 2, "n": None}),
                          (loom.zeros(2, device=device, dtype=loom.float64), 0), {"a": xs})
    assert_matches(c, xsn.sum(axis=0), device=device)
    assert int(k) == 4
    assert_matches(ys["s"], 2 * xsn, device=device)
    c, ys = lax.scan(lambda c, _: (c * 2, c), loom.asarray(1.0, device=device), None, length=4)
    assert_matches(ys, [1.0, 2.0, 4.0, 8.0], device=device)
    with pytest.raises(ValueError, match="scan"):
        lax.scan(_step, xs[0], {"a": xs, "b": xs[:2]})


@pytest.mark.parametrize("n", [0, 1, 7])
def test_map(n, rng, device):
    xsn, xs = _a(rng, (n, 3), device)
    want = np.sin(xsn) * 2
    assert_matches(lax.map(lambda x: loom.sin(x) * 2, xs), want, device=device)
    assert_matches(loom.jit(lambda xs: lax.map(lambda x: loom.sin(x) * 2, xs))(xs), want, device=device)
    if n:
        assert_matches(lax.map(lambda x: loom.sin(x) * 2, xs, batch_size=3), want, device=device)


@pytest.mark.parametrize("n", [1, 2, 7, 16])
@pytest.mark.parametrize("reverse", [False, True])
def test_associative_scan(n, reverse, rng, device):
    xn, x = _a(rng, (n, 2), device)
    want = np.flip(np.cumsum(np.flip(xn, 0), 0), 0) if reverse else np.cumsum(xn, 0)
    assert_matches(lax.associative_scan(loom.add, x, reverse=reverse), want, device=device, rtol=1e-12)
    wmax = np.maximum.accumulate(xn, axis=1)
    assert_matches(lax.associative_scan(loom.maximum, x, axis=1), wmax, device=device)
    # A non-commutative operator on pairs: the affine maps x -> a x + b composed in order.
    an, a = _a(rng, n, device)
    bn, b = _a(rng, n, device)
    A, B = lax.associative_scan(lambda p, q: (q[0] * p[0], q[0] * p[1] + q[1]), (a, b))
    wa, wb, ca, cb = [], [], 1.0, 0.0
    for i in range(n):
        ca, cb = an[i] * ca, an[i] * cb + bn[i]
        wa.append(ca)
        wb.append(cb)
    assert_matches(A, wa, device=device, rtol=1e-12)
    assert_matches(B, wb, device=device, rtol=1e-12)
    assert_matches(loom.jit(lambda x: lax.associative_scan(loom.add, x))(x), np.cumsum(xn, 0), device=device,
                   rtol=1e-12)


@loom.custom_jvp
def softplus(x):
    return loom.log1p(loom.exp(x))


@softplus.defjvp
def _softplus_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return softplus(x), t * lax.logistic(x)


def test_custom_jvp(rng, device):
    xn, x = _a(rng, 5, device)
    s = 1 / (1 + np.exp(-xn))
    assert_matches(softplus(x), np.log1p(np.exp(xn)), device=device)
    assert_matches(loom.grad(lambda x: loom.sum(softplus(x)))(x), s, device=device)
    assert_matches(loom.jacfwd(softplus)(x), np.diag(s), device=device)
    assert_matches(loom.hessian(lambda x: loom.sum(softplus(x)))(x), np.diag(s * (1 - s)), device=device)
    assert_matches(loom.vmap(loom.grad(softplus))(x), s, device=device)
    assert_matches(loom.jit(softplus)(x), np.log1p(np.exp(xn)), device=device)


def test_custom_jvp_rule_is_used_and_nondiff(device):
    # The rule replaces autodiff: a rule that says the derivative is 10 gives 10.
    f = loom.custom_jvp(lambda n, x: x ** n, nondiff_argnums=(0,))
    f.defjvp(lambda n, p, t: (p[0] ** n, t[0] * 10.0))
    x = loom.asarray([1.0, 2.0], device=device)
    assert_matches(loom.grad(lambda x: loom.sum(f(3, x)))(x), [10.0, 10.0], device=device)
    with pytest.raises(AttributeError, match="custom_jvp"):
        loom.grad(lambda x: loom.sum(loom.custom_jvp(loom.sin)(x)))(x)


def test_custom_vjp(rng, device):
    xn, x = _a(rng, 4, device)
    yn, y = _a(rng, 4, device)

    @loom.custom_vjp
    def f(x, y):
        return loom.sin(x) * y

    def fwd(x, y):
        return f(x, y), (loom.cos(x), loom.sin(x), y)

    def bwd(res, g):
        c, s, y = res
        return c * g * y, s * g

    f.defvjp(fwd, bwd)
    gx, gy = loom.grad(lambda x, y: loom.sum(f(x, y)), argnums=(0, 1))(x, y)
    assert_matches(gx, np.cos(xn) * yn, device=device)
    assert_matches(gy, np.sin(xn), device=device)
    assert_matches(loom.hessian(lambda x: loom.sum(f(x, y)))(x), np.diag(-np.sin(xn) * yn), device=device)
    assert_matches(loom.jit(loom.grad(lambda x: loom.sum(f(x, y))))(x), np.cos(xn) * yn, device=device)
    # A bwd that rescales: the derivative is bwd's, not autodiff's.
    h = loom.custom_vjp(lambda x: x * 1.0)
    h.defvjp(lambda x: (x * 1.0, None), lambda res, g: (g * 3.0,))
    assert_matches(loom.grad(lambda x: loom.sum(h(x)))(x), np.full(4, 3.0), device=device)


def test_custom_vjp_bwd_need_not_be_linear(rng, device):
    # JAX's gradient clipping example: bwd clips the cotangent; the derivative is bwd's.
    clip_gradient = loom.custom_vjp(lambda lo, hi, x: x, nondiff_argnums=(0, 1))
    clip_gradient.defvjp(lambda lo, hi, x: (x, None), lambda lo, hi, _, g: (loom.clip(g, lo, hi),))
    xn, x = _a(rng, 5, device)
    g = loom.grad(lambda x: loom.sum(3.0 * clip_gradient(-0.75, 0.75, loom.sin(x))))(x)
    assert_matches(g, np.clip(3.0, -0.75, 0.75) * np.cos(xn), device=device)
    gj = loom.jit(loom.grad(lambda x: loom.sum(3.0 * clip_gradient(-0.75, 0.75, loom.sin(x)))))(x)
    assert_matches(gj, 0.75 * np.cos(xn), device=device)
    # Second order goes through bwd's ops and fwd's residuals: f = sin with residual cos.
    f = loom.custom_vjp(loom.sin)
    f.defvjp(lambda x: (loom.sin(x), loom.cos(x)), lambda c, g: (c * g,))
    h = loom.grad(lambda x: loom.sum(loom.grad(lambda x: loom.sum(f(x)))(x)))(x)
    assert_matches(h, -np.sin(xn), device=device)
    v = loom.vmap(loom.grad(lambda x: f(x)))(x)
    assert_matches(v, np.cos(xn), device=device)


def test_checkpoint_is_transparent(rng, device):
    xn, x = _a(rng, 3, device)
    f = loom.checkpoint(lambda x: loom.sin(x) ** 2, policy=loom.checkpoint_policies.dots_saveable)
    assert_matches(loom.grad(lambda x: loom.sum(f(x)))(x), 2 * np.sin(xn) * np.cos(xn), device=device)
    assert loom.remat is loom.checkpoint


def test_checkpoint_pytrees_static_arguments_and_transforms(rng, device):
    wn, w = _a(rng, (3, 2), device)
    xn, x = _a(rng, (4, 3), device)

    def block(params, x, scale):
        h = loom.tanh(x @ params["w"]) * scale
        return {"h": h, "n": 2}

    rb = loom.checkpoint(block, static_argnums=(2,))
    out = rb({"w": w}, x, 3.0)
    assert out["n"] == 2
    assert_matches(out["h"], np.tanh(xn @ wn) * 3.0, device=device)

    def loss(w, f):
        return loom.sum(f({"w": w}, x, 3.0)["h"] ** 2)

    want = 2 * 9.0 * xn.T @ (np.tanh(xn @ wn) * (1 - np.tanh(xn @ wn) ** 2))
    for g in (loom.grad(lambda w: loss(w, rb)), loom.jit(loom.grad(lambda w: loss(w, rb)))):
        assert_matches(g(w), want, device=device)
    # vmap through it, and a second derivative equal to the plain function's.
    v = loom.vmap(lambda xi: rb({"w": w}, xi, 1.0)["h"])(x)
    assert_matches(v, np.tanh(xn @ wn), device=device)
    h2 = loom.grad(lambda w: loom.sum(loom.grad(lambda w: loss(w, rb))(w)))(w)
    e2 = loom.grad(lambda w: loom.sum(loom.grad(lambda w: loss(w, block))(w)))(w)
    assert_matches(h2, np.asarray(e2), device=device)


def test_tree_util_additions(rng, device):
    xn, x = _a(rng, 3, device)
    p = tree_util.Partial(lambda a, x: a * x, x)
    assert_matches(loom.jit(lambda p, y: p(y))(p, x), xn * xn, device=device)
    pairs, tree = tree_util.tree_flatten_with_path({"b": [x, (1, 2)], "a": 3})
    assert [tree_util.keystr(k) for k, _ in pairs] == ["['a']", "['b'][0]", "['b'][1][0]", "['b'][1][1]"]
    assert tree.num_leaves == 4
    doubled = tree_util.tree_map_with_path(lambda k, v: (tree_util.keystr(k), v * 2), {"a": 1, "b": [2]})
    assert doubled == {"a": ("['a']", 2), "b": [("['b'][0]", 4)]}
    assert tree_util.tree_reduce(lambda a, b: a + b, [1, (2, 3)]) == 6
    assert tree_util.tree_all([True, (1, 2)]) and not tree_util.tree_all([True, 0])
    summed = loom.tree_map(lambda a, b, c: a + b + c, {"u": 1, "v": (2,)}, {"u": 10, "v": (20,)}, {"u": 100, "v": (200,)})
    assert summed == {"u": 111, "v": (222,)}
