"""The discrete and multivariate distributions as methods, shared by RandomState and
Generator. Counts are int64 unless dtype= names another real dtype (CuPy's dtype=);
integer parameters given as floats are truncated, as NumPy's are. Where NumPy's legacy
RandomState and Generator check differently (hypergeometric's nsample, dirichlet's zero
alphas), the class attributes below say which rule applies."""
import math

import numpy as np

from .. import _loom
from . import _discrete as disc
from . import _mixtures as mix
from . import _multivariate as mv
from ._args import Call, is_array
from ._math import flat, floor

_LAM_MAX = 9.223372006484771e18  # NumPy's bound, where Poisson counts would leave int64


def _neg(v):
    return v < 0


def _nonpos(v):
    return v <= 0


def _not_prob(v):  # p < 0, p > 1 or NaN
    return ~((v >= 0) & (v <= 1)) if is_array(v) else not 0 <= v <= 1


class DiscreteMethods:
    _stream = None
    _nsample_min = 0        # hypergeometric's smallest nsample (NumPy's legacy: 1)
    _alpha_zero_ok = True   # dirichlet's alpha may hold zeros (NumPy's legacy: no)

    def _count(self, call, sampler, *params):
        shape = call.shape
        values = [flat(p, shape) for p in params]
        with self._stream.active():
            x = sampler(math.prod(shape), *values, call.device)
        return call.finish(x.reshape(shape))

    def binomial(self, n, p, size=None, dtype=None, device=None):
        """Successes in n trials of probability p (n >= 0, 0 <= p <= 1)."""
        call = Call("binomial", size, dtype, device, "int")
        n, p = call.params(n=n, p=p)
        call.check("n < 0", n, _neg)
        call.check("p < 0, p > 1 or p is NaN", p, _not_prob)
        return self._count(call, disc.binomial, floor(n), p)

    def negative_binomial(self, n, p, size=None, dtype=None, device=None):
        """Failures before the n-th success (n > 0, 0 < p <= 1)."""
        call = Call("negative_binomial", size, dtype, device, "int")
        n, p = call.params(n=n, p=p)
        call.check("n <= 0", n, _nonpos)
        call.check("p <= 0, p > 1 or p contains NaNs", p, lambda v: _not_prob(v) | (v == 0))
        return self._count(call, mix.negative_binomial, n, p)

    def poisson(self, lam=1.0, size=None, dtype=None, device=None):
        """Poisson samples of mean lam >= 0."""
        call = Call("poisson", size, dtype, device, "int")
        lam = call.params(lam=lam)
        call.check("lam < 0 or lam is NaN", lam, lambda v: ~(v >= 0) if is_array(v) else not v >= 0)
        call.check("lam value too large", lam, lambda v: v > _LAM_MAX)
        return self._count(call, disc.poisson, lam)

    def geometric(self, p, size=None, dtype=None, device=None):
        """Trials up to and including the first success (0 < p <= 1)."""
        call = Call("geometric", size, dtype, device, "int")
        p = call.params(p=p)
        call.check("p <= 0, p > 1 or p contains NaNs", p, lambda v: _not_prob(v) | (v == 0))
        return self._count(call, disc.geometric, p)

    def hypergeometric(self, ngood, nbad, nsample, size=None, dtype=None, device=None):
        """Good items among nsample drawn without replacement from ngood good and nbad bad ones."""
        call = Call("hypergeometric", size, dtype, device, "int")
        good, bad, sample = call.params(ngood=ngood, nbad=nbad, nsample=nsample)
        good, bad, sample = floor(good), floor(bad), floor(sample)
        call.check("ngood < 0", good, _neg)
        call.check("nbad < 0", bad, _neg)
        if self._nsample_min:
            call.check("nsample < 1 or nsample is NaN", sample, lambda v: v < 1)
        else:
            call.check("nsample < 0", sample, _neg)
        call.check("ngood + nbad < nsample", good + bad - sample, _neg)
        return self._count(call, disc.hypergeometric, good, bad, sample)

    def logseries(self, p, size=None, dtype=None, device=None):
        """Logarithmic series samples (0 <= p < 1)."""
        call = Call("logseries", size, dtype, device, "int")
        p = call.params(p=p)
        call.check("p < 0, p >= 1 or p is NaN", p, lambda v: ~((v >= 0) & (v < 1)) if is_array(v) else not 0 <= v < 1)
        return self._count(call, disc.logseries, p)

    def zipf(self, a, size=None, dtype=None, device=None):
        """Zipf samples of exponent a > 1."""
        call = Call("zipf", size, dtype, device, "int")
        a = call.params(a=a)
        call.check("a <= 1 or a is NaN", a, lambda v: ~(v > 1) if is_array(v) else not v > 1)
        return self._count(call, disc.zipf, a)

    # ---- vector samples --------------------------------------------------------------------
    def dirichlet(self, alpha, size=None, dtype=None, device=None):
        """Dirichlet samples: size + (len(alpha),), each on the simplex."""
        call = Call("dirichlet", size, dtype, device)
        alpha = call.arrays(alpha=alpha)
        if alpha.ndim == 0:
            raise TypeError("[dirichlet] alpha must be a sequence of numbers, not a scalar")
        if alpha.ndim != 1:
            raise ValueError("[dirichlet] alpha must be 1-dimensional")
        if self._alpha_zero_ok:
            call.check("alpha < 0", alpha, _neg)
        else:
            call.check("alpha <= 0", alpha, _nonpos)
        with self._stream.active():
            x = mv.dirichlet(call.size or (), alpha, call.cdt, call.device)
        return call.finish(x)

    def multinomial(self, n, pvals, size=None, dtype=None, device=None):
        """Counts of each of len(pvals) outcomes in n trials: size + (k,) (the last outcome
        takes what the others leave). n and a pvals of several dimensions broadcast, as
        NumPy's Generator's do."""
        fn = "multinomial"
        call = Call(fn, size, dtype, device, "int")
        n_arr = call.arrays(n=n) if is_array(n) or np.ndim(n) else None
        if is_array(pvals) and pvals.ndim > 1 or not is_array(pvals) and np.ndim(pvals) > 1:
            p = call.arrays(pvals=pvals)
            call.check("pvals < 0, pvals > 1 or pvals contains NaNs", p, _not_prob)
            call.check("sum(pvals[:-1]) > 1.0", _loom.sum(p[..., :-1], axis=-1), lambda v: v > 1 + 1e-12)
            rows = tuple(p.shape[:-1])
        else:
            p = np.asarray(pvals.numpy() if is_array(pvals) else pvals, dtype=np.float64)
            if p.ndim != 1 or p.size == 0:
                raise ValueError(f"[{fn}] pvals must be a non-empty 1-d sequence")
            if np.any(np.isnan(p)) or np.any(p < 0) or np.any(p > 1):
                raise ValueError(f"[{fn}] pvals < 0, pvals > 1 or pvals contains NaNs")
            if p[:-1].sum() > 1.0 + 1e-12:
                raise ValueError(f"[{fn}] sum(pvals[:-1]) > 1.0")
            p, rows = [float(v) for v in p], ()
        count = n_arr if n_arr is not None else call.params(n=n)
        call.check("n < 0", count, _neg)
        batch = call.size if call.size is not None else np.broadcast_shapes(
            tuple(count.shape) if is_array(count) else (), rows)
        with self._stream.active():
            x = mv.multinomial(batch, floor(count), p, call.device)
        return call.finish(x)

    def multivariate_normal(self, mean, cov, size=None, check_valid="warn", tol=1e-8, *, method="svd", dtype=None,
                            device=None):
        """Samples of the normal distribution of mean (k,) and covariance (k, k): size + (k,).
        method: 'svd' (NumPy's default), 'eigh' or 'cholesky'."""
        fn = "multivariate_normal"
        call = Call(fn, size, dtype, device)
        mean, cov = call.arrays(mean=mean, cov=cov)
        if mean.ndim != 1:
            raise ValueError(f"[{fn}] mean must be 1 dimensional")
        if cov.ndim != 2 or cov.shape[0] != cov.shape[1]:
            raise ValueError(f"[{fn}] cov must be 2 dimensional and square")
        if mean.shape[0] != cov.shape[0]:
            raise ValueError(f"[{fn}] mean and cov must have same length")
        if check_valid not in ("warn", "raise", "ignore"):
            raise ValueError(f"[{fn}] check_valid must equal 'warn', 'raise', or 'ignore'")
        if method not in ("svd", "eigh", "cholesky"):
            raise ValueError(f"[{fn}] method must be one of {{'svd', 'eigh', 'cholesky'}}")
        with self._stream.active():
            x = mv.multivariate_normal(fn, call.size or (), mean, cov, method, check_valid, tol, call.cdt,
                                       call.device)
        return call.finish(x)

    def _multivariate_hypergeometric(self, colors, nsample, size, method, dtype, device):
        fn = "multivariate_hypergeometric"
        colors = np.asarray(colors.numpy() if is_array(colors) else colors)
        if colors.ndim != 1 or colors.dtype.kind not in "iu" or np.any(colors < 0):
            raise ValueError(f"[{fn}] colors must be a one-dimensional sequence of nonnegative integers")
        if method not in ("count", "marginals"):
            raise ValueError(f'[{fn}] method must be "count" or "marginals"')
        call = Call(fn, size, dtype, device, "int")
        sample = call.params(nsample=nsample)
        call.check("nsample must be nonnegative", sample, _neg)
        call.check("nsample > sum(colors)", sample, lambda v: v > int(colors.sum()))
        with self._stream.active():
            x = mv.multivariate_hypergeometric(call.shape, [int(c) for c in colors], floor(sample), call.device)
        return call.finish(x)

