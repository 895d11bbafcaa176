"""jax.lax's array functions as compositions of loom's ops (re-exported by loom.lax).

Each is what JAX documents, written with NumPy-style ops that already trace, batch and
differentiate, so jit, vmap and grad go through them. Indices of dynamic_slice and
dynamic_update_slice are clamped as in JAX (the slice stays inside the array); with traced
starts they become one gather or scatter, with concrete ones a basic slice.
"""
import builtins
import numbers

import numpy as np

from .. import _loom
from ._grad import stop_gradient

__all__ = ["select", "stop_gradient", "rsqrt", "erf", "erfc", "logistic", "pow", "integer_pow", "clamp",
           "broadcast_in_dim", "dynamic_slice", "dynamic_update_slice", "dynamic_slice_in_dim",
           "dynamic_index_in_dim", "dynamic_update_slice_in_dim", "dot_general", "dot", "slice", "slice_in_dim",
           "index_in_dim", "pad", "convert_element_type", "iota", "full", "full_like", "rev", "reshape", "transpose",
           "squeeze", "expand_dims", "concatenate", "reduce_sum", "reduce_max", "reduce_min", "reduce_prod",
           "argmax", "argmin", "add", "sub", "mul", "div", "rem", "neg", "abs", "sign", "floor", "ceil", "round",
           "exp", "log", "log1p", "expm1", "tanh", "sinh", "cosh", "sin", "cos", "tan", "asin", "acos", "atan", "atan2",
           "sqrt", "cbrt", "square", "max", "min", "eq", "ne", "lt", "le", "gt", "ge", "bitwise_and", "bitwise_or",
           "bitwise_xor", "bitwise_not", "is_finite", "cumsum", "cumprod", "cummax", "cummin", "sort", "top_k"]

_ndarray = _loom.ndarray
L = _loom
_min, _max, _slice = builtins.min, builtins.max, builtins.slice  # lax's names shadow them below

# One-to-one names.
add, sub, mul, div, neg, abs, sign = L.add, L.subtract, L.multiply, L.divide, L.negative, L.absolute, L.sign
floor, ceil, exp, log, log1p, expm1, tanh = L.floor, L.ceil, L.exp, L.log, L.log1p, L.expm1, L.tanh
sinh, cosh, sin, cos, tan, asin, acos, atan = L.sinh, L.cosh, L.sin, L.cos, L.tan, L.arcsin, L.arccos, L.arctan
atan2, sqrt, cbrt, square, max, min, erf = L.arctan2, L.sqrt, L.cbrt, L.square, L.maximum, L.minimum, L.erf
eq, ne, lt, le, gt, ge = L.equal, L.not_equal, L.less, L.less_equal, L.greater, L.greater_equal
bitwise_and, bitwise_or, bitwise_xor, bitwise_not = L.bitwise_and, L.bitwise_or, L.bitwise_xor, L.invert
is_finite = L.isfinite
pow = L.power


def _arr(x, like=None):
    if isinstance(x, _ndarray):
        return x
    device = like.device if isinstance(like, _ndarray) else None
    return L.asarray(x, device=device) if device is not None else L.asarray(x)


def rem(x, y):
    """C's remainder (the sign of x), as lax.rem; NumPy's mod takes y's sign."""
    return L.fmod(x, y)


def round(x, rounding_method=0):
    """lax.round: 0 (AWAY_FROM_ZERO, JAX's default) or 1 (TO_NEAREST_EVEN)."""
    if int(rounding_method) == 1:
        return L.rint(x)
    return L.sign(x) * L.floor(L.absolute(x) + 0.5)


def select(pred, on_true, on_false):
    """lax.select: on_true where pred, else on_false (pred a bool array of their shape or a scalar)."""
    return L.where(pred, on_true, on_false)


def rsqrt(x):
    return 1 / L.sqrt(x)


def erfc(x):
    return 1 - L.erf(x)


def logistic(x):
    """1 / (1 + exp(-x)), without overflow for large |x| (nor in its derivative)."""
    x = _arr(x)
    e = L.exp(-L.absolute(x))
    return L.where(x >= 0, L.ones_like(e), e) / (1 + e)


def integer_pow(x, y):
    if not isinstance(y, numbers.Integral):
        raise TypeError(f"[integer_pow] the exponent must be a Python int, got {type(y).__name__}")
    return x ** int(y)


def clamp(min, x, max):  # noqa: A002 - JAX's argument names
    """lax.clamp(min, x, max): x clipped to [min, max] (JAX's argument order)."""
    return L.clip(x, min, max)


def convert_element_type(operand, new_dtype):
    return _arr(operand).astype(new_dtype)


def iota(dtype, size, dimension=0, shape=None, device=None):
    """lax.iota: arange(size) of dtype (or broadcast_iota along `dimension` of `shape`)."""
    kw = {} if device is None else {"device": device}
    if shape is None:
        return L.arange(size, dtype=dtype, **kw)
    shape = tuple(shape)
    r = L.arange(shape[dimension], dtype=dtype, **kw)
    return L.broadcast_to(r.reshape([shape[dimension] if i == dimension else 1 for i in range(len(shape))]), shape)


def full(shape, fill_value, dtype=None):
    return L.full(tuple(shape), fill_value, dtype=dtype)


def full_like(x, fill_value, dtype=None, shape=None):
    x = _arr(x)
    return L.full(x.shape if shape is None else tuple(shape), fill_value, dtype=dtype or x.dtype, device=x.device)


def rev(operand, dimensions):
    return L.flip(operand, axis=tuple(dimensions)) if len(dimensions) else operand


def reshape(operand, new_sizes, dimensions=None):
    """lax.reshape: `dimensions` permutes the operand first (row-major after it)."""
    x = _arr(operand)
    if dimensions is not None:
        x = L.transpose(x, tuple(dimensions))
    return x.reshape(tuple(new_sizes))


def transpose(operand, permutation):
    return L.transpose(operand, tuple(permutation))


def squeeze(array, dimensions):
    return L.squeeze(array, axis=tuple(dimensions)) if len(dimensions) else array


def expand_dims(array, dimensions):
    return L.expand_dims(array, tuple(dimensions))


def concatenate(operands, dimension):
    return L.concatenate(list(operands), axis=dimension)


def _reducer(fn):
    def reduce(operand, axes):
        return fn(operand, axis=tuple(axes))
    reduce.__name__ = f"reduce_{fn.__name__}"
    return reduce


reduce_sum, reduce_max, reduce_min, reduce_prod = _reducer(L.sum), _reducer(L.max), _reducer(L.min), _reducer(L.prod)


def argmax(operand, axis, index_dtype):
    return L.argmax(operand, axis=axis).astype(index_dtype)


def argmin(operand, axis, index_dtype):
    return L.argmin(operand, axis=axis).astype(index_dtype)


def cumsum(operand, axis=0, reverse=False):
    x = L.flip(operand, axis=axis) if reverse else operand
    r = L.cumsum(x, axis=axis)
    return L.flip(r, axis=axis) if reverse else r


def cumprod(operand, axis=0, reverse=False):
    x = L.flip(operand, axis=axis) if reverse else operand
    r = L.cumprod(x, axis=axis)
    return L.flip(r, axis=axis) if reverse else r


def _cum_extreme(op, name):
    def cum(operand, axis=0, reverse=False):
        from .lax import associative_scan  # lazy: lax imports this module at its top
        return associative_scan(op, operand, reverse=reverse, axis=axis)
    cum.__name__ = name
    return cum


cummax, cummin = _cum_extreme(L.maximum, "cummax"), _cum_extreme(L.minimum, "cummin")


def sort(operand, dimension=-1, is_stable=True, num_keys=1):
    if isinstance(operand, (tuple, list)):
        raise NotImplementedError("[sort] sorting several operands by keys is not supported; sort one array "
                                  "or use argsort and take")
    return L.sort(operand, axis=dimension)


def top_k(operand, k):
    """(values, indices) of the k largest entries along the last axis, largest first."""
    x = _arr(operand)
    idx = L.flip(L.argsort(x, axis=-1), axis=-1)[..., :k]
    return L.take_along_axis(x, idx, axis=-1), idx.astype(L.int32)


def broadcast_in_dim(operand, shape, broadcast_dimensions):
    """lax.broadcast_in_dim: operand's dimension i becomes dimension broadcast_dimensions[i] of
    `shape` (each of size 1 or shape's), the others are broadcast."""
    x = _arr(operand)
    shape, dims = tuple(shape), tuple(broadcast_dimensions)
    if len(dims) != x.ndim:
        raise ValueError(f"[broadcast_in_dim] broadcast_dimensions {dims} must name one dimension per operand "
                         f"dimension ({x.ndim})")
    if list(dims) != sorted(set(dims)) or any(not 0 <= d < len(shape) for d in dims):
        raise ValueError(f"[broadcast_in_dim] broadcast_dimensions {dims} must be strictly increasing and "
                         f"within the {len(shape)} dimensions of shape {shape}")
    mid = [1] * len(shape)
    for i, d in enumerate(dims):
        if x.shape[i] not in (1, shape[d]):
            raise ValueError(f"[broadcast_in_dim] operand dimension {i} has size {x.shape[i]}, which cannot "
                             f"broadcast to {shape[d]} (dimension {d} of {shape})")
        mid[d] = x.shape[i]
    return L.broadcast_to(x.reshape(tuple(mid)), shape)


def _concrete_int(v):
    """v as a Python int, or None when it is a traced array."""
    if isinstance(v, (numbers.Integral, np.integer)):
        return int(v)
    try:
        return int(v.item() if isinstance(v, _ndarray) else np.asarray(v).item())
    except L.ConcretizationTypeError:
        return None


def _starts(x, start_indices, sizes, who):
    starts = list(start_indices) if not isinstance(start_indices, _ndarray) else \
        [start_indices[i] for i in range(start_indices.shape[0])]
    if len(starts) != x.ndim or len(sizes) != x.ndim:
        raise ValueError(f"[{who}] needs one start index and size per dimension of the operand ({x.ndim}), got "
                         f"{len(starts)} and {len(sizes)}")
    for d, s in enumerate(sizes):
        if not 0 <= s <= x.shape[d]:
            raise ValueError(f"[{who}] size {s} of dimension {d} does not fit the operand's {x.shape[d]}")
    concrete = [_concrete_int(s) for s in starts]
    if all(c is not None for c in concrete):
        # JAX clamps: the slice stays inside the array.
        return [_min(_max(c, 0), x.shape[d] - sizes[d]) for d, c in enumerate(concrete)], None
    grids = []
    for d, (s, n) in enumerate(zip(starts, sizes)):
        s = L.clip(_arr(s, x).astype(L.int64), 0, x.shape[d] - n)
        idx = s + L.arange(n, dtype=L.int64, device=x.device)
        grids.append(idx.reshape([n if i == d else 1 for i in range(x.ndim)]))
    return None, tuple(grids)


def dynamic_slice(operand, start_indices, slice_sizes):
    """lax.dynamic_slice: operand[start:start + size] on each dimension, the starts (traced or
    not) clamped to [0, dim - size] as JAX does."""
    x = _arr(operand)
    sizes = tuple(int(s) for s in slice_sizes)
    concrete, grids = _starts(x, start_indices, sizes, "dynamic_slice")
    if grids is None:
        return x[tuple(_slice(c, c + n) for c, n in zip(concrete, sizes))]
    return x[grids] if x.ndim else x


def dynamic_update_slice(operand, update, start_indices):
    """lax.dynamic_update_slice: operand with update written at start_indices (clamped as JAX
    does, so the update fits)."""
    x = _arr(operand)
    u = _arr(update, x)
    if u.ndim != x.ndim:
        raise ValueError(f"[dynamic_update_slice] the update has rank {u.ndim}, the operand {x.ndim}")
    if u.dtype != x.dtype:
        u = u.astype(x.dtype)
    concrete, grids = _starts(x, start_indices, tuple(u.shape), "dynamic_update_slice")
    if grids is None:
        return x.at[tuple(_slice(c, c + n) for c, n in zip(concrete, u.shape))].set(u)
    return x.at[grids].set(u) if x.ndim else u


def _in_dim(x, index, axis):
    return [index if d == axis % x.ndim else 0 for d in range(x.ndim)]


def dynamic_slice_in_dim(operand, start_index, slice_size, axis=0):
    x = _arr(operand)
    return dynamic_slice(x, _in_dim(x, start_index, axis),
                         [slice_size if d == axis % x.ndim else x.shape[d] for d in range(x.ndim)])


def dynamic_index_in_dim(operand, index, axis=0, keepdims=True):
    r = dynamic_slice_in_dim(operand, index, 1, axis)
    return r if keepdims else L.squeeze(r, axis=axis)


def dynamic_update_slice_in_dim(operand, update, start_index, axis):
    x = _arr(operand)
    return dynamic_update_slice(x, update, _in_dim(x, start_index, axis))


def slice(operand, start_indices, limit_indices, strides=None):  # noqa: A001 - lax.slice
    strides = strides or [1] * len(start_indices)
    return _arr(operand)[tuple(_slice(a, b, s) for a, b, s in zip(start_indices, limit_indices, strides))]


def slice_in_dim(operand, start_index, limit_index, stride=1, axis=0):
    x = _arr(operand)
    key = [_slice(None)] * x.ndim
    key[axis] = _slice(start_index, limit_index, stride)
    return x[tuple(key)]


def index_in_dim(operand, index, axis=0, keepdims=True):
    r = slice_in_dim(operand, index, index + 1 if index != -1 else None, 1, axis)
    return r if keepdims else L.squeeze(r, axis=axis)


def pad(operand, padding_value, padding_config):
    """lax.pad: (low, high, interior) per dimension; negative low/high crop."""
    x = _arr(operand)
    cfg = [tuple(int(v) for v in c) for c in padding_config]
    if len(cfg) != x.ndim:
        raise ValueError(f"[pad] padding_config needs one (low, high, interior) per dimension ({x.ndim})")
    if any(i < 0 for _, _, i in cfg):
        raise ValueError("[pad] interior padding must be >= 0")
    if any(i for _, _, i in cfg):  # interior: spread the elements i + 1 apart
        shape = [n + (n - 1) * i if n else 0 for n, (_, _, i) in zip(x.shape, cfg)]
        base = L.full(tuple(shape), padding_value, dtype=x.dtype, device=x.device)
        x = base.at[tuple(_slice(None, None, i + 1) for _, _, i in cfg)].set(x)
    widths = [(_max(lo, 0), _max(hi, 0)) for lo, hi, _ in cfg]
    if any(lo or hi for lo, hi in widths):
        x = L.pad(x, widths, constant_values=padding_value)
    crop = tuple(_slice(-_min(lo, 0), x.shape[d] + _min(hi, 0)) for d, (lo, hi, _) in enumerate(cfg))
    return x[crop]


_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def dot_general(lhs, rhs, dimension_numbers, precision=None, preferred_element_type=None):
    """lax.dot_general: dimension_numbers = ((lhs_contract, rhs_contract), (lhs_batch, rhs_batch));
    the result's dimensions are the batch ones, then lhs's free ones, then rhs's (one einsum)."""
    a, b = _arr(lhs), _arr(rhs)
    (lc, rc), (lb, rb) = [[tuple(int(v) for v in d) for d in pair] for pair in dimension_numbers]
    if len(lc) != len(rc) or len(lb) != len(rb):
        raise ValueError(f"[dot_general] contracting {lc} / {rc} and batch {lb} / {rb} must pair up")
    for x, dims, who in ((a, lc + lb, "lhs"), (b, rc + rb, "rhs")):
        if len(set(dims)) != len(dims) or any(not 0 <= d < x.ndim for d in dims):
            raise ValueError(f"[dot_general] the {who} dimensions {dims} repeat or are out of range for rank {x.ndim}")
    for da, db in zip(lc + lb, rc + rb):
        if a.shape[da] != b.shape[db]:
            raise ValueError(f"[dot_general] lhs dimension {da} (size {a.shape[da]}) and rhs dimension {db} "
                             f"(size {b.shape[db]}) are paired but differ")
    letters = iter(_LETTERS)
    sa = [None] * a.ndim
    sb = [None] * b.ndim
    for da, db in zip(lb + lc, rb + rc):
        sa[da] = sb[db] = next(letters)
    for s in (sa, sb):
        for i, v in enumerate(s):
            if v is None:
                s[i] = next(letters)
    out = [sa[d] for d in lb] + [sa[d] for d in range(a.ndim) if d not in lc + lb] + \
        [sb[d] for d in range(b.ndim) if d not in rc + rb]
    r = L.einsum(f"{''.join(sa)},{''.join(sb)}->{''.join(out)}", a, b)
    return r.astype(preferred_element_type) if preferred_element_type is not None else r


def dot(lhs, rhs, precision=None, preferred_element_type=None):
    r = L.dot(lhs, rhs)
    return r.astype(preferred_element_type) if preferred_element_type is not None else r
