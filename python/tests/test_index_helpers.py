"""numpy's diag_indices, tril/triu_indices (and their _from forms), ravel_multi_index,
unravel_index and ix_ against NumPy on fresh random data, on every device: sizes and
offsets in and beyond range, 0-size and 0-d cases, index dtypes, non-contiguous inputs,
modes and orders, and the errors (typed, naming the op)."""
import numpy as np
import pytest

import loom
from conftest import assert_matches, compare


def L(x, device):
    return loom.asarray(x, device=device)


def assert_tuple(got, want, device):
    assert isinstance(got, tuple) and len(got) == len(want)
    for g, w in zip(got, want):
        assert_matches(g, w, device=device)


@pytest.mark.parametrize("n,ndim", [(0, 2), (1, 1), (4, 2), (3, 3)])
def test_diag_indices(device, rng, n, ndim):
    assert_tuple(loom.diag_indices(n, ndim, device=device), np.diag_indices(n, ndim), device)
    a = rng.standard_normal((n,) * ndim)
    if ndim >= 2:
        assert_tuple(loom.diag_indices_from(L(a, device)), np.diag_indices_from(a), device)
    # The indices select the diagonal of a random array.
    got = L(a, device)[loom.diag_indices(n, ndim, device=device)]
    assert_matches(got, a[np.diag_indices(n, ndim)], device=device)


def test_diag_indices_from_errors(device):
    with pytest.raises(ValueError, match=r"\[diag_indices_from\].*equal length"):
        loom.diag_indices_from(loom.zeros((3, 4), device=device))
    with pytest.raises(ValueError, match=r"\[diag_indices_from\].*at least 2-d"):
        loom.diag_indices_from(loom.zeros((3,), device=device))


@pytest.mark.parametrize("fn", ["tril_indices", "triu_indices"])
@pytest.mark.parametrize("n,m", [(4, None), (3, 6), (6, 2), (0, 3), (3, 0), (1, None)])
@pytest.mark.parametrize("k", [-9, -2, -1, 0, 1, 3, 9])
def test_tril_triu_indices(device, rng, fn, n, m, k):
    want = getattr(np, fn)(n, k, m)
    got = getattr(loom, fn)(n, k, m, device=device)
    assert_tuple(got, want, device)
    a = rng.standard_normal((n, n if m is None else m))
    assert_matches(L(a, device)[got], a[want], device=device)
    # The _from forms read a 2-d array's shape, also through a non-contiguous view.
    assert_tuple(getattr(loom, fn + "_from")(L(a, device), k), getattr(np, fn + "_from")(a, k), device)
    assert_tuple(getattr(loom, fn + "_from")(L(a, device).T, k), getattr(np, fn + "_from")(a.T, k), device)


@pytest.mark.parametrize("fn", ["tril_indices_from", "triu_indices_from"])
def test_triangle_indices_from_needs_2d(device, fn):
    with pytest.raises(ValueError, match=rf"\[{fn}\] input array must be 2-d"):
        getattr(loom, fn)(loom.zeros((2, 3, 4), device=device))


@pytest.mark.parametrize("order", ["C", "F", None])  # None: NumPy's 'C'
@pytest.mark.parametrize("dtype", ["int8", "int32", "uint16", "int64"])
def test_ravel_multi_index(device, rng, order, dtype):
    dims = (3, 4, 5)
    coords = tuple(rng.integers(0, d, size=(2, 6)).astype(dtype) for d in dims)
    compare(lambda xp, c: xp.ravel_multi_index(c, dims, order=order), coords, device=device)
    # Coordinates broadcast together; 0-d and 0-size coordinates.
    bc = (rng.integers(0, 3, (2, 1)), rng.integers(0, 4, (1, 3)), rng.integers(0, 5, (3,)))
    compare(lambda xp, c: xp.ravel_multi_index(c, dims, order=order), bc, device=device)
    compare(lambda xp, c: xp.ravel_multi_index(c, dims, order=order), tuple(np.array(i) for i in (2, 1, 4)),
            device=device)
    compare(lambda xp, c: xp.ravel_multi_index(c, dims, order=order), tuple(np.zeros((0, 2), np.int64) for _ in dims),
            device=device)


@pytest.mark.parametrize("mode", ["wrap", "clip", ("clip", "wrap", "raise")])
def test_ravel_multi_index_modes(device, rng, mode):
    dims = (3, 4, 5)
    coords = [rng.integers(-12, 12, size=7) for _ in dims]
    if isinstance(mode, tuple):
        coords[2] = rng.integers(0, 5, size=7)  # in range for the 'raise' dimension
    coords = tuple(coords)
    compare(lambda xp, c: xp.ravel_multi_index(c, dims, mode=mode), coords, device=device)
    # A non-contiguous view of the coordinates.
    rows = rng.integers(-12, 12, size=(3, 14))
    rows[2] = rng.integers(0, 5, size=14)
    got = loom.ravel_multi_index(L(rows, device)[:, ::2], dims, mode=mode)
    assert_matches(got, np.ravel_multi_index(rows[:, ::2], dims, mode=mode), device=device)


def test_ravel_multi_index_errors(device):
    c = (L(np.array([1, 3]), device), L(np.array([0, 2]), device))
    with pytest.raises(ValueError, match=r"\[ravel_multi_index\] invalid entry"):
        loom.ravel_multi_index(c, (3, 4))
    with pytest.raises(ValueError, match=r"\[ravel_multi_index\] invalid entry"):
        loom.ravel_multi_index((L(np.array([-1]), device), L(np.array([0]), device)), (3, 4))
    with pytest.raises(TypeError, match=r"\[ravel_multi_index\] only int indices"):
        loom.ravel_multi_index((L(np.array([1.0]), device), L(np.array([0]), device)), (3, 4))
    with pytest.raises(ValueError, match=r"\[ravel_multi_index\].*length 3"):
        loom.ravel_multi_index(c, (3, 4, 5))
    with pytest.raises(ValueError, match=r"\[ravel_multi_index\] clipmode"):
        loom.ravel_multi_index(c, (3, 4), mode="bad")
    with pytest.raises(ValueError, match=r"\[ravel_multi_index\] only 'C' or 'F'"):
        loom.ravel_multi_index(c, (3, 4), order="A")


@pytest.mark.parametrize("order", ["C", "F", None])
@pytest.mark.parametrize("dtype", ["int16", "uint32", "int64"])
@pytest.mark.parametrize("shape", [(3, 4, 5), (7,), (2, 1, 6)])
def test_unravel_index(device, rng, order, dtype, shape):
    size = int(np.prod(shape))
    idx = rng.integers(0, size, size=(2, 5)).astype(dtype)
    compare(lambda xp, i: xp.unravel_index(i, shape, order=order), idx, device=device)
    compare(lambda xp, i: xp.unravel_index(i, shape, order=order), idx[:, ::2], device=device)  # a strided view
    compare(lambda xp, i: xp.unravel_index(i, shape, order=order), np.array(size - 1, dtype), device=device)
    compare(lambda xp, i: xp.unravel_index(i, shape, order=order), np.zeros((0, 3), dtype), device=device)
    # unravel_index undoes ravel_multi_index.
    flat = loom.ravel_multi_index(loom.unravel_index(L(idx, device), shape, order=order), shape, order=order)
    assert_matches(flat, idx.astype(np.int64), device=device)


def test_unravel_index_of_a_1d_shape_is_a_new_array(device):
    i = L(np.array([1, 2]), device)
    (r,) = loom.unravel_index(i, (5,))
    r[0] = 4
    assert i.numpy()[0] == 1


def test_unravel_index_errors(device):
    with pytest.raises(ValueError, match=r"\[unravel_index\] index 12 is out of bounds for array with size 12"):
        loom.unravel_index(L(np.array([3, 12]), device), (3, 4))
    with pytest.raises(ValueError, match=r"\[unravel_index\] index -1 is out of bounds"):
        loom.unravel_index(L(np.array([-1]), device), (3, 4))
    with pytest.raises(TypeError, match=r"\[unravel_index\] only int indices"):
        loom.unravel_index(L(np.array([1.0]), device), (3, 4))
    with pytest.raises(ValueError, match=r"\[unravel_index\] only 'C' or 'F'"):
        loom.unravel_index(L(np.array([1]), device), (3, 4), order="X")


def test_ix(device, rng):
    a = rng.standard_normal((5, 6, 4))
    rows = rng.integers(-5, 5, size=3)
    cols = rng.random(6) < 0.5
    cols[0] = True
    deep = rng.integers(0, 4, size=2).astype(np.int8)
    want = np.ix_(rows, cols, deep)
    got = loom.ix_(L(rows, device), L(cols, device), L(deep, device))
    assert_tuple(got, want, device)
    assert_matches(L(a, device)[got], a[want], device=device)
    assert_tuple(loom.ix_(L(rows, device)[::-1]), np.ix_(rows[::-1]), device)  # a non-contiguous view
    got = loom.ix_([], L(rows, device))  # an empty sequence is typed intp, as NumPy's
    assert got[0].dtype == loom.int64 and got[0].device == device and got[0].shape == (0, 1)
    assert loom.ix_() == ()
    with pytest.raises(ValueError, match=r"\[ix_\] Cross index must be 1 dimensional"):
        loom.ix_(L(np.zeros((2, 2), np.int64), device))
