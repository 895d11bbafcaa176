"""loom.lax: JAX's lax. The loops here run on the C++ core's (loom/transforms/control_flow.h);
cond, switch, scan and map flatten their pytrees for the core's primitives, associative_scan
is loom's ops (_lax_control.py), the array functions compositions of loom's ops (_lax_ops.py: select,
dynamic_slice, dot_general, ...; _lax_conv.py: reduce_window, conv_general_dilated).

A loop written with these is one op of a traced function (the primitive `while_loop`), not
Python control flow unrolled into the trace: under `loom.jit` a loop whose trip count
depends on the data compiles once, and `loom.vmap` batches it (each example stops where its
own predicate fails). docs/TRANSFORMS.md, "Control flow", has the design.

    i, total = loom.lax.while_loop(lambda c: c[0] < n, lambda c: (c[0] + 1, c[1] * 2), (0, x))
    total = loom.lax.fori_loop(0, 10, lambda i, acc: acc + w * i, loom.zeros(3))

This module flattens the carry's pytree for the core and checks what the functions return.
Python scalars in the carry become 0-d arrays on the device of the carry's first array.
Where the body returns a leaf of another dtype that NumPy's "same_kind" casting reaches
(float64 from `x + i` with a float32 `x`, because NumPy promotes where JAX's weak types
would not), it is cast back to the carry's dtype, as JAX's result would have been.

grad goes through every loop here. A while_loop (and fori_loop with array bounds) is
differentiated in reverse mode by running it again when the derivative runs, keeping each
iteration's carry (JAX refuses reverse mode there); jvp, jacfwd and linearize run the tangent
loop as JAX does. Not yet: reverse over reverse through a while_loop (hessian, which is
jacfwd(jacrev); jacfwd(jacfwd(f)) works).
"""
import numbers

import numpy as np

from .. import _loom
from .tree_util import tree_flatten, tree_unflatten

from . import _lax_control, _lax_conv, _lax_ops
from ._lax_control import associative_scan, cond, map, scan, switch  # noqa: F401
from ._lax_control import _carry_arrays, _returned
from ._lax_conv import *  # noqa: F401, F403
from ._lax_ops import *  # noqa: F401, F403

__all__ = ["while_loop", "fori_loop"] + _lax_control.__all__ + _lax_conv.__all__ + _lax_ops.__all__

_ndarray = _loom.ndarray


def while_loop(cond_fun, body_fun, init_val):
    """JAX's lax.while_loop: `val = init_val; while cond_fun(val): val = body_fun(val)`.

    `init_val` is a pytree of arrays and numbers; `body_fun` returns a pytree of the same
    structure, shapes and dtypes, and `cond_fun` a bool scalar. The loop runs as one op on the
    carry's device. Under vmap a batched predicate keeps the batch looping until every example
    is done, each keeping the carry it had when its own predicate failed. grad raises: the trip
    count is known only at run time.
    """
    leaves, treedef = tree_flatten(init_val)
    if not leaves:
        raise ValueError("[while_loop] init_val holds no arrays: the carry needs at least one")
    carry = _carry_arrays(leaves, "while_loop")

    def cond(arrays):
        r = cond_fun(tree_unflatten(treedef, arrays))
        if isinstance(r, (bool, np.bool_)):
            r = _loom.asarray(r, device=carry[0].device)
        if not isinstance(r, _ndarray):
            raise TypeError(f"[while_loop] cond_fun must return a bool scalar, got a {type(r).__name__}")
        return [r]

    def body(arrays):
        out_leaves, out_def = tree_flatten(body_fun(tree_unflatten(treedef, arrays)))
        if out_def != treedef:
            raise TypeError(f"[while_loop] body_fun must return the carry's structure {treedef}, got {out_def}")
        return [_returned(x, c, "while_loop", f"body_fun's leaf {i}") for i, (x, c) in enumerate(zip(out_leaves, carry))]

    return tree_unflatten(treedef, _loom._while_loop(cond, body, carry))


def _index(x, what, device):
    if isinstance(x, _ndarray):
        return x
    if isinstance(x, (numbers.Integral, np.integer)) and not isinstance(x, bool):
        return _loom.asarray(x, device=device) if device is not None else _loom.asarray(x)
    raise TypeError(f"[fori_loop] {what} must be an integer or an integer scalar array, got {type(x).__name__}")


def fori_loop(lower, upper, body_fun, init_val):
    """JAX's lax.fori_loop: `for i in range(lower, upper): val = body_fun(i, val)`. With integer
    bounds (a known trip count) a scan, which grad differentiates, as JAX does; with array
    bounds (traced ones too: the trip count may depend on the data) a while_loop over (i, val),
    which grad differentiates too (where JAX refuses: docs/TRANSFORMS.md §7).
    `i` has the bounds' promoted dtype."""
    leaves, treedef = tree_flatten(init_val)
    # Integer bounds are made on the device of the carry's first array, else of an array
    # bound, else the default one (an array made elsewhere could not move inside a trace).
    device = next((x.device for x in list(leaves) + [lower, upper] if isinstance(x, _ndarray)), None)
    lo, hi = _index(lower, "lower", device), _index(upper, "upper", device)
    for b, what in ((lo, "lower"), (hi, "upper")):
        if b.ndim != 0 or b.dtype.kind not in "iu":
            raise TypeError(f"[fori_loop] {what} must be an integer scalar, got {b.dtype}{tuple(b.shape)}")
    t = _loom.result_type(lo.dtype, hi.dtype)
    lo, hi = lo.astype(t), hi.astype(t)
    carry = _carry_arrays(leaves, "fori_loop")

    def step(i, val):
        out_leaves, out_def = tree_flatten(body_fun(i, tree_unflatten(treedef, val)))
        if out_def != treedef:
            raise TypeError(f"[fori_loop] body_fun must return the carry's structure {treedef}, got {out_def}")
        return [_returned(x, c, "fori_loop", f"body_fun's leaf {k}") for k, (x, c) in enumerate(zip(out_leaves, carry))]

    if all(isinstance(b, (numbers.Integral, np.integer)) and not isinstance(b, bool) for b in (lower, upper)):
        trips = int(upper) - int(lower)  # (not max(): lax.max is this module's)
        (_, val), _ = scan(lambda c, _: ((c[0] + 1, step(*c)), None), (lo, carry), None,
                           length=trips if trips > 0 else 0)
    else:
        _, val = while_loop(lambda c: c[0] < hi, lambda c: (c[0] + 1, step(*c)), (lo, carry))
    return tree_unflatten(treedef, val)
