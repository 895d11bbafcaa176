"""sort, argsort, unique, searchsorted against NumPy on every device.

Stability is checked through argsort: loom's indices must equal NumPy's kind='stable'
ones on data with many duplicates. NumPy cannot sort bfloat16 (ml_dtypes gives it no
sort), so bfloat16 references come from float32 (the cast is exact).
"""
import ml_dtypes
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import loom
from conftest import DTYPE_NAMES, NP_DTYPES, assert_matches, compare, random_array

FLOATS = ["float16", "bfloat16", "float32", "float64"]
BF16 = np.dtype(ml_dtypes.bfloat16)


def sort_data(rng, shape, dtype, dups=True, specials=True):
    """Random values of `dtype` with many duplicates and, for floats, NaN (both signs),
    +-inf and +-0.0 sprinkled in."""
    dt = NP_DTYPES[dtype] if isinstance(dtype, str) else np.dtype(dtype)
    x = random_array(rng, shape, dt)
    n = x.size
    if dups and n > 1:
        pool = x.reshape(-1)[rng.integers(0, n, size=max(2, n // 4))]
        x = pool[rng.integers(0, len(pool), size=x.shape)].reshape(x.shape)
    if specials and dt.name in FLOATS and n > 1:
        vals = np.array([np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0], dtype=np.float64)
        vals[1] = np.copysign(np.nan, -1.0)
        flat = x.reshape(-1)
        pos = rng.integers(0, n, size=max(1, n // 5))
        flat[pos] = vals[rng.integers(0, len(vals), size=len(pos))].astype(dt)
        x = flat.reshape(x.shape)
    return x


def _bf16_ref(fn, x, *rest):
    """fn(np, ...) computed in float32 for bfloat16 inputs, float results cast back."""
    def back(r):
        r = np.asarray(r)
        return r.astype(BF16) if r.dtype == np.float32 else r
    def f32(a):
        return a.astype(np.float32) if isinstance(a, np.ndarray) and a.dtype == BF16 else a
    r = fn(np, f32(x), *[f32(a) for a in rest])
    return tuple(back(v) for v in r) if isinstance(r, tuple) else back(r)


def check(fn, x, *rest, device):
    """compare(), with the float32 route for bfloat16; values must match exactly."""
    if x.dtype != BF16:
        return compare(fn, x, *rest, device=device, exact=True)
    expected = _bf16_ref(fn, x, *rest)
    got = fn(loom, loom.asarray(x, device=device), *[loom.asarray(r, device=device)
                                                     if isinstance(r, np.ndarray) else r for r in rest])
    if isinstance(expected, tuple):
        assert isinstance(got, tuple) and len(got) == len(expected)
        for g, e in zip(got, expected):
            assert_matches(g, e, device=device, exact=True)
    else:
        assert_matches(got, expected, device=device, exact=True)
    return got


def np_sort(m, x, axis=-1):
    return m.sort(x, axis=axis, kind="stable") if m is np else m.sort(x, axis=axis)


def np_argsort(m, x, axis=-1):
    return m.argsort(x, axis=axis, kind="stable")


# ---- sort / argsort -----------------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPE_NAMES)
@pytest.mark.parametrize("axis", [-1, 0, None])
def test_sort_argsort_all_dtypes(device, rng, dtype, axis):
    x = sort_data(rng, (7, 33), dtype)
    check(lambda m, a: np_sort(m, a, axis), x, device=device)
    check(lambda m, a: np_argsort(m, a, axis), x, device=device)


@pytest.mark.parametrize("dtype", ["int8", "uint16", "int32", "float16", "float32", "float64", "bool"])
@pytest.mark.parametrize("n", [1, 2, 255, 257, 5000, 70000])
def test_long_rows_are_stable(device, rng, dtype, n):
    # Long rows take the radix paths (parallel above 64K on the CPU).
    x = sort_data(rng, (n,), dtype)
    check(np_argsort, x, device=device)
    check(np_sort, x, device=device)


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
def test_nan_inf_signed_zero_order(device, dtype):
    dt = NP_DTYPES[dtype]
    raw = np.array([np.nan, 1.0, -0.0, np.inf, 0.0, -np.inf, -1.0, np.nan, 0.0, -0.0, 1.0, np.inf])
    raw[7] = np.copysign(np.nan, -1.0)
    x = raw.astype(dt)
    check(np_argsort, x, device=device)
    got = check(np_sort, x, device=device)
    # -0.0 and 0.0 are equal, so a stable sort keeps their input order: signs come back.
    zeros = np.asarray(got).astype(np.float64)
    zeros = zeros[zeros == 0]
    assert list(np.signbit(zeros)) == [True, False, False, True]


@pytest.mark.parametrize("dtype", ["int64", "float32", "uint8", "bfloat16"])
def test_batched_axes_3d(device, rng, dtype):
    x = sort_data(rng, (4, 5, 6), dtype)
    for axis in (0, 1, 2, -2, None):
        check(lambda m, a: np_argsort(m, a, axis), x, device=device)
        check(lambda m, a: np_sort(m, a, axis), x, device=device)


@pytest.mark.parametrize("dtype", ["int16", "float32", "float64"])
def test_non_contiguous_inputs(device, rng, dtype):
    x = sort_data(rng, (9, 14), dtype)
    check(lambda m, a: np_argsort(m, a.T, 1), x, device=device)
    check(lambda m, a: np_sort(m, a.T, 0), x, device=device)
    check(lambda m, a: np_sort(m, a.T, None), x, device=device)
    # Negative and non-unit strides (zero-copy views on the CPU).
    check(np_argsort, x[::-1, ::3], device=device)
    check(lambda m, a: np_sort(m, a, 0), x[::2, ::-1], device=device)


def test_zero_d_and_empty(device, rng):
    x0 = np.array(3.5, dtype=np.float32)
    compare(lambda m, a: m.sort(a), x0, device=device)  # AxisError, as NumPy
    compare(lambda m, a: m.sort(a, axis=None), x0, device=device)
    compare(lambda m, a: m.argsort(a), x0, device=device)  # NumPy treats 0-d as 1-d
    compare(lambda m, a: m.argsort(a, axis=None), x0, device=device)
    compare(lambda m, a: m.argsort(a, axis=1), x0, device=device)
    for shape, axis in [((0,), -1), ((2, 0, 3), 1), ((2, 0, 3), 0), ((2, 0, 3), None), ((0, 4), -1)]:
        e = np.zeros(shape, dtype=np.int32)
        compare(lambda m, a: m.sort(a, axis=axis), e, device=device)
        compare(lambda m, a: m.argsort(a, axis=axis), e, device=device)


def test_axis_errors(device, rng):
    x = sort_data(rng, (3, 4), "float32")
    for axis in (2, -3):
        compare(lambda m, a: m.sort(a, axis=axis), x, device=device)
        compare(lambda m, a: m.argsort(a, axis=axis), x, device=device)
    with pytest.raises(TypeError):
        loom.sort(loom.asarray(x, device=device), axis=(0,))
    with pytest.raises(TypeError):
        loom.argsort(loom.asarray(x, device=device), axis=1.0)


def test_kind_and_stable_arguments(device, rng):
    x = sort_data(rng, (50,), "int8")
    for kind in ("quicksort", "mergesort", "heapsort", "stable"):
        # Every kind sorts stably in loom (NumPy's stable sort is the reference).
        assert_matches(loom.argsort(loom.asarray(x, device=device), kind=kind),
                       np.argsort(x, kind="stable"), device=device)
        compare(lambda m, a: m.sort(a, kind=kind), x, device=device)
    compare(lambda m, a: m.argsort(a, stable=True), x, device=device)
    compare(lambda m, a: m.sort(a, kind="foo"), x, device=device)
    compare(lambda m, a: m.sort(a, kind="stable", stable=True), x, device=device)
    compare(lambda m, a: m.sort(a, order="f"), x, device=device)


@pytest.mark.parametrize("dtype", ["int32", "float32", "bool", "float16"])
def test_methods(device, rng, dtype):
    x = sort_data(rng, (6, 10), dtype)

    def inplace(m, a, axis):
        b = a.copy()
        b.sort(axis=axis)
        return b

    for axis in (-1, 0):
        compare(lambda m, a: inplace(m, a, axis), x, device=device, exact=True)
        compare(lambda m, a: a.argsort(axis=axis, kind="stable"), x, device=device)
    compare(lambda m, a: a.argsort(axis=None, kind="stable"), x, device=device)
    a = loom.asarray(x, device=device)
    assert a.sort() is None
    with pytest.raises(TypeError):
        a.sort(axis=None)
    s = np.sort(x[0])
    v = sort_data(rng, (5,), dtype)
    compare(lambda m, a, w: a.searchsorted(w, side="right"), s, v, device=device)


# ---- unique -------------------------------------------------------------------------

FLAG_SETS = [(False, False, False), (True, False, False), (False, True, False), (False, False, True),
             (True, True, True)]


@pytest.mark.parametrize("dtype", DTYPE_NAMES)
@pytest.mark.parametrize("flags", FLAG_SETS, ids=lambda f: "".join("ixc"[i] for i in range(3) if f[i]) or "plain")
def test_unique_all_dtypes_and_flags(device, rng, dtype, flags):
    x = sort_data(rng, (8, 25), dtype)
    ri, rv, rc = flags
    check(lambda m, a: m.unique(a, return_index=ri, return_inverse=rv, return_counts=rc), x, device=device)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "bfloat16"])
@pytest.mark.parametrize("equal_nan", [True, False])
def test_unique_nans(device, rng, dtype, equal_nan):
    x = sort_data(rng, (300,), dtype)
    x[[3, 7, 50]] = np.nan
    x[9] = np.copysign(np.nan, -1.0)
    fn = lambda m, a: m.unique(a, return_index=True, return_inverse=True, return_counts=True,  # noqa: E731
                               equal_nan=equal_nan)
    got = check(fn, x, device=device)
    nans = int(np.isnan(np.asarray(got[0]).astype(np.float64)).sum())
    assert nans == (1 if equal_nan else int(np.isnan(x.astype(np.float64)).sum()))


def test_unique_shapes(device, rng):
    fn = lambda m, a: m.unique(a, return_index=True, return_inverse=True, return_counts=True)  # noqa: E731
    for shape in [(), (0,), (0, 3), (1,), (3, 4, 5)]:
        compare(fn, sort_data(rng, shape, "int16"), device=device)
    x = sort_data(rng, (6, 7), "float32")
    compare(lambda m, a: m.unique(a.T, return_inverse=True), x, device=device)
    compare(lambda m, a: m.unique(a), np.arange(10000) % 37, device=device)


@pytest.mark.parametrize("shape", [(6, 3), (5, 2, 3), (7,), (4, 0), (0, 3)])
def test_unique_along_an_axis(device, rng, shape):
    """The slices along each axis, compared whole: values, first index, inverse, counts."""
    fn = lambda m, a, axis: m.unique(a, axis=axis, return_index=True, return_inverse=True,  # noqa: E731
                                     return_counts=True)
    x = rng.integers(0, 2, shape).astype(np.float32)  # few distinct slices: repeats are likely
    for axis in range(-len(shape), len(shape)):
        compare(fn, x, axis, device=device, exact=True)
        compare(lambda m, a: m.unique(a, axis=axis), x.astype(np.int16), device=device, exact=True)
    c = rng.integers(0, 2, (6, 2)) + 1j * rng.integers(0, 2, (6, 2))
    compare(fn, c, 0, device=device, exact=True)
    # Slices holding a NaN are each their own value, whatever equal_nan says (as NumPy's).
    y = np.array([[1, 0, 1], [np.nan, 1, 1], [1, 0, 1], [np.nan, 1, 1]])
    compare(lambda m, a: m.unique(a, axis=0, return_counts=True, equal_nan=True), y, device=device, exact=True)
    with pytest.raises(np.exceptions.AxisError):
        loom.unique(loom.asarray(x, device=device), axis=len(shape))


# ---- searchsorted -------------------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPE_NAMES)
@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted_all_dtypes(device, rng, dtype, side):
    a = sort_data(rng, (60,), dtype)
    v = np.concatenate([a[rng.integers(0, 60, size=20)], sort_data(rng, (20,), dtype)]).reshape(5, 8)
    a_sorted = _bf16_ref(lambda m, x: m.sort(x, kind="stable"), a) if a.dtype == BF16 else np.sort(a, kind="stable")
    check(lambda m, x, w: m.searchsorted(x, w, side=side), a_sorted, v, device=device)
    # Through a sorter: a unsorted, its stable argsort.
    order = np.argsort(a.astype(np.float32) if a.dtype == BF16 else a, kind="stable")
    check(lambda m, x, w, s: m.searchsorted(x, w, side=side, sorter=s), a, v, order, device=device)


def complex_sort_data(rng, n, dtype):
    """Complex values with repeated values, ties in the real parts, NaN in the real part, the
    imaginary part or both, infinities and signed zeros."""
    part = np.float32 if dtype == "complex64" else np.float64
    re = rng.integers(-3, 4, size=n).astype(part)  # few real parts: many ties
    im = rng.integers(-3, 4, size=n).astype(part)
    special = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0], part)
    for x in (re, im):
        hit = rng.random(n) < 0.25
        x[hit] = special[rng.integers(0, len(special), size=hit.sum())]
    z = np.empty(n, dtype)
    z.real, z.imag = re, im  # not re + 1j * im: 1j * inf puts a NaN in the real part
    return z


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted_complex(device, rng, dtype, side):
    a = complex_sort_data(rng, 80, dtype)
    v = np.concatenate([a[rng.integers(0, 80, size=30)], complex_sort_data(rng, 30, dtype)]).reshape(6, 10)
    check(lambda m, x, w: m.searchsorted(x, w, side=side), np.sort(a), v, device=device)
    order = np.argsort(a, kind="stable")
    check(lambda m, x, w, s: m.searchsorted(x, w, side=side, sorter=s), a, v, order, device=device)
    # A real v is compared as complex (NumPy's promotion); a complex scalar.
    check(lambda m, x, w: m.searchsorted(x, w, side=side), np.sort(a), np.array([0.0, np.nan, 2.0]), device=device)
    compare(lambda m, x: m.searchsorted(x, complex(1, np.nan), side=side), np.sort(a), device=device, exact=True)


def test_searchsorted_shapes_and_promotion(device, rng):
    a = np.sort(sort_data(rng, (40,), "float32"))
    compare(lambda m, x: m.searchsorted(x, 0.25), a, device=device)
    compare(lambda m, x: m.searchsorted(x, np.float32(np.nan), side="right"), a, device=device)
    compare(lambda m, x, w: m.searchsorted(x, w), a, np.zeros((0, 3), np.float32), device=device)
    compare(lambda m, x, w: m.searchsorted(x, w), np.zeros(0, np.float32), a, device=device)
    ai = np.sort(sort_data(rng, (30,), "int8"))
    compare(lambda m, x, w: m.searchsorted(x, w, side="right"), ai, np.array([-200.5, 0.5, 3.0, 300.0]),
            device=device)
    compare(lambda m, x: m.searchsorted(x, 2, side="right"), np.array([1, 2, 2, 3], np.uint8), device=device)
    compare(lambda m, x, w: m.searchsorted(x, w), np.array([False, True]), np.array([True, False]), device=device)
    # int64 vs uint64 compares in float64, as NumPy.
    compare(lambda m, x, w: m.searchsorted(x, w, side="right"), np.array([1, 5, 9], np.int64),
            np.array([5, 10], np.uint64), device=device)


def test_searchsorted_errors(device, rng):
    a = np.array([3, 1, 2])
    compare(lambda m, x: m.searchsorted(x, 2, side="foo"), a, device=device)
    compare(lambda m, x: m.searchsorted(x, 2, side="LEFT"), a, device=device)
    compare(lambda m, x: m.searchsorted(x, 2), np.array([[1, 2]]), device=device)
    compare(lambda m, x: m.searchsorted(x, 2), np.array(1), device=device)
    compare(lambda m, x, s: m.searchsorted(x, 2, sorter=s), a, np.array([1, 2]), device=device)
    compare(lambda m, x, s: m.searchsorted(x, 2, sorter=s), a, np.array([1.0, 2.0, 0.0]), device=device)
    compare(lambda m, x, s: m.searchsorted(x, 2, sorter=s), a, np.array([-1, 0, 1]), device=device)
    compare(lambda m, x, s: m.searchsorted(x, 2, sorter=s), a, np.array([1, 2, 0], np.int32), device=device)


def test_device_mismatch():
    if loom.num_gpus() == 0:
        pytest.skip("needs a GPU and the CPU")
    a = loom.asarray(np.arange(5.0), device=loom.cpu())
    v = loom.asarray(np.array([1.5]), device=loom.gpu(0))
    with pytest.raises(loom.DeviceMismatchError):
        loom.searchsorted(a, v)
    with pytest.raises(loom.DeviceMismatchError):
        loom.searchsorted(a, loom.asarray([1.0], device=loom.cpu()), sorter=loom.asarray(np.arange(5), device=loom.gpu(0)))


# ---- properties ---------------------------------------------------------------------

shapes = st.lists(st.integers(0, 6), min_size=0, max_size=3).map(tuple)
POOL = np.array([np.nan, -np.inf, -2.5, -1.0, -0.0, 0.0, 0.5, 1.0, 3.0, np.inf, 100.0])


# The device fixture is the same for every example, so sharing it is fine.
PROPERTY = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@PROPERTY
@given(shape=shapes, dtype=st.sampled_from(DTYPE_NAMES), axis=st.sampled_from([-1, 0, None]),
       seed=st.integers(0, 2**32 - 1), transpose=st.booleans())
def test_property_sort_argsort_unique(device, shape, dtype, axis, seed, transpose):
    rng = np.random.default_rng(seed)
    dt = NP_DTYPES[dtype]
    if dt.name in FLOATS:
        x = POOL[rng.integers(0, len(POOL), size=shape)].astype(dt)
    else:
        x = sort_data(rng, shape, dtype)
    if transpose:
        x = x.T
    if x.ndim == 0 and axis is not None:
        if dtype != "bfloat16":
            compare(lambda m, a: m.sort(a, axis=axis), x, device=device)  # AxisError
    else:
        check(lambda m, a: np_sort(m, a, axis), x, device=device)
    check(lambda m, a: np_argsort(m, a, axis), x, device=device)
    check(lambda m, a: m.unique(a, return_index=True, return_inverse=True, return_counts=True), x,
          device=device)


@PROPERTY
@given(n=st.integers(0, 40), vshape=shapes, dtype=st.sampled_from(DTYPE_NAMES),
       side=st.sampled_from(["left", "right"]), seed=st.integers(0, 2**32 - 1))
def test_property_searchsorted(device, n, vshape, dtype, side, seed):
    rng = np.random.default_rng(seed)
    a = sort_data(rng, (n,), dtype)
    v = sort_data(rng, vshape, dtype)
    a32 = a.astype(np.float32) if a.dtype == BF16 else a
    order = np.argsort(a32, kind="stable")
    a_sorted = a[order]
    check(lambda m, x, w: m.searchsorted(x, w, side=side), a_sorted, v, device=device)
    check(lambda m, x, w, s: m.searchsorted(x, w, side=side, sorter=s), a, v, order, device=device)
