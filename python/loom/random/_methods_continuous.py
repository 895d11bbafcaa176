"""The continuous distributions as methods, shared by RandomState and Generator (NumPy's
names, arguments and errors; CuPy's dtype=; loom's device=). A subclass provides _stream.

dtype=: the methods NumPy's Generator or CuPy's checks restrict to floats (random,
standard_normal, normal, lognormal, uniform, the exponentials, standard_gamma, pareto,
rayleigh, gumbel, laplace) raise TypeError for other dtypes; the others compute in
float64 (float32 for float32 and narrower floats) and cast to any real dtype, as CuPy's do.
size=None gives a 0-d array where NumPy gives a Python scalar.
"""
import math

import numpy as np

from .. import _loom
from . import _continuous as cont
from . import _mixtures as mix
from ._args import Call, is_array
from ._math import flat

_C = _loom.random


def _scalar(v):
    """A number the extension's own draws take (they take no arrays)."""
    return isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool)


def _neg(v):
    return v < 0


def _nonpos(v):
    return v <= 0


class ContinuousMethods:
    _stream = None  # set by the subclass

    def _sample(self, call, sampler, *params):
        shape = call.shape
        values = [flat(p, shape) for p in params]
        with self._stream.active():
            x = sampler(math.prod(shape), *values, call.cdt, call.device)
        return call.finish(x.reshape(shape))

    # ---- uniform and normal: the extension's draws --------------------------------------
    def random_sample(self, size=None, dtype=None, device=None):
        """Uniform samples in [0, 1) (NumPy's random_sample / random)."""
        with self._stream.active():
            return _C.random_sample(size, dtype=dtype, device=device)

    def standard_normal(self, size=None, dtype=None, device=None):
        """Standard normal samples (Box-Muller on Philox)."""
        with self._stream.active():
            return _C.standard_normal(size, dtype=dtype, device=device)

    def normal(self, loc=0.0, scale=1.0, size=None, dtype=None, device=None):
        """Normal samples of mean loc and standard deviation scale (>= 0), broadcast."""
        if _scalar(loc) and _scalar(scale):
            with self._stream.active():
                return _C.normal(float(loc), float(scale), size=size, dtype=dtype, device=device)
        call = Call("normal", size, dtype, device, "float")
        loc, scale = call.params(loc=loc, scale=scale)
        call.check("scale < 0", scale, _neg)
        return self._sample(call, lambda n, mu, s, cdt, dev: mu + s * _C.randn(n, dtype=cdt, device=dev), loc, scale)

    def uniform(self, low=0.0, high=1.0, size=None, dtype=None, device=None):
        """Uniform samples in [low, high) (rounding may give high), broadcast."""
        if _scalar(low) and _scalar(high):
            with self._stream.active():
                return _C.uniform(float(low), float(high), size=size, dtype=dtype, device=device)
        call = Call("uniform", size, dtype, device, "float")
        low, high = call.params(low=low, high=high)
        width = high - low
        if not (bool(_loom.all(_loom.isfinite(width))) if is_array(width) else math.isfinite(width)):
            raise OverflowError("[uniform] Range exceeds valid bounds")
        return self._sample(call, lambda n, lo, w, cdt, dev: lo + w * _C.rand(n, dtype=cdt, device=dev), low, width)

    def lognormal(self, mean=0.0, sigma=1.0, size=None, dtype=None, device=None):
        """exp(N(mean, sigma^2)) (sigma >= 0)."""
        call = Call("lognormal", size, dtype, device, "float")
        mean, sigma = call.params(mean=mean, sigma=sigma)
        call.check("sigma < 0", sigma, _neg)
        return self._sample(call, cont.lognormal, mean, sigma)

    # ---- exponential family -----------------------------------------------------------------
    def standard_exponential(self, size=None, dtype=None, device=None):
        """Exponential samples of mean 1 (inversion)."""
        call = Call("standard_exponential", size, dtype, device, "float")
        call.no_params()
        return self._sample(call, cont.standard_exponential)

    def exponential(self, scale=1.0, size=None, dtype=None, device=None):
        """Exponential samples of mean scale (>= 0)."""
        call = Call("exponential", size, dtype, device, "float")
        scale = call.params(scale=scale)
        call.check("scale < 0", scale, _neg)
        return self._sample(call, lambda n, s, cdt, dev: s * cont.standard_exponential(n, cdt, dev), scale)

    def standard_gamma(self, shape, size=None, dtype=None, device=None):
        """Gamma(shape, 1) samples (shape >= 0): Marsaglia-Tsang rejection in rounds."""
        call = Call("standard_gamma", size, dtype, device, "float")
        shape = call.params(shape=shape)
        call.check("shape < 0", shape, _neg)
        return self._sample(call, cont.standard_gamma, shape)

    def gamma(self, shape, scale=1.0, size=None, dtype=None, device=None):
        """Gamma samples of shape k >= 0 and scale theta >= 0 (mean k theta)."""
        call = Call("gamma", size, dtype, device)
        shape, scale = call.params(shape=shape, scale=scale)
        call.check("shape < 0", shape, _neg)
        call.check("scale < 0", scale, _neg)
        return self._sample(call, lambda n, k, s, cdt, dev: s * cont.standard_gamma(n, k, cdt, dev), shape, scale)

    def beta(self, a, b, size=None, dtype=None, device=None):
        """Beta(a, b) samples (a, b > 0)."""
        call = Call("beta", size, dtype, device)
        a, b = call.params(a=a, b=b)
        call.check("a <= 0", a, _nonpos)
        call.check("b <= 0", b, _nonpos)
        return self._sample(call, cont.beta, a, b)

    def chisquare(self, df, size=None, dtype=None, device=None):
        """Chi-square samples with df > 0 degrees of freedom."""
        call = Call("chisquare", size, dtype, device)
        df = call.params(df=df)
        call.check("df <= 0", df, _nonpos)
        return self._sample(call, cont.chisquare, df)

    def noncentral_chisquare(self, df, nonc, size=None, dtype=None, device=None):
        """Noncentral chi-square samples (df > 0, nonc >= 0)."""
        call = Call("noncentral_chisquare", size, dtype, device)
        df, nonc = call.params(df=df, nonc=nonc)
        call.check("df <= 0", df, _nonpos)
        call.check("nonc < 0", nonc, _neg)
        return self._sample(call, mix.noncentral_chisquare, df, nonc)

    def f(self, dfnum, dfden, size=None, dtype=None, device=None):
        """F (Fisher-Snedecor) samples (dfnum, dfden > 0)."""
        call = Call("f", size, dtype, device)
        dfnum, dfden = call.params(dfnum=dfnum, dfden=dfden)
        call.check("dfnum <= 0", dfnum, _nonpos)
        call.check("dfden <= 0", dfden, _nonpos)
        return self._sample(call, cont.f, dfnum, dfden)

    def noncentral_f(self, dfnum, dfden, nonc, size=None, dtype=None, device=None):
        """Noncentral F samples (dfnum, dfden > 0, nonc >= 0)."""
        call = Call("noncentral_f", size, dtype, device)
        dfnum, dfden, nonc = call.params(dfnum=dfnum, dfden=dfden, nonc=nonc)
        call.check("dfnum <= 0", dfnum, _nonpos)
        call.check("dfden <= 0", dfden, _nonpos)
        call.check("nonc < 0", nonc, _neg)
        return self._sample(call, mix.noncentral_f, dfnum, dfden, nonc)

    def standard_t(self, df, size=None, dtype=None, device=None):
        """Student's t samples (df > 0)."""
        call = Call("standard_t", size, dtype, device)
        df = call.params(df=df)
        call.check("df <= 0", df, _nonpos)
        return self._sample(call, cont.standard_t, df)

    def standard_cauchy(self, size=None, dtype=None, device=None):
        """Standard Cauchy samples (a ratio of normals)."""
        call = Call("standard_cauchy", size, dtype, device)
        call.no_params()
        return self._sample(call, cont.standard_cauchy)

    # ---- transforms of one uniform or exponential ---------------------------------------------
    def pareto(self, a, size=None, dtype=None, device=None):
        """Pareto II (Lomax) samples as NumPy's (a > 0): add 1 and multiply by m for the classical Pareto."""
        call = Call("pareto", size, dtype, device, "float")
        a = call.params(a=a)
        call.check("a <= 0", a, _nonpos)
        return self._sample(call, cont.pareto, a)

    def power(self, a, size=None, dtype=None, device=None):
        """Samples in [0, 1] of density a x^(a-1) (a > 0)."""
        call = Call("power", size, dtype, device)
        a = call.params(a=a)
        call.check("a <= 0", a, _nonpos)
        return self._sample(call, cont.power, a)

    def rayleigh(self, scale=1.0, size=None, dtype=None, device=None):
        """Rayleigh samples (scale >= 0)."""
        call = Call("rayleigh", size, dtype, device, "float")
        scale = call.params(scale=scale)
        call.check("scale < 0", scale, _neg)
        return self._sample(call, cont.rayleigh, scale)

    def weibull(self, a, size=None, dtype=None, device=None):
        """Weibull samples of shape a >= 0 (scale 1)."""
        call = Call("weibull", size, dtype, device)
        a = call.params(a=a)
        call.check("a < 0", a, _neg)
        return self._sample(call, cont.weibull, a)

    def gumbel(self, loc=0.0, scale=1.0, size=None, dtype=None, device=None):
        """Gumbel (extreme value type I) samples (scale >= 0)."""
        call = Call("gumbel", size, dtype, device, "float")
        loc, scale = call.params(loc=loc, scale=scale)
        call.check("scale < 0", scale, _neg)
        return self._sample(call, cont.gumbel, loc, scale)

    def laplace(self, loc=0.0, scale=1.0, size=None, dtype=None, device=None):
        """Laplace (double exponential) samples (scale >= 0)."""
        call = Call("laplace", size, dtype, device, "float")
        loc, scale = call.params(loc=loc, scale=scale)
        call.check("scale < 0", scale, _neg)
        return self._sample(call, cont.laplace, loc, scale)

    def logistic(self, loc=0.0, scale=1.0, size=None, dtype=None, device=None):
        """Logistic samples (scale >= 0)."""
        call = Call("logistic", size, dtype, device)
        loc, scale = call.params(loc=loc, scale=scale)
        call.check("scale < 0", scale, _neg)
        return self._sample(call, cont.logistic, loc, scale)

    def triangular(self, left, mode, right, size=None, dtype=None, device=None):
        """Triangular samples on [left, right] peaking at mode."""
        call = Call("triangular", size, dtype, device)
        left, mode, right = call.params(left=left, mode=mode, right=right)
        call.check("left > mode", left - mode, lambda d: d > 0)
        call.check("mode > right", mode - right, lambda d: d > 0)
        call.check("left == right", left - right, lambda d: d == 0)
        return self._sample(call, cont.triangular, left, mode, right)

    def vonmises(self, mu, kappa, size=None, dtype=None, device=None):
        """von Mises samples on [-pi, pi] (mode mu, concentration kappa >= 0)."""
        call = Call("vonmises", size, dtype, device)
        mu, kappa = call.params(mu=mu, kappa=kappa)
        call.check("kappa < 0", kappa, _neg)
        return self._sample(call, cont.vonmises, mu, kappa)

    def wald(self, mean, scale, size=None, dtype=None, device=None):
        """Wald (inverse Gaussian) samples (mean > 0, scale > 0)."""
        call = Call("wald", size, dtype, device)
        mean, scale = call.params(mean=mean, scale=scale)
        call.check("mean <= 0", mean, _nonpos)
        call.check("scale <= 0", scale, _nonpos)
        return self._sample(call, cont.wald, mean, scale)
