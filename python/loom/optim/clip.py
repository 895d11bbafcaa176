"""optim.clip_grad_norm: gradients scaled to a global L2 norm, as
torch.nn.utils.clip_grad_norm_."""
from .. import _loom
from ..transforms.tree_util import tree_leaves, tree_map
from ._checks import FLOATS, check_range, to_like

_ndarray = _loom.ndarray


def clip_grad_norm(grads, max_norm):
    """(clipped_grads, total_norm), as torch.nn.utils.clip_grad_norm_: total_norm is the L2
    norm of all gradients together (a 0-d array, float32, or float64 when a gradient is), and
    every gradient is scaled by min(1, max_norm / (total_norm + 1e-6)). `grads` is a dict
    name -> array (None values stay None) or any pytree of arrays. No host synchronisation:
    the scale is applied as an array, so this traces under loom.jit."""
    who = "optim.clip_grad_norm"
    check_range(who, "max_norm", max_norm, 0.0)
    leaves = tree_leaves(grads)
    for g in leaves:
        if not isinstance(g, _ndarray):
            raise TypeError(f"[{who}] gradients must be loom arrays, not {type(g).__name__}")
        if g.dtype.name not in FLOATS:
            raise TypeError(f"[{who}] gradients must be float arrays, got {g.dtype}")
    if not leaves:
        return grads, _loom.zeros((), dtype=_loom.float32)
    acc = _loom.float64 if any(g.dtype == _loom.float64 for g in leaves) else _loom.float32
    device = leaves[0].device
    total = None
    for g in leaves:
        g = g.astype(acc) if g.dtype != acc else g
        part = _loom.sum(g * g)
        part = part.to(device) if part.device != device else part
        total = part if total is None else total + part
    total_norm = _loom.sqrt(total)
    scale = _loom.minimum(max_norm / (total_norm + 1e-6), 1.0)
    casts = {}

    def clip(g):
        key = (g.dtype.name, g.device)
        if key not in casts:
            casts[key] = to_like(scale, g)
        return g * casts[key]

    return tree_map(clip, grads), total_norm
