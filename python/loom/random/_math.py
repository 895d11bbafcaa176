"""The pieces every sampler is built from, run while a stream is active (_stream.py):

- draws: uniforms, open uniforms, normals, exponentials and raw 64-bit words from the
  extension's Philox generator (the same bits on the CPU and on every GPU);
- math that takes a Python float or a loom array alike (a scalar parameter stays on the
  host; an array parameter is computed on its device), and log Gamma, which loom lacks;
- the loops that vectorise samplers without a closed form: rejection in rounds, and
  inversion by sequential search, each round over the elements still pending only.
"""
import math

import numpy as np

from .. import _loom

_C = _loom.random


def is_array(x):
    return isinstance(x, _loom.ndarray)


# ---- draws --------------------------------------------------------------------------------
def uniform(n, cdt, dev):
    """n uniforms in [0, 1) (53 random bits in float64, 24 in float32)."""
    return _C.rand(n, dtype=cdt, device=dev)


def open_uniform(n, cdt, dev):
    """n uniforms in (0, 1), symmetric: (2k + 1) / 2^(b+1) for k < 2^b, exact in the dtype
    (b = 52 or 23), for the logarithms that must see neither 0 nor 1."""
    bits = 52 if cdt == _loom.float64 else 23
    k = _C.randint(0, 1 << bits, size=n, dtype=_loom.int64, device=dev)
    return (k * 2 + 1).astype(cdt) * (2.0 ** -(bits + 1))


def normal(n, cdt, dev):
    return _C.randn(n, dtype=cdt, device=dev)


def exponential(n, cdt, dev):
    """Standard exponentials by inversion, -log(1 - u) (never negative, never inf)."""
    return -_loom.log1p(-uniform(n, cdt, dev))


def words64(n, dev):
    """n raw uint64 words."""
    return _C.randint(0, 1 << 64, size=n, dtype=_loom.uint64, device=dev)


# ---- math on a Python float or a loom array ---------------------------------------------
def _dual(name):
    ufunc, op = getattr(np, name), getattr(_loom, name)

    def f(*xs):
        if any(is_array(x) for x in xs):
            return op(*xs)
        with np.errstate(all="ignore"):
            return float(ufunc(*xs))
    f.__name__ = name
    return f


log, log1p, expm1, exp, sqrt, floor, fabs, cos, arccos, power, minimum, maximum, fmod = (
    _dual(n) for n in ("log", "log1p", "expm1", "exp", "sqrt", "floor", "fabs", "cos", "arccos", "power",
                       "minimum", "maximum", "fmod"))


def where(cond, a, b):
    if is_array(cond):
        return _loom.where(cond, a, b)
    return a if cond else b


# Stirling's series for log Gamma(x), x >= 8: the Bernoulli terms B_2k / (2k (2k-1) x^(2k-1))
# up to k = 8 leave an error below 1e-15 there.
_STIRLING = (1 / 12, -1 / 360, 1 / 1260, -1 / 1680, 1 / 1188, -691 / 360360, 1 / 156, -3617 / 122400)
_HALF_LOG_2PI = 0.5 * math.log(2 * math.pi)


def loggam(x):
    """log Gamma(x) for x > 0 (x a float or a float array): Stirling's series at x + 8 for
    x < 8, less log(x (x+1) ... (x+7)) (Gamma(x+1) = x Gamma(x)), at x itself otherwise."""
    small = x < 8
    shift = where(small, 8.0, 0.0)
    y = x + shift
    prod = 1.0
    for i in range(8):
        prod = prod * (x + i)
    # prod overflows for large x, where `small` does not pick it.
    correction = where(small, log(where(small, prod, 1.0)), 0.0)
    inv = 1.0 / y
    inv2 = inv * inv
    series = 0.0
    for c in reversed(_STIRLING):
        series = series * inv2 + c
    return (y - 0.5) * log(y) - y + _HALF_LOG_2PI + series * inv - correction


def logfact(k):
    """log k! for integer-valued k >= 0."""
    return loggam(k + 1.0)


# ---- per-element parameters --------------------------------------------------------------
def flat(x, shape):
    """A parameter as one value per output element (flat), or the scalar itself."""
    if not is_array(x):
        return x
    return _loom.broadcast_to(x, shape).reshape(-1) if tuple(x.shape) != tuple(shape) else x.reshape(-1)


def take(params, idx):
    return [p[idx] if is_array(p) else p for p in params]


# ---- loops ---------------------------------------------------------------------------------
MAX_ROUNDS = 100_000


def rejection(fn, n, propose, params, dtype, dev):
    """n samples by rejection in rounds: propose(m, *params) gives m candidates and which
    are accepted; each later round proposes again for the rejected elements only, with
    their parameters. One host sync per round (the count still pending)."""
    if n == 0:
        return _loom.empty((0,), dtype=dtype, device=dev)
    out, ok = propose(n, *params)
    pending = _loom.flatnonzero(~ok)
    for _ in range(MAX_ROUNDS):
        m = pending.shape[0]
        if m == 0:
            return out
        cand, ok = propose(m, *take(params, pending))
        out[pending] = _loom.where(ok, cand, out[pending])
        pending = pending[_loom.flatnonzero(~ok)]
    raise RuntimeError(f"[{fn}] rejection sampling did not finish in {MAX_ROUNDS} rounds")


def search(u, x0, p0, cap, ratio, params, dev):
    """Inversion by sequential search, vectorised: for each element the smallest x >= x0
    with u <= p(x0) + ... + p(x), where p(x + 1) = p(x) * ratio(x, *params), stopping at cap
    (where the tail left is below rounding). Rounds go over the pending elements only."""
    n = u.shape[0]
    def full(v):
        return _loom.broadcast_to(v, (n,)).copy() if is_array(v) else _loom.full((n,), v, device=dev)
    x, p = full(x0), full(p0)
    s = p.copy()
    cap = flat(cap, (n,))
    pending = _loom.flatnonzero((u > s) & (x < cap))
    while pending.shape[0]:
        sub = take(params, pending)
        xi = x[pending]
        pi = p[pending] * ratio(xi, *sub)
        si = s[pending] + pi
        xi = xi + 1.0
        x[pending], p[pending], s[pending] = xi, pi, si
        ci = cap[pending] if is_array(cap) else cap
        pending = pending[_loom.flatnonzero((u[pending] > si) & (xi < ci))]
    return x


def by_mask(mask, n, when_true, when_false, params, dtype, dev):
    """Runs when_true(m, *params) for the elements where mask holds and when_false for the
    others (two methods of one distribution), each on its own elements only."""
    if not is_array(mask):
        return (when_true if mask else when_false)(n, *params)
    out = _loom.empty((n,), dtype=dtype, device=dev)
    for idx, f in ((_loom.flatnonzero(mask), when_true), (_loom.flatnonzero(~mask), when_false)):
        if idx.shape[0]:
            out[idx] = f(idx.shape[0], *take(params, idx))
    return out
