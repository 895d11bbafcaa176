"""testing._hypothesis.chi_square_test: Pearson's goodness-of-fit test at level alpha."""
import numpy
from scipy import stats


def chi_square_test(observed, expected, alpha=0.05, df=None):
    """True when the null hypothesis (observed follows expected) is not rejected."""
    if alpha not in (0.05, 0.01):
        raise ValueError("chi_square_test: alpha must be 0.05 or 0.01")
    observed, expected = numpy.asarray(observed), numpy.asarray(expected)
    df = observed.size - 1 if df is None else df
    statistic = numpy.sum((observed - expected) ** 2 / expected)
    return statistic < stats.chi2.ppf(1 - alpha, df)
