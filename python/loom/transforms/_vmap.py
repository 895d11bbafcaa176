"""loom.vmap: JAX's vmap over the C++ core (loom/transforms/vmap.h, docs/TRANSFORMS.md).

This module only turns Python calling conventions into the core's: in_axes, a prefix of
the arguments' pytree, is broadcast to one axis (or None) per leaf; array leaves (NumPy
arrays become loom arrays) are mapped, other leaves (Python scalars, strings) are passed to
the function as they are and must have in_axes None; results are flattened for the core and
their batch axes placed by out_axes, a prefix of the results' pytree.

    batched = loom.vmap(lambda m, v: m @ v, in_axes=(None, 0))(mat, vectors)   # one GEMM
"""
import functools
import numbers

import numpy as np

from .. import _loom
from . import _jit
from .tree_util import tree_flatten, tree_unflatten

__all__ = ["vmap"]

_ndarray = _loom.ndarray


def _is_array(x):
    return isinstance(x, (_ndarray, np.ndarray))


def _is_axis_leaf(x):
    return x is None or (isinstance(x, numbers.Integral) and not isinstance(x, bool))


def _num_leaves(tree):
    return len(tree_flatten(tree)[0])


def _broadcast_prefix(prefix, tree, what):
    """One entry of `prefix` (a tree of ints and None) per leaf of `tree`."""
    if _is_axis_leaf(prefix):
        return [prefix] * _num_leaves(tree)
    if isinstance(prefix, (tuple, list)):
        if not isinstance(tree, (tuple, list)) or len(tree) != len(prefix):
            raise ValueError(f"[vmap] {what} {prefix!r} is a {type(prefix).__name__} of {len(prefix)} entries, "
                             f"which does not match the structure it maps ({_describe(tree)})")
        return [a for p, t in zip(prefix, tree) for a in _broadcast_prefix(p, t, what)]
    if isinstance(prefix, dict):
        if not isinstance(tree, dict) or set(tree) != set(prefix):
            raise ValueError(f"[vmap] {what} {prefix!r} is a dict whose keys do not match the structure it maps "
                             f"({_describe(tree)})")
        flat_keys = tree_flatten({k: k for k in tree})[0]  # the order tree_flatten visits the keys in
        return [a for k in flat_keys for a in _broadcast_prefix(prefix[k], tree[k], what)]
    raise TypeError(f"[vmap] {what} must be an int, None, or a tuple, list or dict of them, "
                    f"not {type(prefix).__name__}")


def _describe(tree):
    if isinstance(tree, (tuple, list)):
        return f"a {type(tree).__name__} of {len(tree)}"
    if isinstance(tree, dict):
        return f"a dict with keys {sorted(map(str, tree))}"
    return f"a {type(tree).__name__}"


def _result_leaf(x):
    return _jit._result_leaf(x, "vmap")


class VmapFunction:
    """The result of loom.vmap(fun, ...): call it like fun, with batched arguments."""

    def __init__(self, fun, in_axes, out_axes, axis_size):
        if not callable(fun):
            raise TypeError(f"[vmap] expected a function, not {type(fun).__name__}")
        if isinstance(in_axes, list):
            in_axes = tuple(in_axes)  # as JAX: a list at the top is the tuple of positional arguments
        functools.update_wrapper(self, fun)
        self._fun, self._in_axes, self._out_axes = fun, in_axes, out_axes
        self._axis_size = None if axis_size is None else int(axis_size)

    def __call__(self, *args, **kwargs):
        if isinstance(self._in_axes, tuple) and len(self._in_axes) != len(args):
            raise ValueError(f"[vmap] in_axes is a tuple of {len(self._in_axes)} entries but the function got "
                             f"{len(args)} positional arguments")
        axes = _broadcast_prefix(self._in_axes, args, "in_axes") + [0] * _num_leaves(kwargs)  # kwargs map on 0
        flat, in_tree = tree_flatten((args, kwargs))
        arrays, core_axes, positions = [], [], []
        for pos, (leaf, axis) in enumerate(zip(flat, axes)):
            if _is_array(leaf):
                arrays.append(leaf if isinstance(leaf, _ndarray) else _loom.asarray(leaf))
                core_axes.append(axis)
                positions.append(pos)
            elif axis is not None:
                raise ValueError(f"[vmap] in_axes maps a {type(leaf).__name__} argument leaf along axis {axis}; "
                                 "only arrays can be mapped (give it in_axes None)")
        out_tree = []

        def traced(leaves):
            full = list(flat)
            for pos, leaf in zip(positions, leaves):
                full[pos] = leaf
            a, kw = tree_unflatten(in_tree, full)
            out_leaves, tree = tree_flatten(self._fun(*a, **kw))
            out_tree.append(tree)
            return [_result_leaf(x) for x in out_leaves]

        # out_axes is a prefix of the results' tree, which only the trace reveals: the core asks
        # for one axis per result once it has traced (None: the result is not mapped, which the
        # core refuses for a result that depends on the mapped axis, as JAX does).
        def out_axes_of(n):
            results = tree_unflatten(out_tree[-1], list(range(n)))
            return _broadcast_prefix(self._out_axes, results, "out_axes")

        outs = _loom._vmap(traced, core_axes, out_axes_of, self._axis_size, arrays)
        return tree_unflatten(out_tree[-1], outs)


def vmap(fun, in_axes=0, out_axes=0, axis_size=None):
    """Maps `fun` over an axis of its arguments, as jax.vmap: the function is written for one
    example and runs on a batch, each op once for the whole batch (a matrix product becomes
    one batched GEMM). in_axes: an int (every array argument mapped along that axis), None
    (not mapped), or a tuple with one entry per positional argument, each a prefix of that
    argument's pytree (nested tuples, lists, dicts of ints and None); keyword arguments are
    mapped along axis 0. out_axes places the batch axis of each result the same way (None: a
    result that does not depend on the mapped arguments). axis_size gives the batch size when
    no argument is mapped. Composes with loom.jit and with itself."""
    return VmapFunction(fun, in_axes, out_axes, axis_size)
