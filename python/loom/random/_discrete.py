"""Discrete distributions as loom array ops: samplers take the count n, parameters (Python
floats or flat float64 arrays of n values) and the device, and return n float64 samples of
integer value (the caller casts them). A stream must be active (_stream.py).

Small means go by inversion (sequential search, a few rounds); large ones by the
transformed-rejection methods of Hoermann (Poisson PTRS, binomial BTRS) and Stadlober's
ratio of uniforms (hypergeometric HRUA), whose cost does not grow with the mean.
"""
import math

from .. import _loom
from . import _math as m
from ._math import is_array

F64 = _loom.float64


# ---- Poisson -----------------------------------------------------------------------------------
def _poisson_search(k, lam, dev):
    u = m.uniform(k, F64, dev)
    # lam < 10: P(X >= 100) is below 1e-60, so the search stops there
    return m.search(u, 0.0, m.exp(-lam), 100.0, lambda x, lam: lam / (x + 1.0), [lam], dev)


def _ptrs_proposal(dev):
    # Hoermann (1993), "The transformed rejection method for generating Poisson random
    # variables", algorithm PTRS (lam >= 10).
    def propose(k, lam, loglam, a, b, invalpha, vr):
        u = m.uniform(k, F64, dev) - 0.5
        v = m.uniform(k, F64, dev)
        us = 0.5 - _loom.abs(u)
        x = _loom.floor((2.0 * a / us + b) * u + lam + 0.43)
        fast = (us >= 0.07) & (v <= vr)
        bound = -lam + x * loglam - m.loggam(_loom.maximum(x, 0.0) + 1.0)
        slow = (x >= 0) & ~((us < 0.013) & (v > us)) & \
            (_loom.log(v) + m.log(invalpha) - _loom.log(a / (us * us) + b) <= bound)
        return x, fast | slow
    return propose


def _poisson_ptrs(k, lam, dev):
    slam = m.sqrt(lam)
    b = 0.931 + 2.53 * slam
    a = -0.059 + 0.02483 * b
    invalpha = 1.1239 + 1.1328 / (b - 3.4)
    vr = 0.9277 - 3.6224 / (b - 2.0)
    return m.rejection("poisson", k, _ptrs_proposal(dev), [lam, m.log(lam), a, b, invalpha, vr], F64, dev)


def poisson(n, lam, dev):
    """Poisson(lam): inversion for lam < 10, PTRS above."""
    return m.by_mask(lam < 10, n, lambda k, lam: _poisson_search(k, lam, dev),
                     lambda k, lam: _poisson_ptrs(k, lam, dev), [lam], F64, dev)


# ---- binomial ----------------------------------------------------------------------------------
def _binomial_search(k, count, q, dev):
    u = m.uniform(k, F64, dev)
    p0 = m.exp(count * m.log1p(-q))
    odds = q / (1.0 - q)
    # mean count * q < 10: P(X >= 130) is below 1e-60
    cap = m.minimum(count, 130.0)
    return m.search(u, 0.0, p0, cap, lambda x, count, odds: (count - x) / (x + 1.0) * odds, [count, odds], dev)


def _btrs_proposal(dev):
    # Hoermann (1993), "The generation of binomial random variates", algorithm BTRS
    # (n p >= 10, p <= 1/2): transformed rejection with a squeeze.
    def propose(k, count, q, a, b, c, vr, alpha, lpq, mode, h):
        u = m.uniform(k, F64, dev) - 0.5
        v = m.uniform(k, F64, dev)
        us = 0.5 - _loom.abs(u)
        x = _loom.floor((2.0 * a / us + b) * u + c)
        inside = (x >= 0) & (x <= count)
        fast = (us >= 0.07) & (v <= vr)
        xc = _loom.minimum(_loom.maximum(x, 0.0), count)  # logfact's argument, where `inside` fails too
        lv = _loom.log(v * alpha / (a / (us * us) + b))
        slow = lv <= h - m.logfact(xc) - m.logfact(count - xc) + (x - mode) * lpq
        return x, inside & (fast | slow)
    return propose


def _binomial_btrs(k, count, q, dev):
    spq = m.sqrt(count * q * (1.0 - q))
    b = 1.15 + 2.53 * spq
    a = -0.0873 + 0.0248 * b + 0.01 * q
    c = count * q + 0.5
    vr = 0.92 - 4.2 / b
    alpha = (2.83 + 5.1 / b) * spq
    lpq = m.log(q / (1.0 - q))
    mode = m.floor((count + 1.0) * q)
    h = m.logfact(mode) + m.logfact(count - mode)
    params = [count, q, a, b, c, vr, alpha, lpq, mode, h]
    return m.rejection("binomial", k, _btrs_proposal(dev), params, F64, dev)


def binomial(n, count, p, dev):
    """Binomial(count, p) drawn for q = min(p, 1 - p) and mirrored: inversion when
    count q < 10, BTRS above."""
    flip = p > 0.5
    q = m.where(flip, 1.0 - p, p)
    x = m.by_mask(count * q < 10, n, lambda k, count, q: _binomial_search(k, count, q, dev),
                  lambda k, count, q: _binomial_btrs(k, count, q, dev), [count, q], F64, dev)
    if is_array(flip):
        return _loom.where(flip, count - x, x)
    return count - x if flip else x


# ---- geometric, logarithmic series, Zipf -----------------------------------------------------
def geometric(n, p, dev):
    """Trials to the first success: ceil(log u / log(1 - p)), u in (0, 1); 1 for p = 1."""
    u = m.open_uniform(n, F64, dev)
    x = _loom.maximum(_loom.ceil(_loom.log(u) / m.log1p(-m.where(p == 1, 0.5, p))), 1.0)
    if is_array(p):
        return _loom.where(p == 1, 1.0, x)
    return _loom.ones((n,), dtype=F64, device=dev) if p == 1 else x


def _logseries_proposal(dev):
    # Kemp (1981), algorithm LK.
    def propose(k, p, r):
        v = m.uniform(k, F64, dev)
        q = -_loom.expm1(r * m.open_uniform(k, F64, dev))
        tail = _loom.floor(1.0 + _loom.log(v) / _loom.log(q))
        x = _loom.where(v >= p, 1.0, _loom.where(v <= q * q, tail, _loom.where(v >= q, 1.0, 2.0)))
        bad = (v < p) & (v <= q * q) & ~((tail >= 1) & (v > 0))
        return x, ~bad
    return propose


def logseries(n, p, dev):
    return m.rejection("logseries", n, _logseries_proposal(dev), [p, m.log1p(-p)], F64, dev)


def _zipf_proposal(dev):
    # Devroye (1986), "Non-Uniform Random Variate Generation", X.6: rejection from the
    # continuous Pareto-like bound floor(u^(-1/(a-1))).
    def propose(k, am1, b):
        u = 1.0 - m.uniform(k, F64, dev)
        v = m.uniform(k, F64, dev)
        x = _loom.floor(_loom.power(u, -1.0 / am1))
        valid = (x >= 1) & (x < 2.0 ** 63)
        xs = _loom.where(valid, x, 1.0)
        t = _loom.power(1.0 + 1.0 / xs, am1)
        return x, valid & (v * xs * (t - 1.0) / (b - 1.0) <= t / b)
    return propose


def zipf(n, a, dev):
    am1 = a - 1.0
    return m.rejection("zipf", n, _zipf_proposal(dev), [am1, m.power(2.0, am1)], F64, dev)


# ---- hypergeometric ----------------------------------------------------------------------------
def _hyper_search(k, small, big, count, dev):
    # The reduced problem: `count` draws, `small` marked items among small + big.
    u = m.uniform(k, F64, dev)
    x0 = m.maximum(0.0, count - big)
    total = small + big
    lp0 = (m.logfact(small) - m.logfact(x0) - m.logfact(small - x0)
           + m.logfact(big) - m.logfact(count - x0) - m.logfact(big - count + x0)
           - m.logfact(total) + m.logfact(count) + m.logfact(total - count))
    # Where the search starts at 0 with count < 10 (the usual case), P(0) = prod (big - i) /
    # (total - i) over i < count: exact where the log-factorials of huge totals are not.
    prod = 1.0
    for i in range(10):
        prod = prod * m.where(count > i, (big - i) / m.maximum(total - i, 1.0), 1.0)
    p0 = m.where((x0 == 0) & (count < 10), prod, m.exp(lp0))
    ratio = lambda x, small, big, count: (small - x) * (count - x) / ((x + 1.0) * (big - count + x + 1.0))  # noqa: E731
    return m.search(u, x0, p0, m.minimum(count, small), ratio, [small, big, count], dev)


# Stadlober (1989): D1 = 2 sqrt(2/e), D2 = 3 - 2 sqrt(3/e), the table mountain's constants.
_D1 = 2.0 * math.sqrt(2.0 / math.e)
_D2 = 3.0 - 2.0 * math.sqrt(3.0 / math.e)


def _hrua_proposal(dev):
    def propose(k, small, big, count, a, h, g, bound):
        u = m.uniform(k, F64, dev)
        v = m.uniform(k, F64, dev)
        x = a + h * (v - 0.5) / u
        valid = (x >= 0) & (x < bound)
        kk = _loom.floor(_loom.where(valid, x, 0.0))
        t = g - (m.logfact(kk) + m.logfact(small - kk) + m.logfact(count - kk) + m.logfact(big - count + kk))
        accept = (u * (4.0 - u) - 3.0 <= t) | (~(u * (u - t) >= 1.0) & (2.0 * _loom.log(u) <= t))
        return kk, valid & accept
    return propose


def _hyper_hrua(k, small, big, count, dev):
    # Stadlober's ratio-of-uniforms method HRUA on the reduced problem (count >= 10).
    total = small + big
    p, q = small / total, big / total
    a = count * p + 0.5
    c = m.sqrt((total - count) * count * p * q / (total - 1.0) + 0.5)
    h = _D1 * c + _D2
    mode = m.floor((count + 1.0) * (small + 1.0) / (total + 2.0))
    g = m.logfact(mode) + m.logfact(small - mode) + m.logfact(count - mode) + m.logfact(big - count + mode)
    bound = m.minimum(m.minimum(count, small) + 1.0, m.floor(a + 16.0 * c))
    return m.rejection("hypergeometric", k, _hrua_proposal(dev), [small, big, count, a, h, g, bound], F64, dev)


def hypergeometric(n, good, bad, sample, dev):
    """Marked items among `sample` drawn without replacement from good marked and bad
    unmarked ones. Reduced first (as NumPy's HRUA): draws for the rarer kind and the
    smaller of sample and its complement, mapped back after; inversion when the support
    has at most 10 values (min(sample, rarer) < 10), HRUA otherwise."""
    total = good + bad
    small, big = m.minimum(good, bad), m.maximum(good, bad)
    count = m.minimum(sample, total - sample)
    x = m.by_mask(m.minimum(count, small) < 10, n, lambda k, *a: _hyper_search(k, *a, dev),
                  lambda k, *a: _hyper_hrua(k, *a, dev), [small, big, count], F64, dev)
    x = m.where(good > bad, count - x, x)
    return m.where(count < sample, good - x, x)
