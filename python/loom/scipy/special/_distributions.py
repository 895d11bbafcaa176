"""scipy.special's distribution functions (the cephes names: binomial bdtr, chi-square chdtr,
F fdtr, gamma gdtr, negative binomial nbdtr, Poisson pdtr, with their complements and
inverses) and the inverses of the regularized incomplete gamma and beta functions they need.

The distributions are SciPy's formulas over the op table's gammainc/gammaincc/betainc, with
SciPy's domain rules (NaN outside it, its values at the edges). The inverses find x by
bisection on log(x), elementwise on the arrays' device: 64 halvings of an interval of about
1,500 in log(x) leave a relative error near 1e-16 in x, with no host reads and no data-
dependent loop, so the search runs the same on cpu() and every GPU (and under jit). grad
treats the inverses as constants (a bisection has no useful derivative)."""
import functools

import numpy as np

import loom

from . import _functions as _f

# SciPy's loops of each function, in SciPy 1.17's order (used when SciPy is not installed):
# NumPy takes a loop of exactly the arguments' types, else the first one that every argument
# casts to safely, so float16 and small integers compute in float32 where 'f' comes first and
# in float64 where 'd' does.
_LOOPS = {
    "chdtr": "ff->f dd->d", "chdtrc": "ff->f dd->d", "chdtri": "ff->f dd->d",
    "pdtr": "ff->f dd->d", "pdtrc": "ff->f dd->d", "pdtri": "ld->d ff->f dd->d",
    "gdtr": "fff->f ddd->d", "gdtrc": "fff->f ddd->d",
    "fdtr": "fff->f ddd->d", "fdtrc": "fff->f ddd->d", "fdtri": "fff->f ddd->d",
    "bdtr": "fff->f dld->d ddd->d", "bdtrc": "fff->f dld->d ddd->d", "bdtri": "fff->f dld->d ddd->d",
    "nbdtr": "lld->d fff->f ddd->d", "nbdtrc": "lld->d fff->f ddd->d", "nbdtri": "lld->d fff->f ddd->d",
    "gammaincinv": "dd->d ff->f", "gammainccinv": "dd->d ff->f", "betaincinv": "fff->f ddd->d",
}
_CHARS = {"f": loom.float32, "d": loom.float64, "l": loom.int64}


@functools.lru_cache(maxsize=None)
def _loops(name):
    """SciPy's loops of `name` as (inputs, output) pairs: the installed SciPy's own order when
    there is one (it has changed between versions), else the table above (SciPy 1.17's)."""
    try:
        import scipy.special  # lazy: optional; when installed, its loop order is the one to match
        types = getattr(scipy.special, name).types
    except (ImportError, AttributeError):
        types = _LOOPS[name].split()
    return tuple(tuple(t.split("->")) for t in types if set(t) <= set("fdl->"))


def _fits(arg, char, weak):
    """Whether arg casts safely to the loop type `char` (a Python number is weak: any int
    fits, a float fits the float loops), as NumPy's ufunc type resolution decides."""
    if weak:
        return not isinstance(arg, float) or char in "fd"
    return np.can_cast(np.dtype(arg.dtype.name), np.dtype(char), "safe")


def _args(name, *args):
    """The arguments broadcast together in float64 (SciPy's loops compute in double, the
    float ones too), and the output dtype of the first of SciPy's loops of `name` that takes
    them; TypeError (SciPy's) when no loop takes them."""
    weak = [isinstance(a, (bool, int, float)) for a in args]
    # Host values go where the loom arrays are (the default device may be another).
    dev = next((a.device for a in args if isinstance(a, loom.ndarray)), None)
    if all(weak):  # numbers alone are int64 and float64 arrays, as NumPy makes them
        args, weak = [loom.asarray(a) for a in args], [False] * len(args)
    else:
        args = [a if w or isinstance(a, loom.ndarray) else loom.asarray(a, device=dev) for a, w in zip(args, weak)]
    loops = _loops(name)
    # NumPy takes a loop of exactly the arguments' types first, else the first they cast to.
    exact = [lp for lp in loops if all(w or np.dtype(a.dtype.name).char == c for a, c, w in zip(args, lp[0], weak))]
    for ins, out in exact + list(loops):
        if all(_fits(a, c, w) for a, c, w in zip(args, ins, weak)):
            dev = next(a.device for a, w in zip(args, weak) if not w)
            wide = [loom.asarray(a, dtype=loom.float64, device=dev) if w else a.astype(loom.float64)
                    for a, w in zip(args, weak)]
            return loom.broadcast_arrays(*wide), _CHARS[out]
    kinds = ", ".join(str(a.dtype) if not w else type(a).__name__ for a, w in zip(args, weak))
    raise TypeError(f"ufunc '{name}' not supported for the input types ({kinds})")


def _scipy_loops(fn):
    """fn (float64 arrays in, a float64 result out) under SciPy's loop choice of its name."""
    @functools.wraps(fn)
    def call(*args):
        xs, dt = _args(fn.__name__, *args)
        return fn(*xs).astype(dt)
    return call


_HALVINGS = 64
_LOG_TINY = -745.0  # log of the smallest positive float64 (a denormal)


def _bisect_log(increasing, y, lo, hi):
    """x in [exp(lo), exp(hi)] with increasing(x) = y, elementwise."""
    lo, hi = loom.zeros_like(y) + lo, loom.zeros_like(y) + hi
    for _ in range(_HALVINGS):
        mid = 0.5 * (lo + hi)
        below = increasing(loom.exp(mid)) < y
        lo = loom.where(below, mid, lo)
        hi = loom.where(below, hi, mid)
    return loom.exp(0.5 * (lo + hi))


def _gamma_top(a):
    """log of an x beyond which gammaincc(a, x) underflows to 0 for every a."""
    return loom.log(a + 50.0 * loom.sqrt(a) + 800.0)


@_scipy_loops
def gammaincinv(a, y):
    """The x with gammainc(a, x) = y (scipy.special.gammaincinv)."""
    safe_a = loom.where(a > 0, a, 1.0)
    x = _bisect_log(lambda t: _f.gammainc(safe_a, t), y, _LOG_TINY, _gamma_top(safe_a))
    x = loom.where(y == 0, 0.0, loom.where(y == 1, loom.inf, x))
    bad = (a < 0) | (y < 0) | (y > 1) | loom.isnan(a) | loom.isnan(y) | ((a == 0) & (y < 1))
    return loom.where(bad, loom.nan, x)


@_scipy_loops
def gammainccinv(a, y):
    """The x with gammaincc(a, x) = y (scipy.special.gammainccinv)."""
    safe_a = loom.where(a > 0, a, 1.0)
    # gammaincc decreases in x: bisect on its negative, which increases.
    x = _bisect_log(lambda t: -_f.gammaincc(safe_a, t), -y, _LOG_TINY, _gamma_top(safe_a))
    x = loom.where(y == 1, 0.0, loom.where(y == 0, loom.inf, x))
    bad = (a < 0) | (y < 0) | (y > 1) | loom.isnan(a) | loom.isnan(y) | ((a == 0) & (y > 0) & (y < 1))
    return loom.where(bad, loom.nan, x)


@_scipy_loops
def betaincinv(a, b, y):
    """The x in [0, 1] with betainc(a, b, x) = y (scipy.special.betaincinv)."""
    ok = (a > 0) & (b > 0) & loom.isfinite(a)
    safe_a, safe_b = loom.where(ok, a, 1.0), loom.where(ok & loom.isfinite(b), b, 1.0)
    x = _bisect_log(lambda t: _f.betainc(safe_a, safe_b, t), y, _LOG_TINY, 0.0)
    x = loom.where(y == 0, 0.0, loom.where(y == 1, 1.0, x))
    x = loom.where(ok & (b == loom.inf), 0.0, x)  # all mass at 0
    bad = ~ok | (y < 0) | (y > 1) | loom.isnan(b) | loom.isnan(y)
    return loom.where(bad, loom.nan, x)


def _nan_where(bad, value):
    return loom.where(bad, loom.nan, value)


# ---- chi-square and Poisson -------------------------------------------------------------

@_scipy_loops
def chdtr(v, x):
    """The chi-square distribution's CDF with v degrees of freedom at x."""
    return _nan_where(x < 0, _f.gammainc(v / 2, x / 2))


@_scipy_loops
def chdtrc(v, x):
    """1 - chdtr(v, x)."""
    return _nan_where(x < 0, _f.gammaincc(v / 2, x / 2))


@_scipy_loops
def chdtri(v, y):
    """The x with chdtrc(v, x) = y."""
    return 2 * gammainccinv(v / 2, y)


@_scipy_loops
def pdtr(k, m):
    """The Poisson distribution's CDF: the chance of at most floor(k) events at mean m."""
    r = loom.where(m == 0, 1.0, _f.gammaincc(loom.floor(k) + 1, m))
    return _nan_where((k < 0) | (m < 0), r)


@_scipy_loops
def pdtrc(k, m):
    """1 - pdtr(k, m)."""
    r = loom.where(m == 0, 0.0, _f.gammainc(loom.floor(k) + 1, m))
    return _nan_where((k < 0) | (m < 0), r)


@_scipy_loops
def pdtri(k, y):
    """The mean m with pdtr(k, m) = y (k truncated to an integer)."""
    return _nan_where((k < 0) | (y < 0) | (y >= 1), gammainccinv(loom.trunc(k) + 1, y))


# ---- gamma and F --------------------------------------------------------------------------

@_scipy_loops
def gdtr(a, b, x):
    """The gamma distribution's CDF (rate a, shape b) at x."""
    return _nan_where(x < 0, _f.gammainc(b, a * x))


@_scipy_loops
def gdtrc(a, b, x):
    """1 - gdtr(a, b, x)."""
    return _nan_where(x < 0, _f.gammaincc(b, a * x))


@_scipy_loops
def fdtr(a, b, x):
    """The F distribution's CDF with dfn and dfd degrees of freedom at x."""
    w = a * x
    r = loom.where(loom.isinf(x), 1.0, _f.betainc(a / 2, b / 2, w / (b + w)))
    return _nan_where((a <= 0) | (b <= 0) | (x < 0), r)


@_scipy_loops
def fdtrc(a, b, x):
    """1 - fdtr(dfn, dfd, x)."""
    r = loom.where(loom.isinf(x), 0.0, _f.betainc(b / 2, a / 2, b / (b + a * x)))
    return _nan_where((a <= 0) | (b <= 0) | (x < 0), r)


@_scipy_loops
def fdtri(a, b, p):
    """The x with fdtr(dfn, dfd, x) = p, by SciPy's choice of the better-conditioned tail."""
    q = 1 - p
    # The probability at w = 1/2 tells which half the root lies in: below it, (b - b*w) is
    # exact; above it the other tail is solved so that 1 - w does not cancel.
    p_mid = _f.betainc(b / 2, a / 2, loom.full_like(p, 0.5))
    lower = (p_mid > q) | (q < 0.001)
    w_lo = betaincinv(b / 2, a / 2, q)
    w_hi = betaincinv(a / 2, b / 2, p)
    x = loom.where(lower, (b - b * w_lo) / (a * w_lo), b * w_hi / (a * (1 - w_hi)))
    x = loom.where(p == 1, loom.inf, x)
    return _nan_where((a <= 0) | (b <= 0) | (p <= 0) | (p > 1), x)


# ---- binomial and negative binomial ---------------------------------------------------------

@_scipy_loops
def bdtr(k, n, p):
    """The binomial distribution's CDF: at most floor(k) successes in n trials of chance p."""
    fk = loom.floor(k)
    dn = n - fk
    r = loom.where(fk == n, 1.0,
                   loom.where(fk == 0, (1 - p) ** dn, _f.betainc(loom.where(dn > 0, dn, 1.0), fk + 1, 1 - p)))
    return _nan_where((p < 0) | (p > 1) | (fk < 0) | (n < fk) | loom.isnan(k) | loom.isnan(n), r)


@_scipy_loops
def bdtrc(k, n, p):
    """1 - bdtr(k, n, p)."""
    fk = loom.floor(k)
    dn = n - fk
    first = loom.where(p < 0.01, -loom.expm1(dn * loom.log1p(-p)), 1 - (1 - p) ** dn)
    r = loom.where(fk == 0, first, _f.betainc(fk + 1, loom.where(dn > 0, dn, 1.0), p))
    r = loom.where(fk < 0, 1.0, loom.where(fk >= n, 0.0, r))
    return _nan_where((p < 0) | (p > 1) | loom.isnan(k) | loom.isnan(n), r)


@_scipy_loops
def bdtri(k, n, y):
    """The chance p with bdtr(k, n, p) = y."""
    fk = loom.floor(k)
    dn = loom.where(n > fk, n - fk, 1.0)
    first = loom.where(y > 0.8, -loom.expm1(loom.log1p(y - 1) / dn), 1 - y ** (1 / dn))
    dk = fk + 1
    upper = _f.betainc(dn, dk, loom.full_like(y, 0.5)) > 0.5
    p = loom.where(upper, betaincinv(dk, dn, 1 - y), 1 - betaincinv(dn, dk, y))
    p = loom.where(fk == 0, first, p)
    return _nan_where((y < 0) | (y > 1) | (fk < 0) | (n <= fk), p)


@_scipy_loops
def nbdtr(k, n, p):
    """The negative binomial CDF: at most k failures before the n-th success of chance p."""
    return _nan_where((p < 0) | (p > 1) | (k < 0) | (n <= 0), _f.betainc(n, k + 1, p))


@_scipy_loops
def nbdtrc(k, n, p):
    """1 - nbdtr(k, n, p)."""
    return _nan_where((p < 0) | (p > 1) | (k < 0) | (n <= 0), _f.betainc(k + 1, n, 1 - p))


@_scipy_loops
def nbdtri(k, n, y):
    """The chance p with nbdtr(k, n, p) = y."""
    # cephes answers y = 0 and y = 1 before it looks at n (so n <= 0 gives 0 and 1 there)
    p = loom.where(y == 0, 0.0, loom.where(y == 1, 1.0, betaincinv(loom.where(n > 0, n, 1.0), k + 1, y)))
    return _nan_where((y < 0) | (y > 1) | (k < 0) | ((n <= 0) & (y > 0) & (y < 1)), p)
