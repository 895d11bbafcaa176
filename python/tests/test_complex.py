"""complex64 and complex128: dtypes, promotion, conversion, casts, creation, the op table's
complex ops (against NumPy on fresh random data and at infinities, NaNs and branch cuts),
weak Python complex scalars, real/imag views, angle, jit fusion, and the clear TypeError of
the ops that do not take complex arrays yet. On every device (GPU cases skip without one)."""
import warnings

import numpy as np
import pytest

import loom
from conftest import COMPLEX_DTYPES, DTYPES, assert_matches, compare, random_array

CNAMES = ["complex64", "complex128"]
PART = {"complex64": np.float32, "complex128": np.float64}

UNARY = ["negative", "positive", "absolute", "conjugate", "sign", "sqrt", "square", "reciprocal", "exp", "exp2",
         "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh",
         "cosh", "tanh", "arcsinh", "arccosh", "arctanh", "rint", "isnan", "isinf", "isfinite", "logical_not"]
BINARY = ["add", "subtract", "multiply", "divide", "power", "maximum", "minimum", "fmax", "fmin", "equal",
          "not_equal", "less", "less_equal", "greater", "greater_equal", "logical_and", "logical_or", "logical_xor"]
# NumPy defines these on real numbers only: loom refuses complex the same way (TypeError).
REAL_ONLY = ["floor", "ceil", "trunc", "cbrt", "erf", "floor_divide", "remainder", "arctan2", "hypot", "copysign",
             "bitwise_and", "invert", "left_shift"]
# Within this many ulps (relative to the result's modulus) of NumPy's float64-based result.
RTOL = {"complex64": 2e-6, "complex128": 4e-15}


def crandom(rng, shape, name, scale=3.0):
    part = PART[name]
    re = rng.uniform(-scale, scale, size=shape).astype(part)
    im = rng.uniform(-scale, scale, size=shape).astype(part)
    return np.array(re + 1j * im, dtype=name)


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        yield


def test_dtype_objects():
    for (d, n) in COMPLEX_DTYPES:
        assert d.name == n.name and d.itemsize == n.itemsize and d.kind == "c"
        assert d == n and d == n.name and np.dtype(d) == n
        assert loom.dtype(n.type) == d
    assert loom.dtype(complex) == loom.complex128 and loom.dtype("c8") == loom.complex64
    assert loom.dtype("complex") == loom.complex128


def test_promotion_follows_numpy():
    names = [d.name for d, _ in DTYPES if d.name != "bfloat16"] + CNAMES
    for a in names:
        for b in CNAMES:
            want = np.promote_types(a, b)
            assert loom.promote_types(a, b) == want, (a, b)
            assert loom.promote_types(b, a) == want, (b, a)
    assert loom.promote_types("bfloat16", "complex64") == loom.complex64
    assert loom.promote_types("bfloat16", "complex128") == loom.complex128


@pytest.mark.parametrize("name", CNAMES)
def test_numpy_round_trip_and_item(device, rng, name):
    x = crandom(rng, (4, 5), name)
    a = loom.asarray(x, device=device)
    assert a.dtype == name and a.device == device
    np.testing.assert_array_equal(loom.asnumpy(a), x)
    assert a[1, 2].item() == complex(x[1, 2]) and isinstance(a[1, 2].item(), complex)
    np.testing.assert_array_equal(loom.asnumpy(a.T.copy()), x.T)
    b = loom.asarray([[1 + 2j, 3], [0, -1j]], device=device)
    assert b.dtype == loom.complex128
    np.testing.assert_array_equal(loom.asnumpy(b), np.array([[1 + 2j, 3], [0, -1j]]))
    assert "j" in repr(a)


@pytest.mark.parametrize("name", CNAMES)
def test_creation(device, name):
    for fn, want in [(loom.zeros, np.zeros), (loom.ones, np.ones)]:
        got = fn((3, 2), dtype=name, device=device)
        assert_matches(got, want((3, 2), dtype=name), device=device, exact=True)
    got = loom.full((2, 3), 1.5 - 2.25j, dtype=name, device=device)
    assert_matches(got, np.full((2, 3), 1.5 - 2.25j, dtype=name), device=device, exact=True)
    got = loom.full((5,), 2 + 1j, device=device)
    assert got.dtype == loom.complex128
    assert_matches(loom.empty((0, 3), dtype=name, device=device), np.empty((0, 3), dtype=name), device=device)


def test_casts_both_ways(device, rng):
    for src_l, src_n in DTYPES + COMPLEX_DTYPES:
        x = random_array(rng, (7, 3), src_n) if src_n.kind != "c" else crandom(rng, (7, 3), src_n.name, 100)
        a = loom.asarray(x, device=device)
        for dst_l, dst_n in DTYPES + COMPLEX_DTYPES:
            if src_n.kind != "c" and dst_n.kind != "c":
                continue
            if src_n.kind == "c" and dst_n.kind in "iu":
                # NumPy's complex -> integer goes through the real part's float -> int cast,
                # undefined beyond the range: compare in range only.
                x2 = np.clip(x.real, 0, 100).astype(src_n)
                got, want = loom.asarray(x2, device=device).astype(dst_l), x2.astype(dst_n)
            else:
                got, want = a.astype(dst_l), x.astype(dst_n)
            assert_matches(got, want, device=device, exact=True)


def log1p_reference(z):
    # NumPy's complex log1p is log(1 + z), whose real part loses digits for small |z| (loom's
    # does not). There the reference is the real log1p of |1 + z|^2 - 1 = 2x + x^2 + y^2 and
    # the angle of 1 + z; elsewhere (near -1 too, where 1 + z is exact) NumPy's value.
    x, y = z.real.astype(np.float64), z.imag.astype(np.float64)
    small = 0.5 * np.log1p(2 * x + x * x + y * y) + 1j * np.arctan2(y, 1 + x)
    return np.where(np.abs(z) < 0.5, small, np.log1p(z.astype(np.complex128))).astype(z.dtype)


@pytest.mark.parametrize("name", CNAMES)
@pytest.mark.parametrize("op", UNARY)
def test_unary_ops_match_numpy(device, rng, name, op):
    x = crandom(rng, (64, 9), name)
    if op in ("exp", "exp2", "sinh", "cosh", "tan", "tanh"):
        x = crandom(rng, (64, 9), name, 1.5)

    def fn(m, a):
        return log1p_reference(a) if op == "log1p" and m is np else getattr(m, op)(a)
    compare(fn, x, device=device, rtol=RTOL[name])
    # A strided view reads the same values.
    compare(lambda m, a: fn(m, a[::2, 1:]), x, device=device, rtol=RTOL[name])


@pytest.mark.parametrize("name", CNAMES)
@pytest.mark.parametrize("op", BINARY)
def test_binary_ops_match_numpy(device, rng, name, op):
    x, y = crandom(rng, (40, 7), name), crandom(rng, (40, 7), name)
    if op in ("maximum", "minimum", "fmax", "fmin", "less", "less_equal", "greater", "greater_equal", "equal",
              "not_equal"):
        y[::3] = x[::3]  # equal elements and equal real parts exercise the tie rules
        y[1::3] = x[1::3].real + 1j * y[1::3].imag
    if op == "power":
        x, y = crandom(rng, (40, 7), name, 2.0), crandom(rng, (40, 7), name, 2.0)
        y[:, 0] = 2  # NumPy's exact small integer powers
        y[:, 1] = -1
    compare(lambda m, a, b: getattr(m, op)(a, b), x, y, device=device, rtol=RTOL[name] * 4)
    compare(lambda m, a, b: getattr(m, op)(a, b[0]), x, y, device=device, rtol=RTOL[name] * 4)


SPECIAL = [0.0, -0.0, 1.0, -1.0, 0.5, 2.0, np.inf, -np.inf, np.nan, 1e-30, 1e30]


def expm1_standard(x, numpy_result):
    """NumPy's expm1 where it defines the value; the Array API standard's (C99's cexp(z) - 1)
    where NumPy's formula makes a NaN: on the real axis and at x = +-inf with y not finite."""
    want = numpy_result.copy()
    axis = x.imag == 0
    want.real[axis] = np.expm1(x.real[axis])
    want.imag[axis] = x.imag[axis]
    edge = np.isinf(x.real) & ~np.isfinite(x.imag)
    want[edge & (x.real < 0)] = -1
    want.real[edge & (x.real > 0)] = np.inf
    want.imag[edge & (x.real > 0)] = np.nan
    return want


@pytest.mark.parametrize("name", CNAMES)
@pytest.mark.parametrize("op", ["sqrt", "exp", "log", "log1p", "expm1", "sin", "cos", "tan", "sinh", "cosh", "tanh",
                                "arcsin", "arccos", "arctan", "arcsinh", "arccosh", "arctanh", "reciprocal",
                                "absolute", "sign", "log10", "exp2"])
def test_special_values_and_branch_cuts(device, name, op):
    # Every pair of parts from SPECIAL: zeros of both signs (the sides of each branch cut),
    # points on the cuts (real beyond +-1, imaginary beyond +-i), infinities and NaNs.
    re, im = np.meshgrid(np.array(SPECIAL), np.array(SPECIAL))
    x = np.empty(re.size, dtype=name)
    x.real, x.imag = re.ravel(), im.ravel()  # keeps -0.0 (re + 1j * -0.0 would not)
    if op == "log1p":
        # NumPy computes log(1 + z), which loses a tiny z entirely (log1p(1e-30) is 0 there);
        # loom keeps it: checked against the series below, the rest against NumPy here.
        x = x[np.abs(x) > 1e-20]
    want = getattr(np, op)(x)
    if op == "expm1":
        want = expm1_standard(x, want)
    got = loom.asnumpy(getattr(loom, op)(loom.asarray(x, device=device)))
    assert got.dtype == want.dtype
    parts = ("real", "imag") if want.dtype.kind == "c" else ("real",)
    for part, other in zip(parts, reversed(parts)):
        g, w = getattr(got, part).astype(np.float64), getattr(want, part).astype(np.float64)
        ok = (np.isnan(g) & np.isnan(w)) | np.isclose(g, w, rtol=RTOL[name] * 8, atol=0)
        if len(parts) == 2:
            # C99 (Annex G) leaves the sign of an infinite part unspecified where the other
            # part is NaN (csinh(inf + i inf) is +-inf + i NaN): any sign passes there.
            o = getattr(got, other)
            ok |= np.isinf(g) & np.isinf(w) & np.isnan(o)
        assert ok.all(), (op, part, x[~ok], g[~ok], w[~ok])


@pytest.mark.parametrize("name", CNAMES)
def test_log1p_and_expm1_keep_tiny_arguments(device, name):
    z = np.array([1e-30 + 1e-30j, -3e-25 + 2e-20j, 1e-12 - 1e-13j], dtype=name)
    a = loom.asarray(z, device=device)
    zz = z.astype(np.complex128)
    # Two terms of the series are exact to double precision at these sizes.
    assert_matches(loom.log1p(a), (zz - zz * zz / 2).astype(name), device=device, rtol=RTOL[name])
    assert_matches(loom.expm1(a), (zz + zz * zz / 2).astype(name), device=device, rtol=RTOL[name])


def test_weak_python_complex_scalars(device, rng):
    for dt, want in [("float32", "complex64"), ("float16", "complex64"), ("float64", "complex128"),
                     ("int32", "complex128"), ("bool", "complex128"), ("complex64", "complex64")]:
        x = random_array(rng, (5,), dt)
        a = loom.asarray(x, device=device)
        got = a + (1 - 2j)
        assert got.dtype == want, (dt, got.dtype)
        assert_matches(got, x + (1 - 2j), device=device, rtol=1e-6)
        assert (2j * a).dtype == want
    z = loom.asarray(crandom(rng, (5,), "complex64"), device=device)
    assert (z + 1.5).dtype == loom.complex64 and (z * 2).dtype == loom.complex64
    assert (z == 1j).dtype == loom.bool_


@pytest.mark.parametrize("name", CNAMES)
def test_indexing_gathers_and_scatters(device, rng, name):
    x = crandom(rng, (30, 8), name)
    idx = rng.integers(0, 30, size=12)
    compare(lambda m, a, i: a[i], x, idx, device=device, exact=True)
    compare(lambda m, a, i: a[i, ::-2], x, idx, device=device, exact=True)
    compare(lambda m, a: a[a.real > 0], x, device=device, exact=True)

    def set_rows(m, a, i):
        a[i] = a[i] * 2j
        a[3:5, 1] = 1 - 1j
        return a
    compare(set_rows, x, np.unique(idx), device=device, exact=True)


@pytest.mark.parametrize("name", CNAMES)
def test_round_and_clip_match_numpy(device, rng, name):
    x = crandom(rng, (50, 20), name, 5.0)
    for d in [0, 1, 2, -1]:
        compare(lambda m, a: m.round(a, d), x, device=device, exact=True)
    compare(lambda m, a: m.clip(a, -1 + 1j, 2), x, device=device, exact=True)


@pytest.mark.parametrize("name", CNAMES)
def test_real_imag_views_and_assignment(device, rng, name):
    x = crandom(rng, (6, 4), name)
    a = loom.asarray(x.copy(), device=device)
    assert_matches(a.real, x.real, device=device, exact=True)
    assert_matches(loom.imag(a), x.imag, device=device, exact=True)
    assert_matches(a.T.imag, x.T.imag, device=device, exact=True)
    assert_matches(a[1::2, ::-1].real, x[1::2, ::-1].real, device=device, exact=True)
    a.imag = 0.5
    a.real[0] = 7
    x.imag = 0.5
    x.real[0] = 7
    assert_matches(a, x, device=device, exact=True)
    assert_matches(loom.conj(a), np.conj(x), device=device, exact=True)
    assert_matches(a.conj(), x.conj(), device=device, exact=True)
    compare(lambda m, v: m.angle(v), x, device=device, rtol=1e-6)
    compare(lambda m, v: m.angle(v, deg=True), x, device=device, rtol=1e-6)
    compare(lambda m, v: m.iscomplex(v), x, device=device)
    compare(lambda m, v: m.isreal(v), x, device=device)
    assert loom.iscomplexobj(a) and not loom.isrealobj(a)


def test_parts_of_real_arrays(device, rng):
    x = random_array(rng, (5,), "float32")
    a = loom.asarray(x, device=device)
    assert_matches(a.real, x, device=device, exact=True)
    assert_matches(a.imag, np.zeros(5, np.float32), device=device, exact=True)
    assert_matches(loom.conj(a), x, device=device, exact=True)
    compare(lambda m, v: m.angle(v), x, device=device, rtol=1e-6)
    compare(lambda m, v: m.angle(v), x.astype(np.int32), device=device, rtol=1e-12)
    for small in (x > 0, x.astype(np.int8), x.astype(np.float16)):  # bool: float64, as NumPy's arctan2(0, b)
        compare(lambda m, v: m.angle(v, deg=True), small, device=device, rtol=1e-3)
    with pytest.raises(TypeError):
        a.imag = 1.0


@pytest.mark.parametrize("name", CNAMES)
def test_jit_fuses_complex_expressions(device, rng, name):
    x, y = crandom(rng, (33, 17), name, 1.0), crandom(rng, (33, 17), name, 1.0)
    f = loom.jit(lambda a, b: loom.abs(loom.exp(a) * b - loom.conj(a)) + loom.sqrt(b).real)
    want = np.abs(np.exp(x) * y - np.conj(x)) + np.sqrt(y).real
    got = f(loom.asarray(x, device=device), loom.asarray(y, device=device))
    assert_matches(got, want, device=device, rtol=RTOL[name] * 8)


@pytest.mark.parametrize("name", CNAMES)
def test_jit_fused_groups_read_strided_complex_views_and_write_in_place(device, rng, name):
    # Fused groups gather strided operands element by element (complex128's 16 bytes too),
    # through lazy where branches as well.
    x = crandom(rng, (6, 9), name, 1.0)

    def inplace(a):
        y = loom.flip(a, 1).copy()
        loom.multiply(y, 0.5, out=y)
        return y * 2

    def strided(a):
        v = a[:, ::-2]
        return loom.where(v.real > 0, v * 2, loom.exp(v)) + 1
    for fn, want in [(inplace, np.flip(x, 1) * 0.5 * 2),
                     (strided, np.where(x[:, ::-2].real > 0, x[:, ::-2] * 2, np.exp(x[:, ::-2])) + 1)]:
        got = loom.jit(fn)(loom.asarray(x, device=device))
        assert_matches(got, want, device=device, rtol=RTOL[name] * 8)


def _with_nans_and_ties(rng, name, shape):
    """Complex values with repeated real parts, infinities and NaNs in either part."""
    x = (rng.integers(-2, 3, size=shape) + 1j * rng.integers(-2, 3, size=shape)).astype(name)
    flat = x.reshape(-1)
    specials = [complex(np.nan, 1), complex(1, np.nan), complex(np.nan, np.nan), complex(np.inf, 0),
                complex(-np.inf, 2), complex(0, -np.inf)]
    pos = rng.choice(flat.size, size=len(specials), replace=False)
    for p, v in zip(pos, specials):
        flat[p] = v
    return x


@pytest.mark.parametrize("name", CNAMES)
def test_sort_and_argsort_in_numpys_lexicographic_order(device, rng, name):
    x = _with_nans_and_ties(rng, name, (5, 40))
    for axis in [-1, 0, None]:
        got = loom.sort(loom.asarray(x, device=device), axis=axis).numpy()
        np.testing.assert_array_equal(got, np.sort(x, axis=axis, kind="stable"))
        gi = loom.argsort(loom.asarray(x, device=device), axis=axis).numpy()
        np.testing.assert_array_equal(gi, np.argsort(x, axis=axis, kind="stable"))
    finite = crandom(rng, (3, 17), name, 1.0)
    np.testing.assert_array_equal(loom.sort(loom.asarray(finite.T, device=device), axis=0).numpy(),
                                  np.sort(finite.T, axis=0))


@pytest.mark.parametrize("name", CNAMES)
def test_max_min_argmax_argmin_compare_lexicographically(device, rng, name):
    x = (rng.integers(-3, 4, size=(4, 6, 5)) + 1j * rng.integers(-3, 4, size=(4, 6, 5))).astype(name)
    lx = loom.asarray(x, device=device)
    for axis in [None, 0, 1, -1]:
        for fn in ("argmax", "argmin"):
            np.testing.assert_array_equal(getattr(loom, fn)(lx, axis=axis).numpy(), getattr(np, fn)(x, axis=axis))
        np.testing.assert_array_equal(loom.argmax(lx, axis=axis, keepdims=True).numpy(),
                                      np.argmax(x, axis=axis, keepdims=True))
    for axis in [None, 0, (0, 2), (1,)]:
        for fn in ("max", "min"):
            np.testing.assert_array_equal(getattr(loom, fn)(lx, axis=axis).numpy(), getattr(np, fn)(x, axis=axis))
            np.testing.assert_array_equal(getattr(loom, fn)(lx, axis=axis, keepdims=True).numpy(),
                                          getattr(np, fn)(x, axis=axis, keepdims=True))
    y = x.copy()
    y[1, 2, 3] = complex(2, np.nan)
    y[1, 4, 0] = complex(np.nan, 0)
    ly = loom.asarray(y, device=device)
    for axis in [None, 1]:
        np.testing.assert_array_equal(loom.argmax(ly, axis=axis).numpy(), np.argmax(y, axis=axis))
        np.testing.assert_array_equal(loom.argmin(ly, axis=axis).numpy(), np.argmin(y, axis=axis))
        np.testing.assert_array_equal(loom.max(ly, axis=axis).numpy(), np.max(y, axis=axis))
    with pytest.raises(ValueError, match="zero-size array to reduction operation maximum"):
        loom.max(loom.zeros((0, 3), dtype=name, device=device), axis=0)
    with pytest.raises(ValueError, match="attempt to get argmin of an empty sequence"):
        loom.argmin(loom.zeros((0,), dtype=name, device=device))


@pytest.mark.parametrize("name", CNAMES)
def test_cumsum_cumprod_and_eye(device, rng, name):
    x = crandom(rng, (40, 70), name, 1.0)
    u = np.exp(1j * rng.uniform(-1, 1, size=x.shape)).astype(name)
    for axis in [None, 0, 1]:
        compare(lambda m, a: m.cumsum(a, axis=axis), x, device=device, rtol=RTOL[name] * 2000)
        compare(lambda m, a: m.cumprod(a, axis=axis), u, device=device, rtol=RTOL[name] * 4000)
    for k in [0, 1, -2]:
        assert_matches(loom.eye(4, 5, k=k, dtype=name, device=device), np.eye(4, 5, k=k, dtype=name), device=device,
                       exact=True)


@pytest.mark.parametrize("name", CNAMES)
@pytest.mark.parametrize("fn", ["var", "std"])
def test_var_and_std_are_real(device, rng, name, fn):
    x = crandom(rng, (20, 30), name, 2.0)
    rtol = RTOL[name] * 100
    for axis in [None, 0, 1]:
        compare(lambda m, a: getattr(m, fn)(a, axis=axis), x, device=device, rtol=rtol)
    compare(lambda m, a: getattr(m, fn)(a, axis=1, ddof=1, keepdims=True), x, device=device, rtol=rtol)


def test_complex_normal_draws(device):
    k = loom.random.key(3)
    for name in CNAMES:
        z = loom.asnumpy(loom.random.normal(k, (200, 500), dtype=name, device=device))
        assert z.dtype == name and z.shape == (200, 500)
        # Each part N(0, 1/2): E|z|^2 = 1, the parts uncorrelated.
        assert abs(np.mean(np.abs(z) ** 2) - 1) < 0.02
        assert abs(np.var(z.real) - 0.5) < 0.01 and abs(np.var(z.imag) - 0.5) < 0.01
        assert abs(np.mean(z.real * z.imag)) < 0.01
    a = loom.random.normal(k, (4,), dtype="complex64", device=device)
    np.testing.assert_array_equal(loom.asnumpy(a), loom.asnumpy(loom.random.normal(k, (4,), dtype="complex64",
                                                                                    device=device)))


@pytest.mark.parametrize("name", CNAMES)
@pytest.mark.parametrize("fn", ["sum", "prod", "mean"])
def test_reductions_match_numpy(device, rng, name, fn):
    x = crandom(rng, (37, 300), name, 1.0)
    if fn == "prod":
        x = np.exp(1j * rng.uniform(-1, 1, size=x.shape)).astype(name)  # unit modulus: no overflow
    rtol = RTOL[name] * 300  # a sum of 300 terms in the dtype, as NumPy's pairwise one
    for axis in [None, 0, 1, (0, 1)]:
        for keepdims in [False, True]:
            compare(lambda m, a: getattr(m, fn)(a, axis=axis, keepdims=keepdims), x, device=device, rtol=rtol)
    compare(lambda m, a: getattr(m, fn)(a.T[::2], axis=1), x, device=device, rtol=rtol)
    compare(lambda m, a: getattr(m, fn)(a, axis=0, dtype=m.complex128), x, device=device, rtol=1e-12)
    compare(lambda m, a: getattr(m, fn)(a[:0], axis=0), x, device=device)
    f = loom.jit(lambda a: getattr(loom, fn)(a * 2, axis=1) + 1)
    assert_matches(f(loom.asarray(x, device=device)), getattr(np, fn)(x * 2, axis=1) + 1, device=device, rtol=rtol)


@pytest.mark.parametrize("name", CNAMES)
def test_products_match_numpy(device, rng, name):
    a, b = crandom(rng, (3, 20, 30), name, 1.0), crandom(rng, (3, 30, 10), name, 1.0)
    # Per element: a sum of 30 products that cancels to a small value carries less relative
    # accuracy, and cuBLAS sums in another order than NumPy's BLAS.
    rtol = RTOL[name] * 300
    compare(lambda m, x, y: x @ y, a, b, device=device, rtol=rtol)
    compare(lambda m, x, y: m.matmul(x[0].T, y[0].T.T), a, b, device=device, rtol=rtol)  # transposed layouts
    compare(lambda m, x, y: x[:, :, ::2] @ y[:, ::2], a, b, device=device, rtol=rtol)  # strided: copied first
    compare(lambda m, x, y: m.vdot(x[0], x[1]), a, b, device=device, rtol=rtol * 10)
    compare(lambda m, x, y: m.dot(x[0, 0], y[0, :, 0]), a, b, device=device, rtol=rtol)
    compare(lambda m, x, y: m.einsum("bij,bjk->bik", x, y), a, b, device=device, rtol=rtol)
    r = random_array(rng, (30, 4), "float32")
    compare(lambda m, x, y: x[0] @ y, a, r, device=device, rtol=rtol)  # real operand promoted
    compare(lambda m, x, y: m.matmul(x[1], x[1].conj().T), a, b, device=device, rtol=rtol)


def test_unique_nonzero_truth_and_repeat_of_complex(device, rng):
    z = crandom(rng, (4, 6), "complex64", scale=2.0).round()  # rounded: repeated values
    z[0, :3] = [0, 0j, complex(0, np.nan)]
    z[1, :2] = [complex(np.nan, 1), complex(np.nan, 1)]
    for equal_nan in (True, False):
        compare(lambda xp, x: xp.unique(x, return_index=True, return_inverse=True, return_counts=True,
                                        equal_nan=equal_nan), z, device=device)
    compare(lambda xp, x: xp.nonzero(x), z, device=device)
    compare(lambda xp, x: xp.count_nonzero(x, axis=1), z, device=device)
    for name in ("any", "all"):
        compare(lambda xp, x: getattr(xp, name)(x, axis=0), z, device=device)
    compare(lambda xp, x: xp.repeat(x, [1, 0, 3, 2], axis=0), z, device=device)


def test_ops_without_complex_raise_type_error_naming_the_op(device, rng):
    z = loom.asarray(crandom(rng, (4, 4), "complex64"), device=device)
    for op in REAL_ONLY:
        fn = getattr(loom, op)
        with pytest.raises(TypeError, match=op):
            fn(z) if op in ("floor", "ceil", "trunc", "cbrt", "erf", "invert") else fn(z, z)
    for call, name in [(lambda: loom.random.normal(0, 1, (2,), dtype=z.dtype), "normal")]:
        with pytest.raises(TypeError, match=name):
            call()


def test_complex_arguments_that_would_lose_their_imaginary_part_raise(device):
    # linspace takes complex ends whole (NumPy's complex samples), so nothing is lost there
    assert_matches(loom.linspace(0, 1j, 3, device=device), np.linspace(0, 1j, 3), device=device)
    with pytest.raises(TypeError, match="arange"):
        loom.arange(0, 3j, device=device)
    x = loom.zeros(3, device=device)
    with pytest.raises(TypeError):
        x[0] = 1j


def test_grad_through_complex_values(device, rng):
    # JAX's convention (docs/TRANSFORMS.md §6; python/tests/test_grad_complex.py has the rules).
    x = random_array(rng, (3,), "float64")
    g = loom.grad(lambda v: loom.sum(loom.abs(v * 1j)))(loom.asarray(x, device=device))
    np.testing.assert_allclose(g.numpy(), np.sign(x))
    z = x.astype(np.complex64) * (1 - 2j)
    g = loom.grad(lambda v: loom.sum(loom.abs(v)))(loom.asarray(z, device=device))
    assert g.dtype == loom.complex64
    np.testing.assert_allclose(g.numpy(), np.conj(z) / np.abs(z), rtol=1e-5)


def test_dlpack_round_trip_on_cpu(rng):
    x = crandom(rng, (3, 5), "complex128")
    a = loom.asarray(x, device=loom.cpu())
    np.testing.assert_array_equal(np.from_dlpack(a), x)
    b = loom.from_dlpack(x)
    assert b.dtype == loom.complex128
    np.testing.assert_array_equal(loom.asnumpy(b), x)
