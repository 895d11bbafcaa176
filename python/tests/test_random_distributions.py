"""loom.random's NumPy/CuPy API: every distribution against NumPy's own sampler (a
two-sample Kolmogorov-Smirnov test) and its analytic mean; shapes, dtypes and devices;
broadcasting of array parameters; NumPy's exception types; reproducibility of seeds; the
Generator and bit-generator API; choice, permutations and integers with array bounds.

Seeds are fresh each run (the `rng` fixture prints its seed). Every statistical bound is
set so that a correct sampler fails with probability below 1e-7 per check (KS scaled
statistic 3.0: 2 exp(-18); means 6 standard errors; chi-square at z = 5.2), and
test_the_checks_catch_a_wrong_sampler shows the same bounds reject a 3 % error.
"""
import math
import warnings

import numpy as np
import pytest

import loom
import loom.random as lr

N = 80_000
KS_LIMIT = 3.0


def host(x):
    return np.asarray(x.to(loom.cpu()) if isinstance(x, loom.ndarray) else x)


def ks_scaled(a, b):
    """sqrt(n m / (n + m)) sup |F_a - F_b| (right-continuous ECDFs: ties, discrete data)."""
    a, b = np.sort(np.ravel(a).astype(np.float64)), np.sort(np.ravel(b).astype(np.float64))
    grid = np.concatenate([a, b])
    d = np.max(np.abs(np.searchsorted(a, grid, "right") / a.size - np.searchsorted(b, grid, "right") / b.size))
    return d * math.sqrt(a.size * b.size / (a.size + b.size))


def mean_z(x, mean, var):
    x = np.ravel(x).astype(np.float64)
    return abs(x.mean() - mean) / math.sqrt(var / x.size)


def chi2_limit(df, z=5.2):
    """Wilson-Hilferty: the chi-square value exceeded with the normal tail probability of z (1e-7)."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def chi2(counts, expected):
    counts, expected = np.asarray(counts, np.float64), np.asarray(expected, np.float64)
    return float(np.sum((counts - expected) ** 2 / expected))


def seed_of(rng):
    return int(rng.integers(2**63))


def _zeta(s):
    k = np.arange(1, 200_001, dtype=np.float64)
    return float(np.sum(k ** -s) + 200_000.0 ** (1 - s) / (s - 1))


def _logseries_moments(p):
    lg = math.log1p(-p)
    mean = -p / ((1 - p) * lg)
    return mean, -p * (p + lg) / ((1 - p) ** 2 * lg * lg)


G = math.gamma
# name, args, mean, variance (None: no finite variance, the KS test alone)
CASES = [
    ("standard_exponential", (), 1.0, 1.0),
    ("exponential", (2.0,), 2.0, 4.0),
    ("standard_gamma", (0.3,), 0.3, 0.3),
    ("standard_gamma", (2.5,), 2.5, 2.5),
    ("gamma", (1.5, 2.0), 3.0, 6.0),
    ("beta", (0.5, 0.5), 0.5, 0.125),
    ("beta", (2.0, 5.0), 2 / 7, 10 / (49 * 8)),
    ("beta", (0.05, 0.1), 1 / 3, 0.005 / (0.0225 * 1.15)),
    ("chisquare", (3.0,), 3.0, 6.0),
    ("noncentral_chisquare", (0.5, 2.0), 2.5, 9.0),
    ("noncentral_chisquare", (3.0, 1.0), 4.0, 10.0),
    ("f", (3.0, 7.0), 1.4, 784 / 225),
    ("noncentral_f", (3.0, 20.0, 2.0), 100 / 54, 2 * (20 / 3) ** 2 * (25 + 7 * 18) / (18**2 * 16)),
    ("standard_t", (5.0,), 0.0, 5 / 3),
    ("standard_cauchy", (), None, None),
    ("pareto", (3.5,), 0.4, 3.5 / (2.5**2 * 1.5)),
    ("power", (0.7,), 0.7 / 1.7, 0.7 / (1.7**2 * 2.7)),
    ("rayleigh", (2.0,), 2 * math.sqrt(math.pi / 2), (4 - math.pi) / 2 * 4),
    ("weibull", (1.5,), G(1 + 1 / 1.5), G(1 + 2 / 1.5) - G(1 + 1 / 1.5) ** 2),
    ("gumbel", (1.0, 2.0), 1 + 2 * 0.5772156649015329, math.pi**2 / 6 * 4),
    ("laplace", (1.0, 2.0), 1.0, 8.0),
    ("logistic", (1.0, 2.0), 1.0, 4 * math.pi**2 / 3),
    ("lognormal", (0.5, 0.7), math.exp(0.5 + 0.245), (math.exp(0.49) - 1) * math.exp(1.49)),
    ("triangular", (-1.0, 0.5, 2.0), 0.5, 0.375),
    ("vonmises", (1.0, 3.0), None, None),
    ("vonmises", (-2.5, 0.5), None, None),
    ("vonmises", (0.0, 1e-9), 0.0, math.pi**2 / 3),
    ("wald", (3.0, 2.0), 3.0, 13.5),
    ("poisson", (3.5,), 3.5, 3.5),
    ("poisson", (40.0,), 40.0, 40.0),
    ("poisson", (1e6,), 1e6, 1e6),
    ("binomial", (20, 0.3), 6.0, 4.2),
    ("binomial", (10, 0.9), 9.0, 0.9),
    ("binomial", (1000, 0.4), 400.0, 240.0),
    ("binomial", (1000, 0.97), 970.0, 29.1),
    ("negative_binomial", (3.5, 0.4), 5.25, 13.125),
    ("geometric", (0.2,), 5.0, 20.0),
    ("geometric", (0.8,), 1.25, 0.3125),
    ("hypergeometric", (20, 30, 7), 2.8, 7 * 0.4 * 0.6 * 43 / 49),
    ("hypergeometric", (30, 10, 35), 26.25, 35 * 0.75 * 0.25 * 5 / 39),
    ("hypergeometric", (200, 300, 150), 60.0, 150 * 0.4 * 0.6 * 350 / 499),
    ("hypergeometric", (300, 200, 400), 240.0, 400 * 0.6 * 0.4 * 100 / 499),
    ("hypergeometric", (10**6, 10**6, 500), 250.0, 125.0 * (2e6 - 500) / (2e6 - 1)),
    ("logseries", (0.6,), *_logseries_moments(0.6)),
    ("logseries", (0.99,), *_logseries_moments(0.99)),
    ("zipf", (3.5,), _zeta(2.5) / _zeta(3.5), _zeta(1.5) / _zeta(3.5) - (_zeta(2.5) / _zeta(3.5)) ** 2),
]


@pytest.mark.parametrize("name,args,mean,var", CASES, ids=[f"{c[0]}{c[1]}" for c in CASES])
def test_distribution_matches_numpy(device, rng, name, args, mean, var):
    x = getattr(lr.default_rng(seed_of(rng)), name)(*args, size=N, device=device)
    integer = name in ("poisson", "binomial", "negative_binomial", "geometric", "hypergeometric", "logseries", "zipf")
    assert x.shape == (N,) and x.device == device and x.dtype == (loom.int64 if integer else loom.float64)
    got = host(x)
    want = getattr(np.random.default_rng(seed_of(rng)), name)(*args, size=N)
    assert ks_scaled(got, want) <= KS_LIMIT, f"{name}{args}: not NumPy's distribution"
    if mean is not None:
        assert mean_z(got, mean, var) <= 6, f"{name}{args}: mean {got.mean()} != {mean}"
    if name == "vonmises":
        assert np.all(np.abs(got) <= math.pi)


@pytest.mark.parametrize("name,args", [("standard_gamma", (0.5,)), ("gamma", (2.5, 1.0)), ("beta", (2.0, 3.0)),
                                       ("standard_exponential", ()), ("standard_normal", ()), ("random", ())])
def test_float32_results_follow_the_distribution(device, rng, name, args):
    x = getattr(lr.default_rng(seed_of(rng)), name)(*args, size=N, dtype=np.float32, device=device)
    assert x.dtype == loom.float32 and x.device == device
    want = getattr(np.random.default_rng(seed_of(rng)), name)(*args, size=N)
    assert ks_scaled(host(x), want) <= KS_LIMIT


def test_the_checks_catch_a_wrong_sampler(rng):
    # The bounds above, applied to a sampler 10 % off, must fail (so they can fail at all). At
    # 3 % off the KS statistic of N samples lands near the limit for some seeds (2.98 seen).
    x = host(lr.default_rng(seed_of(rng)).gamma(2.0, size=N, device=loom.cpu()))
    assert ks_scaled(x, np.random.default_rng(seed_of(rng)).gamma(2.2, size=N)) > KS_LIMIT
    assert mean_z(x, 2.2, 2.0) > 6
    p = host(lr.default_rng(seed_of(rng)).poisson(10.0, size=N, device=loom.cpu()))
    assert ks_scaled(p, np.random.default_rng(seed_of(rng)).poisson(11.0, size=N)) > KS_LIMIT


# ---- parameters broadcast ---------------------------------------------------------------------
def test_array_parameters_broadcast_per_element(device, rng):
    g = lr.default_rng(seed_of(rng))
    loc = loom.asarray([0.0, 10.0, 100.0], device=device)
    x = host(g.normal(loc, np.array([[1.0], [2.0]]), size=(N // 4, 2, 3), device=device))
    assert x.shape == (N // 4, 2, 3)
    for i, s in enumerate((1.0, 2.0)):
        for j, mu in enumerate((0.0, 10.0, 100.0)):
            assert mean_z(x[:, i, j], mu, s * s) <= 6
    lam = np.array([2.0, 50.0, 2000.0])  # inversion and PTRS in one call
    p = host(g.poisson(lam, size=(N // 4, 3), device=device))
    for j in range(3):
        assert mean_z(p[:, j], lam[j], lam[j]) <= 6
    a = loom.asarray([0.4, 1.0, 7.0], device=device)
    s = host(lr.RandomState(seed_of(rng)).standard_gamma(a, size=(N // 4, 3), device=device))
    for j, k in enumerate((0.4, 1.0, 7.0)):
        assert mean_z(s[:, j], k, k) <= 6
    counts = np.array([[10], [3000]])
    b = host(g.binomial(counts, np.array([0.2, 0.7]), size=(N // 8, 2, 2), device=device))
    for i in range(2):
        for j, q in enumerate((0.2, 0.7)):
            assert mean_z(b[:, i, j], counts[i, 0] * q, counts[i, 0] * q * (1 - q)) <= 6


def test_size_none_gives_the_broadcast_shape(device):
    rs = lr.RandomState(3)
    assert rs.normal(device=device).shape == ()  # 0-d array (CuPy's), not a Python scalar
    assert rs.gamma(np.ones((3, 1)), np.ones(2), device=device).shape == (3, 2)
    assert rs.weibull([[0.5, 1.0, 3.0]], device=device).shape == (1, 3)
    assert rs.hypergeometric([1, 4, 2], 5, [2, 7, 4], device=device).shape == (3,)
    with pytest.raises(ValueError, match=r"\[normal\]"):
        rs.normal(np.zeros(3), 1.0, size=4, device=device)
    x = loom.ones((2, 3), device=device)
    assert rs.exponential(x).device == device and rs.exponential(x).shape == (2, 3)


SHAPE_CASES = [("beta", (2.0, 3.0)), ("binomial", (5, 0.5)), ("chisquare", (2.0,)), ("exponential", ()),
               ("f", (2.0, 3.0)), ("gamma", (2.0,)), ("geometric", (0.5,)), ("gumbel", ()),
               ("hypergeometric", (5, 5, 3)),
               ("laplace", ()), ("logistic", ()), ("lognormal", ()), ("logseries", (0.5,)),
               ("negative_binomial", (5, 0.5)), ("noncentral_chisquare", (2.0, 1.0)), ("noncentral_f", (2.0, 3.0, 1.0)),
               ("normal", ()), ("pareto", (3.0,)), ("poisson", ()), ("power", (2.0,)), ("rayleigh", ()),
               ("standard_cauchy", ()), ("standard_exponential", ()), ("standard_gamma", (2.0,)),
               ("standard_normal", ()), ("standard_t", (3.0,)), ("triangular", (0.0, 0.5, 1.0)), ("uniform", ()),
               ("vonmises", (0.0, 1.0)), ("wald", (1.0, 1.0)), ("weibull", (2.0,)), ("zipf", (2.0,))]


@pytest.mark.parametrize("name,args", SHAPE_CASES, ids=[c[0] for c in SHAPE_CASES])
def test_shapes_dtypes_devices_and_seeds(device, name, args):
    for size, shape in ((None, ()), (4, (4,)), ((2, 0, 3), (2, 0, 3)), ((3, 2), (3, 2))):
        x = getattr(lr.RandomState(11), name)(*args, size=size, device=device)
        assert x.shape == shape and x.device == device
    # the same seed gives the same numbers (module functions, RandomState, Generator); others differ
    lr.seed(5)
    a = host(getattr(lr, name)(*args, size=64, device=device))
    np.testing.assert_array_equal(host(getattr(lr.RandomState(5), name)(*args, size=64, device=device)), a)
    b, c, d = (host(getattr(lr.default_rng(s), name)(*args, size=64, device=device)) for s in (9, 9, 10))
    np.testing.assert_array_equal(b, c)
    assert not np.array_equal(b, d) and not np.array_equal(a, host(getattr(lr.RandomState(6), name)(*args, size=64)))


def test_dtype_argument(device):
    rs, g = lr.RandomState(0), lr.default_rng(0)
    for f in (g.standard_normal, g.random, g.standard_exponential, rs.random_sample, rs.standard_normal):
        assert f(size=3, dtype=np.float32, device=device).dtype == loom.float32
    assert g.standard_gamma(2.0, size=3, dtype="float32", device=device).dtype == loom.float32
    assert rs.gamma(2.0, size=3, dtype=np.float32, device=device).dtype == loom.float32
    assert rs.exponential(size=3, dtype=np.float32, device=device).dtype == loom.float32
    assert rs.beta(3.0, 3.0, size=3, dtype=np.float16, device=device).dtype == loom.float16  # CuPy casts
    assert rs.binomial(5, 0.5, size=3, dtype=np.int8, device=device).dtype == loom.int8
    assert rs.noncentral_chisquare(1.0, 1.0, size=3, dtype=np.int32, device=device).dtype == loom.int32
    for bad in ("int64", "complex64"):
        with pytest.raises(TypeError, match=r"\[standard_gamma\]"):
            g.standard_gamma(1.0, size=3, dtype=bad, device=device)
        with pytest.raises(TypeError):
            rs.normal(np.zeros(2), 1.0, dtype=bad, device=device)


ERROR_CASES = [("beta", (0, 1)), ("beta", (1, -1)), ("binomial", (-1, 0.5)), ("binomial", (5, 1.1)),
               ("binomial", (5, float("nan"))), ("chisquare", (0,)), ("dirichlet", ([-1, 1],)), ("dirichlet", (1.0,)),
               ("exponential", (-1,)), ("exponential", (np.array([2.0, -1.0]),)), ("f", (0, 1)), ("f", (1, 0)),
               ("gamma", (-1,)), ("gamma", (1, -1)), ("geometric", (0,)), ("geometric", (1.5,)), ("gumbel", (0, -1)),
               ("hypergeometric", (-1, 5, 2)), ("hypergeometric", (5, -1, 2)), ("hypergeometric", (5, 5, 11)),
               ("hypergeometric", (5, 5, -1)), ("laplace", (0, -1)), ("logistic", (0, -1)), ("lognormal", (0, -1)),
               ("logseries", (1,)), ("logseries", (np.array([0.5, -0.1]),)), ("negative_binomial", (0, 0.5)),
               ("negative_binomial", (1, 1.5)), ("noncentral_chisquare", (0, 1)), ("noncentral_chisquare", (1, -1)),
               ("noncentral_f", (0, 1, 1)), ("noncentral_f", (1, 1, -1)), ("normal", (0, np.array([1.0, -1.0]))),
               ("pareto", (0,)), ("poisson", (-1,)), ("poisson", (1e20,)), ("poisson", (None,)), ("power", (0,)),
               ("rayleigh", (-1,)), ("standard_gamma", (-1,)), ("standard_gamma", (None,)), ("standard_t", (0,)),
               ("triangular", (1, 0, 2)), ("triangular", (-2, 0, -1)), ("triangular", (0, 0, 0)),
               ("uniform", (np.zeros(2), np.inf)), ("vonmises", (0, -1)), ("wald", (0, 1)), ("wald", (1, 0)),
               ("weibull", (-1,)), ("zipf", (1,)), ("zipf", (np.array([2.0, 0.5]),)),
               ("multinomial", (-1, [0.5, 0.5])), ("multinomial", (5, [0.9, 0.9, 0.1])),
               ("multivariate_normal", ([0, 0], [1, 1])), ("multivariate_normal", ([0], [[1, 0], [0, 1]]))]


@pytest.mark.parametrize("api", ["RandomState", "Generator"])
@pytest.mark.parametrize("name,args", ERROR_CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(ERROR_CASES)])
def test_errors_are_numpys(device, api, name, args):
    ours = lr.RandomState(0) if api == "RandomState" else lr.default_rng(0)
    theirs = np.random.RandomState(0) if api == "RandomState" else np.random.default_rng(0)
    with pytest.raises(Exception) as expected:
        getattr(theirs, name)(*args)
    with pytest.raises(expected.type, match=rf"^\[{name}\]"):
        getattr(ours, name)(*args, device=device)


def test_legacy_and_generator_differ_where_numpy_does(device):
    assert host(lr.default_rng(0).hypergeometric(5, 5, 0, size=4, device=device)).tolist() == [0] * 4
    with pytest.raises(ValueError, match="nsample < 1"):
        lr.RandomState(0).hypergeometric(5, 5, 0, device=device)
    np.testing.assert_array_equal(host(lr.default_rng(0).dirichlet([0.0, 1.0], device=device)), [0.0, 1.0])
    with pytest.raises(ValueError, match="alpha <= 0"):
        lr.RandomState(0).dirichlet([0.0, 1.0], device=device)
    assert host(lr.RandomState(0).hypergeometric(5, 10, 15, size=3, device=device)).tolist() == [5] * 3


# ---- vector-valued distributions --------------------------------------------------------------
def test_dirichlet_multinomial_and_multivariate_hypergeometric(device, rng):
    g = lr.default_rng(seed_of(rng))
    alpha = np.array([2.0, 5.0, 8.0])
    d = host(g.dirichlet(alpha, size=N // 4, device=device))
    a0 = alpha.sum()
    np.testing.assert_allclose(d.sum(axis=1), 1.0, rtol=1e-12)
    for j in range(3):
        assert mean_z(d[:, j], alpha[j] / a0, alpha[j] * (a0 - alpha[j]) / (a0 * a0 * (a0 + 1))) <= 6
    tiny = host(g.dirichlet([0.01, 0.02, 0.03], size=1000, device=device))  # gammas underflow to 0
    assert np.all(np.isfinite(tiny)) and np.allclose(tiny.sum(axis=1), 1.0)
    pv = np.array([0.2, 0.3, 0.5])
    mn = host(g.multinomial(50, pv, size=N // 4, device=device))
    assert mn.dtype == np.int64 and np.all(mn.sum(axis=1) == 50)
    for j in range(3):
        assert mean_z(mn[:, j], 50 * pv[j], 50 * pv[j] * (1 - pv[j])) <= 6
    nd = host(g.multinomial([10, 20], [[0.5, 0.5], [0.1, 0.9]], device=device))
    assert nd.shape == (2, 2) and nd.sum(axis=1).tolist() == [10, 20]
    colors = [16, 8, 4]
    mh = host(g.multivariate_hypergeometric(colors, 6, size=N // 4, device=device))
    assert np.all(mh.sum(axis=1) == 6) and np.all(mh <= colors)
    want = np.random.default_rng(seed_of(rng)).multivariate_hypergeometric(colors, 6, size=N // 4)
    for j in range(3):
        assert ks_scaled(mh[:, j], want[:, j]) <= KS_LIMIT


@pytest.mark.parametrize("method", ["svd", "eigh", "cholesky"])
def test_multivariate_normal_moments(device, rng, method):
    mean, cov = np.array([1.0, -2.0]), np.array([[2.0, 0.6], [0.6, 1.0]])
    x = host(lr.default_rng(seed_of(rng)).multivariate_normal(mean, cov, size=N // 2, method=method, device=device))
    assert x.shape == (N // 2, 2)
    for j in range(2):
        assert mean_z(x[:, j], mean[j], cov[j, j]) <= 6
    c = np.cov(x.T)
    for i in range(2):
        for j in range(2):
            se = math.sqrt((cov[i, i] * cov[j, j] + cov[i, j] ** 2) / x.shape[0])
            assert abs(c[i, j] - cov[i, j]) <= 6 * se
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(RuntimeWarning, match="positive-semidefinite"):
            lr.RandomState(0).multivariate_normal([0, 0], [[1, 0], [0, -1]], device=device)
    with pytest.raises(ValueError, match="positive-semidefinite"):
        lr.RandomState(0).multivariate_normal([0, 0], [[1, 0], [0, -1]], check_valid="raise", device=device)


# ---- integers, choice, permutations ---------------------------------------------------------------
def test_integers_with_array_bounds(device, rng):
    g = lr.default_rng(seed_of(rng))
    lo, hi = loom.asarray([-5, 0, 2**40], device=device), np.array([5, 1, 2**40 + 3])
    x = host(g.integers(lo, hi, size=(N // 4, 3), device=device))
    assert x.dtype == np.int64 and np.all(x >= host(lo)) and np.all(x < hi)
    for j in range(3):
        k = int(hi[j] - host(lo)[j])
        counts = np.bincount(x[:, j] - host(lo)[j], minlength=k)
        assert k == 1 or chi2(counts, np.full(k, x.shape[0] / k)) <= chi2_limit(k - 1)
    e = host(g.integers(np.array([0, 10]), np.array([0, 12]), endpoint=True, size=(100, 2), device=device))
    assert np.all(e[:, 0] == 0) and set(e[:, 1]) == {10, 11, 12}
    rs = lr.RandomState(seed_of(rng))
    r = host(rs.randint(np.array([-100, 0]), 100, size=(1000, 2), dtype=np.int8, device=device))
    assert r.dtype == np.int8 and r.min() >= -100 and r.max() < 100
    with pytest.raises(ValueError, match="low >= high"):
        g.integers(np.array([1, 5]), 3, device=device)
    with pytest.raises(ValueError, match="out of bounds"):
        g.integers(np.array([-200, 0]), 100, dtype=np.int8, device=device)


def test_choice(device, rng):
    rs = lr.RandomState(seed_of(rng))
    p = np.array([0.5, 0.25, 0.125, 0.125])
    x = rs.choice(4, N, p=p, device=device)
    assert x.dtype == loom.int64 and x.device == device
    assert chi2(np.bincount(host(x), minlength=4), N * p) <= chi2_limit(3)
    u = host(rs.choice(5, N, device=device))
    assert chi2(np.bincount(u, minlength=5), np.full(5, N / 5)) <= chi2_limit(4)
    a = loom.asarray([0.0, 2.0, 4.0], device=device)
    assert rs.choice(a, (2, 3)).dtype == loom.float64 and rs.choice(a).shape == ()
    big = host(rs.choice(2**30, 1000, replace=False, device=device))  # O(size) memory, not O(a)
    assert len(np.unique(big)) == 1000 and big.min() >= 0 and big.max() < 2**30
    perm = host(rs.choice(1000, 1000, replace=False, device=device))
    np.testing.assert_array_equal(np.sort(perm), np.arange(1000))
    # without replacement, with p: ordered pairs have the probabilities of successive draws
    pw = [0.6, 0.3, 0.1]
    pairs = [tuple(host(rs.choice(3, 2, replace=False, p=pw, device=device))) for _ in range(600)]
    keys = [(i, j) for i in range(3) for j in range(3) if i != j]
    want = np.array([pw[i] * pw[j] / (1 - pw[i]) for i, j in keys]) * 600
    assert chi2([pairs.count(k) for k in keys], want) <= chi2_limit(5)
    g = lr.default_rng(seed_of(rng))
    assert g.choice(np.arange(12).reshape(3, 4), 2, axis=1, device=device).shape == (3, 2)
    for bad in (dict(a=3, size=5, replace=False), dict(a=3, size=1, p=[0.1, 0.1, 0.7]), dict(a=-3, size=1),
                dict(a=2, size=1, p=[0.1, 0.1, 0.8]), dict(a=3, size=3, replace=False, p=[0.5, 0.5, 0.0]),
                dict(a=[[0, 1], [2, 3]], size=1), dict(a=3.1, size=1), dict(a=[], size=1)):
        with pytest.raises(ValueError, match=r"\[choice\]"):
            rs.choice(device=device, **bad)


def test_permutations_and_shuffles(device, rng):
    rs, g = lr.RandomState(seed_of(rng)), lr.default_rng(seed_of(rng))
    counts = {}
    for _ in range(800):
        k = tuple(host(rs.permutation(4, device=device)))
        counts[k] = counts.get(k, 0) + 1
    assert len(counts) == 24 and chi2(list(counts.values()), np.full(24, 800 / 24)) <= chi2_limit(23)
    rows = host(g.permuted(np.tile(np.arange(8), (N // 4, 1)), axis=1))
    np.testing.assert_array_equal(np.sort(rows, axis=1), np.tile(np.arange(8), (N // 4, 1)))
    where0 = np.argmax(rows == 0, axis=1)
    assert chi2(np.bincount(where0, minlength=8), np.full(8, rows.shape[0] / 8)) <= chi2_limit(7)
    m = loom.asarray(np.arange(30.0).reshape(10, 3), device=device)
    q = host(rs.permutation(m))
    np.testing.assert_array_equal(np.sort(q[:, 0]), np.arange(0, 30, 3))
    np.testing.assert_array_equal(q[:, 1] - q[:, 0], np.ones(10))  # rows move whole
    assert host(g.permutation(m, axis=1)).shape == (10, 3)
    x = loom.asarray(np.arange(20), device=device)
    lr.shuffle(x)
    assert x.device == device and sorted(host(x).tolist()) == list(range(20))
    y = loom.asarray(np.arange(12).reshape(3, 4), device=device)
    g.shuffle(y, axis=1)
    np.testing.assert_array_equal(np.sort(host(y), axis=1), np.arange(12).reshape(3, 4))
    items, arr = list(range(10)), np.arange(10)
    rs.shuffle(items)
    rs.shuffle(arr)
    assert sorted(items) == list(range(10)) and sorted(arr.tolist()) == list(range(10))
    with pytest.raises(IndexError):
        rs.permutation(loom.asarray(3.0, device=device))
    with pytest.raises(TypeError):
        rs.shuffle(loom.asarray(3.0, device=device))


# ---- seeds, state and the generator API ---------------------------------------------------
def test_random_state_equals_the_seeded_module_functions(device):
    lr.seed(42)
    a = [host(lr.gamma(2.0, size=50, device=device)), host(lr.choice(7, 9, device=device)),
         host(lr.poisson(np.array([1.0, 30.0]), device=device)), host(lr.rand(3, device=device))]
    rs = lr.RandomState(42)
    b = [host(rs.gamma(2.0, size=50, device=device)), host(rs.choice(7, 9, device=device)),
         host(rs.poisson(np.array([1.0, 30.0]), device=device)), host(rs.rand(3, device=device))]
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)
    state = rs.get_state()
    c = host(rs.beta(2.0, 3.0, size=10, device=device))
    rs.set_state(state)
    np.testing.assert_array_equal(host(rs.beta(2.0, 3.0, size=10, device=device)), c)


def test_global_random_state_can_be_replaced():
    mine = lr.RandomState(3)
    old = lr.get_random_state()
    try:
        lr.set_random_state(mine)
        assert lr.get_random_state() is mine
        x = host(lr.normal(size=4))
        np.testing.assert_array_equal(x, host(lr.RandomState(3).normal(size=4)))
        with pytest.raises(TypeError):
            lr.set_random_state(np.random.RandomState(0))
    finally:
        lr.set_random_state(old)
    with pytest.raises(TypeError):
        lr.RandomState(2.5)
    with pytest.raises(ValueError):
        lr.RandomState(-1)
    a, b = lr.RandomState(np.arange(40)), lr.RandomState(np.arange(40))
    np.testing.assert_array_equal(host(a.rand(5)), host(b.rand(5)))


def test_generator_api(device):
    g = lr.default_rng(7)
    assert lr.default_rng(g) is g and isinstance(lr.default_rng(lr.Philox(1)), lr.Generator)
    assert lr.Philox4x3210 is lr.Philox
    # Philox(key=k) starts where the keyed draws of k start
    k = lr.key(99)
    np.testing.assert_array_equal(host(lr.Generator(lr.Philox(key=k)).random(6, device=device)),
                                  host(lr.uniform(k, (6,), dtype=loom.float64, device=device)))
    children = g.spawn(2)
    draws = [host(c.random(8, device=device)) for c in children + [g]]
    assert len({d.tobytes() for d in draws}) == 3
    np.testing.assert_array_equal(host(lr.default_rng(7).spawn(2)[1].random(8, device=device)), draws[1])
    state = g.bit_generator.state
    a = host(g.standard_normal(5, device=device))
    g.bit_generator.state = state
    np.testing.assert_array_equal(host(g.standard_normal(5, device=device)), a)
    raw = g.bit_generator.random_raw(4)
    assert raw.dtype == loom.uint64 and raw.shape == (4,)
    out = loom.zeros((2, 3), device=device)
    assert g.random(out=out) is out and float(host(out).max()) > 0
    with pytest.raises(TypeError):
        g.random(size=(2, 3), out=loom.zeros((2, 3), dtype=loom.float32, device=device))
    with pytest.raises(ValueError):
        g.standard_normal(size=(3, 2), out=out)
    assert isinstance(g.bytes(10), bytes) and len(lr.bytes(7)) == 7
    with pytest.raises(TypeError):
        lr.Philox(1.5)
    with pytest.raises(AttributeError, match="Philox"):
        lr.XORWOW  # noqa: B018
    with pytest.raises(TypeError):
        lr.Generator(np.random.PCG64(0))


def test_streams_do_not_mix_across_threads():
    # Each RandomState draws under one lock with its own state: what other threads draw in
    # between does not change its numbers.
    import threading
    def alone(seed):
        rs = lr.RandomState(seed)
        return np.stack([host(rs.gamma(1.5, size=50)) for _ in range(20)])
    want = [alone(1), alone(2)]
    got = [[], []]

    def work(i):
        rs = lr.RandomState(i + 1)
        for _ in range(20):
            got[i].append(host(rs.gamma(1.5, size=50)))
            lr.normal(size=7)
    threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for i in range(2):
        np.testing.assert_array_equal(np.stack(got[i]), want[i])
