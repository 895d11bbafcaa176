"""jax.lax's control flow other than while_loop/fori_loop (lax.py): cond, switch, scan, map,
associative_scan, over the core's control-flow primitives (docs/TRANSFORMS.md §7); loom.lax
re-exports them.

- cond / switch: a concrete predicate or index calls the branch it picks; a traced one (inside
  jit, vmap, grad) is the switch primitive (C++: lax::switch_/cond): every branch traced once,
  the one taken runs and is differentiated; under vmap with a batched index every branch
  runs and each example selects its result (JAX's rule).
- scan: the scan primitive (C++: lax::scan), eagerly and under every transform: f is traced
  once, the steps run as one op, grad runs the steps backwards (a second scan) and vmap
  batches it. map is a scan without a carry.
- associative_scan: the odd/even (Blelloch-style) recursion JAX uses, 2 log2(n) rounds of fn.
"""
import numbers

import numpy as np

from .. import _loom
from .tree_util import tree_flatten, tree_map, tree_unflatten

__all__ = ["cond", "switch", "scan", "map", "associative_scan"]

_ndarray = _loom.ndarray


def _carry_arrays(leaves, who):
    """The carry's leaves as loom arrays, Python scalars on the first array's device."""
    device = next((x.device for x in leaves if isinstance(x, _ndarray)), None)
    out = []
    for i, x in enumerate(leaves):
        if isinstance(x, _ndarray):
            out.append(x)
        elif isinstance(x, (np.ndarray, np.generic, numbers.Number)):
            out.append(_loom.asarray(x, device=device) if device is not None else _loom.asarray(x))
        else:
            raise TypeError(f"[{who}] carry leaf {i} is a {type(x).__name__}; the carry holds arrays and numbers")
    return out


def _returned(x, like, who, what):
    """A leaf the body returned, as an array of `like`'s dtype where same_kind casting allows."""
    if not isinstance(x, _ndarray):
        if not isinstance(x, (np.ndarray, np.generic, numbers.Number)):
            raise TypeError(f"[{who}] {what} is a {type(x).__name__}; return arrays or numbers")
        x = _loom.asarray(x, device=like.device)
    if x.dtype != like.dtype and _loom.can_cast(x.dtype, like.dtype, casting="same_kind"):
        x = x.astype(like.dtype)
    return x


def _concrete(x, who, what):
    """x's value as a Python scalar, or None when x is traced."""
    if isinstance(x, (bool, numbers.Number, np.generic)):
        return x
    if isinstance(x, np.ndarray):
        if x.shape != ():
            raise TypeError(f"[{who}] {what} must be a scalar, got shape {x.shape}")
        return x.item()
    if not isinstance(x, _ndarray):
        raise TypeError(f"[{who}] {what} must be a scalar or a scalar array, got {type(x).__name__}")
    if tuple(x.shape) != ():
        raise TypeError(f"[{who}] {what} must be a scalar, got shape {tuple(x.shape)}")
    try:
        return x.item()
    except _loom.ConcretizationTypeError:
        return None


def _leaf_array(x, like):
    if isinstance(x, _ndarray):
        return x
    return _loom.asarray(x, device=like.device) if isinstance(like, _ndarray) else _loom.asarray(x)


def _switch_traced(who, index, branches, operands):
    """The switch primitive over pytree operands and results: every branch is traced once, the
    one the index picks runs (under vmap with a batched index, each example's)."""
    leaves, tree = tree_flatten(tuple(operands))
    device = index.device
    arrays = [x if isinstance(x, _ndarray) else _loom.asarray(x, device=device) for x in leaves]
    out_trees = [None] * len(branches)

    def wrap(k, fn):
        def run(flat):
            out = fn(*tree_unflatten(tree, flat))
            out_leaves, out_tree = tree_flatten(out)
            out_trees[k] = out_tree
            if k and out_tree != out_trees[0]:
                raise TypeError(f"[{who}] branch 0 returns the structure {out_trees[0]} but branch {k} returns {out_tree}")
            like = next((v for v in out_leaves if isinstance(v, _ndarray)), None)
            return [_leaf_array(v, like) if like is not None else _loom.asarray(v, device=device) for v in out_leaves]
        return run

    outs = _loom._switch(index, [wrap(k, f) for k, f in enumerate(branches)], arrays, who == "cond")
    return tree_unflatten(out_trees[0], outs)


def cond(pred, true_fun, false_fun, *operands, operand=None):
    """lax.cond: true_fun(*operands) if pred else false_fun(*operands).

    A concrete pred runs one branch. A traced pred (inside jit, vmap, grad) makes one switch op
    that runs the branch taken (every branch traced; under vmap with a batched pred, both run
    and each example selects); both must return the same structure, shapes and dtypes."""
    if operand is not None:
        if operands:
            raise TypeError("[cond] pass the operands positionally or as operand=, not both")
        operands = (operand,)
    if not (callable(true_fun) and callable(false_fun)):
        raise TypeError("[cond] true_fun and false_fun must be callable")
    p = _concrete(pred, "cond", "pred")
    if p is not None:
        return true_fun(*operands) if p else false_fun(*operands)
    pred = pred if pred.dtype == _loom.bool_ else pred != 0
    return _switch_traced("cond", pred, [false_fun, true_fun], operands)


def switch(index, branches, *operands, operand=None):
    """lax.switch: branches[index](*operands), index clamped to [0, len(branches) - 1].

    A concrete index runs one branch; a traced one makes one switch op (see cond)."""
    if operand is not None:
        if operands:
            raise TypeError("[switch] pass the operands positionally or as operand=, not both")
        operands = (operand,)
    branches = list(branches)
    if not branches or not all(callable(b) for b in branches):
        raise TypeError("[switch] branches must be a non-empty sequence of functions")
    n = len(branches)
    i = _concrete(index, "switch", "index")
    if i is not None:
        if isinstance(i, float) or isinstance(i, bool):
            raise TypeError(f"[switch] index must be an integer, got {i!r}")
        return branches[min(max(int(i), 0), n - 1)](*operands)
    if index.dtype.kind not in "iu":
        raise TypeError(f"[switch] index must be an integer scalar, got {index.dtype}")
    return _switch_traced("switch", index, branches, operands)


def _scan_length(xs_leaves, length):
    n = None
    for x in xs_leaves:
        if x.ndim == 0:
            raise ValueError("[scan] every leaf of xs needs a leading axis to scan over, got a scalar")
        if n is None:
            n = int(x.shape[0])
        elif int(x.shape[0]) != n:
            raise ValueError(f"[scan] the leaves of xs have different leading sizes: {n} and {int(x.shape[0])}")
    if length is not None:
        if n is not None and int(length) != n:
            raise ValueError(f"[scan] length {length} differs from the leading size {n} of xs")
        n = int(length)
    if n is None:
        raise ValueError("[scan] give xs or length: there is nothing to scan over")
    return n


def _step(f, carry, x, carry_tree):
    out = f(carry, x)
    if not (isinstance(out, (tuple, list)) and len(out) == 2):
        raise TypeError(f"[scan] f must return a pair (carry, y), got {type(out).__name__}")
    new_carry, y = out
    if tree_flatten(new_carry)[1] != carry_tree:
        raise TypeError(f"[scan] f must return a carry of the structure {carry_tree}, got "
                        f"{tree_flatten(new_carry)[1]}")
    return new_carry, y


def scan(f, init, xs=None, length=None, reverse=False, unroll=1, _split_transpose=False):
    """lax.scan: carry = init; for each x along xs's leading axis: carry, y = f(carry, x); returns
    (carry, ys) with the ys stacked. reverse scans from the end (ys keep xs's order).

    f is traced once and the steps run as one op (loom's scan primitive), eagerly and under
    jit; grad differentiates it (the backward pass is a scan the other way), vmap batches it.
    `unroll` is accepted for JAX's signature; the loop is not unrolled."""
    if not callable(f):
        raise TypeError(f"[scan] f must be callable, not {type(f).__name__}")
    init_leaves, carry_tree = tree_flatten(init)
    carry = _carry_arrays(init_leaves, "scan")
    xs_leaves, xs_tree = tree_flatten(xs)
    device = next((x.device for x in carry + xs_leaves if isinstance(x, _ndarray)), None)
    xs_leaves = [x if isinstance(x, _ndarray) else
                 (_loom.asarray(x, device=device) if device is not None else _loom.asarray(x)) for x in xs_leaves]
    n = _scan_length(xs_leaves, length)
    nc = len(carry)
    y_tree = []

    def step(arrays):
        new_carry, y = _step(f, tree_unflatten(carry_tree, arrays[:nc]), tree_unflatten(xs_tree, arrays[nc:]),
                             carry_tree)
        y_leaves, tree = tree_flatten(y)
        y_tree[:] = [tree]
        like = arrays[0] if arrays else None
        return ([_returned(v, c, "scan", f"f's carry leaf {i}") for i, (v, c) in enumerate(zip(tree_flatten(new_carry)[0], carry))]
                + [_leaf_array(v, like) for v in y_leaves])

    out, ys = _loom._scan(step, carry, xs_leaves, n, bool(reverse))
    return tree_unflatten(carry_tree, out), tree_unflatten(y_tree[0], ys)


def map(f, xs, batch_size=None):  # noqa: A001 - lax.map
    """lax.map: f applied to each slice of xs (a pytree) along its leading axis, results stacked:
    a scan without a carry. batch_size: vmap f over chunks of that many slices."""
    if batch_size is None:
        return scan(lambda c, x: (c, f(x)), (), xs)[1]
    from ._vmap import vmap

    leaves, tree = tree_flatten(xs)
    n = _scan_length(leaves, None)
    b = int(batch_size)
    full = (n // b) * b
    parts = []
    if full:
        chunks = tree_unflatten(tree, [x[:full].reshape((n // b, b) + tuple(x.shape[1:])) for x in leaves])
        out = scan(lambda c, x: (c, vmap(f)(x)), (), chunks)[1]
        parts.append(tree_map(lambda y: y.reshape((full,) + tuple(y.shape[2:])), out))
    if full < n:
        parts.append(vmap(f)(tree_unflatten(tree, [x[full:] for x in leaves])))
    if len(parts) == 1:
        return parts[0]
    return tree_map(lambda a, c: _loom.concatenate([a, c]), parts[0], parts[1])


def _take(x, axis, s):
    key = [slice(None)] * x.ndim
    key[axis] = s
    return x[tuple(key)]


def _interleave(a, b, axis):
    """a[0], b[0], a[1], b[1], ... along axis (a has as many elements as b, or one more)."""
    na, nb = a.shape[axis], b.shape[axis]
    pairs = _loom.stack([_take(a, axis, slice(0, nb)), b], axis=axis + 1)
    shape = list(a.shape)
    shape[axis] = 2 * nb
    out = pairs.reshape(tuple(shape))
    return out if na == nb else _loom.concatenate([out, _take(a, axis, slice(nb, na))], axis=axis)


def associative_scan(fn, elems, reverse=False, axis=0):
    """lax.associative_scan: the inclusive prefix combination of elems (a pytree of arrays with a
    common size along axis) under the associative fn, by JAX's odd/even recursion: O(log n)
    rounds of fn on strided slices, each a batch of independent combinations."""
    leaves, tree = tree_flatten(elems)
    if not leaves:
        raise ValueError("[associative_scan] elems holds no arrays")
    leaves = [x if isinstance(x, _ndarray) else _loom.asarray(x) for x in leaves]
    ax = axis % leaves[0].ndim
    n = int(leaves[0].shape[ax])
    if any(int(x.shape[ax]) != n for x in leaves):
        raise ValueError(f"[associative_scan] the leaves of elems differ in size along axis {axis}")
    if reverse:
        leaves = [_loom.flip(x, axis=ax) for x in leaves]

    def combine(a, b):
        out_leaves, out_tree = tree_flatten(fn(tree_unflatten(tree, a), tree_unflatten(tree, b)))
        if out_tree != tree:
            raise TypeError(f"[associative_scan] fn must return the structure of elems {tree}, got {out_tree}")
        return out_leaves

    def rec(xs):
        m = int(xs[0].shape[ax])
        if m < 2:
            return xs
        reduced = combine([_take(x, ax, slice(0, -1, 2)) for x in xs], [_take(x, ax, slice(1, None, 2)) for x in xs])
        odd = rec(reduced)
        if m % 2 == 0:
            even = combine([_take(o, ax, slice(0, -1)) for o in odd], [_take(x, ax, slice(2, None, 2)) for x in xs])
        else:
            even = combine(odd, [_take(x, ax, slice(2, None, 2)) for x in xs])
        even = [_loom.concatenate([_take(x, ax, slice(0, 1)), e], axis=ax) for x, e in zip(xs, even)]
        return [_interleave(e, o, ax) for e, o in zip(even, odd)]

    out = rec(leaves)
    if reverse:
        out = [_loom.flip(x, axis=ax) for x in out]
    return tree_unflatten(tree, out)
