"""The elementwise functions of loom.scipy.special: the op table's special rows (bound in
loom._loom._special) under SciPy's names, and SciPy's other elementwise names over them."""
import loom
from loom import _loom

_rows = _loom._special

# The op table's rows, SciPy's ufuncs one for one.
erfc = _rows.erfc
erfinv = _rows.erfinv
erfcinv = _rows.erfcinv
ndtr = _rows.ndtr
ndtri = _rows.ndtri
log_ndtr = _rows.log_ndtr
gamma = _rows.gamma
gammaln = _rows.gammaln
digamma = _rows.digamma
psi = _rows.digamma
gammainc = _rows.gammainc
gammaincc = _rows.gammaincc
beta = _rows.beta
betaln = _rows.betaln
betainc = _rows.betainc
expit = _rows.expit
logit = _rows.logit
log_expit = _rows.log_expit
xlogy = _rows.xlogy
xlog1py = _rows.xlog1py
entr = _rows.entr
rel_entr = _rows.rel_entr
kl_div = _rows.kl_div
i0e = _rows.i0e
i1e = _rows.i1e
j0 = _rows.j0
j1 = _rows.j1
y0 = _rows.y0
y1 = _rows.y1


def _scipy_float(x):
    """x in SciPy's loop dtype: float32 stays, every other real dtype becomes float64."""
    x = x if isinstance(x, loom.ndarray) else loom.asarray(x)
    if x.dtype.kind == "c":
        raise TypeError(f"scipy.special on loom arrays takes real arguments, not {x.dtype}")
    return x if x.dtype in (loom.float32, loom.float64) else x.astype(loom.float64)


def erf(x, out=None):
    """scipy.special.erf: the error function, in SciPy's dtypes (loom.erf keeps NumPy's)."""
    return loom.erf(_scipy_float(x), out=out)


def _into(out, r):
    """r written into out= (a loom array of r's shape), or r itself."""
    if out is None:
        return r
    loom.copyto(out, r)
    return out


def i0(x, out=None):
    """scipy.special.i0: the modified Bessel function of order 0 (numpy.i0's values)."""
    return _into(out, loom.i0(_scipy_float(x)))


def i1(x, out=None):
    """scipy.special.i1: the modified Bessel function of order 1, as i1e(x) * exp(|x|) in
    float64 (float32's exp overflows before i1 does), rounded to x's dtype."""
    x = _scipy_float(x)
    wide = x.astype(loom.float64)
    return _into(out, (_rows.i1e(wide) * loom.exp(loom.abs(wide))).astype(x.dtype))


def polygamma(n, x, out=None):
    """scipy.special.polygamma: the n-th derivative of the digamma function (n >= 0 integer)."""
    return _rows.polygamma(n, x, out=out)


def zeta(x, q=None, out=None):
    """scipy.special.zeta: Riemann's zeta of x without q, else the Hurwitz zeta sum (q + k)**-x."""
    if q is None:
        return _rows.riemann_zeta(x, out=out)
    return _rows.zeta(x, q, out=out)


def sinc(x):
    """numpy.sinc, which scipy.special's users reach here too: sin(pi x) / (pi x)."""
    return loom.sinc(x)
