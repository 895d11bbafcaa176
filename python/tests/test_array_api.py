"""The Python Array API standard (2024.12) on loom: the namespace and its inspection
functions, the data type functions, the array's standard attributes, unique_*, the
keywords the standard adds (copy=, device=, descending=, correction=, ...), checked
against NumPy 2 (whose main namespace follows the standard) on every device."""
import inspect
import math
import operator

import ml_dtypes
import numpy as np
import pytest

import loom
from conftest import COMPLEX_DTYPES, DTYPES, assert_matches, compare, random_array

ALL_DTYPES = DTYPES + COMPLEX_DTYPES
# NumPy has no promotion rules for ml_dtypes.bfloat16 with other dtypes.
NUMPY_DTYPES = [(d, n) for d, n in ALL_DTYPES if d != loom.bfloat16]
KINDS = ("bool", "signed integer", "unsigned integer", "integral", "real floating", "complex floating", "numeric")

# The 2024.12 standard's names (API_specification and its two extensions).
STANDARD_FUNCTIONS = """
abs acos acosh add asin asinh atan atan2 atanh bitwise_and bitwise_left_shift bitwise_invert bitwise_or
bitwise_right_shift bitwise_xor ceil clip conj copysign cos cosh divide equal exp expm1 floor floor_divide greater
greater_equal hypot imag isfinite isinf isnan less less_equal log log1p log2 log10 logaddexp logical_and
logical_not logical_or logical_xor maximum minimum multiply negative nextafter not_equal positive pow real
reciprocal remainder round sign signbit sin sinh square sqrt subtract tan tanh trunc
arange asarray empty empty_like eye from_dlpack full full_like linspace meshgrid ones ones_like tril triu zeros
zeros_like astype can_cast finfo iinfo isdtype result_type matmul matrix_transpose tensordot vecdot
broadcast_arrays broadcast_to concat expand_dims flip moveaxis permute_dims repeat reshape roll squeeze stack tile
unstack argmax argmin count_nonzero nonzero searchsorted where unique_all unique_counts unique_inverse
unique_values argsort sort cumulative_prod cumulative_sum max mean min prod std sum var all any diff take
take_along_axis __array_namespace_info__
""".split()
LINALG_FUNCTIONS = """cholesky cross det diagonal eigh eigvalsh inv matmul matrix_norm matrix_power matrix_rank
matrix_transpose outer pinv qr slogdet solve svd svdvals tensordot trace vecdot vector_norm""".split()
FFT_FUNCTIONS = "fft ifft fftn ifftn rfft irfft rfftn irfftn hfft ihfft fftfreq rfftfreq fftshift ifftshift".split()
ARRAY_ATTRIBUTES = """dtype device mT ndim shape size T __abs__ __add__ __and__ __array_namespace__ __bool__
__complex__ __dlpack__ __dlpack_device__ __eq__ __float__ __floordiv__ __ge__ __getitem__ __gt__ __index__
__int__ __invert__ __le__ __lshift__ __lt__ __matmul__ __mod__ __mul__ __ne__ __neg__ __or__ __pos__ __pow__
__rshift__ __setitem__ __sub__ __truediv__ __xor__ to_device __iadd__ __isub__ __imul__ __itruediv__
__ifloordiv__ __imod__ __ipow__ __iand__ __ior__ __ixor__ __ilshift__ __irshift__ __imatmul__ __radd__
__rsub__ __rmul__ __rtruediv__ __rfloordiv__ __rmod__ __rpow__ __rand__ __ror__ __rxor__ __rlshift__
__rrshift__ __rmatmul__""".split()


def np_dtype(d):
    return d.dtype


def test_namespace_is_loom(device):
    x = loom.ones((2, 3), device=device)
    assert x.__array_namespace__() is loom
    for v in ("2021.12", "2022.12", "2023.12", "2024.12"):
        assert x.__array_namespace__(api_version=v) is loom
    with pytest.raises(ValueError, match="__array_namespace__"):
        x.__array_namespace__(api_version="2099.12")
    assert loom.__array_api_version__ == "2024.12"


def test_standard_names():
    missing = [n for n in STANDARD_FUNCTIONS if not hasattr(loom, n)]
    missing += ["linalg." + n for n in LINALG_FUNCTIONS if not hasattr(loom.linalg, n)]
    missing += ["fft." + n for n in FFT_FUNCTIONS if not hasattr(loom.fft, n)]
    missing += ["ndarray." + n for n in ARRAY_ATTRIBUTES if not hasattr(loom.ndarray, n)]
    assert not missing, missing
    for name in ("matmul", "tensordot", "matrix_transpose", "vecdot"):
        assert getattr(loom.linalg, name) is getattr(loom, name)
    assert (loom.e, loom.pi, loom.newaxis) == (math.e, math.pi, None)
    assert math.isinf(loom.inf) and loom.inf > 0 and math.isnan(loom.nan)
    assert loom.nan is np.nan and loom.inf is np.inf  # code written for NumPy and CuPy tests `x is np.nan`


def test_namespace_info():
    info = loom.__array_namespace_info__()
    caps = info.capabilities()
    assert caps == {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 64}
    assert info.default_device() == loom.default_device()
    assert info.devices() == loom.devices() and info.default_device() in info.devices()
    for dev in info.devices():
        assert info.default_dtypes(device=dev) == {"real floating": loom.float64, "complex floating": loom.complex128,
                                                   "integral": loom.int64, "indexing": loom.int64}
        every = info.dtypes(device=dev)
        assert set(every) == {"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                              "float32", "float64", "complex64", "complex128"}
        for name, dt in every.items():
            assert dt == np.dtype(name) and loom.empty(2, dtype=dt, device=dev).dtype == dt
    for kind in KINDS:
        got = info.dtypes(kind=kind)
        assert set(got) == {n for n, d in info.dtypes().items() if np.isdtype(np.dtype(n), kind)}, kind
    assert set(info.dtypes(kind=("bool", "complex floating"))) == {"bool", "complex64", "complex128"}
    with pytest.raises(ValueError, match="kind"):
        info.dtypes(kind="floating point")
    with pytest.raises(ValueError, match="device"):
        info.dtypes(device=3)


@pytest.mark.parametrize("dt", [d for d, n in ALL_DTYPES if n.kind in "fc" or d == loom.bfloat16], ids=str)
def test_finfo_matches_numpy(device, dt):
    want = ml_dtypes.finfo(dt.dtype) if dt == loom.bfloat16 else np.finfo(dt.dtype)
    for arg in (dt, loom.ones(2, dtype=dt, device=device)):
        got = loom.finfo(arg)
        assert got.bits == want.bits
        for attr in ("eps", "max", "min", "smallest_normal", "tiny"):
            assert getattr(got, attr) == float(getattr(want, attr)), attr
            assert type(getattr(got, attr)) is float
        # NumPy rounds 10**-precision to the dtype; loom gives the decimal value.
        assert got.precision == want.precision and math.isclose(got.resolution, float(want.resolution), rel_tol=1e-2)
        assert got.dtype == want.dtype and isinstance(got.dtype, loom.dtype)
    assert loom.finfo(float).dtype == loom.float64
    with pytest.raises(TypeError, match="finfo"):
        loom.finfo(loom.int32)


@pytest.mark.parametrize("dt", [d for d, n in DTYPES if n.kind in "iu"], ids=str)
def test_iinfo_matches_numpy(device, dt):
    want = np.iinfo(dt.dtype)
    for arg in (dt, loom.ones(2, dtype=dt, device=device)):
        got = loom.iinfo(arg)
        assert (got.bits, got.min, got.max) == (want.bits, want.min, want.max)
        assert type(got.max) is int and got.dtype == dt and isinstance(got.dtype, loom.dtype)
    with pytest.raises(TypeError, match="iinfo"):
        loom.iinfo(loom.float32)


def test_can_cast_matches_numpy(device):
    for a, na in NUMPY_DTYPES:
        for b, nb in NUMPY_DTYPES:
            assert loom.can_cast(a, b) == np.can_cast(na, nb), (a, b)
            for casting in ("no", "equiv", "same_kind", "unsafe"):
                assert loom.can_cast(a, b, casting=casting) == np.can_cast(na, nb, casting), (a, b, casting)
        assert loom.can_cast(loom.zeros(1, dtype=a, device=device), loom.float64) == np.can_cast(na, np.float64)
    with pytest.raises(ValueError, match="casting"):
        loom.can_cast(loom.int8, loom.int16, casting="never")
    with pytest.raises(TypeError, match="can_cast"):
        loom.can_cast(1, loom.int8)


def test_isdtype_matches_numpy():
    for dt, n in NUMPY_DTYPES:
        for kind in KINDS:
            got = loom.isdtype(dt, kind)
            assert got is np.isdtype(n, kind), (dt, kind)
        assert loom.isdtype(dt, ("bool", loom.float32)) is np.isdtype(n, ("bool", np.float32))
        assert loom.isdtype(dt, dt) is True
    assert loom.isdtype(loom.bfloat16, "real floating") and loom.isdtype(loom.float16, "numeric")
    with pytest.raises(ValueError, match="isdtype"):
        loom.isdtype(loom.int8, "integer")


def test_result_type_matches_numpy(device, rng):
    for a, na in NUMPY_DTYPES:
        for b, nb in NUMPY_DTYPES:
            want = np.result_type(na, nb)
            assert loom.result_type(a, b) == want, (a, b)
            x = loom.asarray(random_array(rng, 3, na), device=device)
            assert loom.result_type(x, b) == want
        # Python scalars are weak (NEP 50).
        for s in (True, 3, 2.5, 1j):
            assert loom.result_type(a, s) == np.result_type(na, s), (a, s)
    assert loom.result_type(loom.int8, loom.uint8, loom.float16) == np.result_type(np.int8, np.uint8, np.float16)
    assert loom.result_type(1, 2.0) == loom.float64
    with pytest.raises(ValueError, match="result_type"):
        loom.result_type()


@pytest.mark.parametrize("to", ["float32", "int16", "complex64", "bool"])
def test_astype_function(device, rng, to):
    x_np = random_array(rng, (4, 5), "float64", -100, 100)
    x = loom.asarray(x_np, device=device)
    with np.errstate(all="ignore"):
        assert_matches(loom.astype(x, to), x_np.astype(to), device=device, exact=True)
    same = loom.astype(x, loom.float64, copy=False)
    assert same is x
    fresh = loom.astype(x, loom.float64)
    assert fresh is not x and loom.all(fresh == x)
    fresh[0, 0] = 1234.0
    assert float(x[0, 0]) == x_np[0, 0]  # copy=True (the default) never shares memory
    moved = loom.astype(x, to, device=loom.cpu())
    assert moved.device == loom.cpu() and moved.dtype == np.dtype(to)


def test_to_device_and_device_attribute(device, rng):
    x_np = random_array(rng, (3, 4), "float32")
    x = loom.asarray(x_np, device=device)
    assert x.device == device
    assert x.to_device(device) is x
    back = x.to_device(loom.cpu())
    assert back.device == loom.cpu()
    assert_matches(back, x_np, device=loom.cpu(), exact=True)
    assert_matches(back.to_device(device), x_np, device=device, exact=True)
    assert_matches(back.to_device(device, stream=loom.Stream(device)), x_np, device=device, exact=True)
    with pytest.raises(TypeError, match="to_device"):
        x.to_device(device, stream=0)
    for dev in loom.devices():
        assert_matches(loom.zeros((2, 2), device=dev), np.zeros((2, 2)), device=dev)
        assert_matches(loom.asarray(x_np, device=dev), x_np, device=dev, exact=True)


def test_mT(device, rng):
    x_np = random_array(rng, (2, 3, 4), "int32")
    x = loom.asarray(x_np, device=device)
    assert_matches(x.mT, np.swapaxes(x_np, -1, -2), device=device)
    assert_matches(loom.linalg.matrix_transpose(x), x_np.mT, device=device)
    with pytest.raises(ValueError, match="matrix_transpose"):
        loom.ones(3, device=device).mT


def test_scalar_conversions(device, rng):
    z = complex(rng.standard_normal(), rng.standard_normal())
    assert complex(loom.asarray(z, device=device)) == z
    v = float(rng.standard_normal())
    assert complex(loom.asarray(v, device=device)) == complex(v)
    assert operator.index(loom.asarray(7, dtype=loom.uint8, device=device)) == 7
    for bad in (loom.asarray(True, device=device), loom.asarray(1.0, device=device)):
        with pytest.raises(TypeError):
            operator.index(bad)


@pytest.mark.parametrize("dtype", ["float32", "int16", "uint8", "bool"])
def test_unique_functions(device, rng, dtype):
    x_np = random_array(rng, (5, 7), dtype, 0, 6)
    if dtype == "float32":
        x_np.flat[[3, 11]] = np.nan  # every NaN is its own value
    for name in ("unique_all", "unique_counts", "unique_inverse"):
        got, want = getattr(loom, name)(loom.asarray(x_np, device=device)), getattr(np, name)(x_np)
        assert type(got).__name__ == type(want).__name__ and got._fields == want._fields
        assert_matches(got.values, want.values, device=device)
        if hasattr(got, "counts"):
            assert_matches(got.counts, want.counts, device=device)
    # Which NaN is which among equal values is left open: check that the indices and the
    # inverse rebuild the values and the input instead.
    out = loom.unique_all(loom.asarray(x_np, device=device))
    values = out.values.numpy()
    np.testing.assert_array_equal(x_np.reshape(-1)[out.indices.numpy()], values)
    np.testing.assert_array_equal(values[out.inverse_indices.numpy()], x_np)
    assert out.inverse_indices.shape == x_np.shape and out.indices.dtype == loom.int64
    # NumPy 2.3's unique_values of integers comes from a hash table, unsorted (the standard
    # leaves the order open); loom's is sorted.
    compare(lambda xp, x: xp.sort(xp.unique_values(x)), x_np, device=device)


@pytest.mark.parametrize("dtype", ["int8", "float64", "uint16"])
def test_sort_descending_is_stable(device, rng, dtype):
    x_np = random_array(rng, (4, 30), dtype, 0, 5)  # many ties
    x = loom.asarray(x_np, device=device)
    want_idx = np.array([sorted(range(30), key=lambda i: row[i], reverse=True) for row in x_np])
    assert_matches(loom.argsort(x, descending=True), want_idx, device=device)
    assert_matches(loom.sort(x, descending=True), np.take_along_axis(x_np, want_idx, 1), device=device)
    want0 = np.stack([sorted(range(4), key=lambda i: col[i], reverse=True) for col in x_np.T], axis=1)
    assert_matches(loom.argsort(x, axis=0, descending=True), want0, device=device)
    compare(lambda xp, x: xp.argsort(x, axis=None, stable=True), x_np, device=device)


def test_vecdot_matvec_vecmat(device, rng):
    a = random_array(rng, (3, 1, 5), "complex128") + 1j * random_array(rng, (3, 1, 5), "float64")
    b = random_array(rng, (4, 5), "complex64")
    compare(lambda xp, a, b: xp.vecdot(a, b), a, b, device=device)
    compare(lambda xp, a, b: xp.linalg.vecdot(a, b, axis=-1), a, b, device=device)
    c, d = random_array(rng, (3, 6, 1), "int8", -5, 5), random_array(rng, (3, 6, 4), "int8", -5, 5)
    compare(lambda xp, c, d: xp.vecdot(c, d, axis=-2), c, d, device=device)
    m, v = random_array(rng, (2, 3, 4), "float32"), random_array(rng, (5, 1, 4), "float32")
    compare(lambda xp, m, v: xp.matvec(m, v), m, v, device=device, rtol=1e-4)  # sums of products that cancel
    compare(lambda xp, m, v: xp.matvec(m, v), m, v[0, 0], device=device, rtol=1e-4)
    w = random_array(rng, (3,), "complex64")
    compare(lambda xp, w, m: xp.vecmat(w, m), w, random_array(rng, (2, 3, 4), "complex64"), device=device)
    with pytest.raises(ValueError, match="vecdot"):
        loom.vecdot(loom.ones((2, 3), device=device), loom.ones((2, 4), device=device))


def test_vector_and_matrix_norm(device, rng):
    x = random_array(rng, (3, 4, 5), "float32")
    for ord in (2, 1, np.inf, -np.inf, 0, 3.5):
        for axis in (None, 1, (0, 2), (-1, 0, 1)):
            compare(lambda xp, x: xp.linalg.vector_norm(x, axis=axis, ord=ord, keepdims=True), x, device=device,
                    rtol=1e-5)
    z = random_array(rng, (6,), "complex64")
    compare(lambda xp, z: xp.linalg.vector_norm(z), z, device=device, rtol=1e-5)
    for ord in ("fro", 1, -1, np.inf, -np.inf, "nuc", 2, -2):
        compare(lambda xp, x: xp.linalg.matrix_norm(x, ord=ord), x, device=device, rtol=1e-4)
    compare(lambda xp, x: xp.linalg.matrix_norm(x, keepdims=True), x, device=device, rtol=1e-5)
    c = random_array(rng, (2, 3, 3), "complex128") + 1j * random_array(rng, (2, 3, 3), "float64")
    for ord in ("nuc", 2, -2, "fro", np.inf):  # the first three from the complex singular values
        compare(lambda xp, c: xp.linalg.matrix_norm(c, ord=ord), c, device=device, rtol=1e-10)
    with pytest.raises(ValueError, match="vector_norm"):
        loom.linalg.vector_norm(loom.asarray(x, device=device), axis=(1, 1))


def test_statistics_keywords(device, rng):
    x = random_array(rng, (4, 6), "float64")
    for fn in ("var", "std"):
        compare(lambda xp, x: getattr(xp, fn)(x, axis=1, correction=1, keepdims=True), x, device=device)
        compare(lambda xp, x: getattr(xp, fn)(x, correction=0.5), x, device=device)
        with pytest.raises(ValueError, match=fn):
            getattr(loom, fn)(loom.asarray(x, device=device), ddof=1, correction=1)
    i = random_array(rng, (3, 5), "int8", -3, 3)
    for dt in ("int16", "float32"):
        compare(lambda xp, i: xp.cumulative_sum(i, axis=1, dtype=dt, include_initial=True), i, device=device)
        compare(lambda xp, i: xp.cumulative_prod(i, axis=0, dtype=dt), i, device=device)
    z = random_array(rng, (3, 4), "complex64")
    z[0, 0] = 0
    for axis in (None, 0, (0, 1), -1):
        compare(lambda xp, z: xp.count_nonzero(z, axis=axis, keepdims=True), z, device=device)
    assert int(loom.count_nonzero(loom.asarray(i, device=device))) == np.count_nonzero(i)


def test_clip_min_max_keywords(device, rng):
    x = random_array(rng, (5, 5), "float32")
    compare(lambda xp, x: xp.clip(x, min=-0.5, max=0.5), x, device=device)
    compare(lambda xp, x: xp.clip(x, max=x[0]), x, device=device)
    compare(lambda xp, x: xp.clip(x), x, device=device)
    compare(lambda xp, x: xp.clip(x, a_min=-0.5, a_max=0.25), x, device=device)  # NumPy's keyword names
    with pytest.raises(ValueError, match="clip"):
        loom.clip(loom.asarray(x, device=device), 0.0, a_min=0.0)
    assert list(inspect.signature(loom.clip).parameters)[:3] == ["a", "min", "max"]  # the standard's names


def test_nextafter(device, rng):
    for dt in ("float32", "float64"):
        x, y = random_array(rng, (20,), dt), random_array(rng, (20,), dt)
        x[:4] = [0.0, -0.0, np.inf, np.nan]
        y[:4] = [-0.0, 1.0, 0.0, 1.0]
        compare(lambda xp, x, y: xp.nextafter(x, y), x, y, device=device, exact=True)
    with pytest.raises(TypeError, match="nextafter"):
        loom.nextafter(loom.ones(2, dtype=loom.float16, device=device), loom.zeros(2, dtype=loom.float16, device=device))


def test_creation_and_fft_keywords(device):
    assert_matches(loom.eye(3, 4, k=2**70, device=device), np.zeros((3, 4)), device=device)
    assert_matches(loom.eye(3, k=-(2**70), dtype=loom.int8, device=device), np.zeros((3, 3), np.int8), device=device)
    assert_matches(loom.eye(4, 3, k=-1, device=device), np.eye(4, 3, k=-1), device=device)
    for fn in ("fftfreq", "rfftfreq"):
        got = getattr(loom.fft, fn)(8, d=0.5, dtype=loom.float32, device=device)
        assert_matches(got, getattr(np.fft, fn)(8, d=0.5).astype(np.float32), device=device)
        with pytest.raises(TypeError, match=fn):
            getattr(loom.fft, fn)(8, dtype=loom.int32, device=device)


def test_pinv_and_matrix_rank_with_array_rtol(device, rng):
    a = random_array(rng, (3, 4, 4), "float64")
    rtol = np.array([1e-15, 0.3, 0.9])
    # pinv's rounding error scales with the largest entry of the result, so the tolerance is
    # absolute at that scale: an entry of 1e-14 next to entries of 1 carries no relative accuracy.
    expected = np.linalg.pinv(a, rtol=rtol)
    got = loom.linalg.pinv(loom.asarray(a, device=device), rtol=loom.asarray(rtol, device=device))
    assert got.device == device
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-9, atol=1e-9 * np.abs(expected).max())
    compare(lambda xp, a, r: xp.linalg.matrix_rank(a, rtol=r), a, rtol, device=device)
    compare(lambda xp, a, r: xp.linalg.matrix_rank(a, rtol=r), a[:0], rtol[:0], device=device)


def test_outer_products_are_exact(device, rng):
    x, y = random_array(rng, (5,), "float64"), random_array(rng, (3,), "float64")
    x[0], y[1] = 0.0, -2.0  # 0.0 * -2.0 is -0.0, which an accumulating GEMM would lose
    got = loom.linalg.outer(loom.asarray(x, device=device), loom.asarray(y, device=device))
    np.testing.assert_array_equal(np.signbit(got.numpy()), np.signbit(np.outer(x, y)))
    compare(lambda xp, x, y: xp.outer(x, y), x, y, device=device, exact=True)


def test_copy_keywords(device, rng):
    x_np = random_array(rng, (4, 6), "int32")
    x = loom.asarray(x_np, device=device)
    assert loom.asarray(x) is x and loom.asarray(x, copy=False) is x
    c = loom.asarray(x, copy=True)
    c[0, 0] = c[0, 0] + 1
    assert int(x[0, 0]) == x_np[0, 0]
    assert_matches(loom.reshape(x, (6, 4), copy=True), x_np.reshape(6, 4), device=device)
    with pytest.raises(ValueError):
        loom.reshape(x.T, (24,), copy=False)  # a transposed array cannot be flattened as a view
    with pytest.raises(ValueError):
        loom.asarray(x, dtype=loom.int64, copy=False)


def test_in_place_operators_keep_the_array(device, rng):
    x_np = random_array(rng, (3, 4), "float32")
    y_np = random_array(rng, (4,), "float32")
    x = loom.asarray(x_np.copy(), device=device)
    before = x
    x += loom.asarray(y_np, device=device)
    x *= 2
    x **= 1
    assert x is before and x.dtype == loom.float32
    assert_matches(x, (x_np + y_np) * 2, device=device)
    i = loom.asarray(random_array(rng, (3,), "int16"), device=device)
    with pytest.raises(TypeError):
        i += loom.ones(3, dtype=loom.float32, device=device)  # int16 cannot hold the float32 sum


@pytest.mark.parametrize("pair", [("int8", "uint8"), ("int16", "uint32"), ("uint64", "int64"), ("int32", "float32"),
                                  ("float32", "complex128"), ("float64", "complex64"), ("bool", "int8"),
                                  ("uint8", "float16")])
def test_promotion_spot_checks(device, rng, pair):
    a, b = (random_array(rng, (2, 3), t, 1, 9) for t in pair)
    for op in (operator.add, operator.mul, operator.truediv):
        got = op(loom.asarray(a, device=device), loom.asarray(b, device=device))
        assert got.dtype == op(a, b).dtype, (pair, op)
    assert loom.result_type(*pair) == np.result_type(*pair)
