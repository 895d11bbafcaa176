"""scipy.special.lpmv (associated Legendre functions of integer order and real degree) and
sph_harm_y (spherical harmonics), over loom's operations on any device.

The order m and degree v are read on the host (each distinct (m, v) pair is one formula
over x; SciPy's callers pass a few small numbers, x is the array). For an integer degree the
function is the three-term recurrence in the degree, started from P_m^m = (-1)^m (2m-1)!!
(1 - x^2)^(m/2), exact in the sense of floating point and stable on [-1, 1]. For a
non-integer degree it is the hypergeometric series of the Ferrers function:

    P_v^m(x) = (-1)^m (v+m)! / ((v-m)! 2^m m!) (1 - x^2)^(m/2) 2F1(m - v, m + v + 1; m + 1; (1 - x)/2),

summed until its terms no longer change the sum. Its convergence slows without bound as x
approaches -1 (where the function diverges), so a non-integer degree is computed for
x >= -0.5 only and raises NotImplementedError below (SciPy's other expansion there, with
digamma terms, is not written yet). Both carry the Condon-Shortley phase (-1)^m, as SciPy's do. A
negative degree is the same function (P_{-v-1} = P_v); a negative order is
(-1)^m Gamma(v - m + 1) / Gamma(v + m + 1) P_v^m with m = |order| and v the reflected
degree, so it is NaN where that ratio is (SciPy's lpmv(-1, -1, x) and lpmv(-1, 0, x)). A non-integer order and |x| > 1
give NaN, as SciPy's.
"""
import math

import numpy as np

import loom

from ._functions import _scipy_float

_SMALL = (loom.bool_, loom.int8, loom.uint8, loom.int16, loom.uint16, loom.float16, loom.float32)


def _host_values(a, name, who):
    """A number or array argument as a NumPy float64 array (read on the host)."""
    v = a.numpy() if isinstance(a, loom.ndarray) else np.asarray(a)
    if v.dtype.kind == "c":
        raise TypeError(f"[{who}] {name} must be real, got {v.dtype}")
    return v.astype(np.float64)


def _gamma_sign(x):
    """The sign of Gamma(x) for x not a pole (math.gamma overflows past 171; its sign does not)."""
    return 1.0 if x > 0 else (-1.0 if math.ceil(-x) % 2 else 1.0)


def _integer_degree(m, n, x):
    """P_n^m(x) for integers 0 <= m, 0 <= n (x float64 in [-1, 1])."""
    if m > n:
        return x * 0.0
    s = loom.sqrt(1.0 - x * x)
    p = loom.ones_like(x)
    for i in range(1, m + 1):
        p = p * (-(2.0 * i - 1.0)) * s
    if n == m:
        return p
    prev, cur = p, x * (2.0 * m + 1.0) * p
    for deg in range(m + 2, n + 1):
        prev, cur = cur, ((2.0 * deg - 1.0) * x * cur - (deg + m - 1.0) * prev) / (deg - m)
    return cur


def _series_degree(m, v, x):
    """P_v^m(x) for an integer m >= 0 and a non-integer v > -1, by the hypergeometric series
    (x >= -0.5: at most 0.75 for its argument, about 150 terms)."""
    low = float(loom.min(loom.where(loom.isnan(x), 0.0, x))) if x.size else 0.0
    if low < -0.5:
        raise NotImplementedError(f"[lpmv] a non-integer degree ({v}) is computed for x >= -0.5 only (its series "
                                  f"converges ever more slowly towards -1); got x = {low}")
    z = (1.0 - x) * 0.5
    a, b, c = m - v, m + v + 1.0, m + 1.0
    term = loom.ones_like(x)
    total = term
    k = 0
    while True:
        term = term * ((a + k) * (b + k) / ((c + k) * (k + 1.0))) * z
        total = total + term
        k += 1
        # Check convergence every 32 terms (one host read): terms below 1e-17 of the sum.
        if k % 32 == 0:
            big = loom.max(loom.abs(term) - 1e-17 * loom.abs(total)) if term.size else -1.0
            if not float(big) > 0 or k > 4000:
                break
    lead = (-1.0) ** m * math.exp(math.lgamma(v + m + 1.0) - math.lgamma(v - m + 1.0) - m * math.log(2.0)
                                  - math.lgamma(m + 1.0))
    return lead * _gamma_sign(v - m + 1.0) * (1.0 - x * x) ** (0.5 * m) * total


def _one_pair(m, v, x):
    """P_v^m(x) for host numbers m (integer-valued) and v."""
    if not math.isfinite(v) or m != math.floor(m):
        return x * math.nan
    m = int(m)
    deg = -v - 1.0 if v < 0 else v  # P_{-v-1} = P_v
    k = abs(m)
    if deg == math.floor(deg):
        p = _integer_degree(k, int(deg), x)
    else:
        p = _series_degree(k, deg, x)
    if m < 0:
        # (-1)^k Gamma(v - k + 1) / Gamma(v + k + 1) of the reflected degree: NaN at its poles
        num, den = deg - k + 1.0, deg + k + 1.0
        if (num <= 0 and num == math.floor(num)) or (den <= 0 and den == math.floor(den)):
            return x * math.nan
        ratio = math.exp(math.lgamma(num) - math.lgamma(den))
        ratio *= _gamma_sign(num) * _gamma_sign(den)
        p = p * ((-1.0) ** k * ratio)
    return p


def lpmv(m, v, x):
    """scipy.special.lpmv: the associated Legendre function P_v^m(x) of integer order m and
    real degree v, with the Condon-Shortley phase, for -1 <= x <= 1 (NaN outside)."""
    xa = x if isinstance(x, loom.ndarray) else loom.asarray(x)
    if xa.dtype.kind == "c":
        raise TypeError(f"[lpmv] x must be real, got {xa.dtype}")
    # SciPy's loops are float32 then float64: float32 where every argument casts to it safely,
    # with NumPy's weak Python scalars (a Python int beside a bool array is int64, a Python
    # float beside an integer array float64).
    scalars = [a for a in (m, v) if not isinstance(a, (loom.ndarray, np.ndarray, np.generic))]
    small = all(a.dtype in _SMALL for a in (m, v, xa) if isinstance(a, loom.ndarray))
    if xa.dtype.kind in "biu" and any(isinstance(a, float) for a in scalars):
        small = False
    if xa.dtype == loom.bool_ and scalars:
        small = False
    out_dtype = loom.float32 if small and xa.dtype in _SMALL else loom.float64
    mh, vh = _host_values(m, "m", "lpmv"), _host_values(v, "v", "lpmv")
    shape = np.broadcast_shapes(mh.shape, vh.shape, tuple(xa.shape))
    x64 = loom.broadcast_to(_scipy_float(xa).astype(loom.float64), shape)
    mb, vb = np.broadcast_to(mh, shape), np.broadcast_to(vh, shape)
    pairs = np.unique(np.stack([mb.ravel(), vb.ravel()], axis=1), axis=0) if mb.size else np.zeros((0, 2))
    result = None
    for mi, vi in pairs:
        p = _one_pair(float(mi), float(vi), x64)
        if len(pairs) == 1:
            result = p
            break
        here = loom.asarray((mb == mi) & (vb == vi), device=x64.device)
        result = loom.where(here, p, result if result is not None else p)
    if result is None:
        result = loom.zeros(shape, dtype=loom.float64, device=x64.device)
    result = loom.where(loom.abs(x64) > 1.0, math.nan, result)
    return result.astype(out_dtype)


def sph_harm_y(n, m, theta, phi):
    """scipy.special.sph_harm_y: the spherical harmonic Y_n^m(theta, phi) of integer degree n
    and order m (theta the polar angle, phi the azimuth), complex128, 0 where |m| > n:
    sqrt((2n + 1) / (4 pi) (n - m)! / (n + m)!) P_n^m(cos theta) exp(i m phi)."""
    nh, mh = _host_values(n, "n", "sph_harm_y"), _host_values(m, "m", "sph_harm_y")
    if np.any(nh != np.floor(nh)) or np.any(mh != np.floor(mh)):
        raise TypeError("[sph_harm_y] n and m must be integers (SciPy's ufunc takes no other types)")
    th = _scipy_float(theta if isinstance(theta, loom.ndarray) else loom.asarray(theta)).astype(loom.float64)
    ph = _scipy_float(phi if isinstance(phi, loom.ndarray) else loom.asarray(phi, device=th.device)).astype(loom.float64)
    shape = np.broadcast_shapes(nh.shape, mh.shape, tuple(th.shape), tuple(ph.shape))
    th, ph = loom.broadcast_to(th, shape), loom.broadcast_to(ph, shape)
    nb, mb = np.broadcast_to(nh, shape), np.broadcast_to(mh, shape)
    pairs = np.unique(np.stack([nb.ravel(), mb.ravel()], axis=1), axis=0) if nb.size else np.zeros((0, 2))
    c = loom.cos(th)
    result = loom.zeros(shape, dtype=loom.complex128, device=th.device)
    for ni, mi in pairs:
        ni, mi = int(ni), int(mi)
        k = abs(mi)
        if k > ni or ni < 0:
            continue  # zero, as SciPy's
        norm = math.sqrt((2 * ni + 1) / (4 * math.pi) * math.exp(math.lgamma(ni - k + 1) - math.lgamma(ni + k + 1)))
        y = (norm * _integer_degree(k, ni, c)) * loom.exp(1j * k * ph)
        if mi < 0:
            y = (-1.0) ** k * loom.conj(y)  # Y_n^{-m} = (-1)^m conj(Y_n^m)
        here = loom.asarray((nb == ni) & (mb == mi), device=th.device)
        result = loom.where(here, y, result)
    return result
