"""Derivatives through loom.lax.while_loop (transforms/loop_transpose.cpp): grad (which JAX
refuses; loom runs the loop again when the derivative runs), jvp and jacfwd (JAX's tangent
loop), against the same loop unrolled in Python on fresh random data, with 0, 1 and many
iterations, under jit and vmap, on every device; JAX's fixed-point example from its custom
derivative page; reverse over reverse refused by name."""
from functools import partial

import numpy as np
import pytest

import loom
from loom import lax


def step(x, w):
    return x * w + loom.sin(x)


def looped(x, w, n):
    """step applied while i < n, n an array: a while_loop, the trip count known at run time."""
    return lax.while_loop(lambda c: c[0] < n, lambda c: (c[0] + 1, step(c[1], w)), (0, x))[1]


def unrolled(x, w, n):
    for _ in range(n):
        x = step(x, w)
    return x


def close(got, want, rtol=1e-9):
    np.testing.assert_allclose(got.to(loom.cpu()).numpy(), want.to(loom.cpu()).numpy(), rtol=rtol, atol=rtol)


@pytest.mark.parametrize("n", [0, 1, 7])
def test_grad_matches_the_unrolled_loop(device, rng, n):
    dev = loom.Device(device)
    x = loom.asarray(rng.uniform(0.5, 1.5, 4), device=dev)
    w = loom.asarray(rng.uniform(0.5, 1.0, 4), device=dev)
    limit = loom.asarray(n, device=dev)
    f = lambda x, w: looped(x, w, limit).sum()  # noqa: E731
    want = loom.grad(lambda x, w: unrolled(x, w, n).sum(), argnums=(0, 1))(x, w)
    for got in (loom.grad(f, argnums=(0, 1))(x, w), loom.jit(loom.grad(f, argnums=(0, 1)))(x, w)):
        for g, r in zip(got, want):
            assert g.dtype == loom.float64 and g.device == dev
            close(g, r)


def test_grad_keeps_float32_and_an_integer_carry(device, rng):
    dev = loom.Device(device)
    x = loom.asarray(rng.uniform(0.5, 1.5, 3).astype(np.float32), device=dev)
    f = lambda x: lax.fori_loop(loom.asarray(0, device=dev), loom.asarray(3, device=dev),  # noqa: E731
                                lambda i, a: a * a + i, x).sum()
    g = loom.grad(f)(x)
    want = loom.grad(lambda x: (((x * x) * (x * x) + 1) ** 2 + 2).sum())(x)  # ((x^2)^2 + 1)^2 + 2 per element
    assert g.dtype == loom.float32
    close(g, want, rtol=1e-5)


def test_grad_through_a_convergence_loop_gives_the_derivative_of_its_limit(device):
    # Newton's iteration for sqrt(a), stopped when it has converged: the iterates' derivatives
    # converge with them (the loop's trip count depends on a's value).
    dev = loom.Device(device)

    def newton_sqrt(a):
        go = lambda c: loom.abs(c[1] - c[0]) > 1e-12  # noqa: E731
        body = lambda c: (c[1], 0.5 * (c[1] + a / c[1]))  # noqa: E731
        return lax.while_loop(go, body, (a, 0.5 * (a + 1.0)))[1]

    for a in (2.0, 7.5):
        av = loom.asarray(a, device=dev)
        np.testing.assert_allclose(float(newton_sqrt(av)), np.sqrt(a), rtol=1e-12)
        np.testing.assert_allclose(float(loom.grad(newton_sqrt)(av)), 0.5 / np.sqrt(a), rtol=1e-9)


def test_jvp_and_jacfwd_are_the_tangent_loop(device, rng):
    dev = loom.Device(device)
    x = loom.asarray(rng.uniform(0.5, 1.5, 3), device=dev)
    w = loom.asarray(rng.uniform(0.5, 1.0, 3), device=dev)
    tx = loom.asarray(rng.standard_normal(3), device=dev)
    tw = loom.asarray(rng.standard_normal(3), device=dev)
    limit = loom.asarray(5, device=dev)
    f = lambda x, w: looped(x, w, limit)  # noqa: E731
    ref = lambda x, w: unrolled(x, w, 5)  # noqa: E731
    out, tan = loom.jvp(f, (x, w), (tx, tw))
    ref_out, ref_tan = loom.jvp(ref, (x, w), (tx, tw))
    close(out, ref_out)
    close(tan, ref_tan)
    close(loom.jit(lambda x, w: loom.jvp(f, (x, w), (tx, tw))[1])(x, w), ref_tan)
    close(loom.jacfwd(f)(x, w), loom.jacfwd(ref)(x, w))  # vmap over the tangents
    close(loom.jit(loom.jacfwd(f, argnums=1))(x, w), loom.jacfwd(ref, argnums=1)(x, w))
    close(loom.vmap(loom.grad(lambda x: f(x, w).sum()))(loom.stack([x, 2 * x])),
          loom.vmap(loom.grad(lambda x: ref(x, w).sum()))(loom.stack([x, 2 * x])))
    # Forward mode twice: a tangent loop inside a tangent loop.
    close(loom.jacfwd(loom.jacfwd(lambda x: f(x, w)))(x), loom.jacfwd(loom.jacfwd(lambda x: ref(x, w)))(x), rtol=1e-8)


def test_reverse_over_reverse_is_refused_by_name(device, rng):
    dev = loom.Device(device)
    x = loom.asarray(rng.uniform(0.5, 1.5, 2), device=dev)
    f = lambda x: looped(x, x, loom.asarray(3, device=dev)).sum()  # noqa: E731
    for second in (loom.hessian(f), loom.grad(lambda x: loom.grad(f)(x).sum())):
        with pytest.raises(NotImplementedError, match=r"while_loop.*jacfwd\(jacfwd"):
            second(x)


# JAX's "Custom derivative rules" page: a fixed point whose custom_vjp runs a while_loop in
# fwd and in bwd. Its second derivative goes through fwd's own derivative, which needs the
# loop's (JAX takes it in forward mode).
@partial(loom.custom_vjp, nondiff_argnums=(0,))
def fixed_point(f, a, x_guess):
    def cond_fun(carry):
        x_prev, x = carry
        return loom.abs(x_prev - x) > 1e-10

    def body_fun(carry):
        _, x = carry
        return x, f(a, x)

    return lax.while_loop(cond_fun, body_fun, (x_guess, f(a, x_guess)))[1]


def fixed_point_fwd(f, a, x_init):
    x_star = fixed_point(f, a, x_init)
    return x_star, (a, x_star)


def rev_iter(f, packed, u):
    a, x_star, x_star_bar = packed
    _, vjp_x = loom.vjp(lambda x: f(a, x), x_star)
    return x_star_bar + vjp_x(u)[0]


def fixed_point_rev(f, res, x_star_bar):
    a, x_star = res
    _, vjp_a = loom.vjp(lambda a: f(a, x_star), a)
    a_bar, = vjp_a(fixed_point(partial(rev_iter, f), (a, x_star, x_star_bar), x_star_bar))
    return a_bar, loom.zeros_like(x_star)


fixed_point.defvjp(fixed_point_fwd, fixed_point_rev)


def test_jax_fixed_point_example_has_its_second_derivative(device, rng):
    a = float(rng.uniform(1.5, 4.0))
    newton = lambda a: fixed_point(lambda a, x: 0.5 * (x + a / x), a, a)  # noqa: E731
    av = loom.asarray(a, device=loom.Device(device))
    np.testing.assert_allclose(float(newton(av)), np.sqrt(a), rtol=1e-12)
    np.testing.assert_allclose(float(loom.grad(newton)(av)), 0.5 * a ** -0.5, rtol=1e-9)
    np.testing.assert_allclose(float(loom.grad(loom.grad(newton))(av)), -0.25 * a ** -1.5, rtol=1e-8)
