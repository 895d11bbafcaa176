"""Indexing against NumPy on every device: basic indexing (views), integer-array and
boolean-mask gathers, assignment (scatter) with broadcasting and casting, x.at[...]
functional updates vs np.<ufunc>.at, nonzero and relatives, bounds errors."""
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import loom
from conftest import DTYPE_NAMES, NP_DTYPES, assert_matches, compare, random_array

# NumPy warns about the casts and NaN comparisons that some cases make on purpose.
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

# ---------------------------------------------------------------- basic indexing


BASIC_KEYS = [
    1, -1, (1, 2), (-2, -1, 3), slice(1, None), slice(None, None, -1), slice(-2, 0, -1),
    (slice(None), slice(None, None, 2)), (slice(4, 0, -2), 1), (Ellipsis, 1), (1, Ellipsis),
    (None, 1), (Ellipsis, None), (slice(None), None, slice(None, None, -1)), (), Ellipsis,
    (slice(10, 20),), (slice(-100, 100, 3),), (0, 0, 0), (None, Ellipsis, None),
]


@pytest.mark.parametrize("key", BASIC_KEYS, ids=repr)
def test_basic_indexing(device, rng, key):
    a = random_array(rng, (4, 5, 6), "float32")
    compare(lambda xp, x: x[key], a, device=device, exact=True)


@pytest.mark.parametrize("key", [(slice(None), 1), (slice(1, 3), slice(None, None, -2)), (Ellipsis, 0), 2])
def test_basic_indexing_is_a_view(device, rng, key):
    a = random_array(rng, (4, 5), "int32")
    x = loom.asarray(a, device=device)
    v = x[key]
    assert v.dtype == x.dtype
    v[...] = 7
    a[key] = 7
    assert_matches(x, a)
    x[key] = -3  # assignment through the base is visible in the view
    assert_matches(v, np.full(np.shape(a[key]), -3, np.int32))


def test_basic_indexing_of_noncontiguous_views(device, rng):
    a = random_array(rng, (6, 7, 3), "int16")
    compare(lambda xp, x: x[::-1, 2:][1:4, ::-2, 1], a, device=device)
    compare(lambda xp, x: xp.asarray(x).T[1, ::-1], a, device=device)


def test_integer_index_of_0d_and_empty(device, rng):
    compare(lambda xp, x: x[()], np.array(3.5), device=device)
    compare(lambda xp, x: x[...], np.array(3.5), device=device)
    compare(lambda xp, x: x[None], np.array(3.5), device=device)
    compare(lambda xp, x: x[1:1], random_array(rng, (4, 2), "float64"), device=device)
    compare(lambda xp, x: x[:, 0], np.zeros((0, 3), np.int8), device=device)


# ---------------------------------------------------------------- advanced indexing

ADV_KEYS = [
    [0, 2, 2, -1],
    ([[0, 1], [3, -4]],),
    ([0, 1], [2, 3]),
    ([[0], [3]], [1, 2, 4]),  # broadcast together
    (slice(None), [1, 3]),
    (1, slice(None), [0, 2]),  # int and array separated by a slice: index dims first
    (slice(None), 1, [0, 2]),  # adjacent: in place
    ([0, 2], slice(None), [1, 5]),
    (Ellipsis, [0, 0, 5]),
    ([1], None, [2]),
    (slice(1, None), [[0], [1]], slice(None, None, -1)),
    ([], slice(None)),
    (np.array([2, 0], np.uint8), np.array([1, 1], np.int16)),
]


@pytest.mark.parametrize("key", ADV_KEYS, ids=repr)
def test_integer_array_indexing(device, rng, key):
    a = random_array(rng, (4, 5, 6), "float32")
    compare(lambda xp, x: x[key], a, device=device, exact=True)


def test_index_arrays_on_the_device(device, rng):
    a = random_array(rng, (5, 6), "int64")
    i = rng.integers(-5, 5, size=(3, 2))
    j = rng.integers(0, 6, size=(2,))
    compare(lambda xp, x, i, j: x[i, j], a, i, j, device=device)
    compare(lambda xp, x, i, j: x[i[::-1], 1:][:, :, ::2], a, i, j, device=device)
    compare(lambda xp, x, j: x[..., j], a, j.astype(np.int32), device=device)


@pytest.mark.parametrize("dtype", DTYPE_NAMES)
def test_gather_every_dtype(device, rng, dtype):
    a = random_array(rng, (7, 3), dtype)
    i = rng.integers(-7, 7, size=11)
    compare(lambda xp, x, i: x[i], a, i, device=device, exact=True)
    compare(lambda xp, x, i: x[::-1][i[:4], 1:], a, i, device=device, exact=True)


def test_boolean_masks(device, rng):
    a = random_array(rng, (4, 5, 3), "float64")
    compare(lambda xp, x, m: x[m], a, a > 0, device=device)  # full shape
    compare(lambda xp, x, m: x[m], a, a[:, :, 0] > 0, device=device)  # leading dims
    compare(lambda xp, x, m: x[:, m], a, a[0, :, 1] > 0, device=device)
    compare(lambda xp, x, m: x[m, 1:], a, np.array([True, False, True, True]), device=device)
    compare(lambda xp, x, m: x[m, [0, 2]], a, a[:, 0, 0] > -100, device=device)  # mask + array
    compare(lambda xp, x, m: x[m], a, np.zeros((4, 5), bool), device=device)  # nothing selected
    compare(lambda xp, x: x[[True, False, True, False]], a, device=device)
    compare(lambda xp, x: x[True], a, device=device)
    compare(lambda xp, x: x[..., False], a, device=device)
    compare(lambda xp, x: x[np.True_, 1], a, device=device)
    # An empty mask axis stands for any length, as in NumPy; another mismatch is an IndexError.
    for m in (np.zeros((0, 0), bool), np.zeros((4, 0), bool), np.zeros((0,), bool), np.zeros((2, 5), bool)):
        compare(lambda xp, x, m: x[m], a, m, device=device)


def test_boolean_mask_of_strided_view(device, rng):
    a = random_array(rng, (6, 8), "int32")
    m = random_array(rng, (8, 6), "bool")
    compare(lambda xp, x, m: x[::-1][m.T], a, m, device=device)


# ---------------------------------------------------------------- errors


def test_out_of_bounds_raise_index_error(device, rng):
    a = random_array(rng, (5, 4), "float32")
    x = loom.asarray(a, device=device)
    for key in [10, -6, (0, 4), ([0, 10],), (slice(None), [-5]), ([1, 2], [0, 9])]:
        compare(lambda xp, x: x[key], a, device=device)
    with pytest.raises(IndexError, match=r"\[getitem\] index 10 is out of bounds for axis 0 with size 5"):
        x[[1, 10, 2]]
    with pytest.raises(IndexError, match="index -9 is out of bounds for axis 1 with size 4"):
        x[:, np.array([-9])]
    with pytest.raises(IndexError):
        x[[7]] = 1.0
    assert_matches(x, a)  # nothing was written
    with pytest.raises(IndexError):
        x.at[[0, 5]].add(1.0)
    # The device keeps working after a rejected gather.
    compare(lambda xp, x: x[[4, -5, 0]], a, device=device)


def test_gpu_gather_out_of_bounds_is_checked(gpu, rng):
    a = random_array(rng, (1000, 33), "float64")
    x = loom.asarray(a, device=gpu)
    i = np.arange(2000) % 1000
    i[1777] = 10**9
    with pytest.raises(IndexError, match="index 1000000000 is out of bounds for axis 0 with size 1000"):
        x[loom.asarray(i, device=gpu)]
    i[1777] = -1001
    with pytest.raises(IndexError, match="index -1001 is out of bounds"):
        x[i, 3]
    i[1777] = 5
    assert_matches(x[loom.asarray(i, device=gpu)], a[i])
    assert_matches(loom.asarray(np.arange(10), device=gpu)[[3, 1]], np.array([3, 1]))


def test_bad_indices(device, rng):
    a = random_array(rng, (3, 4), "int8")
    for key in [(0, 0, 0), 1.0, [1.5], "a", (Ellipsis, Ellipsis), np.ones((3, 5), bool), np.ones(4, bool),
                ([0, 1], [0, 1, 2]), np.float32(1), np.array([1.0]), (slice(None), slice(None), None, 1)]:
        compare(lambda xp, x: x[key], a, device=device)
    compare(lambda xp, x: x[::0], a, device=device)
    x = loom.asarray(a, device=device)
    with pytest.raises(IndexError, match="too many indices for array: array is 2-dimensional, but 3 were indexed"):
        x[0, 0, 0]
    with pytest.raises(IndexError, match="integer"):
        x[loom.asarray(np.array([1.0]), device=device)]


def test_index_array_on_another_device(gpu):
    x = loom.asarray(np.arange(5), device=gpu)
    with pytest.raises(loom.DeviceMismatchError):
        x[loom.asarray(np.array([1]), device=loom.cpu())]


# ---------------------------------------------------------------- assignment


def assign(key, value):
    def f(xp, x, *rest):
        x = x.copy()
        x[key] = value if not rest else rest[0]
        return x
    return f


@pytest.mark.parametrize("key", [1, (slice(None), 2), (slice(None, None, -2),), (Ellipsis, None), [0, 2],
                                 ([1, 0], slice(None, None, -1)), (slice(None), [3, 0, 1]), ()], ids=repr)
def test_setitem_scalar_and_broadcast(device, rng, key):
    a = random_array(rng, (3, 4), "float32")
    compare(assign(key, 2.5), a, device=device)
    shape = np.shape(a[key])
    row = random_array(rng, shape[-1:] if shape else (), "float32")
    compare(assign(key, None), a, row, device=device)  # broadcast along leading dims
    full = random_array(rng, (1,) + shape, "float64")
    compare(assign(key, None), a, full, device=device)  # leading 1 dropped, cast to float32


def test_setitem_weak_scalars_and_overflow(device):
    compare(assign(0, 3.7), np.arange(5, dtype=np.int32), device=device)
    compare(assign([1, 2], -1), np.arange(5, dtype=np.int8), device=device)
    compare(assign(0, 2**40), np.arange(5, dtype=np.int32), device=device)  # OverflowError
    compare(assign(0, -1), np.arange(5, dtype=np.uint8), device=device)  # OverflowError
    compare(assign(0, 1e30), np.arange(5, dtype=np.float16), device=device)  # inf, as NumPy
    compare(assign(slice(None), 7), np.array([True, False, False]), device=device)
    compare(assign(0, float("nan")), np.arange(5, dtype=np.int64), device=device)  # ValueError


@pytest.mark.parametrize("dtype", DTYPE_NAMES)
def test_setitem_every_dtype(device, rng, dtype):
    a = random_array(rng, (6, 5), dtype)
    v = random_array(rng, (3, 5), dtype)
    compare(assign(([4, 0, 2],), None), a, v, device=device, exact=True)
    compare(assign((slice(None), 1), None), a, random_array(rng, (6,), "float64"), device=device, exact=True)
    compare(assign((a[:, 0] > a[:, 1],), None), a, v[0], device=device, exact=True)


def test_setitem_mask_and_value_array(device, rng):
    a = random_array(rng, (4, 6), "int64")
    compare(lambda xp, x, m: (x.__setitem__(m, 0), x)[1], a, a > 0, device=device)
    compare(assign(slice(1, 3), [5, 6, 7, 8, 9, 10]), a, device=device)
    m = random_array(rng, (4, 6), "bool")
    vals = np.arange(int(m.sum()))
    compare(lambda xp, x, m, v: (x.__setitem__(m, v), x)[1], a, m, vals, device=device)


def test_setitem_with_repeated_indices_last_write_wins_on_cpu(rng):
    a = random_array(rng, (5,), "float64")
    compare(assign([1, 3, 1, 1], np.array([1.0, 2.0, 3.0, 4.0])), a, device=loom.cpu())


def test_setitem_repeated_indices_gpu_writes_one_of_them(gpu):
    x = loom.zeros((3,), loom.int32, device=gpu)
    x[[1, 1, 1]] = loom.asarray(np.array([5, 6, 7], np.int32), device=gpu)
    assert int(x[1]) in (5, 6, 7) and int(x[0]) == 0


def test_setitem_overlapping_value(device, rng):
    a = random_array(rng, (10,), "int32")
    compare(lambda xp, x: (x.__setitem__(slice(1, None), x[:-1]), x)[1], a, device=device)
    compare(lambda xp, x: (x.__setitem__(slice(None, None, -1), x), x)[1], a, device=device)


def test_setitem_strided_and_transposed_destination(device, rng):
    a = random_array(rng, (5, 6), "float32")
    compare(assign((slice(None, None, -1), slice(1, None, 2)), 4.0), a, device=device)
    compare(lambda xp, x, v: (x.T.__setitem__((slice(None), 1), v), x)[1], a,
            random_array(rng, (6,), "float32"), device=device)


# ---------------------------------------------------------------- x.at[...]

UFUNC_AT = {"add": np.add, "multiply": np.multiply, "min": np.minimum, "max": np.maximum}


def at_op(op, key):
    def f(xp, x, v):
        if xp is np:
            out = x.copy()
            if op == "set":
                out[key] = v
            else:
                UFUNC_AT[op].at(out, key, v)
            return out
        return getattr(x.at[key], op)(v)
    return f


@pytest.mark.parametrize("op", ["add", "multiply", "min", "max"])
@pytest.mark.parametrize("dtype", DTYPE_NAMES)
def test_at_with_duplicates_matches_ufunc_at(device, rng, op, dtype):
    dt = NP_DTYPES[dtype]
    a = random_array(rng, (6, 3), dtype, low=1, high=3) if dt.kind not in "biu" else random_array(rng, (6, 3), dtype)
    idx = np.array([0, 5, 0, 2, 0, -1, 2])
    v = random_array(rng, (7, 3), dtype, low=1, high=3) if dt.kind not in "biu" else random_array(rng, (7, 3), dtype)
    if dt.kind in "iu" and op == "multiply":
        v = random_array(rng, (7, 3), dtype, low=0, high=4)
    # GPU atomics combine in another order than NumPy: 16-bit floats round differently.
    compare(at_op(op, idx), a, v, device=device, rtol=3e-2 if dtype in ("float16", "bfloat16") else None)


def complex_values(rng, shape, dtype):
    part = np.float32 if dtype == "complex64" else np.float64
    z = np.empty(shape, dtype)
    z.real = rng.uniform(-3, 3, size=shape).astype(part)
    z.imag = rng.uniform(-3, 3, size=shape).astype(part)
    return z


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_at_add_complex_matches_add_at(device, rng, dtype):
    a = complex_values(rng, (6, 3), dtype)
    idx = np.array([0, 5, 0, 2, 0, -1, 2])
    v = complex_values(rng, (7, 3), dtype)
    v[1, 0] = complex(np.nan, 1.0)  # NaN and infinities accumulate part by part
    v[3, 1] = complex(2.0, np.inf)
    tol = 1e-5 if dtype == "complex64" else 1e-12  # the GPU's atomics add in another order
    compare(at_op("add", idx), a, v, device=device, rtol=tol)
    compare(at_op("add", (idx, 1)), a, v[:, 1], device=device, rtol=tol)
    compare(at_op("add", (slice(None), [2, 2])), a, np.complex64(1 - 2j), device=device, rtol=tol)  # broadcast
    compare(at_op("add", [1, 1, 4]), a, 0.5, device=device, rtol=tol)  # a real value, cast
    compare(at_op("set", [1, 1, 4]), a, 2j, device=device)
    # np.add.at on a loom array goes through the same op, in place.
    x = loom.asarray(a, device=device)
    ref = a.copy()
    np.add.at(ref, idx, v)
    np.add.at(x, loom.asarray(idx, device=device), loom.asarray(v, device=device))
    np.testing.assert_allclose(loom.asnumpy(x), ref, rtol=tol)


def test_grad_through_complex_at_add(device):
    # Derivatives pass through complex values (docs/TRANSFORMS.md §6): |i (v0 + v1)| in v.
    z = loom.asarray(np.zeros(3, np.complex128), device=device)
    g = loom.grad(lambda v: loom.sum(loom.abs(z.at[loom.asarray([0, 0], device=device)].add(v * 1j))))(
        loom.asarray(np.array([0.5, -2.0]), device=device))
    np.testing.assert_allclose(g.numpy(), [-1.0, -1.0])


def test_at_set_and_basic_index(device, rng):
    a = random_array(rng, (4, 5), "int16")
    compare(at_op("set", (slice(None), [1, 3])), a, np.int16(9), device=device)
    compare(at_op("add", (slice(None, None, -1), 1)), a, random_array(rng, (4,), "int16"), device=device)
    compare(at_op("max", a > 0), a, np.int16(100), device=device)
    x = loom.asarray(a, device=device)
    y = x.at[0].set(1)
    assert_matches(x, a)  # functional: x is unchanged
    assert y.device == x.device


def test_at_min_max_propagate_nan(device):
    a = np.array([1.0, np.nan, 3.0, 4.0], np.float32)
    v = np.array([np.nan, 0.0, 5.0, 2.0, 9.0], np.float32)
    idx = [0, 1, 2, 2, 3]
    compare(at_op("min", idx), a, v, device=device)
    compare(at_op("max", idx), a, v, device=device)


def test_at_many_duplicates(device, rng):
    # Contended atomics on the GPU (CAS loops on the 8- and 16-bit types).
    for dtype in ["int8", "uint16", "float32", "float64", "int64"]:
        a = np.zeros(4, NP_DTYPES[dtype])
        idx = rng.integers(0, 4, size=5000)
        v = np.ones(5000, NP_DTYPES[dtype])
        compare(at_op("add", idx), a, v, device=device)
        compare(at_op("max", idx), a, random_array(rng, (5000,), dtype), device=device)


# ---------------------------------------------------------------- nonzero


@pytest.mark.parametrize("dtype", DTYPE_NAMES)
def test_nonzero_every_dtype(device, rng, dtype):
    a = random_array(rng, (5, 7), dtype)
    a[rng.random((5, 7)) < 0.4] = 0
    compare(lambda xp, x: xp.nonzero(x), a, device=device)
    compare(lambda xp, x: x.nonzero(), a[::-1, ::2], device=device)


def test_nonzero_floats_signed_zero_and_nan(device):
    a = np.array([0.0, -0.0, np.nan, 1e-45, -np.inf], np.float32)
    compare(lambda xp, x: xp.nonzero(x), a, device=device)
    compare(lambda xp, x: xp.nonzero(x), a.astype(np.float16), device=device)


def test_nonzero_shapes(device, rng):
    compare(lambda xp, x: xp.nonzero(x), np.zeros((3, 0), np.int32), device=device)
    compare(lambda xp, x: xp.nonzero(x), np.zeros(7, np.int32), device=device)
    compare(lambda xp, x: xp.nonzero(x), np.array(5), device=device)  # ValueError
    big = random_array(rng, (300, 301), "bool")  # several GPU tiles
    compare(lambda xp, x: xp.nonzero(x), big, device=device)
    compare(lambda xp, x: xp.nonzero(x), random_array(rng, (2, 3, 4, 5), "uint8", 0, 3), device=device)


def test_flatnonzero_argwhere_count_nonzero(device, rng):
    a = random_array(rng, (4, 6), "int32", -2, 2)
    compare(lambda xp, x: xp.flatnonzero(x), a, device=device)
    compare(lambda xp, x: xp.argwhere(x), a, device=device)
    compare(lambda xp, x: xp.argwhere(x), np.array(3), device=device)
    compare(lambda xp, x: xp.flatnonzero(x), np.array(0.0), device=device)
    compare(lambda xp, x: xp.count_nonzero(x), a, device=device, exact=True)
    compare(lambda xp, x: xp.count_nonzero(x), np.zeros((0, 4)), device=device, exact=True)
    compare(lambda xp, x: xp.count_nonzero(x), random_array(rng, (100_003,), "float16"), device=device, exact=True)


def test_len_and_iter(device, rng):
    a = random_array(rng, (3, 2), "float32")
    x = loom.asarray(a, device=device)
    assert len(x) == 3
    rows = list(x)
    assert len(rows) == 3
    for r, e in zip(rows, a):
        assert_matches(r, e, device=device)
    with pytest.raises(TypeError):
        iter(loom.asarray(np.array(1.0), device=device))


# ---------------------------------------------------------------- property-based


@st.composite
def index_case(draw):
    ndim = draw(st.integers(0, 4))
    shape = tuple(draw(st.lists(st.integers(0, 5), min_size=ndim, max_size=ndim)))
    items, d = [], 0
    ellipsis = False
    arrays = draw(st.booleans())
    while d < ndim and draw(st.integers(0, 3)) > 0:
        kind = draw(st.sampled_from(["int", "slice", "none", "ellipsis", "array", "mask"] if arrays else
                                    ["int", "slice", "none", "ellipsis"]))
        n = shape[d]
        if kind == "int" and n > 0:
            items.append(draw(st.integers(-n, n - 1)))
            d += 1
        elif kind == "slice":
            bound = st.none() | st.integers(-n - 2, n + 2)
            items.append(slice(draw(bound), draw(bound), draw(st.none() | st.sampled_from([-3, -2, -1, 1, 2, 3]))))
            d += 1
        elif kind == "none":
            items.append(None)
        elif kind == "ellipsis" and not ellipsis:
            items.append(Ellipsis)
            ellipsis = True
        elif kind == "array" and n > 0:
            size = draw(st.integers(0, 3))
            items.append(np.array(draw(st.lists(st.integers(-n, n - 1), min_size=size, max_size=size)), np.int64))
            d += 1
        elif kind == "mask" and not ellipsis:
            k = draw(st.integers(1, ndim - d))
            mshape = shape[d:d + k]
            bits = draw(st.lists(st.booleans(), min_size=int(np.prod(mshape)), max_size=int(np.prod(mshape))))
            items.append(np.array(bits, bool).reshape(mshape))
            d += k
    return shape, tuple(items)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=index_case(), seed=st.integers(0, 2**32 - 1))
def test_hypothesis_getitem_setitem(device, case, seed):
    shape, key = case
    rng = np.random.default_rng(seed)
    a = random_array(rng, shape, "int32")
    compare(lambda xp, x: x[key], a, device=device)
    if a.ndim:  # a negative-stride view of a bigger array
        big = random_array(rng, (max(shape[0] * 2 - 1, 0),) + shape[1:], "int16")
        compare(lambda xp, x: x[::-2][key], big, device=device)
    try:
        target = a[key]
    except IndexError:
        return
    v = random_array(rng, np.shape(target), "int32")
    positions = np.arange(a.size).reshape(a.shape)[key]
    if device.type == "cuda" and np.unique(positions).size != np.size(positions):
        v = v.flat[0] if v.size else v  # repeated targets: the GPU's winner is unspecified
    compare(assign(key, None), a, v, device=device)
    if np.size(target):
        compare(at_op("add", key), a, v, device=device)
