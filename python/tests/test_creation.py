"""Creation functions against NumPy, for all 13 dtypes on every device."""
import ml_dtypes
import numpy as np
import pytest

import loom
from conftest import DTYPE_NAMES, NP_DTYPES, assert_matches, random_array, compare

SHAPES = [(), (0,), (7,), (3, 5), (2, 3, 4)]


def random_fill_value(rng, name):
    """A Python scalar that every dtype `name` holds exactly (never zero)."""
    if name == "bool":
        return True
    if name.startswith(("int", "uint")):
        info = np.iinfo(name)
        return int(rng.integers(max(info.min, -100), min(info.max, 100))) or 3
    return float(rng.integers(-64, 64)) / 4 or 1.5


@pytest.mark.parametrize("name", DTYPE_NAMES)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_zeros_ones_empty_full(device, name, shape, rng):
    npdt = NP_DTYPES[name]
    assert_matches(loom.zeros(shape, dtype=name, device=device), np.zeros(shape, npdt), device=device)
    assert_matches(loom.ones(shape, dtype=getattr(loom, name if name != "bool" else "bool_"), device=device),
                   np.ones(shape, npdt), device=device)
    e = loom.empty(shape, dtype=npdt, device=device)
    assert e.shape == shape and e.dtype == npdt and e.device == device
    v = random_fill_value(rng, name)
    assert_matches(loom.full(shape, v, dtype=name, device=device), np.full(shape, v, npdt), device=device)


def test_default_dtypes_follow_numpy(device):
    assert loom.zeros((2, 3), device=device).dtype == loom.float64
    assert loom.ones(3, device=device).dtype == loom.float64
    assert loom.empty(3, device=device).dtype == loom.float64
    assert loom.full(3, 7, device=device).dtype == loom.int64
    assert loom.full(3, 2.5, device=device).dtype == loom.float64
    assert loom.full(3, True, device=device).dtype == loom.bool_
    assert loom.full(3, np.float32(1.5), device=device).dtype == loom.float32
    assert loom.full(3, np.uint8(200), device=device).dtype == loom.uint8
    assert loom.full(3, 2**63, device=device).dtype == loom.uint64
    assert loom.eye(3, device=device).dtype == loom.float64
    assert loom.identity(3, device=device).dtype == loom.float64


def test_shape_spellings(device):
    assert loom.zeros(5, device=device).shape == (5,)
    assert loom.zeros([2, 3], device=device).shape == (2, 3)
    assert loom.zeros((np.int64(2), np.int32(4)), device=device).shape == (2, 4)
    assert loom.zeros(np.int64(3), device=device).shape == (3,)
    assert loom.zeros((), device=device).shape == ()
    with pytest.raises(ValueError):
        loom.zeros((2, -1), device=device)
    with pytest.raises(TypeError):
        loom.zeros("abc", device=device)
    with pytest.raises(TypeError):
        loom.zeros((2.5,), device=device)


def test_full_rejects_python_ints_out_of_range(device):
    with pytest.raises(OverflowError):
        loom.full(3, 300, dtype=loom.uint8, device=device)
    with pytest.raises(OverflowError):
        loom.full(3, -1, dtype="uint32", device=device)
    with pytest.raises(OverflowError):
        loom.full(3, 2**63, dtype=loom.int64, device=device)
    assert_matches(loom.full(3, 2**64 - 1, dtype=loom.uint64, device=device), np.full(3, 2**64 - 1, np.uint64))
    assert_matches(loom.full(2, np.int64(300), dtype=loom.uint8, device=device),
                   np.full(2, np.int64(300)).astype(np.uint8))
    assert_matches(loom.full(2, 2.75, dtype=loom.int32, device=device), np.full(2, 2.75, np.int32))
    assert_matches(loom.full(2, float("nan"), dtype=loom.bfloat16, device=device),
                   np.full(2, np.nan, ml_dtypes.bfloat16))


@pytest.mark.parametrize("name", DTYPE_NAMES)
def test_like_functions(device, name, rng):
    npdt = NP_DTYPES[name]
    a = random_array(rng, (3, 4), npdt)
    x = loom.asarray(a, device=device)
    for fn, npfn in ((loom.zeros_like, np.zeros_like), (loom.ones_like, np.ones_like)):
        assert_matches(fn(x), npfn(a), device=device)
        assert_matches(fn(a, device=device), npfn(a), device=device)  # NumPy prototype
        assert_matches(fn(x, dtype=loom.float32), npfn(a, dtype=np.float32), device=device)
    e = loom.empty_like(x.T)
    assert e.shape == (4, 3) and e.dtype == npdt and e.device == device
    v = random_fill_value(rng, name)
    assert_matches(loom.full_like(x, v), np.full_like(a, v), device=device)
    assert_matches(loom.full_like(x, v, dtype=loom.float64), np.full_like(a, v, dtype=np.float64), device=device)


def test_like_on_another_device(device):
    x = loom.ones((2, 3), dtype=loom.int16, device=loom.cpu())
    y = loom.zeros_like(x, device=device)
    assert y.device == device and y.dtype == loom.int16 and y.shape == (2, 3)


ARANGE_CASES = [
    (10,), (0,), (-3,), (2, 10), (2, 10, 3), (10, 2, -2), (10, 2), (-5, 5, 1),
    (0.5, 5.2, 0.3), (5.0,), (1, 2.5, 0.25), (3, -4.5, -0.75),
]


@pytest.mark.parametrize("args", ARANGE_CASES, ids=str)
def test_arange_matches_numpy(device, args):
    assert_matches(loom.arange(*args, device=device), np.arange(*args), device=device)


@pytest.mark.parametrize("name", [n for n in DTYPE_NAMES if n != "bool"])
def test_arange_dtypes(device, name):
    npdt = NP_DTYPES[name]
    assert_matches(loom.arange(12, dtype=name, device=device), np.arange(12, dtype=npdt), device=device)
    assert_matches(loom.arange(1, 40, 3, dtype=name, device=device), np.arange(1, 40, 3, dtype=npdt))
    if npdt.kind not in "iu" or np.iinfo(npdt).min < 0:
        assert_matches(loom.arange(5, -7, -2, dtype=name, device=device), np.arange(5, -7, -2, dtype=npdt))
    if npdt.kind not in "iu":
        assert_matches(loom.arange(0.25, 3, 0.5, dtype=name, device=device),
                       np.arange(0.25, 3, 0.5, dtype=npdt))


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("args", [(12,), (1, 40, 3), (5, -7, -2), (0.25, 3, 0.5)], ids=str)
def test_arange_complex_dtypes(device, dtype, args):
    """Real bounds with a complex dtype, as NumPy allows (the imaginary parts are zero)."""
    got, want = loom.arange(*args, dtype=dtype, device=device), np.arange(*args, dtype=dtype)
    assert got.dtype == want.dtype and got.device == device
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)


def test_arange_dtype_inference_and_errors(device):
    assert loom.arange(5, device=device).dtype == loom.int64
    assert loom.arange(5.0, device=device).dtype == loom.float64
    assert loom.arange(0, 5, 0.5, device=device).dtype == loom.float64
    assert loom.arange(np.float32(5), device=device).dtype == np.arange(np.float32(5)).dtype  # float64
    assert loom.arange(np.uint8(3), device=device).dtype == np.arange(np.uint8(3)).dtype  # int64
    assert loom.linspace(np.float32(0), 1, 5, device=device).dtype == loom.float32  # NEP 50
    assert loom.linspace(np.float16(0), np.float16(1), 3, device=device).dtype == loom.float16
    assert loom.arange(np.int16(1), np.int16(9), device=device).dtype == np.arange(np.int16(1), np.int16(9)).dtype
    with pytest.raises(ValueError):
        loom.arange(0, 10, 0, device=device)


@pytest.mark.parametrize(
    "args", [(0, 1), (0, 1, 11), (-3.5, 7, 20), (2, 2, 5), (0, 1, 0), (0, 1, 1), (5, -5, 9)], ids=str)
@pytest.mark.parametrize("endpoint", [True, False])
def test_linspace_matches_numpy(device, args, endpoint):
    assert_matches(loom.linspace(*args, endpoint=endpoint, device=device),
                   np.linspace(*args, endpoint=endpoint), device=device)


def test_linspace_of_a_subnormal_span(device):
    """A step that underflows to 0 is (i / div) * delta, as NumPy's (gh-5437)."""
    tiny = np.nextafter(0.0, 1.0)  # the smallest subnormal float64
    for stop, num, endpoint in ((tiny, 10, True), (tiny, 10, False), (4 * tiny, 7, True)):
        assert_matches(loom.linspace(0.0, stop, num, endpoint=endpoint, device=device),
                       np.linspace(0.0, stop, num, endpoint=endpoint), device=device)


@pytest.mark.parametrize("name", [n for n in DTYPE_NAMES if n != "bool"])
def test_linspace_dtypes(device, name):
    npdt = NP_DTYPES[name]
    lo = 0 if npdt.kind == "u" else -7
    assert_matches(loom.linspace(lo, 30, 13, dtype=name, device=device), np.linspace(lo, 30, 13, dtype=npdt))
    with pytest.raises(ValueError):
        loom.linspace(0, 1, -1, device=device)


@pytest.mark.parametrize("name", DTYPE_NAMES)
def test_eye_identity(device, name):
    npdt = NP_DTYPES[name]
    for args in ((3,), (3, 4), (4, 3), (4, 4, 1), (3, 5, -2), (3, 3, 7), (0,)):
        n, *rest = args
        m = rest[0] if rest else None
        k = rest[1] if len(rest) > 1 else 0
        assert_matches(loom.eye(n, m, k, dtype=name, device=device), np.eye(n, m, k, dtype=npdt), device=device)
    assert_matches(loom.eye(3, M=2, k=-1, dtype=name, device=device), np.eye(3, M=2, k=-1, dtype=npdt))
    assert_matches(loom.identity(4, dtype=name, device=device), np.identity(4, dtype=npdt), device=device)


# ---- asarray / array ---------------------------------------------------------------


@pytest.mark.parametrize("name", DTYPE_NAMES)
def test_asarray_numpy_all_dtypes(device, name, rng):
    a = random_array(rng, (4, 6), NP_DTYPES[name])
    for src in (a, a[::2, 1::2], a[::-1, ::-2], a.T, np.asfortranarray(a), a[1, 2], a[:0]):
        assert_matches(loom.asarray(src, device=device), src, device=device, exact=True)
        assert_matches(loom.array(src, device=device), src, device=device, exact=True)


@pytest.mark.parametrize("name", DTYPE_NAMES)
def test_asarray_with_dtype(device, name, rng):
    a = random_array(rng, (5, 3), np.int8, low=0, high=100)
    npdt = NP_DTYPES[name]
    assert_matches(loom.asarray(a, dtype=name, device=device), a.astype(npdt), device=device, exact=True)
    assert_matches(loom.asarray(a[:, ::-1], dtype=npdt, device=device), a[:, ::-1].astype(npdt), exact=True)
    assert_matches(loom.asarray(a.tolist(), dtype=name, device=device), np.asarray(a.tolist(), dtype=npdt),
                   exact=True)


def test_asarray_lists_and_scalars(device):
    cases = [
        [[1, 2], [3, 4]], [1.5, 2, -3], [True, False, True], [], [[]], 3, -2**40, 3.5, True,
        np.float32(2.5), np.uint8(7), np.int16(-9), ml_dtypes.bfloat16(1.5), np.float16(0.125),
        np.array(4.0), [np.int32(1), np.int32(5)],
    ]
    for obj in cases:
        want = np.asarray(obj)
        assert_matches(loom.asarray(obj, device=device), want, device=device, exact=True)
        assert_matches(loom.array(obj, device=device), want, device=device, exact=True)
    assert_matches(loom.asarray([[1, 2], [3, 4]], dtype=loom.float32, device=device),
                   np.array([[1, 2], [3, 4]], np.float32))
    assert_matches(loom.asarray(2**63, device=device), np.asarray(2**63))  # uint64 as NumPy
    with pytest.raises(TypeError):
        loom.asarray(["a", "b"], device=device)
    assert_matches(loom.asarray(1 + 2j, device=device), np.asarray(1 + 2j), device=device, exact=True)
    with pytest.raises(TypeError):
        loom.asarray(object(), device=device)


def test_asarray_of_loom_arrays(device, rng):
    a = random_array(rng, (3, 4), np.float32)
    x = loom.asarray(a, device=device)
    assert loom.asarray(x) is x
    assert loom.asarray(x, device=device) is x
    assert loom.asarray(x, dtype=loom.float32) is x
    assert loom.asarray(x, copy=False) is x
    y = loom.array(x)
    assert y is not x and y.device == device
    assert_matches(y, a, exact=True)
    z = loom.asarray(x, dtype=loom.float64)
    assert_matches(z, a.astype(np.float64), device=device, exact=True)
    for other in loom.devices():
        w = loom.asarray(x, device=other)
        assert (w is x) == (other == device)
        assert_matches(w, a, device=other, exact=True)
    with pytest.raises(ValueError):
        loom.asarray(x, dtype=loom.int32, copy=False)
    assert_matches(loom.asarray([x, x]), np.stack([a, a]), exact=True)  # through __array__


def test_asarray_shares_numpy_memory_on_cpu(rng):
    a = random_array(rng, (4, 5), np.float64)
    x = loom.asarray(a, device=loom.cpu())
    y = loom.asarray(a[::-1, 1::2], device="cpu", copy=False)  # strided views are shared too
    c = loom.array(a, device=loom.cpu())
    a[0, 1] = 1234.5
    a[3, 1] = -77.0
    assert x.numpy()[0, 1] == 1234.5
    assert y.numpy()[0, 0] == -77.0
    assert c.numpy()[0, 1] != 1234.5
    # The loom array keeps NumPy's memory alive.
    del a
    assert x.numpy()[0, 1] == 1234.5


def test_asarray_copies_read_only_numpy(rng):
    a = random_array(rng, (6,), np.int32)
    ro = a.view()
    ro.flags.writeable = False
    x = loom.asarray(ro, device=loom.cpu())
    a[0] = a[0] + 1
    assert x.numpy()[0] == a[0] - 1
    b = np.broadcast_to(np.arange(3), (4, 3))  # read-only, zero strides
    assert_matches(loom.asarray(b, device=loom.cpu()), b)
    with pytest.raises(ValueError):
        loom.asarray(ro, device=loom.cpu(), copy=False)


def test_asarray_byte_swapped_numpy(device, rng):
    a = random_array(rng, (3, 4), np.float32)
    big = a.astype(">f4")
    assert_matches(loom.asarray(big, device=device), a, exact=True)
    assert_matches(loom.asarray(big.astype(">i8"), device=device), big.astype(np.int64))


def test_asarray_copy_flags(device, rng):
    a = random_array(rng, (8,), np.int64)
    with pytest.raises(ValueError):
        loom.asarray([1, 2, 3], device=device, copy=False)
    x = loom.asarray(a, device=device, copy=True)
    a[0] += 1
    assert x.numpy()[0] == a[0] - 1
    if device.type == "cuda":
        with pytest.raises(ValueError):
            loom.asarray(a, device=device, copy=False)


def test_contiguous_conversions_return_the_array_when_nothing_changes(device, rng):
    """ascontiguousarray / asfortranarray give back their argument itself (NumPy's `is`) when
    it already has the layout and dtype; a new array otherwise, with NumPy's values."""
    a = loom.asarray(random_array(rng, (3, 4), np.float32), device=device)
    t = a.T
    for fn, x, dt, same in (("ascontiguousarray", a, None, True), ("ascontiguousarray", a, "float32", True),
                            ("ascontiguousarray", t, None, False), ("ascontiguousarray", a[:, ::2], None, False),
                            ("ascontiguousarray", a, "float64", False), ("asfortranarray", t, None, True),
                            ("asfortranarray", a, None, False), ("asfortranarray", t, "float64", False)):
        got = getattr(loom, fn)(x, dtype=dt)
        assert (got is x) == same, (fn, dt)
        assert_matches(got, getattr(np, fn)(x.numpy(), dtype=dt), device=device, exact=True)


def test_linspace_whole_numpy_call(device, rng):
    """NumPy's positional order (retstep before dtype), retstep=, axis=, array ends broadcast
    together, complex ends, integer dtypes (floored) and weak Python ends beside float32."""
    a, b = rng.standard_normal(3), rng.standard_normal((2, 1))
    for args, kw in (((a, b, 4), {}), ((a, 5.0, 6), {"axis": 1}), ((b, a, 3, False), {"axis": -1}),
                     ((1 + 2j, 3 - 1j, 5), {}), ((a.astype(np.float32), 2, 3), {}),
                     ((-3, 40, 7, True, False, np.int32), {}), ((a * 10, 9, 4), {"dtype": np.int64})):
        compare(lambda xp, *ends: xp.linspace(*ends, *args[2:], **kw), *args[:2], device=device, rtol=1e-6)
    got, step = loom.linspace(0.0, 3.0, 4, retstep=True, device=device)
    want, want_step = np.linspace(0.0, 3.0, 4, retstep=True)
    assert_matches(got, want, device=device)
    assert float(step) == want_step
    assert np.isnan(loom.linspace(0.0, 1.0, 1, retstep=True, device=device)[1])  # one sample: NumPy's NaN step
