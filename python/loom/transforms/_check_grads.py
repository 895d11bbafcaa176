"""loom.check_grads, JAX's jax.test_util.check_grads: a function's derivatives, as loom's jvp
and vjp compute them, against central finite differences along random directions, to the
order asked (each order checks the derivative function of the one below it)."""
import numpy as np

from .. import _loom
from ._grad import jvp, vjp
from .tree_util import tree_flatten, tree_map, tree_unflatten

__all__ = ["check_grads"]

# JAX's default tolerances (jax._src.public_test_util) by dtype, and its step.
_TOL = {"float16": 1e-2, "bfloat16": 1e-2, "float32": 2e-3, "float64": 1e-5, "complex64": 1e-3,
        "complex128": 1e-5}
_EPS = 1e-4


def _arrays(tree):
    return tree_map(lambda x: x if isinstance(x, _loom.ndarray) else _loom.asarray(x), tree)


def _random_like(tree, rng):
    def draw(x):
        shape, dtype = tuple(x.shape), np.dtype(str(x.dtype))
        v = rng.standard_normal(shape)
        if dtype.kind == "c":
            v = v + 1j * rng.standard_normal(shape)
        return _loom.asarray(v.astype(dtype), device=x.device)
    return tree_map(draw, tree)


def _axpy(a, x, y):
    return tree_map(lambda u, v: v + a * u, x, y)


def _vdot(x, y):
    xs, ys = tree_flatten(x)[0], tree_flatten(y)[0]
    return sum(complex(np.vdot(np.asarray(u), np.asarray(v))) for u, v in zip(xs, ys))


def _tol(tree, given):
    if given is not None:
        return given
    leaves = tree_flatten(tree)[0]
    return max((_TOL.get(str(x.dtype), 1e-5) for x in leaves), default=1e-5)


def _close(got, want, atol, rtol, what):
    g, w = tree_flatten(got)[0], tree_flatten(want)[0]
    for a, b in zip(g, w):
        a, b = np.asarray(a), np.asarray(b)
        if not np.allclose(a, b, atol=atol, rtol=rtol):
            raise AssertionError(f"[check_grads] {what}: autodiff gives {a}, finite differences {b} "
                                 f"(atol={atol}, rtol={rtol})")


def _check_jvp(f, args, atol, rtol, eps, rng):
    v = _random_like(args, rng)
    _, t = jvp(f, args, v)
    plus = f(*_axpy(eps, v, args))
    minus = f(*_axpy(-eps, v, args))
    fd = tree_map(lambda p, m: (p - m) / (2 * eps), _arrays(plus), _arrays(minus))
    _close(t, fd, atol, rtol, "JVP")


def _check_vjp(f, args, atol, rtol, eps, rng):
    v = _random_like(args, rng)
    out, pullback = vjp(f, *args)
    u = _random_like(_arrays(out), rng)
    ct = pullback(u)
    plus = f(*_axpy(eps, v, args))
    minus = f(*_axpy(-eps, v, args))
    fd = tree_map(lambda p, m: (p - m) / (2 * eps), _arrays(plus), _arrays(minus))
    # <u, J v> by differences against <J^T u, v> by the pullback.
    lhs, rhs = _vdot(u, fd), _vdot(ct, v)
    if not np.isclose(rhs, lhs, atol=atol, rtol=rtol):
        raise AssertionError(f"[check_grads] VJP: <J^T u, v> = {rhs} but finite differences give "
                             f"<u, J v> = {lhs} (atol={atol}, rtol={rtol})")


def check_grads(f, args, order, modes=("fwd", "rev"), atol=None, rtol=None, eps=None):
    """Checks f's derivatives at args (a tuple of arguments) up to `order` in the given modes
    ("fwd": jvp, "rev": vjp) against finite differences; raises AssertionError on a mismatch.
    Tolerances default to JAX's for the arguments' dtype, eps to JAX's 1e-4 (1e-3 for
    arguments of 32 bits or fewer)."""
    if isinstance(modes, str):
        modes = (modes,)
    for m in modes:
        if m not in ("fwd", "rev"):
            raise ValueError(f"[check_grads] unknown mode {m!r}: use 'fwd' and/or 'rev'")
    args = tuple(_arrays(tuple(args)))
    atol, rtol = _tol(args, atol), _tol(args, rtol)
    if eps is None:  # a 32-bit float's rounding swamps differences over JAX's 1e-4 step
        low = any(str(x.dtype) in ("float16", "bfloat16", "float32", "complex64") for x in tree_flatten(args)[0])
        eps = 1e-3 if low else _EPS
    rng = np.random.default_rng()

    def check(fun, primals, n):
        if "fwd" in modes:
            _check_jvp(fun, primals, atol, rtol, eps, rng)
            if n > 1:
                v = _random_like(primals, rng)
                check(lambda *p: jvp(fun, p, v)[1], primals, n - 1)
        if "rev" in modes:
            _check_vjp(fun, primals, atol, rtol, eps, rng)
            if n > 1:
                u = _random_like(_arrays(fun(*primals)), rng)
                check(lambda *p: vjp(fun, *p)[1](u), primals, n - 1)

    check(f, args, order)
