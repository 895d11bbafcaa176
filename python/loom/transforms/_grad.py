"""Automatic differentiation as JAX has it (loom.grad, value_and_grad, vjp, jvp,
stop_gradient), over the C++ core (loom/transforms/autodiff.h).

This module only turns Python calling conventions into the core's: pytrees of arguments and
results are flattened to lists of arrays (loom.tree_util), argnums picks the arguments to
differentiate (the others are constants of the trace), has_aux results travel as extra
outputs without cotangents. Tracing and the derivative rules are the core's, so these
compose with each other and with loom.jit: grad(grad(f)), jit(grad(f)).

    g = loom.grad(loss)(params, x, y)                 # params: a dict of arrays
    value, g = loom.value_and_grad(loss, argnums=(0, 1))(w, b, x)
    y, f_vjp = loom.vjp(f, x); (dx,) = f_vjp(dy)
    y, dy = loom.jvp(f, (x,), (dx,))
"""
import numbers

import numpy as np

from .. import _loom
from .tree_util import tree_flatten, tree_map, tree_unflatten

__all__ = ["grad", "value_and_grad", "vjp", "jvp", "stop_gradient"]

_ndarray = _loom.ndarray
_FLOATS = ("float16", "bfloat16", "float32", "float64")
_COMPLEX = ("complex64", "complex128")


def _as_array(x, who):
    if isinstance(x, _ndarray):
        return x
    if isinstance(x, (np.ndarray, numbers.Number, np.generic)):
        return _loom.asarray(x)
    raise TypeError(f"[{who}] arguments must be arrays or scalars (pytrees of them), not {type(x).__name__}")


def _is_float(a):
    return str(a.dtype) in _FLOATS


def _is_complex(a):
    return str(a.dtype) in _COMPLEX


class _Flat:
    """fun(*args) as a function of the flat list of differentiated leaves (the core's form),
    remembering the result's structure: its leaves first, then the array leaves of aux."""

    def __init__(self, fun, args, argnums, has_aux, who):
        self.fun, self.args, self.argnums, self.has_aux, self.who = fun, list(args), argnums, has_aux, who
        leaves, self.in_tree = tree_flatten(tuple(self.args[i] for i in argnums))
        self.leaves = [_as_array(x, who) for x in leaves]

    def __call__(self, leaves):
        args = list(self.args)
        for i, a in zip(self.argnums, tree_unflatten(self.in_tree, leaves)):
            args[i] = a
        out = self.fun(*args)
        if self.has_aux:
            if not (isinstance(out, (tuple, list)) and len(out) == 2):
                raise TypeError(f"[{self.who}] with has_aux=True the function must return a pair (output, aux), "
                                f"not {type(out).__name__}")
            out, aux = out
        else:
            aux = None
        out_leaves, self.out_tree = tree_flatten(out)
        aux_leaves, self.aux_tree = tree_flatten(aux)
        self.n_out = len(out_leaves)
        flat = [_as_array(x, self.who) for x in out_leaves]
        # Array leaves of aux are results of the trace; other leaves are kept as they are.
        self.aux_static = [None if isinstance(x, _ndarray) else x for x in aux_leaves]
        return flat + [x for x in aux_leaves if isinstance(x, _ndarray)]

    def split(self, outs):
        """(output pytree, aux pytree or None) from the core's outputs."""
        out = tree_unflatten(self.out_tree, outs[:self.n_out])
        if not self.has_aux:
            return out, None
        arrays = iter(outs[self.n_out:])
        aux = [next(arrays) if s is None else s for s in self.aux_static]
        return out, tree_unflatten(self.aux_tree, aux)


def _argnums(argnums, nargs, who):
    single = isinstance(argnums, int)
    nums = (argnums,) if single else tuple(argnums)
    if not nums:
        raise ValueError(f"[{who}] argnums is empty")
    out = []
    for i in nums:
        if not isinstance(i, int) or not -nargs <= i < nargs:
            raise ValueError(f"[{who}] argnums {i!r} is out of range for a call with {nargs} positional arguments")
        out.append(i % nargs)
    return single, tuple(out)


def vjp(fun, *primals, has_aux=False):
    """(fun(*primals), vjp_fn[, aux]): vjp_fn(cotangent), the cotangent a pytree of fun's
    output structure, returns a tuple of the primals' cotangents (J^T ct)."""
    flat = _Flat(fun, primals, tuple(range(len(primals))), has_aux, "vjp")
    outs, pullback = _loom._vjp(flat, flat.leaves)
    out, aux = flat.split(outs)

    def vjp_fn(cotangent):
        ct_leaves, ct_tree = tree_flatten(cotangent)
        if ct_tree != flat.out_tree:
            raise ValueError(f"[vjp] the cotangent's structure {ct_tree} differs from the output's {flat.out_tree}")
        cts = [_as_array(c, "vjp") for c in ct_leaves] + [None] * (len(outs) - flat.n_out)
        return tree_unflatten(flat.in_tree, pullback(cts))

    return (out, vjp_fn, aux) if has_aux else (out, vjp_fn)


def jvp(fun, primals, tangents, has_aux=False):
    """(fun(*primals), J tangents): primals and tangents are tuples (or lists) of pytrees of
    one structure. With has_aux, fun returns (output, aux) and jvp returns
    (output, tangent, aux)."""
    if not isinstance(primals, (tuple, list)) or not isinstance(tangents, (tuple, list)):
        raise TypeError("[jvp] primals and tangents must be tuples or lists of arguments")
    if len(primals) != len(tangents):
        raise ValueError(f"[jvp] got {len(primals)} primals but {len(tangents)} tangents")
    flat = _Flat(fun, primals, tuple(range(len(primals))), has_aux, "jvp")
    t_leaves, t_tree = tree_flatten(tuple(tangents))
    if t_tree != flat.in_tree:
        raise ValueError(f"[jvp] the tangents' structure {t_tree} differs from the primals' {flat.in_tree}")
    outs, t_outs = _loom._jvp(flat, flat.leaves, [_as_array(t, "jvp") for t in t_leaves])
    out, aux = flat.split(outs)
    t_out = tree_unflatten(flat.out_tree, t_outs[:flat.n_out])
    return (out, t_out, aux) if has_aux else (out, t_out)


def value_and_grad(fun, argnums=0, has_aux=False, holomorphic=False):
    """A function returning (fun(*args), the gradient of fun's scalar output with respect to
    the arguments argnums): a pytree like that argument, or a tuple of them when argnums is
    a tuple. With has_aux, fun returns (output, aux) and the value is (output, aux).

    Complex arguments follow JAX: for a real output, the gradient at z = x + iy is
    df/dx - i df/dy; with holomorphic=True (complex arguments, complex output) it is f'(z)."""
    return value_and_grad_with_hook(fun, None, argnums, has_aux, holomorphic)


def value_and_grad_with_hook(fun, ready, argnums=0, has_aux=False, holomorphic=False):
    """value_and_grad, calling ready(i, g) during the backward pass as soon as the gradient g
    of the i-th differentiated leaf (in tree_flatten's order of the argnums arguments) is
    final; g is the array returned for that leaf, and ready may write into it. For
    nn.DistributedDataParallel, which starts averaging a bucket of gradients while the rest
    of the backward pass is still being enqueued. ready=None: plain value_and_grad."""
    if not callable(fun):
        raise TypeError(f"[grad] expected a function, not {type(fun).__name__}")

    def value_and_grad_f(*args, **kwargs):
        single, nums = _argnums(argnums, len(args), "grad")
        f = fun if not kwargs else (lambda *a: fun(*a, **kwargs))
        flat = _Flat(f, args, nums, has_aux, "grad")
        for leaf in flat.leaves:
            if holomorphic and not _is_complex(leaf):
                raise TypeError(f"[grad] holomorphic=True requires complex inputs for the arguments it "
                                f"differentiates (argnums {argnums}), but got {leaf.dtype}")
            if not (_is_float(leaf) or _is_complex(leaf)):
                raise TypeError(f"[grad] requires float or complex inputs for the arguments it differentiates "
                                f"(argnums {argnums}), but got {leaf.dtype}; convert with astype, or leave that "
                                "argument out of argnums")
        outs, pullback = _loom._vjp(flat, flat.leaves)
        if flat.n_out != 1 or flat.out_tree != tree_flatten(outs[0])[1]:
            raise TypeError("[grad] the function must return a scalar array (use has_aux=True to return "
                            "(output, aux)), got a pytree of " + str(flat.n_out) + " leaves")
        y = outs[0]
        if tuple(y.shape) != ():
            raise TypeError(f"[grad] the function's output must be a scalar, got shape {tuple(y.shape)}; "
                            "use vjp for a non-scalar output, or reduce it (sum, mean)")
        if holomorphic and not _is_complex(y):
            raise TypeError(f"[grad] holomorphic=True requires a complex output, got {y.dtype}")
        if not holomorphic and not _is_float(y):
            hint = "; for holomorphic differentiation pass holomorphic=True" if _is_complex(y) else ""
            raise TypeError(f"[grad] the function's output must be a float scalar, got {y.dtype}{hint}")
        seed = [_loom.ones((), dtype=y.dtype, device=y.device)] + [None] * (len(outs) - 1)
        per_arg = tree_unflatten(flat.in_tree, pullback(seed, ready))
        g = per_arg[0] if single else tuple(per_arg)
        value, aux = flat.split(outs)
        return ((value, aux) if has_aux else value), g

    return value_and_grad_f


def grad(fun, argnums=0, has_aux=False, holomorphic=False):
    """The gradient of fun (which returns a float scalar) with respect to argument argnums
    (an int, or a tuple of them for a tuple of gradients). With has_aux, fun returns
    (output, aux) and grad returns (gradient, aux). Complex arguments and holomorphic=True
    as value_and_grad."""
    vg = value_and_grad(fun, argnums, has_aux, holomorphic)

    def grad_f(*args, **kwargs):
        value, g = vg(*args, **kwargs)
        return (g, value[1]) if has_aux else g

    return grad_f


def stop_gradient(x):
    """x (a pytree of arrays), as a constant to grad: no derivative flows through it."""
    return tree_map(lambda a: _loom._stop_gradient(_as_array(a, "stop_gradient")), x)
