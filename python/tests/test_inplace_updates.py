"""numpy's fill_diagonal, place, put and putmask against NumPy on fresh random data, on
every device: each writes into the loom array it is given (also a transposed or sliced
view, whose base must change accordingly), over dtypes, value lengths that repeat or are
cut, 0-size and 0-d arrays, modes, and the errors (typed, naming the op)."""
import numpy as np
import pytest

import loom
from conftest import DTYPE_NAMES, NP_DTYPES, assert_matches, random_array


def L(x, device):
    return loom.asarray(x, device=device)


def check_inplace(device, base, view_of, fn):
    """Runs fn(np, view_of(np_base)) and fn(loom, view_of(loom_base)) and compares the bases:
    what fn wrote through the view must land in the array it views."""
    want = base.copy()
    lb = L(base.copy(), device)
    assert fn(np, view_of(want)) is None
    assert fn(loom, view_of(lb)) is None
    assert_matches(lb, want, device=device, exact=True)


VIEWS = {
    "whole": lambda a: a,
    "transposed": lambda a: a.T,
    "sliced": lambda a: a[::2, 1:],
}


def base_and_mask(rng, dtype, view):
    """A random (6, 5) array and a random mask of the shape of its view."""
    base = random_array(rng, (6, 5), NP_DTYPES[dtype])
    shape = VIEWS[view](base).shape
    return base, shape, rng.random(shape) < 0.5


@pytest.mark.parametrize("dtype", DTYPE_NAMES)
@pytest.mark.parametrize("view", list(VIEWS))
def test_fill_diagonal(device, rng, dtype, view):
    for shape, wrap in [((5, 5), False), ((9, 3), False), ((9, 3), True), ((3, 7), True), ((0, 4), False)]:
        base = random_array(rng, shape, NP_DTYPES[dtype])
        val = random_array(rng, (2,), NP_DTYPES[dtype])  # shorter than the diagonal: repeats
        check_inplace(device, base, VIEWS[view], lambda xp, a: xp.fill_diagonal(a, val, wrap=wrap))
        scalar = random_array(rng, (), NP_DTYPES[dtype])
        check_inplace(device, base, VIEWS[view], lambda xp, a: xp.fill_diagonal(a, scalar))


def test_fill_diagonal_nd_and_long_values(device, rng):
    base = rng.standard_normal((4, 4, 4))
    long = rng.standard_normal(9)  # longer than the diagonal: cut
    check_inplace(device, base, lambda a: a, lambda xp, a: xp.fill_diagonal(a, long))
    check_inplace(device, base, lambda a: a.transpose(2, 0, 1), lambda xp, a: xp.fill_diagonal(a, long[:3]))
    check_inplace(device, base, lambda a: a, lambda xp, a: xp.fill_diagonal(a, np.array([])))  # writes nothing


def test_fill_diagonal_errors(device):
    with pytest.raises(ValueError, match=r"\[fill_diagonal\] array must be at least 2-d"):
        loom.fill_diagonal(loom.zeros((3,), device=device), 1.0)
    with pytest.raises(ValueError, match=r"\[fill_diagonal\] All dimensions"):
        loom.fill_diagonal(loom.zeros((3, 3, 2), device=device), 1.0)
    with pytest.raises(TypeError):
        loom.fill_diagonal(np.zeros((3, 3)), 1.0)  # in place: only a loom array can be written


@pytest.mark.parametrize("dtype", DTYPE_NAMES)
@pytest.mark.parametrize("view", list(VIEWS))
def test_place(device, rng, dtype, view):
    base, shape, mask = base_and_mask(rng, dtype, view)
    vals = random_array(rng, (3,), NP_DTYPES[dtype])
    check_inplace(device, base, VIEWS[view], lambda xp, a: xp.place(a, mask, vals))
    # A flat mask of the same size, and a mask that is not bool (nonzero counts as true).
    check_inplace(device, base, VIEWS[view], lambda xp, a: xp.place(a, mask.ravel(), vals))
    check_inplace(device, base, VIEWS[view], lambda xp, a: xp.place(a, mask.astype(np.int32) * 3, vals))
    many = random_array(rng, (40,), NP_DTYPES[dtype])  # more values than true elements
    check_inplace(device, base, VIEWS[view], lambda xp, a: xp.place(a, mask, many))
    check_inplace(device, base, VIEWS[view], lambda xp, a: xp.place(a, np.zeros(shape, bool), []))


def test_place_0d_and_0_size(device, rng):
    check_inplace(device, np.array(rng.standard_normal()), lambda a: a, lambda xp, a: xp.place(a, True, [7.0]))
    check_inplace(device, np.zeros((0, 3)), lambda a: a, lambda xp, a: xp.place(a, np.zeros((0, 3), bool), [1.0]))


def test_place_errors(device):
    a = L(np.arange(6.0), device)
    with pytest.raises(ValueError, match=r"\[place\] Cannot insert from an empty array"):
        loom.place(a, np.ones(6, bool), [])
    with pytest.raises(ValueError, match=r"\[place\] mask and data must be the same size"):
        loom.place(a, np.ones(3, bool), [1.0])
    with pytest.raises(TypeError):
        loom.place(np.arange(6.0), np.ones(6, bool), [1.0])


@pytest.mark.parametrize("dtype", DTYPE_NAMES)
@pytest.mark.parametrize("view", list(VIEWS))
@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
def test_put(device, rng, dtype, view, mode):
    base = random_array(rng, (6, 5), NP_DTYPES[dtype])
    n = VIEWS[view](base).size
    lo, hi = (-n, n) if mode == "raise" else (-3 * n, 3 * n)
    ind = rng.choice(np.arange(lo, hi), size=min(n, 7), replace=False)  # distinct: one write each
    if mode == "raise":  # no two indices naming one element
        ind = np.unique(np.where(ind < 0, ind + n, ind)) - rng.integers(0, 2) * n
    v = random_array(rng, (3,), NP_DTYPES[dtype])
    for ix in (ind, ind.astype(np.int16), ind.reshape(1, -1)):
        check_inplace(device, base, VIEWS[view], lambda xp, a: xp.put(a, ix, v, mode=mode))
    check_inplace(device, base, VIEWS[view], lambda xp, a: xp.put(a, int(ind[0]), v[0], mode=mode))


def test_put_repeated_indices_last_write_wins(device, rng):
    base = rng.standard_normal(5)
    check_inplace(device, base, lambda a: a, lambda xp, a: xp.put(a, [1, 3, 1], [7.0, 8.0, 9.0]))
    ind, v = rng.integers(-5, 5, 40), rng.standard_normal(40)  # many repeats, negatives naming the same elements
    check_inplace(device, base, lambda a: a, lambda xp, a: xp.put(a, ind, v))


def test_put_0d_and_empty(device, rng):
    check_inplace(device, np.array(rng.standard_normal()), lambda a: a, lambda xp, a: xp.put(a, [0, -1], [4.0, 5.0]))
    check_inplace(device, rng.standard_normal(4), lambda a: a, lambda xp, a: xp.put(a, np.zeros(0, np.int64), [1.0]))
    check_inplace(device, rng.standard_normal(4), lambda a: a, lambda xp, a: xp.put(a, [1], []))


def test_put_errors(device):
    a = L(np.arange(6.0), device)
    with pytest.raises(IndexError, match=r"\[put\] index 6 is out of bounds for axis 0 with size 6"):
        loom.put(a, [1, 6], [1.0])
    with pytest.raises(IndexError, match=r"\[put\] index -7 is out of bounds"):
        loom.put(a, [-7], [1.0])
    assert a.numpy().tolist() == list(range(6))  # nothing written before the check
    with pytest.raises(IndexError, match=r"\[put\] cannot replace elements of an empty array"):
        loom.put(loom.zeros((0,), device=device), [0], [1.0], mode="wrap")
    with pytest.raises(ValueError, match=r"\[put\] clipmode"):
        loom.put(a, [0], [1.0], mode="bad")
    with pytest.raises(TypeError, match=r"\[put\]"):
        loom.put(a, L(np.array([1 + 0j]), device), [1.0])
    with pytest.raises(OverflowError):
        loom.put(L(np.zeros(3, np.int8), device), [0], 300)


@pytest.mark.parametrize("dtype", DTYPE_NAMES)
@pytest.mark.parametrize("view", list(VIEWS))
def test_putmask(device, rng, dtype, view):
    base, shape, mask = base_and_mask(rng, dtype, view)
    for nvals in (1, 4, int(np.prod(shape)), 50):  # values cycle by position, not by count
        values = random_array(rng, (nvals,), NP_DTYPES[dtype])
        check_inplace(device, base, VIEWS[view], lambda xp, a: xp.putmask(a, mask, values))
    values = random_array(rng, shape, NP_DTYPES[dtype])
    check_inplace(device, base, VIEWS[view], lambda xp, a: xp.putmask(a, mask, values))
    check_inplace(device, base, VIEWS[view], lambda xp, a: xp.putmask(a, mask, np.array([], NP_DTYPES[dtype])))


def test_putmask_0d_casts_and_errors(device, rng):
    check_inplace(device, np.array(rng.standard_normal()), lambda a: a, lambda xp, a: xp.putmask(a, True, 2.5))
    check_inplace(device, rng.integers(-9, 9, 6), lambda a: a, lambda xp, a: xp.putmask(a, a > 0, 2.7))
    with pytest.raises(ValueError, match=r"\[putmask\] mask and data must be the same size"):
        loom.putmask(L(np.arange(6.0), device), np.ones(4, bool), 1.0)
    with pytest.raises(TypeError):
        loom.putmask(np.arange(6.0), np.ones(6, bool), 1.0)
