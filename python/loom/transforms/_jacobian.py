"""Jacobians as JAX builds them (loom.jacfwd, jacrev, hessian, linearize), over the core's
vjp (python/loom/transforms/_grad.py): no second differentiation engine.

- jacrev: one vjp, then its pullback applied to every basis vector of the output space.
- linearize: one vjp; the jvp at the primals is the transpose of the pullback (the pullback is
  linear in its cotangent, so the vjp of the pullback is J t), as loom's own jvp is.
- jacfwd: linearize, then its jvp applied to every basis vector of the input space.
- hessian: jacfwd(jacrev(f)).

The basis is pushed through with loom.vmap (JAX's construction: one batched pass), inside an
enclosing trace (jit, vmap, grad) too: vmap reads the arrays of the enclosing trace that the
pushed function closes over (docs/TRANSFORMS.md, "What needs C++").

Output layout (JAX's): for each leaf of f's output (shape S) and each leaf of the
differentiated arguments (shape T), a leaf of shape S + T; a pytree of the output's structure
whose leaves are pytrees of the arguments' structure (a tuple over argnums when argnums is one).
"""
from .. import _loom
from ._grad import _Flat, _argnums, _as_array, _is_complex, _is_float
from ._vmap import vmap
from .tree_util import tree_flatten, tree_unflatten

__all__ = ["jacfwd", "jacrev", "jacobian", "hessian", "linearize"]


def _check_inputs(leaves, holomorphic, who):
    for leaf in leaves:
        if holomorphic and not _is_complex(leaf):
            raise TypeError(f"[{who}] holomorphic=True requires complex inputs, got {leaf.dtype}")
        if not holomorphic and not _is_float(leaf):
            hint = "; for a holomorphic function pass holomorphic=True" if _is_complex(leaf) else ""
            raise TypeError(f"[{who}] requires real floating inputs for the arguments it differentiates, "
                            f"got {leaf.dtype}{hint}")


def _check_outputs(outs, holomorphic, who):
    for y in outs:
        if holomorphic and not _is_complex(y):
            raise TypeError(f"[{who}] holomorphic=True requires complex outputs, got {y.dtype}")
        if not holomorphic and not _is_float(y):
            hint = "; for a holomorphic function pass holomorphic=True" if _is_complex(y) else ""
            raise TypeError(f"[{who}] requires real floating outputs, got {y.dtype}{hint}")


def _basis(like, who):
    """One list per leaf of `like`: that leaf's part of each of the N standard basis vectors of
    the flattened space (N = total size), shape (N,) + leaf.shape."""
    sizes = [int(a.size) for a in like]
    n = sum(sizes)
    if n == 0:
        raise ValueError(f"[{who}] the space to differentiate has no elements")
    dtype = _loom.result_type(*[a.dtype for a in like])
    eye = _loom.eye(n, dtype=dtype, device=like[0].device)
    out, off = [], 0
    for a, s in zip(like, sizes):
        # No copy where none is needed: for one leaf the basis is eye itself, reshaped.
        out.append(eye[:, off:off + s].reshape((n,) + tuple(a.shape)).astype(a.dtype, copy=False))
        off += s
    return out


def _push(fn, basis):
    """fn (list of arrays -> list of arrays) on every basis vector at once (vmap): lists of
    results, each with a leading axis of the basis size."""
    return vmap(fn)(basis)


class _Linearized:
    """One vjp of fun at the primals: the pullback (ct -> J^T ct) and its transpose (t -> J t)."""

    def __init__(self, fun, args, argnums, has_aux, who):
        self.flat = _Flat(fun, args, argnums, has_aux, who)
        self.who = who
        self.outs, self.pullback = _loom._vjp(self.flat, self.flat.leaves)
        self.out_leaves = self.outs[:self.flat.n_out]
        self._extra = [None] * (len(self.outs) - self.flat.n_out)
        self._transpose = None

    def vjp(self, cts):
        return self.pullback(list(cts) + self._extra)

    def jvp(self, tangents):
        if self._transpose is None:
            zeros = [_loom.zeros_like(y) for y in self.out_leaves]
            _, self._transpose = _loom._vjp(lambda u: self.vjp(u), zeros)
        return self._transpose(list(tangents))

    def output(self):
        return self.flat.split(self.outs)


def _jacobian_leaves(rows, outer, inner, outer_is_out):
    """Splits each stacked result (basis size N first) by the leaves it belongs to.

    rows[j]: result j over the basis of `outer`'s flattened space, shape (N,) + inner[j].shape.
    Returns J[o][i], shape out.shape + in.shape, for output leaves o and input leaves i."""
    n_out, n_in = (len(outer), len(inner)) if outer_is_out else (len(inner), len(outer))
    table = [[None] * n_in for _ in range(n_out)]
    for j, r in enumerate(rows):
        off = 0
        for k, a in enumerate(outer):
            s = int(a.size)
            block = r[off:off + s].reshape(tuple(a.shape) + tuple(inner[j].shape))
            off += s
            if outer_is_out:  # outer = outputs, inner = inputs: already out + in
                table[k][j] = block
            else:  # outer = inputs, inner = outputs: move the input's axes last
                ni, nd = a.ndim, block.ndim
                table[j][k] = _loom.moveaxis(block, list(range(ni)), list(range(nd - ni, nd))) if ni else block
    return table


def _assemble(lin, table, single):
    flat = lin.flat
    in_tree = flat.in_tree
    per_out = []
    for row in table:
        tree = tree_unflatten(in_tree, row)  # a tuple over argnums
        per_out.append(tree[0] if single else tree)
    return tree_unflatten(flat.out_tree, per_out)


def _jac(mode, fun, argnums, has_aux, holomorphic):
    who = "jacfwd" if mode == "fwd" else "jacrev"
    if not callable(fun):
        raise TypeError(f"[{who}] expected a function, not {type(fun).__name__}")

    def jac_f(*args, **kwargs):
        single, nums = _argnums(argnums, len(args), who)
        f = fun if not kwargs else (lambda *a: fun(*a, **kwargs))
        lin = _Linearized(f, args, nums, has_aux, who)
        _check_inputs(lin.flat.leaves, holomorphic, who)
        _check_outputs(lin.out_leaves, holomorphic, who)
        if mode == "rev":
            rows = _push(lin.vjp, _basis(lin.out_leaves, who))
            table = _jacobian_leaves(rows, lin.out_leaves, lin.flat.leaves, True)
        else:
            rows = _push(lin.jvp, _basis(lin.flat.leaves, who))
            table = _jacobian_leaves(rows, lin.flat.leaves, lin.out_leaves, False)
        jac = _assemble(lin, table, single)
        return (jac, lin.output()[1]) if has_aux else jac

    jac_f.__name__ = f"{who}_{getattr(fun, '__name__', 'fun')}"
    jac_f.__doc__ = getattr(fun, "__doc__", None)
    return jac_f


def jacfwd(fun, argnums=0, has_aux=False, holomorphic=False):
    """The Jacobian of fun with respect to argument(s) argnums, by forward mode (jax.jacfwd):
    the jvp pushed along every basis vector of the input space. For an output leaf of shape S
    and an input leaf of shape T the block has shape S + T. With has_aux, fun returns
    (output, aux) and the result is (jacobian, aux)."""
    return _jac("fwd", fun, argnums, has_aux, holomorphic)


def jacrev(fun, argnums=0, has_aux=False, holomorphic=False):
    """The Jacobian of fun with respect to argument(s) argnums, by reverse mode (jax.jacrev):
    the vjp pulled back along every basis vector of the output space. Layout and has_aux as
    jacfwd."""
    return _jac("rev", fun, argnums, has_aux, holomorphic)


jacobian = jacrev


def hessian(fun, argnums=0, has_aux=False, holomorphic=False):
    """jax.hessian: jacfwd(jacrev(fun)), forward over reverse. For a scalar fun of x (shape T)
    the result has shape T + T."""
    return jacfwd(jacrev(fun, argnums, has_aux, holomorphic), argnums, has_aux, holomorphic)


def linearize(fun, *primals, has_aux=False):
    """jax.linearize: (fun(*primals), f_jvp) where f_jvp(*tangents) is the jvp at the primals
    (J t), evaluated without running fun again. With has_aux: (out, f_jvp, aux)."""
    if not callable(fun):
        raise TypeError(f"[linearize] expected a function, not {type(fun).__name__}")
    lin = _Linearized(fun, primals, tuple(range(len(primals))), has_aux, "linearize")
    out, aux = lin.output()

    def f_jvp(*tangents):
        if len(tangents) != len(primals):
            raise TypeError(f"[linearize] f_jvp takes {len(primals)} tangents (one per primal), got {len(tangents)}")
        t_leaves, t_tree = tree_flatten(tuple(tangents))
        if t_tree != lin.flat.in_tree:
            raise ValueError(f"[linearize] the tangents' structure {t_tree} differs from the primals' "
                             f"{lin.flat.in_tree}")
        t = [_as_array(x, "linearize") for x in t_leaves]
        for a, p in zip(t, lin.flat.leaves):
            if tuple(a.shape) != tuple(p.shape):
                raise ValueError(f"[linearize] a tangent has shape {tuple(a.shape)}, its primal {tuple(p.shape)}")
        return tree_unflatten(lin.flat.out_tree, lin.jvp(t))

    return (out, f_jvp, aux) if has_aux else (out, f_jvp)
