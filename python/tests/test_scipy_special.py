"""loom.scipy.special against scipy.special on every device: fresh random arguments over each
function's domain, the edges SciPy defines (poles, zeros, infinities, NaN), SciPy's dtypes,
broadcasting and out=, jit and grad through the functions."""
import numpy as np
import pytest
import scipy.special as ss

import loom
from loom.scipy import special as ls

# name: (generator of float64 arguments, edge arguments). Each generator takes (rng, n).
UNARY = {
    "erf": (lambda r, n: r.normal(0, 3, n), [0.0, -0.0, 6.0, -30.0, np.inf, -np.inf, np.nan]),
    "erfc": (lambda r, n: r.normal(0, 5, n), [0.0, 27.0, -30.0, np.inf, -np.inf, np.nan]),
    "erfinv": (lambda r, n: r.uniform(-1, 1, n), [0.0, 1.0, -1.0, 2.0, 1 - 1e-15, -0.5, 0.5, np.nan]),
    "erfcinv": (lambda r, n: np.concatenate([r.uniform(0, 2, n // 2), 10.0 ** -r.uniform(0, 300, n - n // 2)]),
                [0.0, 2.0, 1.0, 0.5, 1.5, 3.0, -1.0, 1e-300, np.nan]),
    "ndtr": (lambda r, n: r.normal(0, 10, n), [0.0, -40.0, 40.0, np.inf, -np.inf, np.nan]),
    "ndtri": (lambda r, n: np.concatenate([r.uniform(0, 1, n // 2), 10.0 ** -r.uniform(0, 300, n - n // 2)]),
              [0.0, 1.0, 0.5, 2.0, -1.0, np.nan]),
    "log_ndtr": (lambda r, n: r.normal(0, 30, n), [-1e5, -40.0, -1.0, 0.0, 6.0, 40.0, np.inf, -np.inf, np.nan]),
    "gamma": (lambda r, n: r.uniform(-20, 171, n), [0.0, -0.0, -1.0, -2.5, 171.7, 1e-300, np.inf, np.nan]),
    "gammaln": (lambda r, n: np.concatenate([r.uniform(-50, 100, n // 2), 10.0 ** r.uniform(-10, 300, n - n // 2)]),
                [0.0, -1.0, -2.5, 1.0, 2.0, np.inf, -np.inf, np.nan]),
    "psi": (lambda r, n: np.concatenate([r.uniform(-20, 50, n // 2), 10.0 ** r.uniform(-10, 300, n - n // 2)]),
            [0.0, -0.0, -1.0, -2.5, 1.0, np.inf, -np.inf, np.nan]),
    "expit": (lambda r, n: r.normal(0, 30, n), [0.0, 1000.0, -1000.0, np.inf, -np.inf, np.nan]),
    "logit": (lambda r, n: r.uniform(0, 1, n), [0.0, 1.0, 0.5, 2.0, -1.0, 0.5 + 1e-10, np.nan]),
    "log_expit": (lambda r, n: r.normal(0, 30, n), [0.0, 1000.0, -1000.0, np.inf, -np.inf, np.nan]),
    "entr": (lambda r, n: r.uniform(-1, 10, n), [0.0, -1.0, np.inf, np.nan]),
    "i0e": (lambda r, n: r.normal(0, 40, n), [0.0, 20.0, -700.0, 1e300, np.inf, np.nan]),
    "i1e": (lambda r, n: r.normal(0, 40, n), [0.0, 20.0, -700.0, 1e300, np.inf, np.nan]),
    "i0": (lambda r, n: r.normal(0, 30, n), [0.0, -1.0, np.nan]),
    "i1": (lambda r, n: r.normal(0, 30, n), [0.0, -1.0, np.nan]),
    "j0": (lambda r, n: r.normal(0, 30, n), [0.0, np.inf, np.nan]),
    "j1": (lambda r, n: r.normal(0, 30, n), [0.0, np.inf, np.nan]),
    "y0": (lambda r, n: r.uniform(0, 60, n), [0.0, -1.0, np.inf, np.nan]),
    "y1": (lambda r, n: r.uniform(0, 60, n), [0.0, -1.0, np.inf, np.nan]),
}
BINARY = {
    "gammainc": (lambda r, n: (10.0 ** r.uniform(-3, 3, n), 10.0 ** r.uniform(-3, 3, n)),
                 ([0, 0, 1, 1, np.inf, 2, -1, 1], [0, 1, 0, np.inf, 1, np.inf, 1, -1])),
    "gammaincc": (lambda r, n: (10.0 ** r.uniform(-3, 3, n), 10.0 ** r.uniform(-3, 3, n)),
                  ([0, 0, 1, 1, np.inf, -1], [0, 1, 0, np.inf, 1, 1])),
    "beta": (lambda r, n: (r.uniform(-10, 100, n), r.uniform(-10, 100, n)), ([-1.5, 2, -1, 0, 200], [2.5, 3, 2, 1, 1e-3])),
    "betaln": (lambda r, n: (10.0 ** r.uniform(-3, 8, n), 10.0 ** r.uniform(-3, 8, n)), ([1, 2, 0.5], [1, 3, 1e10])),
    "xlogy": (lambda r, n: (r.normal(0, 3, n), r.uniform(0, 10, n)), ([0, 0, 0, 1], [np.nan, 0, -1, 0])),
    "xlog1py": (lambda r, n: (r.normal(0, 3, n), r.uniform(-1, 10, n)), ([0, 0, 1], [np.nan, -1, -1])),
    "rel_entr": (lambda r, n: (r.uniform(-1, 5, n), r.uniform(-1, 5, n)), ([0, 0, 1, 1], [0, -1, 0, np.inf])),
    "kl_div": (lambda r, n: (r.uniform(-1, 5, n), r.uniform(-1, 5, n)), ([0, 0, 1], [0, -1, 0])),
    "zeta": (lambda r, n: (r.uniform(1, 60, n), r.uniform(0.01, 100, n)), ([1, 2, 2, 0.5, 3, 2], [1, 0, -1.5, 1, np.inf, -2])),
    "polygamma": (lambda r, n: (r.integers(0, 8, n).astype(float), r.uniform(-10, 50, n)), ([1, 2, 0, 1, -1], [-0.5, 3, 2, 0, 1])),
}
# Relative tolerance per loop dtype; the Bessel functions of the first and second kind also
# get an absolute one (their zeros), as do the functions computed by CUDA's float forms.
RTOL = {"float64": 1e-9, "float32": 1e-5}
# Where SciPy itself is less accurate: betaln subtracts logs of huge gammas (loom sums an
# asymptotic series there); the bound.
RTOL_VS_SCIPY = {"betaln": 1e-6}
ATOL = {"j0": 1e-14, "j1": 1e-14, "y0": 1e-13, "y1": 1e-13, "psi": 1e-14}
# float32: CUDA's j0f and j1f are within 2.2e-6 absolute (its math API's documented bound),
# and y0/y1 go through float64; the others' float32 bound is relative.
ATOL32 = {"j0": 2.5e-6, "j1": 2.5e-6, "y0": 1e-6, "y1": 1e-6, "psi": 1e-7}


def scipy_fn(name):
    return getattr(ss, name)


def compare(got, want, name, dtype):
    assert isinstance(got, loom.ndarray)
    assert got.dtype == np.dtype(dtype), f"{name}: dtype {got.dtype}, SciPy's {np.dtype(dtype)}"
    g, w = got.numpy().astype(np.float64), np.asarray(want, np.float64)
    rtol = max(RTOL[np.dtype(dtype).name], RTOL_VS_SCIPY.get(name, 0.0))
    atol = ATOL32.get(name, 0.0) if dtype == np.float32 else ATOL.get(name, 0.0)
    # float32 results below float32's normal range (subnormals, flushed to 0 on a GPU).
    tiny = np.abs(w) < (1.2e-38 if dtype == np.float32 else 1e-300)
    same = (g == w) | (np.isnan(g) & np.isnan(w)) | (tiny & (np.abs(g) < 1.2e-37))
    with np.errstate(invalid="ignore"):  # inf - inf where both are inf: `same` holds there
        close = np.abs(g - w) <= atol + rtol * np.abs(w)
    bad = ~(same | close)
    assert not bad.any(), f"{name}: {int(bad.sum())} values differ, e.g. at {np.nonzero(bad)[0][:3]}: got " \
                          f"{g[bad][:3]}, SciPy {w[bad][:3]}"


@pytest.mark.parametrize("name", sorted(UNARY))
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_unary_against_scipy(device, rng, name, dtype):
    gen, edges = UNARY[name]
    with np.errstate(all="ignore"):  # float64 arguments beyond float32's range become inf
        x = np.concatenate([gen(rng, 500), np.asarray(edges, np.float64)]).astype(dtype)
        want = scipy_fn(name)(x)
    compare(getattr(ls, name)(loom.asarray(x, device=device)), want.astype(dtype), name, dtype)


@pytest.mark.parametrize("name", sorted(BINARY))
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_binary_against_scipy(device, rng, name, dtype):
    gen, (ea, eb) = BINARY[name]
    a, b = gen(rng, 500)
    a = np.concatenate([a, np.asarray(ea, np.float64)]).astype(dtype)
    b = np.concatenate([b, np.asarray(eb, np.float64)]).astype(dtype)
    with np.errstate(all="ignore"):
        want = scipy_fn(name)(a, b)
    got = getattr(ls, name)(loom.asarray(a, device=device), loom.asarray(b, device=device))
    if name == "polygamma" and dtype == np.float32:
        want = want.astype(np.float32)  # SciPy's polygamma is Python over float64 ufuncs
    finite = np.isfinite(want) | np.isnan(want)  # SciPy overflows polygamma(n > 170) where loom does not
    compare(got[loom.asarray(finite, device=device)], want[finite].astype(dtype), name, dtype)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_betainc_against_scipy(device, rng, dtype):
    a, b = 10.0 ** rng.uniform(-2, 3, 500), 10.0 ** rng.uniform(-2, 3, 500)
    x = rng.uniform(0, 1, 500)
    a = np.r_[a, [0, 1, 0, 2, -1, 1, 1]].astype(dtype)
    b = np.r_[b, [1, 0, 0, 3, 1, 1, 1]].astype(dtype)
    x = np.r_[x, [0.5, 0.5, 0.5, 0, 0.5, 1.5, 1]].astype(dtype)
    with np.errstate(all="ignore"):
        # SciPy's float32 loop computes in float32 (Boost); loom's rounds the float64 result.
        want = ss.betainc(a.astype(np.float64), b.astype(np.float64), x.astype(np.float64)).astype(dtype)
    got = ls.betainc(*(loom.asarray(v, device=device) for v in (a, b, x)))
    # Below 1e-200 SciPy's (Boost's) float64 result can be off by percents (see the next test).
    keep = ~(np.abs(want) < 1e-200)
    compare(got[loom.asarray(keep, device=device)], want[keep], "betainc", dtype)


@pytest.mark.parametrize("name", ["gammainc", "gammaincc"])
def test_incomplete_gamma_float32_is_rounded_float64(device, rng, name):
    """float32 results stop their series earlier (1e-10) than float64 ones: still within
    two float32 roundings of the float64 value, over a and x from 1e-3 to 1e4."""
    a = (10.0 ** rng.uniform(-3, 4, 4000)).astype(np.float32)
    x = (a * rng.uniform(0.0, 3.0, 4000)).astype(np.float32)
    got = getattr(ls, name)(loom.asarray(a, device=device), loom.asarray(x, device=device)).numpy()
    want = getattr(ss, name)(a.astype(np.float64), x.astype(np.float64))
    ok = want > 1e-30
    np.testing.assert_allclose(got[ok], want[ok], rtol=2.4e-7)


def test_betainc_deep_lower_tail(device):
    # I_x(a, b) = x^a (1-x)^b / (a B(a, b)) 2F1(a + b, 1; a + 1; x): the series has positive
    # terms only, so summing it in float64 is accurate; SciPy 1.17 is 2% off at the first point.
    def series(a, b, x):
        total, term, n = 0.0, 1.0, 0
        while term > 1e-18 * total or n == 0:
            total += term
            term *= (a + b + n) / (a + 1 + n) * x
            n += 1
        log_front = a * np.log(x) + b * np.log1p(-x) - np.log(a) - ss.betaln(a, b)
        return np.exp(log_front) * total

    pts = [(494.38627600791926, 16.40489214007434, 0.22244582911541155),
           (767.4505151087068, 25.908580866735086, 0.37729202115118377), (30.5, 2.5, 0.01)]
    a, b, x = (np.array(v) for v in zip(*pts))
    got = ls.betainc(*(loom.asarray(v, device=device) for v in (a, b, x))).numpy()
    np.testing.assert_allclose(got, [series(*p) for p in pts], rtol=1e-10)


def test_riemann_zeta(device, rng):
    x = np.r_[rng.uniform(-50, 60, 300), [0, 0.5, 1, 2, -1, -2, -3, -171.5, 100, np.inf, np.nan]]
    compare(ls.zeta(loom.asarray(x, device=device)), ss.zeta(x), "zeta", np.float64)


def test_riemann_zeta_just_below_zero(device):
    # The reflection's zeta(1 - x) is all pole there: it takes 1 - x - 1 = -x exactly, and for
    # |x| < 1e-9 (the sine of the reflection underflows for subnormal x) the Taylor series.
    x = -np.logspace(-320, -1, 200)
    got = ls.zeta(loom.asarray(np.r_[x, -x], device=device)).numpy()
    np.testing.assert_allclose(got, ss.zeta(np.r_[x, -x]), rtol=1e-14, atol=0)  # was 1e-4 at x = -1e-12


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int16", "int32", "int64", "float16", "float32", "float64"])
def test_result_dtypes_are_scipys(device, dtype):
    # SciPy 1.17's loops (d->d before f->f): float32 stays, every other dtype gives float64.
    # Older SciPys list f->f first for some functions (int8 -> float32); loom keeps one rule.
    x = np.array([0, 1, 1], dtype=dtype)
    want = np.float32 if dtype == "float32" else np.float64
    for name in ("erfc", "gammaln", "expit", "i0e", "j0", "ndtr", "erf"):
        assert getattr(ls, name)(loom.asarray(x, device=device)).dtype == want, (name, dtype)
    f32 = loom.ones(3, dtype=loom.float32, device=device)
    assert ls.xlogy(loom.asarray(x, device=device), f32).dtype == np.result_type(want, np.float32)


def test_broadcasting_weak_scalars_out_and_where(device, rng):
    a = rng.uniform(0.5, 5, (4, 1))
    x = rng.uniform(0.5, 5, (3,)).astype(np.float32)
    la, lx = loom.asarray(a, device=device), loom.asarray(x, device=device)
    compare(ls.gammainc(la, lx), ss.gammainc(a, x.astype(np.float64)), "gammainc", np.float64)
    compare(ls.gammainc(2.5, lx), ss.gammainc(np.float32(2.5), x), "gammainc", np.float32)  # weak scalar
    compare(ls.betainc(2, la, lx), ss.betainc(2, a, x.astype(np.float64)), "betainc", np.float64)
    out = loom.zeros((4, 3), dtype=loom.float64, device=device)
    r = ls.gammaincc(la, lx, out=out)
    assert r is out
    compare(out, ss.gammaincc(a, x.astype(np.float64)), "gammaincc", np.float64)
    mask = rng.uniform(size=3) < 0.5
    out2 = loom.full((3,), -7.0, dtype=loom.float32, device=device)
    ls.erfinv(loom.asarray(x / 10, device=device), out=out2, where=loom.asarray(mask, device=device))
    compare(out2, np.where(mask, ss.erfinv(x / 10), np.float32(-7)), "erfinv", np.float32)


def test_complex_and_bad_shapes_raise(device):
    z = loom.asarray(np.array([1 + 1j]), device=device)
    with pytest.raises(TypeError, match="gammaln"):
        ls.gammaln(z)
    with pytest.raises(TypeError):
        ls.erf(z)
    with pytest.raises(ValueError, match="gammainc"):
        ls.gammainc(loom.ones(3, device=device), loom.ones(4, device=device))


def test_jit_fuses_and_matches_eager(device, rng):
    x = loom.asarray(rng.uniform(0.1, 0.9, 1000), device=device)

    def f(v):
        return ls.erfinv(2 * v - 1) * ls.gammaln(v + 1) + ls.expit(v) - ls.xlogy(v, 1 - v)

    want = f(x).numpy()
    np.testing.assert_allclose(loom.jit(f)(x).numpy(), want, rtol=1e-13)
    p = x.numpy()
    np.testing.assert_allclose(want, ss.erfinv(2 * p - 1) * ss.gammaln(p + 1) + ss.expit(p) - ss.xlogy(p, 1 - p),
                               rtol=1e-12)


# (function of loom arrays, its derivative from SciPy's functions, argument generator).
GRADS = {
    "erfc": (ls.erfc, lambda x: -2 / np.sqrt(np.pi) * np.exp(-x * x), lambda r: r.normal(0, 1, 50)),
    "erfinv": (ls.erfinv, lambda x: np.sqrt(np.pi) / 2 * np.exp(ss.erfinv(x) ** 2), lambda r: r.uniform(-0.9, 0.9, 50)),
    "ndtri": (ls.ndtri, lambda x: np.sqrt(2 * np.pi) * np.exp(ss.ndtri(x) ** 2 / 2), lambda r: r.uniform(0.1, 0.9, 50)),
    "log_ndtr": (ls.log_ndtr, lambda x: np.exp(-x * x / 2 - ss.log_ndtr(x)) / np.sqrt(2 * np.pi),
                 lambda r: r.normal(0, 10, 50)),
    "gammaln": (ls.gammaln, ss.psi, lambda r: r.uniform(0.1, 20, 50)),
    "gamma": (ls.gamma, lambda x: ss.gamma(x) * ss.psi(x), lambda r: r.uniform(0.1, 10, 50)),
    "digamma": (ls.digamma, lambda x: ss.polygamma(1, x), lambda r: r.uniform(0.1, 20, 50)),
    "polygamma2": (lambda x: ls.polygamma(2, x), lambda x: ss.polygamma(3, x), lambda r: r.uniform(0.5, 20, 50)),
    "zeta_q": (lambda q: ls.zeta(3.5, q), lambda q: -3.5 * ss.zeta(4.5, q), lambda r: r.uniform(0.5, 20, 50)),
    "gammainc_x": (lambda x: ls.gammainc(2.5, x), lambda x: np.exp(1.5 * np.log(x) - x - ss.gammaln(2.5)),
                   lambda r: r.uniform(0.1, 10, 50)),
    "betainc_x": (lambda x: ls.betainc(2.5, 1.5, x), lambda x: x ** 1.5 * (1 - x) ** 0.5 / ss.beta(2.5, 1.5),
                  lambda r: r.uniform(0.05, 0.95, 50)),
    "expit": (ls.expit, lambda x: ss.expit(x) * (1 - ss.expit(x)), lambda r: r.normal(0, 3, 50)),
    "logit": (ls.logit, lambda x: 1 / (x * (1 - x)), lambda r: r.uniform(0.05, 0.95, 50)),
    "log_expit": (ls.log_expit, lambda x: ss.expit(-x), lambda r: r.normal(0, 10, 50)),
    "i0e": (ls.i0e, lambda x: ss.i1e(x) - np.sign(x) * ss.i0e(x), lambda r: r.normal(0, 30, 50)),
    "i1e": (ls.i1e, lambda x: ss.i0e(x) - ss.i1e(x) * (np.sign(x) + 1 / x), lambda r: r.normal(0, 30, 50)),
    "j1": (ls.j1, lambda x: ss.j0(x) - ss.j1(x) / x, lambda r: r.normal(0, 10, 50)),
    "y0": (ls.y0, lambda x: -ss.y1(x), lambda r: r.uniform(0.5, 30, 50)),
    "entr": (ls.entr, lambda x: -(np.log(x) + 1), lambda r: r.uniform(0.1, 5, 50)),
}


@pytest.mark.parametrize("name", sorted(GRADS))
def test_grad_matches_scipy_derivative(device, rng, name):
    f, df, gen = GRADS[name]
    x = gen(rng)
    g = loom.grad(lambda v: loom.sum(f(v)))(loom.asarray(x, device=device))
    np.testing.assert_allclose(g.numpy(), df(x), rtol=1e-9, atol=1e-13)


def test_grad_of_two_argument_functions(device, rng):
    x, y = rng.uniform(0.1, 3, 40), rng.uniform(0.1, 3, 40)
    lx, ly = loom.asarray(x, device=device), loom.asarray(y, device=device)
    cases = [(ls.xlogy, (np.log(y), x / y)), (ls.rel_entr, (np.log(x / y) + 1, -x / y)),
             (ls.kl_div, (np.log(x / y), 1 - x / y)), (ls.betaln, (ss.psi(x) - ss.psi(x + y), ss.psi(y) - ss.psi(x + y))),
             (ls.xlog1py, (np.log1p(y), x / (1 + y)))]
    for f, (dx, dy) in cases:
        gx, gy = loom.grad(lambda a, b: loom.sum(f(a, b)), argnums=(0, 1))(lx, ly)
        np.testing.assert_allclose(gx.numpy(), dx, rtol=1e-9, err_msg=f.__name__)
        np.testing.assert_allclose(gy.numpy(), dy, rtol=1e-9, err_msg=f.__name__)
    # xlogy's derivative in x is 0 where x is 0 (JAX's choice), not log(y) * 0 = NaN at y = 0.
    g = loom.grad(lambda a: loom.sum(ls.xlogy(a, loom.zeros(2, device=device))))(loom.zeros(2, device=device))
    assert g.numpy().tolist() == [0.0, 0.0]


@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 1)])
def test_logsumexp_softmax(device, rng, axis):
    a = rng.normal(0, 50, (4, 5))
    a[0, 0] = -np.inf
    la = loom.asarray(a, device=device)
    # Absolute tolerances too: a log near 0 and a probability far below 1 have no relative precision.
    close = {"rtol": 1e-12, "atol": 1e-13}
    np.testing.assert_allclose(ls.logsumexp(la, axis=axis).numpy(), ss.logsumexp(a, axis=axis), **close)
    np.testing.assert_allclose(ls.logsumexp(la, axis=axis, keepdims=True).numpy(),
                               ss.logsumexp(a, axis=axis, keepdims=True), **close)
    np.testing.assert_allclose(ls.softmax(la, axis=axis).numpy(), ss.softmax(a, axis=axis), **close)
    np.testing.assert_allclose(ls.log_softmax(la, axis=axis).numpy(), ss.log_softmax(a, axis=axis), **close)
    b = rng.normal(size=(4, 5))
    got, sign = ls.logsumexp(la, axis=axis, b=loom.asarray(b, device=device), return_sign=True)
    want, wsign = ss.logsumexp(a, axis=axis, b=b, return_sign=True)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-10, atol=1e-12)  # a log of a sum near 1 is near 0
    np.testing.assert_array_equal(sign.numpy(), wsign)
    with np.errstate(all="ignore"):
        inf_rows = np.full((2, 3), -np.inf)
        np.testing.assert_array_equal(ls.logsumexp(loom.asarray(inf_rows, device=device), axis=1).numpy(),
                                      ss.logsumexp(inf_rows, axis=1))


# The formulas over the rows (_composites.py): (name, argument generators).
COMPOSITES = {
    "gammasgn": [lambda r: np.r_[r.uniform(-10, 10, 200), [-1.0, 0.0, -0.0, 2.0, -2.5, np.nan, np.inf]]],
    "rgamma": [lambda r: np.r_[r.uniform(-10, 10, 200), [-1.0, 0.0, 2.0, -2.5, np.nan]]],
    "poch": [lambda r: r.uniform(0.1, 10, 100), lambda r: r.uniform(-3, 5, 100)],
    "binom": [lambda r: r.uniform(0, 30, 100), lambda r: r.uniform(0, 10, 100)],
    "boxcox": [lambda r: r.uniform(0.1, 5, 100), lambda r: np.r_[r.uniform(-2, 2, 99), 0.0]],
    "boxcox1p": [lambda r: r.uniform(-0.5, 5, 100), lambda r: np.r_[r.uniform(-2, 2, 99), 0.0]],
    "inv_boxcox": [lambda r: r.uniform(-1, 1, 100), lambda r: np.r_[r.uniform(-0.5, 0.5, 99), 0.0]],
    "inv_boxcox1p": [lambda r: r.uniform(-1, 1, 100), lambda r: np.r_[r.uniform(-0.5, 0.5, 99), 0.0]],
    "cosm1": [lambda r: np.r_[r.normal(0, 3, 100), [1e-8, -1e-9, 0.0]]],
    "sindg": [lambda r: np.r_[r.uniform(-720, 720, 200), [0.0, 90.0, 180.0, 270.0, -90.0, 360.0]]],
    "cosdg": [lambda r: np.r_[r.uniform(-720, 720, 200), [0.0, 90.0, 180.0, 270.0, -90.0, 360.0]]],
    "tandg": [lambda r: np.r_[r.uniform(-720, 720, 200), [0.0, 45.0, 135.0, 180.0, 225.0, -45.0]]],
    "cotdg": [lambda r: np.r_[r.uniform(-720, 720, 200), [45.0, 90.0, 135.0, 270.0, -45.0]]],
    "radian": [lambda r: r.uniform(0, 360, 50), lambda r: r.uniform(0, 60, 50), lambda r: r.uniform(0, 60, 50)],
    "exp10": [lambda r: r.uniform(-5, 5, 50)],
    "softplus": [lambda r: r.normal(0, 50, 100)],
    "huber": [lambda r: r.uniform(-1, 3, 50), lambda r: r.normal(0, 3, 50)],
    "pseudo_huber": [lambda r: np.r_[r.uniform(0, 3, 49), 0.0], lambda r: r.normal(0, 3, 50)],
    "exprel": [lambda r: np.r_[r.normal(0, 20, 100), [0.0, -0.0, 1e-300, 1e-10, 720.0, -720.0, np.inf, -np.inf, np.nan]]],
    "zetac": [lambda r: np.r_[r.uniform(1.0001, 60, 100), r.uniform(-20, -0.01, 50), r.uniform(0.01, 0.99, 50),
                              -np.logspace(-300, -3, 20), [1.0, 2.0, -2.0, np.inf, np.nan]]],
    "loggamma": [lambda r: np.r_[r.uniform(1e-3, 200, 100), [0.0, -1.5, -2.0, 1.0, 2.0, np.inf, np.nan]]],
}


@pytest.mark.parametrize("name", sorted(COMPOSITES))
def test_composites_against_scipy(device, rng, name):
    if name == "softplus" and not hasattr(ss, "softplus"):
        pytest.skip("this SciPy has no softplus")
    args = [g(rng) for g in COMPOSITES[name]]
    with np.errstate(all="ignore"):
        want = getattr(ss, name)(*args)
    got = getattr(ls, name)(*(loom.asarray(a, device=device) for a in args))
    assert got.device == device
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-10, atol=1e-12, equal_nan=True)


def test_multigammaln(device, rng):
    a = rng.uniform(3, 20, 30)
    np.testing.assert_allclose(ls.multigammaln(loom.asarray(a, device=device), 4).numpy(), ss.multigammaln(a, 4),
                               rtol=1e-12)
    with pytest.raises(ValueError, match="multigammaln"):
        ls.multigammaln(loom.asarray([0.5], device=device), 3)
    # float64 for every input, as SciPy's
    assert ls.multigammaln(loom.asarray(a.astype(np.float32), device=device), 2).dtype == loom.float64


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.float16, np.float32])
def test_logsumexp_softmax_dtypes_are_numpys(device, rng, dtype):
    # NumPy expressions in SciPy: softmax/log_softmax in exp's float, logsumexp's integers as float64
    x = rng.integers(0, 6, (3, 4)).astype(dtype)
    lx = loom.asarray(x, device=device)
    rtol = 2e-3 if dtype in (np.int8, np.float16) else 1e-5 if dtype in (np.int16, np.float32) else 1e-12
    for f in ("softmax", "log_softmax"):
        got = getattr(ls, f)(lx, axis=1)
        assert got.dtype == np.exp(x).dtype, f
        np.testing.assert_allclose(got.numpy().astype(float), getattr(ss, f)(x.astype(float), axis=1), rtol=rtol, atol=rtol)
    want_dtype = x.dtype if x.dtype.kind == "f" else np.float64
    assert ls.logsumexp(lx).dtype == want_dtype
    # with a weight, the promoted type of the two (int8 and float32 give float32, as SciPy's)
    assert ls.logsumexp(lx, b=loom.ones(4, dtype=loom.float32, device=device), axis=1).dtype == np.result_type(
        np.float32, x.dtype)
    with pytest.raises(TypeError, match="softmax.*boolean"):
        ls.softmax(loom.asarray(x > 2, device=device))


def test_logsumexp_softmax_complex_and_zero_weights(device, rng):
    x = rng.normal(0, 3, (3, 4)) + 1j * rng.normal(0, 5, (3, 4))
    lx = loom.asarray(x, device=device)
    for axis in (None, 0, 1):
        np.testing.assert_allclose(ls.logsumexp(lx, axis=axis).numpy(), ss.logsumexp(x, axis=axis), rtol=1e-10)
        np.testing.assert_allclose(ls.softmax(lx, axis=axis).numpy(), ss.softmax(x, axis=axis), rtol=1e-10)
        np.testing.assert_allclose(ls.log_softmax(lx, axis=axis).numpy(), ss.log_softmax(x, axis=axis), rtol=1e-10)
        got, sign = ls.logsumexp(lx, axis=axis, return_sign=True)
        want, wsign = ss.logsumexp(x, axis=axis, return_sign=True)
        assert got.dtype == loom.float64 and sign.dtype == loom.complex128
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-10)
        np.testing.assert_allclose(sign.numpy(), wsign, rtol=1e-10)
    # A zero weight drops its term, an infinite or NaN one too (SciPy's rule)
    a, b = np.array([1.0, np.inf, 2.0, np.nan]), np.array([0.5, 0.0, -2.0, 0.0])
    got, sign = ls.logsumexp(loom.asarray(a, device=device), b=loom.asarray(b, device=device), return_sign=True)
    want, wsign = ss.logsumexp(a, b=b, return_sign=True)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12)
    assert float(sign) == wsign
