"""User-defined derivatives as JAX has them (loom.custom_jvp, custom_vjp) and loom.checkpoint
(remat); docs/TRANSFORMS.md, "User-defined derivatives".

custom_vjp and checkpoint are the core's primitives (custom_vjp_call, remat): custom_vjp's fwd
is traced once per call and the record calls bwd when reverse mode reaches it, so the
derivative is bwd's whatever it computes, to any order.

custom_jvp is the core's custom_jvp_call: the function is traced once per call and runs as
one op; its derivative is the rule's tangent map (linear in the tangents, JAX's contract),
which reverse mode transposes (a vjp of the rule in the tangents) and whose own ops are
differentiated for higher orders. The rule runs only when a derivative is taken; inside jit
without grad only the function runs. Eagerly (no trace) the function itself runs.
"""
import functools
import inspect
import types

from .. import _loom
from ._grad import _is_complex, _is_float
from .tree_util import tree_flatten, tree_map, tree_unflatten

__all__ = ["custom_jvp", "custom_vjp", "checkpoint", "remat", "checkpoint_policies"]

_ndarray = _loom.ndarray


def _positional(fun, args, kwargs, who):
    if not kwargs:
        return tuple(args)
    try:
        bound = inspect.signature(fun).bind(*args, **kwargs)
    except (TypeError, ValueError) as e:
        raise TypeError(f"[{who}] {e}") from None
    bound.apply_defaults()
    if bound.kwargs:
        raise TypeError(f"[{who}] keyword-only arguments {sorted(bound.kwargs)} cannot be differentiated")
    return tuple(bound.args)


def _split(args, nondiff_argnums, who):
    n = len(args)
    nd = tuple(sorted(set(i % n if -n <= i < n else _bad(i, n, who) for i in nondiff_argnums)))
    return nd, [args[i] for i in nd], [i for i in range(n) if i not in nd]


def _bad(i, n, who):
    raise ValueError(f"[{who}] nondiff_argnums {i} is out of range for a call with {n} positional arguments")


def _differentiable(x):
    return isinstance(x, _ndarray) and (_is_float(x) or _is_complex(x))


def _rebuild(args, diff_idx, diff_args):
    full = list(args)
    for i, v in zip(diff_idx, diff_args):
        full[i] = v
    return full


class _CustomDerivative:
    """What custom_jvp and custom_vjp share: the wrapped function, its non-differentiated
    arguments, method binding, and the check at each call."""

    def __init__(self, fun, nondiff_argnums=()):
        functools.update_wrapper(self, fun)
        self.fun, self.nondiff_argnums = fun, tuple(nondiff_argnums)
        self._in_rule = False

    def __get__(self, obj, objtype=None):
        return self if obj is None else functools.partial(self, obj)

    def _checked(self, args, kwargs, kind, rule, missing):
        """(who, positional args); AttributeError naming `missing` when no rule is defined."""
        who = f"{kind} {getattr(self.fun, '__name__', 'function')}"
        if rule is None:
            raise AttributeError(f"[{who}] {missing}")
        return who, _positional(self.fun, args, kwargs, who)

    def _differentiated(self, args, who):
        """(nondiff args, diff indices, diff args, their leaves, tree, positions of the float leaves)."""
        _, nondiff, diff_idx = _split(args, self.nondiff_argnums, who)
        diff_args = [args[i] for i in diff_idx]
        leaves, tree = tree_flatten(tuple(diff_args))
        return nondiff, diff_idx, diff_args, leaves, tree, [k for k, v in enumerate(leaves) if _differentiable(v)]

    def _plain(self):
        """Eagerly, or when a rule calls the function itself, the function runs as it is."""
        return not _loom._is_tracing() or self._in_rule


class custom_jvp(_CustomDerivative):
    """jax.custom_jvp: f = custom_jvp(fun); @f.defjvp def rule(primals, tangents): return
    (primal_out, tangent_out). nondiff_argnums: arguments passed to the rule first, not
    differentiated. Eagerly f runs fun; inside jit, vmap or grad, the rule defines the derivative."""

    def __init__(self, fun, nondiff_argnums=()):
        super().__init__(fun, nondiff_argnums)
        self.jvp = None

    def defjvp(self, jvp, symbolic_zeros=False):
        self.jvp = jvp
        return jvp

    def defjvps(self, *jvps):
        """One rule per differentiated argument: jvp_i(t_i, primal_out, *primals) -> tangent
        contribution (None: no dependence); the tangent is their sum."""
        def rule(primals, tangents):
            out = self.fun(*primals)
            total = None
            for j, t in zip(jvps, tangents):
                if j is None:
                    continue
                c = j(t, out, *primals)
                total = c if total is None else tree_map(lambda u, v: u + v, total, c)
            return out, (total if total is not None else tree_map(_loom.zeros_like, out))
        self.jvp = rule

    def __call__(self, *args, **kwargs):
        who, args = self._checked(args, kwargs, "custom_jvp", self.jvp, "no JVP rule: define one with defjvp")
        if self._plain():
            return self.fun(*args)
        nondiff, diff_idx, diff_args, leaves, tree, where = self._differentiated(args, who)
        if not where:
            return self.fun(*args)
        meta = {}

        def filled(arrays, others):
            """The differentiated arguments with `arrays` at the float leaves, `others(leaf)` elsewhere."""
            vals = [others(v) for v in leaves]
            for k, x in zip(where, arrays):
                vals[k] = x
            return tree_unflatten(tree, vals)

        def fn(arrays):
            self._in_rule = True
            try:
                out = self.fun(*_rebuild(args, diff_idx, filled(arrays, lambda v: v)))
            finally:
                self._in_rule = False
            out_leaves, meta["out_tree"] = tree_flatten(out)
            meta["out"] = [None if isinstance(v, _ndarray) else v for v in out_leaves]
            return [v for v in out_leaves if isinstance(v, _ndarray)]

        def jvp(arrays):
            n = len(where)
            primals = filled(arrays[:n], lambda v: v)
            tangents = filled(arrays[n:], lambda v: _loom.zeros_like(v) if isinstance(v, _ndarray) else 0.0 * v)
            self._in_rule = True
            try:
                out = self.jvp(*nondiff, tuple(primals), tuple(tangents))
            finally:
                self._in_rule = False
            if not (isinstance(out, (tuple, list)) and len(out) == 2):
                raise TypeError(f"[{who}] the JVP rule must return (primal_out, tangent_out)")
            return _tangent_leaves(out[0], out[1], who)

        results = iter(_loom._custom_jvp_call(fn, jvp, [leaves[k] for k in where]))
        return tree_unflatten(meta["out_tree"], [next(results) if v is None else v for v in meta["out"]])


def _tangent_leaves(primal_out, tangent_out, who):
    """The rule's tangent output as one array per array leaf of its primal output (zeros for
    a None or symbolic-zero tangent), shape-checked against it."""
    p_leaves, p_tree = tree_flatten(primal_out)
    t_leaves, t_tree = tree_flatten(tangent_out, is_leaf=lambda v: v is None)
    if t_tree != p_tree and len(t_leaves) != len(p_leaves):
        raise TypeError(f"[{who}] the rule's tangent output has the structure {t_tree}, the primal output {p_tree}")
    out = []
    for p, t in zip(p_leaves, t_leaves):
        if not isinstance(p, _ndarray):
            continue
        if t is None or not _differentiable(p):
            out.append(_loom.zeros_like(p))
            continue
        t = t if isinstance(t, _ndarray) else _loom.asarray(t, device=p.device)
        if tuple(t.shape) != tuple(p.shape):
            raise TypeError(f"[{who}] a tangent output has shape {tuple(t.shape)}, its primal {tuple(p.shape)}")
        out.append(t.astype(p.dtype))
    return out


class custom_vjp(_CustomDerivative):
    """jax.custom_vjp: f = custom_vjp(fun); f.defvjp(fwd, bwd) with fwd(*args) -> (out, res) and
    bwd(*nondiff_args, res, g) -> a tuple with one cotangent per differentiated argument (None:
    zero). Eagerly f runs fun; inside jit, vmap or grad the call is one op (the core's
    custom_vjp_call) that runs fwd and, when reverse mode reaches it, calls bwd: the derivative
    is bwd's whatever it computes (a clipped gradient too), and bwd's own ops are differentiated
    for higher orders, as in JAX. Arrays fwd closes over get no cotangent (JAX refuses them)."""

    def __init__(self, fun, nondiff_argnums=()):
        super().__init__(fun, nondiff_argnums)
        self.fwd, self.bwd = None, None

    def defvjp(self, fwd, bwd, symbolic_zeros=False, optimize_remat=False):
        self.fwd, self.bwd = fwd, bwd

    def __call__(self, *args, **kwargs):
        who, args = self._checked(args, kwargs, "custom_vjp", self.fwd, "no VJP rule: define one with defvjp")
        if self._plain():
            return self.fun(*args)
        nondiff, diff_idx, diff_args, leaves, tree, where = self._differentiated(args, who)
        if not where:
            return self.fun(*args)
        meta = {}

        def fwd(arrays):
            filled = list(leaves)
            for k, x in zip(where, arrays):
                filled[k] = x
            self._in_rule = True
            try:
                out = self.fwd(*_rebuild(args, diff_idx, tree_unflatten(tree, filled)))
            finally:
                self._in_rule = False
            if not (isinstance(out, (tuple, list)) and len(out) == 2):
                raise TypeError(f"[{who}] fwd must return (output, residuals)")
            (out_leaves, meta["out_tree"]), (res_leaves, meta["res_tree"]) = tree_flatten(out[0]), tree_flatten(out[1])
            meta["out"] = [None if isinstance(v, _ndarray) else v for v in out_leaves]
            meta["res"] = [None if isinstance(v, _ndarray) else v for v in res_leaves]
            outs = [v for v in out_leaves if isinstance(v, _ndarray)]
            meta["n_out"] = len(outs)
            return outs + [v for v in res_leaves if isinstance(v, _ndarray)]

        def bwd(arrays):
            n_res = len(arrays) - meta["n_out"]
            res_arrays, ct_arrays = iter(arrays[:n_res]), iter(arrays[n_res:])
            res = tree_unflatten(meta["res_tree"], [next(res_arrays) if v is None else v for v in meta["res"]])
            g = tree_unflatten(meta["out_tree"], [next(ct_arrays) if v is None else None for v in meta["out"]])
            # Not a rule's own call: the function called inside bwd is this custom_vjp again
            # (JAX's fixed_point), so that a second derivative goes through its bwd too.
            cts = self.bwd(*nondiff, res, g)
            if not isinstance(cts, (tuple, list)) or len(cts) != len(diff_idx):
                raise TypeError(f"[{who}] bwd must return a tuple of {len(diff_idx)} cotangents (one per "
                                f"differentiated argument), got {type(cts).__name__}")
            ct_leaves = _ct_leaves(cts, diff_args, who)
            return [_zero_or(ct_leaves[k], leaves[k]) for k in where]

        results = iter(_loom._custom_vjp_call(fwd, bwd, [leaves[k] for k in where], lambda: meta["n_out"]))
        return tree_unflatten(meta["out_tree"], [next(results) if v is None else v for v in meta["out"]])


def _ct_leaves(cts, diff_args, who):
    """bwd's cotangents as one leaf per leaf of the differentiated arguments (None: zero)."""
    out = []
    for c, arg in zip(cts, diff_args):
        n = len(tree_flatten(arg)[0])
        if c is None:
            out.extend([None] * n)
            continue
        leaves, tree = tree_flatten(c, is_leaf=lambda v: v is None)
        if len(leaves) != n:
            raise TypeError(f"[{who}] bwd returned a cotangent with {len(leaves)} leaves for an argument with {n}")
        out.extend(leaves)
    return out


def _zero_or(ct, like):
    if ct is None:
        return _loom.zeros_like(like)
    ct = ct if isinstance(ct, _ndarray) else _loom.asarray(ct, device=like.device)
    return _loom.broadcast_to(ct, like.shape).astype(like.dtype)


def checkpoint(fun=None, *, prevent_cse=True, policy=None, static_argnums=()):
    """jax.checkpoint (remat): the same function and derivatives, whose forward values grad
    does not keep. The call is one op (the core's remat primitive): reverse mode stores its
    arguments and results only, and its derivative rule runs fun again to get the rest, trading
    compute for memory. Array leaves of the arguments are its operands; other leaves, and the
    arguments at static_argnums, are fixed values. `policy` is accepted and every policy
    recomputes everything (nothing_saveable); `prevent_cse` has nothing to prevent."""
    if fun is None:
        return lambda f: checkpoint(f, prevent_cse=prevent_cse, policy=policy, static_argnums=static_argnums)
    if not callable(fun):
        raise TypeError(f"[checkpoint] expected a function, not {type(fun).__name__}")
    static_argnums = (static_argnums,) if isinstance(static_argnums, int) else tuple(static_argnums)

    @functools.wraps(fun)
    def remat_f(*args, **kwargs):
        args = _positional(fun, args, kwargs, "checkpoint")
        n = len(args)
        static = {i % n for i in static_argnums if -n <= i < n}
        leaves, tree = tree_flatten(tuple(a for i, a in enumerate(args) if i not in static))
        where = [k for k, v in enumerate(leaves) if isinstance(v, _ndarray)]
        result = []  # the output's structure and its non-array leaves, set when fun is traced

        def flat(arrays):
            filled = list(leaves)
            for k, a in zip(where, arrays):
                filled[k] = a
            dynamic = iter(tree_unflatten(tree, filled))
            out_leaves, out_tree = tree_flatten(fun(*(args[i] if i in static else next(dynamic) for i in range(n))))
            result[:] = [out_tree, [None if isinstance(v, _ndarray) else v for v in out_leaves]]
            return [v for v in out_leaves if isinstance(v, _ndarray)]

        outs = iter(_loom._checkpoint(flat, [leaves[k] for k in where]))
        out_tree, fixed = result
        return tree_unflatten(out_tree, [next(outs) if v is None else v for v in fixed])

    return remat_f


remat = checkpoint

# jax.checkpoint_policies' names: accepted, and ignored (checkpoint saves nothing: it recomputes).
checkpoint_policies = types.SimpleNamespace(
    everything_saveable=None, nothing_saveable=None, dots_saveable=None, checkpoint_dots=None,
    dots_with_no_batch_dims_saveable=None, checkpoint_dots_with_no_batch_dims=None,
    save_anything_except_these_names=lambda *names: None, save_only_these_names=lambda *names: None,
    save_any_names_but_these=lambda *names: None, save_from_both_policies=lambda a, b: None)
