"""scipy.special on loom arrays: SciPy's names and semantics on cpu() and every GPU.

The elementwise functions are rows of loom's op table (graph/op_table.h, computed by
common/loom_special.cuh): ufuncs with broadcasting, weak Python scalars, out=, where= and
dtype=, which jit fuses and grad differentiates. Their dtypes are SciPy's: float32 stays
float32, every other real dtype (bool, integers, float16) computes in float64; complex
arguments raise TypeError. The rest (softmax, logsumexp, zeta without q, ...) are written
over loom's operations here; lpmv and sph_harm_y read their integer orders and degrees on the
host (_legendre.py); the distribution functions (bdtr, chdtr, fdtr, gdtr, nbdtr, pdtr, their
complements and inverses) and gammaincinv, gammainccinv, betaincinv are in _distributions.py.

grad differentiates each function in its argument x and, for the two-variable ones
(xlogy, xlog1py, rel_entr, kl_div, beta, betaln), in both. polygamma's n, zeta's exponent x
and the parameters a, b of gammainc, gammaincc and betainc are constants to grad (no
cotangent), as JAX's rules for most of them are.
"""
from ._functions import (beta, betainc, betaln, digamma, entr, erf, erfc, erfcinv, erfinv, expit, gamma, gammainc,
                         gammaincc, gammaln, i0, i0e, i1, i1e, j0, j1, kl_div, log_expit, log_ndtr, logit, ndtr, ndtri,
                         polygamma, psi, rel_entr, sinc, xlog1py, xlogy, y0, y1, zeta)
from ._logsumexp import log_softmax, logsumexp, softmax
from ._distributions import (bdtr, bdtrc, bdtri, betaincinv, chdtr, chdtrc, chdtri, fdtr, fdtrc, fdtri, gammainccinv,
                             gammaincinv, gdtr, gdtrc, nbdtr, nbdtrc, nbdtri, pdtr, pdtrc, pdtri)
from ._legendre import lpmv, sph_harm_y
from ._composites import (binom, boxcox, boxcox1p, cbrt, cosdg, cosm1, cotdg, exp2, exp10, expm1, exprel, gammasgn,
                          huber, inv_boxcox, inv_boxcox1p, log1p, loggamma, multigammaln, poch, pseudo_huber, radian,
                          rgamma, round, sindg, softplus, tandg, zetac)

__all__ = ["beta", "betainc", "betaln", "digamma", "entr", "erf", "erfc", "erfcinv", "erfinv", "expit", "gamma",
           "gammainc", "gammaincc", "gammaln", "i0", "i0e", "i1", "i1e", "j0", "j1", "kl_div", "log_expit",
           "log_ndtr", "log_softmax", "logit", "logsumexp", "ndtr", "ndtri", "polygamma", "psi", "rel_entr", "sinc",
           "softmax", "xlog1py", "xlogy", "y0", "y1", "zeta",
           "binom", "boxcox", "boxcox1p", "cbrt", "cosdg", "cosm1", "cotdg", "exp2", "exp10", "expm1", "gammasgn",
           "huber", "inv_boxcox", "inv_boxcox1p", "log1p", "multigammaln", "poch", "pseudo_huber", "radian", "rgamma",
           "round", "sindg", "softplus", "tandg", "exprel", "loggamma", "zetac", "lpmv", "sph_harm_y",
           "bdtr", "bdtrc", "bdtri", "betaincinv", "chdtr", "chdtrc", "chdtri", "fdtr", "fdtrc", "fdtri", "gammainccinv",
           "gammaincinv", "gdtr", "gdtrc", "nbdtr", "nbdtrc", "nbdtri", "pdtr", "pdtrc", "pdtri"]
