"""scipy.special's functions that are short formulas over the op-table rows and loom's ufuncs
(so jit fuses them and grad differentiates them): reciprocal and sign of gamma, Pochhammer's
symbol, binomial coefficients, Box-Cox transforms, degree-argument trigonometry, Huber
losses, softplus, multigammaln, and SciPy's names for a few NumPy ufuncs. Arguments take
SciPy's dtypes (float32 stays float32, the rest float64)."""
import math

import loom

from . import _functions as _f
from ._functions import _scipy_float

_PI = math.pi


def _args(*xs):
    """The arguments in SciPy's loop dtype (float64 if any is float64, else float32)."""
    arrays = [_scipy_float(x) for x in xs]
    dt = loom.float64 if any(a.dtype == loom.float64 for a in arrays) else loom.float32
    return [a if a.dtype == dt else a.astype(dt) for a in arrays]


_FITS_FLOAT32 = ("bool", "int8", "uint8", "int16", "uint16", "float16", "bfloat16", "float32")


def _args_f_first(*xs):
    """The arguments in the loop dtype of a function whose float32 loop SciPy lists first:
    float32 when every argument casts to it safely (float16, bool, 8/16-bit integers too)."""
    arrays = [x if isinstance(x, loom.ndarray) else loom.asarray(x) for x in xs]
    if all(a.dtype.name in _FITS_FLOAT32 for a in arrays):
        return [a.astype(loom.float32) for a in arrays]
    return _args(*arrays)


def gammasgn(x):
    """The sign of gamma(x): 1 above 0, the sign of zero at +-0, alternating between the
    negative integers (NaN at them), as scipy.special.gammasgn."""
    (x,) = _args(x)
    fl = loom.floor(x)
    neg = loom.where(x == fl, loom.nan, loom.where(loom.remainder(fl, 2) == 0, 1.0, -1.0))
    sign = loom.where(x > 0, 1.0, loom.where(x == 0, loom.copysign(1.0, x), neg))
    return loom.where(loom.isnan(x), loom.nan, sign).astype(x.dtype)


def rgamma(x):
    """1 / gamma(x), 0 at the poles (an entire function), as scipy.special.rgamma."""
    (x,) = _args(x)
    g = _f.gamma(x)
    return loom.where(loom.isnan(g) & loom.isfinite(x), 0.0, 1.0 / g).astype(x.dtype)


def poch(z, m):
    """Pochhammer's rising factorial gamma(z + m) / gamma(z), as scipy.special.poch."""
    z, m = _args_f_first(z, m)
    s = gammasgn(z + m) * gammasgn(z)
    return s * loom.exp(_f.gammaln(z + m) - _f.gammaln(z))


def binom(n, k):
    """The binomial coefficient as a real function, 1 / ((n + 1) B(n - k + 1, k + 1)), as
    scipy.special.binom for n > -1 (SciPy's exact products for negative integer-valued cases
    are not reproduced)."""
    n, k = _args_f_first(n, k)
    return 1.0 / ((n + 1.0) * _f.beta(n - k + 1.0, k + 1.0))


def boxcox(x, lmbda):
    """(x**lmbda - 1) / lmbda, log(x) at lmbda = 0."""
    x, lmbda = _args_f_first(x, lmbda)
    zero = lmbda == 0
    return loom.where(zero, loom.log(x), loom.expm1(lmbda * loom.log(x)) / loom.where(zero, 1.0, lmbda))


def boxcox1p(x, lmbda):
    """boxcox(1 + x, lmbda), accurate for small x."""
    x, lmbda = _args_f_first(x, lmbda)
    zero = lmbda == 0
    return loom.where(zero, loom.log1p(x), loom.expm1(lmbda * loom.log1p(x)) / loom.where(zero, 1.0, lmbda))


def inv_boxcox(y, lmbda):
    """The x with boxcox(x, lmbda) = y."""
    y, lmbda = _args_f_first(y, lmbda)
    zero = lmbda == 0
    return loom.where(zero, loom.exp(y), loom.exp(loom.log1p(lmbda * y) / loom.where(zero, 1.0, lmbda)))


def inv_boxcox1p(y, lmbda):
    """The x with boxcox1p(x, lmbda) = y."""
    y, lmbda = _args_f_first(y, lmbda)
    zero = lmbda == 0
    return loom.where(zero, loom.expm1(y), loom.expm1(loom.log1p(lmbda * y) / loom.where(zero, 1.0, lmbda)))


def cosm1(x):
    """cos(x) - 1 without cancellation near 0: -2 sin(x/2)**2."""
    (x,) = _args(x)
    s = loom.sin(x * 0.5)
    return -2.0 * s * s


def _degrees(x, period):
    """x reduced into [0, period) degrees (exactly: fmod), and the angle in radians."""
    r = loom.remainder(x, period)
    return r, r * (_PI / 180.0)


def sindg(x):
    """sin of x degrees, exactly 0 at multiples of 180."""
    (x,) = _args(x)
    r, a = _degrees(x, 360.0)
    return loom.where(loom.remainder(r, 180.0) == 0, 0.0, loom.sin(a)).astype(x.dtype)


def cosdg(x):
    """cos of x degrees, exactly 0 at odd multiples of 90."""
    (x,) = _args(x)
    r, a = _degrees(x, 360.0)
    return loom.where(loom.remainder(r, 180.0) == 90.0, 0.0, loom.cos(a)).astype(x.dtype)


def tandg(x):
    """tan of x degrees (exact 0 at multiples of 180, +-1 at 45 + k 90, inf at 90 + k 180)."""
    (x,) = _args(x)
    r, a = _degrees(x, 180.0)
    exact = loom.where(r == 0, 0.0, loom.where(r == 45.0, 1.0, loom.where(r == 135.0, -1.0, loom.nan)))
    t = loom.where(r == 90.0, loom.inf, loom.tan(a))
    return loom.where(loom.isnan(exact), t, exact).astype(x.dtype)


def cotdg(x):
    """cot of x degrees, 1 / tandg(x) (inf at multiples of 180, 0 at 90 + k 180)."""
    (x,) = _args(x)
    r, a = _degrees(x, 180.0)
    exact = loom.where(r == 90.0, 0.0, loom.where(r == 45.0, 1.0, loom.where(r == 135.0, -1.0, loom.nan)))
    c = loom.where(r == 0, loom.inf, 1.0 / loom.tan(a))
    return loom.where(loom.isnan(exact), c, exact).astype(x.dtype)


def radian(d, m, s):
    """d degrees, m arcminutes and s arcseconds in radians."""
    d, m, s = _args(d, m, s)
    return (d + m / 60.0 + s / 3600.0) * (_PI / 180.0)


def exp10(x):
    """10**x."""
    (x,) = _args(x)
    return loom.power(10.0, x).astype(x.dtype)


def _in_scipy_dtype(ufunc, name, doc, args=_args):
    """SciPy's name for a loom ufunc, applied in SciPy's loop dtype."""
    def f(x):
        (x,) = args(x)
        return ufunc(x)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = doc
    return f


exp2 = _in_scipy_dtype(loom.exp2, "exp2", "2**x.")
cbrt = _in_scipy_dtype(loom.cbrt, "cbrt", "The real cube root.")
log1p = _in_scipy_dtype(loom.log1p, "log1p", "log(1 + x) (real arguments).")
expm1 = _in_scipy_dtype(loom.expm1, "expm1", "exp(x) - 1 (real arguments).")
round = _in_scipy_dtype(loom.rint, "round",  # noqa: A001 - SciPy's name
                        "x rounded to the nearest integer, halves to even (scipy.special.round).", _args_f_first)


def softplus(x):
    """log(1 + exp(x)) without overflow (scipy.special.softplus)."""
    (x,) = _args(x)
    return loom.logaddexp(0.0, x)


def huber(delta, r):
    """r**2 / 2 where |r| <= delta, else delta (|r| - delta / 2); inf for delta < 0."""
    delta, r = _args_f_first(delta, r)
    a = loom.abs(r)
    v = loom.where(a <= delta, 0.5 * r * r, delta * (a - 0.5 * delta))
    return loom.where(delta < 0, loom.inf, v)


def pseudo_huber(delta, r):
    """delta**2 (sqrt(1 + (r / delta)**2) - 1); 0 at delta = 0, inf for delta < 0."""
    delta, r = _args_f_first(delta, r)
    zero = delta == 0
    q = r / loom.where(zero, 1.0, delta)
    v = delta * delta * (loom.sqrt(1.0 + q * q) - 1.0)
    return loom.where(delta < 0, loom.inf, loom.where(zero, 0.0, v))


def multigammaln(a, d):
    """log of the multivariate gamma function of dimension d (an int), in float64 as SciPy's:
    d (d - 1) / 4 log(pi) + sum over j < d of gammaln(a - j / 2). As SciPy, a must exceed
    (d - 1) / 2 everywhere (checked with one host read: ValueError)."""
    if int(d) != d or d < 1:
        raise ValueError(f"[multigammaln] d should be a positive integer (dimension), got {d!r}")
    d = int(d)
    a = _scipy_float(a).astype(loom.float64)  # SciPy's result is float64 for every input
    if bool(loom.any(a <= 0.5 * (d - 1))):
        raise ValueError(f"[multigammaln] condition a ({a}) > 0.5 * (d-1) ({0.5 * (d - 1)}) not met")
    total = d * (d - 1) * 0.25 * math.log(_PI)
    for j in range(d):
        total = total + _f.gammaln(a - 0.5 * j)
    return total


def exprel(x):
    """(exp(x) - 1) / x, 1 at 0 (scipy.special.exprel)."""
    (x,) = _args(x)
    safe = loom.where(x == 0, 1.0, x)
    value = loom.where(x == loom.inf, loom.inf, loom.expm1(x) / safe)  # inf / inf is inf here
    return loom.where(x == 0, 1.0, value).astype(x.dtype)


def zetac(x):
    """zeta(x) - 1 without the cancellation near 1: the Hurwitz zeta from 2 above x = 1
    (scipy.special.zetac)."""
    (x,) = _args(x)
    above = _f.zeta(loom.where(x > 1, loom.where(x == loom.inf, 2.0, x), 2.0), 2.0)
    below = _f.zeta(loom.where(x > 1, 0.5, x)) - 1.0
    return loom.where(x == loom.inf, 0.0, loom.where(x > 1, above, below)).astype(x.dtype)


def loggamma(x):
    """log(gamma(x)) for real x > 0, NaN below 0 (scipy.special.loggamma of real arguments;
    complex ones are not taken)."""
    (x,) = _args(x)
    return loom.where(x < 0, loom.nan, _f.gammaln(x)).astype(x.dtype)
