"""JAX-style function transforms over the C++ core (loom/transforms/, docs/TRANSFORMS.md).

This module only turns Python calling conventions into the core's: pytrees of arguments and
results are flattened to lists of arrays (loom.tree_util), static arguments and non-array
leaves become part of the cache key, and NumPy arrays become loom arrays. Tracing,
compiling, caching and running are the core's.

    selu_jit = loom.jit(selu)                # traced once per signature, then one fused kernel
    f = loom.jit(g, static_argnums=(1,))     # g(x, n): n decides shapes, so it is static
"""
import functools
import inspect
import numbers

import numpy as np

from .. import _loom
from .tree_util import tree_flatten, tree_unflatten

__all__ = ["jit"]

_ndarray = _loom.ndarray


def _as_tuple(v, what):
    if v is None:
        return ()
    if isinstance(v, (int, str)):
        return (v,)
    try:
        return tuple(v)
    except TypeError:
        raise TypeError(f"[jit] {what} must be an int, a str or a sequence of them, not {type(v).__name__}") from None


def _is_dynamic_leaf(x):
    return isinstance(x, (_ndarray, np.ndarray))


def _static_leaf(x):
    """A leaf that is not an array is part of the cache key: it must be hashable."""
    try:
        hash(x)
    except TypeError:
        raise TypeError(f"[jit] an argument leaf of type {type(x).__name__} is neither an array nor hashable; "
                        "pass arrays, Python scalars or hashable values") from None
    # 1 and 1.0 and True hash alike but trace differently (weak int, float, bool).
    return (type(x), x)


def _result_leaf(x, who="jit"):
    """A result leaf of a transformed function as a loom array (the transforms share it)."""
    if isinstance(x, _ndarray):
        return x
    if isinstance(x, (np.ndarray, numbers.Number, np.generic)):
        return _loom.asarray(x)
    raise TypeError(f"[{who}] the function returned a {type(x).__name__} leaf; results must be arrays or scalars")


class _Specialization:
    """One static configuration (input tree structure, static arguments and leaves): a
    core _Jit, whose plans are the array signatures, and the result structure of each plan."""

    def __init__(self, fn, in_tree, static_leaves, dynamic_pos):
        self.out_trees = {}
        self.single = {}  # plan -> True when the result is one array (no unflatten needed)

        def trace(leaves):
            flat = list(static_leaves)
            for pos, leaf in zip(dynamic_pos, leaves):
                flat[pos] = leaf
            args, kwargs = tree_unflatten(in_tree, flat)
            out = fn(*args, **kwargs)
            out_leaves, out_tree = tree_flatten(out)
            # The plan this trace becomes is numbered by the traces before it.
            plan = self.cpp.num_traces
            self.out_trees[plan] = out_tree
            self.single[plan] = type(out) is _ndarray
            return [_result_leaf(x) for x in out_leaves]

        self.cpp = _loom._Jit(trace)
        self.run = self.cpp.__call__

    def __call__(self, leaves):
        outs, plan = self.run(leaves)
        if self.single[plan]:
            return outs[0]
        return tree_unflatten(self.out_trees[plan], outs)


class JitFunction:
    """The result of loom.jit(fn): call it like fn."""

    def __init__(self, fn, static_argnums=(), static_argnames=(), donate_argnums=()):
        if not callable(fn):
            raise TypeError(f"[jit] expected a function, not {type(fn).__name__}")
        functools.update_wrapper(self, fn)
        self._fn = fn
        self._static_argnums = tuple(int(i) for i in _as_tuple(static_argnums, "static_argnums"))
        self._static_argnames = tuple(str(n) for n in _as_tuple(static_argnames, "static_argnames"))
        # Donation lets the core reuse an argument's buffer for a result; not doing so is always
        # correct (JAX ignores it where it cannot), so it is checked and accepted.
        self._donate_argnums = tuple(int(i) for i in _as_tuple(donate_argnums, "donate_argnums"))
        try:
            self._signature = inspect.signature(fn)
        except (TypeError, ValueError):
            self._signature = None
        self._names_to_pos()
        self._specs = {}
        self._fast = {}  # argument count -> specialization for positional arrays only

    def _names_to_pos(self):
        """static_argnames name positional parameters too, and static_argnums name keywords."""
        if self._signature is None:
            return
        params = list(self._signature.parameters.values())
        nums, names = set(self._static_argnums), set(self._static_argnames)
        for i, p in enumerate(params):
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
                if p.name in names:
                    nums.add(i)
                if i in nums and p.kind == p.POSITIONAL_OR_KEYWORD:
                    names.add(p.name)
        self._static_argnums, self._static_argnames = tuple(sorted(nums)), tuple(sorted(names))

    def __get__(self, obj, objtype=None):  # a jitted method binds like a function
        return self if obj is None else functools.partial(self, obj)

    def _specialization(self, key, make):
        spec = self._specs.get(key)
        if spec is None:
            spec = self._specs[key] = make()
        return spec

    def __call__(self, *args, **kwargs):
        if not kwargs:
            # The common case, kept short: positional loom arrays, no static arguments.
            spec = self._fast.get(len(args))
            if spec is not None:
                for a in args:
                    if type(a) is not _ndarray:
                        break
                else:
                    outs, plan = spec.run(args)
                    return outs[0] if spec.single[plan] else tree_unflatten(spec.out_trees[plan], outs)
            elif not self._static_argnums and all(type(a) is _ndarray for a in args):
                nargs = len(args)
                in_tree = tree_flatten((args, {}))[1]
                spec = self._fast[nargs] = _Specialization(self._fn, in_tree, [None] * nargs, range(nargs))
                return spec(args)
        nargs = len(args)
        statics = {}
        for i in self._static_argnums:
            if i < -nargs or i >= nargs:
                continue  # a default value decides it, as in JAX
            statics[i % nargs] = args[i]
        dyn_args = tuple(None if i in statics else a for i, a in enumerate(args))
        static_kw = {k: v for k, v in kwargs.items() if k in self._static_argnames}
        dyn_kw = {k: v for k, v in kwargs.items() if k not in self._static_argnames}
        flat, in_tree = tree_flatten((dyn_args, dyn_kw))
        leaves, dynamic_pos, key_leaves = [], [], []
        for pos, x in enumerate(flat):
            if _is_dynamic_leaf(x):
                leaves.append(x if isinstance(x, _ndarray) else _loom.asarray(x))
                dynamic_pos.append(pos)
                key_leaves.append(None)
            else:
                key_leaves.append(_static_leaf(x))
        static_vals = tuple((i, _static_leaf(v)) for i, v in sorted(statics.items()))
        static_kw_vals = tuple((k, _static_leaf(v)) for k, v in sorted(static_kw.items()))
        key = (in_tree, tuple(key_leaves), static_vals, static_kw_vals)

        def make():
            fn = self._fn
            if statics or static_kw:
                def fn(*a, **kw):
                    full = list(a)
                    for i, v in sorted(statics.items()):
                        full[i] = v
                    return self._fn(*full, **kw, **static_kw)
            static_flat = [x if v is not None else None for x, v in zip(flat, key_leaves)]
            return _Specialization(fn, in_tree, static_flat, dynamic_pos)

        return self._specialization(key, make)(leaves)

    @property
    def _cache_size(self):
        """How many traces this function holds (all specializations): for tests."""
        return sum(s.cpp.num_traces for s in list(self._specs.values()) + list(self._fast.values()))


def jit(fn=None, *, static_argnums=(), static_argnames=(), donate_argnums=()):
    """Compiles `fn` (a function of arrays, or pytrees of them) for each signature of its
    arguments: the shapes, dtypes and devices of array leaves, the values of static
    arguments and of non-array leaves (Python scalars), and the pytree structure. The first
    call traces `fn` into loom's ops; later calls run the compiled plan. A Python `if`,
    bool(), int() or .item() on a traced array raises loom.ConcretizationTypeError: use
    loom.where, or make the value static.

    Usable as @loom.jit or loom.jit(fn, static_argnums=...)."""
    if fn is None:
        return functools.partial(jit, static_argnums=static_argnums, static_argnames=static_argnames,
                                 donate_argnums=donate_argnums)
    return JitFunction(fn, static_argnums, static_argnames, donate_argnums)
