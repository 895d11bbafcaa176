"""Continuous distributions as loom array ops on Philox draws. Each sampler takes the
count n, its parameters (Python floats, or flat arrays of n values) and the compute dtype
and device, and returns n samples; a stream must be active (_stream.py).

Closed forms where they exist (inversion of the CDF, or a transform of normals and
exponentials); rejection in rounds (_math.rejection) for the gamma family and von Mises.
"""
import math

from .. import _loom
from . import _math as m
from ._math import is_array


def standard_exponential(n, cdt, dev):
    return m.exponential(n, cdt, dev)


def _mt_proposal(cdt, dev):
    # Marsaglia and Tsang (2000): for shape d + 1/3 >= 1, d v^3 with v = (1 + c x)^3,
    # x normal, accepted when log u < x^2 / 2 + d - d v + d log v.
    def propose(k, d, c):
        x = m.normal(k, cdt, dev)
        v = 1.0 + c * x
        v3 = v * v * v
        u = m.uniform(k, cdt, dev)
        ok = (v > 0) & (_loom.log(u) < 0.5 * x * x + d - d * v3 + d * _loom.log(_loom.abs(v3)))
        return d * v3, ok
    return propose


def _gamma_ge1(n, a, cdt, dev):
    """Gamma(a, 1) for a >= 1."""
    d = a - 1.0 / 3.0
    c = 1.0 / m.sqrt(9.0 * d)
    return m.rejection("standard_gamma", n, _mt_proposal(cdt, dev), [d, c], cdt, dev)


def standard_gamma(n, a, cdt, dev):
    """Gamma(a, 1), a >= 0: Marsaglia-Tsang for a >= 1; for a < 1, Gamma(a + 1) u^(1/a)
    (Stuart's theorem); 0 for a = 0."""
    if not is_array(a):
        if a == 0:
            return _loom.zeros((n,), dtype=cdt, device=dev)
        if a == 1:
            return m.exponential(n, cdt, dev)
    small = a < 1
    g = _gamma_ge1(n, m.where(small, a + 1.0, a), cdt, dev)
    if is_array(small) or small:
        boost = _loom.power(m.uniform(n, cdt, dev), 1.0 / m.where(small, a, 1.0))
        g = g * m.where(small, boost, 1.0) if is_array(small) else g * boost
    return g


def log_standard_gamma(n, a, cdt, dev):
    """log Gamma(a, 1), a >= 0, without underflow for tiny a: log G(a + 1) + log(u) / a for
    a < 1 (-inf for a = 0), so that ratios of gammas (beta, Dirichlet) stay finite."""
    small = a < 1
    lg = _loom.log(_gamma_ge1(n, m.where(small, a + 1.0, a), cdt, dev))
    if is_array(small) or small:
        tail = _loom.log(m.open_uniform(n, cdt, dev)) / m.where(small, a, 1.0)
        lg = lg + (m.where(small, tail, 0.0) if is_array(small) else tail)
    return lg


def beta(n, a, b, cdt, dev):
    """X / (X + Y) for X ~ Gamma(a), Y ~ Gamma(b), formed from their logarithms."""
    la = log_standard_gamma(n, a, cdt, dev)
    lb = log_standard_gamma(n, b, cdt, dev)
    # la - log(e^la + e^lb) with log1p of the smaller ratio: exact next to 0 and to 1
    top = _loom.maximum(la, lb)
    return _loom.exp(la - top - _loom.log1p(_loom.exp(-_loom.abs(la - lb))))


def chisquare(n, df, cdt, dev):
    return 2.0 * standard_gamma(n, df / 2.0, cdt, dev)


def f(n, dfnum, dfden, cdt, dev):
    return (chisquare(n, dfnum, cdt, dev) * dfden) / (chisquare(n, dfden, cdt, dev) * dfnum)


def standard_t(n, df, cdt, dev):
    z = m.normal(n, cdt, dev)
    g = standard_gamma(n, df / 2.0, cdt, dev)
    return m.sqrt(df / 2.0) * z / _loom.sqrt(g)


def standard_cauchy(n, cdt, dev):
    return m.normal(n, cdt, dev) / m.normal(n, cdt, dev)


def pareto(n, a, cdt, dev):
    """Pareto II (Lomax) as NumPy's: exp(E / a) - 1."""
    return _loom.expm1(m.exponential(n, cdt, dev) / a)


def power(n, a, cdt, dev):
    """(1 - exp(-E))^(1/a), i.e. u^(1/a)."""
    return _loom.power(-_loom.expm1(-m.exponential(n, cdt, dev)), 1.0 / a)


def rayleigh(n, scale, cdt, dev):
    return scale * _loom.sqrt(2.0 * m.exponential(n, cdt, dev))


def weibull(n, a, cdt, dev):
    """E^(1/a); 0 for a = 0, as NumPy's."""
    if not is_array(a) and a == 0:
        return _loom.zeros((n,), dtype=cdt, device=dev)
    x = _loom.power(m.exponential(n, cdt, dev), 1.0 / m.where(a == 0, 1.0, a))
    return _loom.where(a == 0, 0.0, x) if is_array(a) else x


def gumbel(n, loc, scale, cdt, dev):
    return loc - scale * _loom.log(-_loom.log(m.open_uniform(n, cdt, dev)))


def laplace(n, loc, scale, cdt, dev):
    u = m.open_uniform(n, cdt, dev)
    return _loom.where(u >= 0.5, loc - scale * _loom.log(2.0 - 2.0 * u), loc + scale * _loom.log(2.0 * u))


def logistic(n, loc, scale, cdt, dev):
    u = m.open_uniform(n, cdt, dev)
    return loc + scale * _loom.log(u / (1.0 - u))


def lognormal(n, mean, sigma, cdt, dev):
    return _loom.exp(mean + sigma * m.normal(n, cdt, dev))


def triangular(n, left, mode, right, cdt, dev):
    """Inversion of the triangular CDF."""
    base = right - left
    ratio = (mode - left) / base
    u = m.uniform(n, cdt, dev)
    lo = left + _loom.sqrt(u * ((mode - left) * base))
    hi = right - _loom.sqrt((1.0 - u) * ((right - mode) * base))
    return _loom.where(u <= ratio, lo, hi)


def wald(n, mean, scale, cdt, dev):
    """Inverse Gaussian by Michael, Schucany and Haas (1976): a root of the chi-square
    transform, the other root mean^2 / x chosen with probability x / (mean + x)."""
    y = m.normal(n, cdt, dev)
    y = mean * y * y
    x = mean + (mean / (2.0 * scale)) * (y - _loom.sqrt(4.0 * scale * y + y * y))
    u = m.uniform(n, cdt, dev)
    return _loom.where(u <= mean / (mean + x), x, mean * mean / x)


def _vonmises_proposal(cdt, dev):
    # Best and Fisher (1979): z = cos(pi u), w = (1 + s z) / (s + z), accepted by two tests.
    def propose(k, kappa, s):
        z = _loom.cos(math.pi * m.uniform(k, cdt, dev))
        w = (1.0 + s * z) / (s + z)
        y = kappa * (s - w)
        v = m.uniform(k, cdt, dev)
        ok = (y * (2.0 - y) - v >= 0) | (_loom.log(y / v) + 1.0 - y >= 0)
        return w, ok
    return propose


def vonmises(n, mu, kappa, cdt, dev):
    """Best-Fisher rejection; uniform on the circle for kappa < 1e-8 and the wrapped normal
    N(mu, 1/kappa) for kappa > 1e6 (where the rejection loses its precision). Results lie
    in [-pi, pi]."""
    tiny, huge = kappa < 1e-8, kappa > 1e6
    ordinary = m.where(tiny, 1.0, m.where(huge, 1.0, kappa))  # stand-in where another case rules
    r = 1.0 + m.sqrt(1.0 + 4.0 * ordinary * ordinary)
    rho = (r - m.sqrt(2.0 * r)) / (2.0 * ordinary)
    # s's Taylor form below 1e-5, where rho is lost to rounding
    s = m.where(ordinary < 1e-5, 1.0 / ordinary + ordinary, (1.0 + rho * rho) / (2.0 * rho))
    w = m.rejection("vonmises", n, _vonmises_proposal(cdt, dev), [ordinary, s], cdt, dev)
    sign = _loom.where(m.uniform(n, cdt, dev) < 0.5, -1.0, 1.0).astype(cdt)
    theta = sign * _loom.arccos(_loom.clip(w, -1.0, 1.0))
    if is_array(tiny) or tiny:
        theta = _loom.where(tiny, math.pi * (2.0 * m.uniform(n, cdt, dev) - 1.0), theta)
    if is_array(huge) or huge:
        theta = _loom.where(huge, m.normal(n, cdt, dev) / m.sqrt(m.where(huge, kappa, 1.0)), theta)
    x = theta + mu
    # back into [-pi, pi], symmetrically about 0
    wrapped = _loom.fmod(_loom.abs(x) + math.pi, 2.0 * math.pi) - math.pi
    return _loom.where(x < 0, -wrapped, wrapped)
