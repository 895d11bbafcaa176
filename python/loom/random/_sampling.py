"""Integers with array bounds, choice, permutations and bytes, on the device: permutations
are argsorts of random 64-bit words (ties, which would favour the lower index, have
probability below n^2 / 2^65); a stream must be active (_stream.py)."""
import math
import operator

import numpy as np

from .. import _loom
from . import _math as m

_C = _loom.random
_I64_MIN, _I64_MAX = -(1 << 63), (1 << 63) - 1


# ---- integers ----------------------------------------------------------------------------------
def _mask_proposal(dev):
    def propose(k, span, mask):
        w = m.words64(k, dev) & mask
        return w, w <= span
    return propose


def bounded(fn, lo, hi, shape, dtype, dev):
    """Integers in [lo, hi] (inclusive), lo and hi int64 arrays or ints broadcast to shape:
    masked 64-bit words, rejected above the span (exactly uniform; at least half accepted)."""
    n = math.prod(shape)
    as_u64 = lambda v: m.flat(v.astype(_loom.uint64), shape) if m.is_array(v) else v % (1 << 64)  # noqa: E731
    lo_u, hi_u = as_u64(lo), as_u64(hi)
    span = hi_u - lo_u  # wraps modulo 2^64, as the words do
    mask = span
    for s in (1, 2, 4, 8, 16, 32):
        mask = mask | (mask >> s)
    x = m.rejection(fn, n, _mask_proposal(dev), [span, mask], _loom.uint64, dev)
    v = (x + lo_u).reshape(shape)
    return v.astype(dtype) if dtype == _loom.uint64 else v.astype(_loom.int64).astype(dtype)


def as_int_bound(v, name, fn, dev):
    """A randint bound: an int (floats truncated, as NumPy's legacy randint) or an int64 array."""
    if m.is_array(v) or (not np.isscalar(v) and np.ndim(v) > 0):
        a = v if m.is_array(v) else _loom.asarray(np.asarray(v), device=dev)
        if a.dtype.name.startswith("complex"):
            raise TypeError(f"[{fn}] {name} must be integers, not {a.dtype.name}")
        if a.dtype.name.startswith(("float", "bfloat")):
            a = _loom.trunc(a)
        if a.dtype == _loom.uint64 and a.size and int(_loom.max(a)) > _I64_MAX:
            raise ValueError(f"[{fn}] array bounds must fit int64 (scalar bounds may reach 2**64)")
        return a.astype(_loom.int64)
    try:
        return operator.index(v)
    except TypeError:
        if isinstance(v, (float, np.floating)):
            return int(v)
        raise TypeError(f"[{fn}] {name} must be an integer or an array of integers, not {type(v).__name__}") from None


def check_bounds(fn, lo, hi_incl, dtype):
    """NumPy's errors for integer bounds (ints or arrays): ValueError when low > high or a
    bound is outside the dtype (one host sync per array bound)."""
    if not (dtype == _loom.bool_ or dtype.name.startswith(("int", "uint"))):
        raise TypeError(f"[{fn}] Unsupported dtype {dtype.name} for randint")
    info = (0, 1) if dtype == _loom.bool_ else (int(np.iinfo(dtype.name).min), int(np.iinfo(dtype.name).max))
    lo_min = int(_loom.min(lo)) if m.is_array(lo) else lo
    hi_max = int(_loom.max(hi_incl)) if m.is_array(hi_incl) else hi_incl
    if (m.is_array(lo) and lo.size == 0) or (m.is_array(hi_incl) and hi_incl.size == 0):
        return
    if lo_min < info[0]:
        raise ValueError(f"[{fn}] low is out of bounds for {dtype.name}")
    if hi_max > info[1]:
        raise ValueError(f"[{fn}] high is out of bounds for {dtype.name}")
    bad = lo > hi_incl
    if bool(_loom.any(bad)) if m.is_array(bad) else bad:
        raise ValueError(f"[{fn}] low >= high")


# ---- permutations ----------------------------------------------------------------------------
def permutation_indices(n, dev):
    """A uniformly random permutation of arange(n) (int64)."""
    return _loom.argsort(m.words64(n, dev)).astype(_loom.int64)


def without_replacement(pop, k, dev):
    """k distinct indices of range(pop) in random order. A prefix of a permutation, or for
    k much smaller than a large pop, the distinct values of about k uniform draws (a
    uniformly random set, by symmetry) thinned to k and shuffled: memory O(k), not O(pop)."""
    if pop <= (1 << 22) or 16 * k > pop:
        return permutation_indices(pop, dev)[:k]
    draws = _C.randint(0, pop, size=k + k // 4 + 16, dtype=_loom.int64, device=dev)
    distinct = _loom.unique(draws)
    while distinct.shape[0] < k:
        more = _C.randint(0, pop, size=2 * (k - distinct.shape[0]) + 16, dtype=_loom.int64, device=dev)
        distinct = _loom.unique(_loom.concatenate([distinct, more]))
    return distinct[permutation_indices(distinct.shape[0], dev)[:k]]


def permuted(x, axis):
    """Each slice along axis shuffled independently (axis=None: the flattened array)."""
    keys = m.words64(x.size, x.device)
    if axis is None:
        return x.reshape(-1)[_loom.argsort(keys)].reshape(x.shape)
    idx = _loom.argsort(keys.reshape(x.shape), axis=axis)
    return _loom.take_along_axis(x, idx, axis=axis)


def shuffle_in_place(fn, x, axis):
    """Shuffles x along axis in place: a loom array, a NumPy array or a mutable sequence."""
    if isinstance(x, _loom.ndarray) or isinstance(x, np.ndarray):
        if x.ndim == 0:
            raise TypeError(f"[{fn}] x must have at least one dimension")
        n = x.shape[axis]
        dev = x.device if isinstance(x, _loom.ndarray) else _loom.cpu()
        perm = permutation_indices(n, dev)
        if isinstance(x, np.ndarray):
            x[...] = np.take(x, perm.numpy(), axis=axis)
        else:
            x[...] = _loom.take(x, perm, axis=axis)
        return
    try:
        n = len(x)
    except TypeError:
        raise TypeError(f"[{fn}] x must be an array or a mutable sequence, not {type(x).__name__}") from None
    order = permutation_indices(n, _loom.cpu()).numpy()
    items = [x[i] for i in order]
    x[:] = items


# ---- choice ------------------------------------------------------------------------------------
def _probabilities(fn, p, pop):
    p = np.asarray(p.numpy() if m.is_array(p) else p, dtype=np.float64)
    if p.ndim != 1:
        raise ValueError(f"[{fn}] p must be 1-dimensional")
    if p.size != pop:
        raise ValueError(f"[{fn}] a and p must have same size")
    if np.any(p < 0) or np.any(np.isnan(p)):
        raise ValueError(f"[{fn}] probabilities are not non-negative")
    if not abs(p.sum() - 1.0) <= math.sqrt(np.finfo(np.float64).eps):
        raise ValueError(f"[{fn}] probabilities do not sum to 1")
    return p


def choice(fn, a, shape, replace, p, axis, dev, legacy):
    """Indices (a an int) or elements along axis of a; shape () for size=None."""
    if isinstance(a, (int, np.integer)) and not isinstance(a, bool):
        pop, arr = int(a), None
        if pop < 0 or (pop == 0 and math.prod(shape) > 0):
            raise ValueError(f"[{fn}] a must be a positive integer unless no samples are taken")
    else:
        if a is None or isinstance(a, (float, np.floating, complex, str)):
            raise ValueError(f"[{fn}] a must be 1-dimensional or an integer")
        arr = a if m.is_array(a) else _loom.asarray(np.asarray(a), device=dev)
        if arr.ndim == 0:
            raise ValueError(f"[{fn}] a must be 1-dimensional or an integer")
        if legacy and arr.ndim != 1:
            raise ValueError(f"[{fn}] a must be 1-dimensional")
        axis = operator.index(axis) % arr.ndim
        pop = arr.shape[axis]
        dev = arr.device
        if pop == 0 and math.prod(shape) > 0:
            raise ValueError(f"[{fn}] a cannot be empty unless no samples are taken")
    k = math.prod(shape)
    probs = None if p is None else _probabilities(fn, p, pop)
    if replace:
        if probs is None:
            idx = _C.randint(0, max(pop, 1), size=k, dtype=_loom.int64, device=dev)
        else:
            cdf = _loom.cumsum(_loom.asarray(probs, device=dev))
            cdf = cdf / cdf[-1]
            idx = _loom.minimum(_loom.searchsorted(cdf, m.uniform(k, _loom.float64, dev), side="right"), pop - 1)
    else:
        if k > pop:
            raise ValueError(f"[{fn}] Cannot take a larger sample than population when replace is False")
        if probs is None:
            idx = without_replacement(pop, k, dev)
        else:
            if np.count_nonzero(probs) < k:
                raise ValueError(f"[{fn}] Fewer non-zero entries in p than size")
            # Efraimidis-Spirakis: the k smallest E_i / p_i come in the order of draws
            # proportional to p without replacement (the exponential race).
            keys = m.exponential(pop, _loom.float64, dev) / _loom.asarray(probs, device=dev)
            idx = _loom.argsort(keys)[:k]
    idx = idx.astype(_loom.int64).reshape(shape)
    return idx if arr is None else _loom.take(arr, idx, axis=axis)


def integers(fn, low, high, size, dtype, device, endpoint):
    """NumPy's randint / Generator.integers: [low, high) or with endpoint [low, high]
    ([0, low) when high is None). Scalar bounds use the extension's randint; array bounds
    broadcast, drawn by `bounded`."""
    if not any(m.is_array(v) or (v is not None and np.ndim(v) > 0) for v in (low, high)):
        if endpoint:
            lo = 0 if high is None else as_int_bound(low, "low", fn, None)
            hi = as_int_bound(low if high is None else high, "high", fn, None) + 1
            return _C.randint(lo, hi, size=size, dtype=dtype, device=device)
        return _C.randint(low, high, size=size, dtype=dtype, device=device)
    dt = _loom.int64 if dtype is None else _loom.dtype(dtype)
    found = [v for v in (low, high) if m.is_array(v)]
    dev = device if device is not None else found[0].device if found else _loom.default_device()
    lo = as_int_bound(low, "low", fn, dev)
    hi = None if high is None else as_int_bound(high, "high", fn, dev)
    if hi is None:
        lo, hi = 0, lo
    hi_incl = hi if endpoint else hi - 1
    check_bounds(fn, lo, hi_incl, dt)
    shapes = [tuple(v.shape) for v in (lo, hi_incl) if m.is_array(v)]
    target = np.broadcast_shapes(*shapes)
    if size is not None:
        size = (operator.index(size),) if np.ndim(size) == 0 else tuple(operator.index(s) for s in size)
        if np.broadcast_shapes(size, target) != size:
            raise ValueError(f"[{fn}] shape mismatch: bounds of shapes {shapes} cannot be broadcast to size {size}")
        target = size
    return bounded(fn, lo, hi_incl, target, dt, dev)
