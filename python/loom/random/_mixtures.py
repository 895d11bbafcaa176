"""Distributions that are mixtures of others: a Poisson mixture of chi-squares (the
noncentral chi-square and F) and a gamma mixture of Poissons (the negative binomial).
Same conventions as _continuous.py and _discrete.py."""
from . import _continuous as cont
from . import _discrete as disc


def noncentral_chisquare(n, df, nonc, cdt, dev):
    """chi2(df + 2 K) for K ~ Poisson(nonc / 2): the noncentral chi-square for every df > 0."""
    k = disc.poisson(n, nonc / 2.0, dev)
    return cont.chisquare(n, df + 2.0 * k.astype(cdt), cdt, dev)


def noncentral_f(n, dfnum, dfden, nonc, cdt, dev):
    num = noncentral_chisquare(n, dfnum, nonc, cdt, dev) * dfden
    return num / (cont.chisquare(n, dfden, cdt, dev) * dfnum)


def negative_binomial(n, count, p, dev):
    """Failures before the count-th success: Poisson(Gamma(count) (1 - p) / p)."""
    lam = cont.standard_gamma(n, count, disc.F64, dev) * ((1.0 - p) / p)
    return disc.poisson(n, lam, dev)
