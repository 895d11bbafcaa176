"""Indexing loom.scipy.sparse CSR/CSC matrices and arrays against scipy.sparse on fresh random
matrices, on every device: A[key] with every index form SciPy takes (ints of any kind, slices,
Ellipsis, None, empty, 1-d and 2-d integer arrays, dense and sparse boolean masks), A[key] = x with
SciPy's broadcasting, stored structure and SparseEfficiencyWarning, setdiag (CSR, CSC, COO), and
SciPy's exception types for bad keys."""
import warnings

import numpy as np
import pytest
import scipy.sparse as sp

import loom
from loom.scipy import sparse as ls
from scipy_compare import same_error

FORMATS = ["csr", "csc"]


def rand(rng, shape=(9, 7), fmt="csr", dtype=np.float64, density=0.4):
    a = rng.standard_normal(shape) * (rng.random(shape) < density)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal(shape) * (a != 0)
    return sp.csr_matrix(a.astype(dtype)).asformat(fmt)


def loom_of(s, device, array=False):
    return getattr(ls, f"{s.format}_{'array' if array else 'matrix'}")(s, device=device)


def scipy_of(s, array):
    return getattr(sp, f"{s.format}_{'array' if array else 'matrix'}")(s)


def host(x):
    return np.asarray(x.numpy())


def same_result(got, want, is_array):
    """A loom result against SciPy's: sparse with the same format and shape (a *_array's 1-d
    sparse result: a 2-d COO array with the integer's axis kept), dense with the same shape."""
    if sp.issparse(want):
        assert ls.issparse(got), type(got)
        assert got.format == want.format, (got.format, want.format)
        if is_array and want.ndim == 1:
            assert got.shape in ((1, want.shape[0]), (want.shape[0], 1)), (got.shape, want.shape)
            np.testing.assert_array_equal(host(got.toarray()).ravel(), want.toarray())
        else:
            assert got.shape == want.shape, (got.shape, want.shape)
            np.testing.assert_array_equal(host(got.toarray()), want.toarray())
        return
    assert isinstance(got, loom.ndarray), type(got)
    want = np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    np.testing.assert_array_equal(host(got), want)


def _keys(rng, s, device):
    m, n = s.shape
    rows = rng.integers(-m, m, size=5)
    cols = rng.integers(-n, n, size=5)
    row_mask, col_mask = rng.random(m) < 0.5, rng.random(n) < 0.5
    mask = rng.random((m, n)) < 0.4
    return [
        2, -1, np.int32(3), np.int64(-2), np.array(1), loom.asarray(np.int32(4), device=device),
        loom.asarray(-3, device=device), (np.int16(2), loom.asarray(-1, device=device)), (1, 2),
        [], ([], slice(None)), (slice(None), []), np.array([], dtype=np.int64), ([], []), (),
        Ellipsis, (Ellipsis,), (Ellipsis, 1), (1, Ellipsis), (slice(1, None), Ellipsis), (Ellipsis, slice(2, 5)),
        slice(None, None, 2), slice(7, 1, -2), (slice(1, 6), slice(5, 0, -1)), (slice(2, 2), 3),
        list(rows), (slice(None), list(cols)), (list(rows), list(cols)), (list(rows[:3]), 2), (1, list(cols)),
        (rows[:, None], cols), ([[1, 2]], [[0, 3]]), ([[1], [2]], [0, 1]), (2, [[1, 2], [3, 4]]),
        ([[1, 2], [3, 4]], 1), (np.array(rows, dtype=np.int32), slice(1, 5)),
        loom.asarray(rows, device=device), (slice(None), loom.asarray(cols.astype(np.int32), device=device)),
        (loom.asarray(rows[:, None], device=device), loom.asarray(cols, device=device)),
        list(row_mask), (slice(None), col_mask), (loom.asarray(row_mask, device=device), 2), mask,
        loom.asarray(mask, device=device), (None, 2), (2, None), (None, slice(None), 1),
    ]


@pytest.mark.parametrize("array", [False, True])
@pytest.mark.parametrize("fmt", FORMATS)
def test_getitem_forms(device, rng, fmt, array):
    s = scipy_of(rand(rng, fmt=fmt, dtype=[np.float64, np.complex64][rng.integers(2)]), array)
    a = loom_of(s, device, array)
    for key in _keys(rng, s, device):
        host_key = tuple(host(k) if isinstance(k, loom.ndarray) else k for k in key) if isinstance(key, tuple) \
            else host(key) if isinstance(key, loom.ndarray) else key
        try:
            same_result(a[key], s[host_key], array)
        except AssertionError as e:
            raise AssertionError(f"key {key!r}: {e}") from None


@pytest.mark.parametrize("fmt", FORMATS)
def test_getitem_sparse_mask_and_copies(device, rng, fmt):
    s = rand(rng, fmt=fmt)
    a = loom_of(s, device)
    mask = rand(rng, s.shape, fmt="csc" if fmt == "csr" else "csr") > 0.3
    got = a[loom_of(mask, device)]
    np.testing.assert_array_equal(host(got), np.asarray(s[mask]))
    arr = loom_of(s, device, array=True)
    np.testing.assert_array_equal(host(arr[loom_of(mask, device, array=True)]), sp.csr_array(s)[sp.csr_array(mask)])
    for key in [slice(None), slice(2, 5), (slice(None), slice(1, 4)), Ellipsis, [1, 2], (slice(None), [0, 3])]:
        res = a[key]
        for name in ("data", "indices", "indptr"):
            assert not loom.shares_memory(getattr(res, name), getattr(a, name)), (key, name)
    assert a.getcol(2).format == ("csc" if fmt == "csc" else "csr") and a.getrow(-1).format == "csr"
    np.testing.assert_array_equal(host(a.getcol(-2).toarray()), s.getcol(-2).toarray())


@pytest.mark.parametrize("fmt", FORMATS)
def test_getitem_errors(device, rng, fmt):
    s = rand(rng, (6, 5), fmt=fmt)
    a = loom_of(s, device)
    bad = [100, -7, (0, 100), (0, -6), [0, 100], np.array([-100]), (slice(None), [5]), "foo", (2, "foo"),
           [[[0]]], ([1, 2, 3], [1, 2, 3, 4]), (1, 2, 3), [True, False], (Ellipsis, Ellipsis), 2.0, (1, 1.5),
           s, (slice(None), None, slice(None)), ([[1, 2]], slice(None))]
    for key in bad:
        loom_key = loom_of(s, device) if key is s else key
        same_error(lambda: a[loom_key], lambda: s[key])
    for key in [loom.asarray([0, 100], device=device), loom.asarray(np.array([[[1]]]), device=device)]:
        with pytest.raises(IndexError):
            a[key]


def _set_both(s, a, key, value, loom_value):
    with warnings.catch_warnings(record=True) as want_warned:
        warnings.simplefilter("always")
        s[key] = value
    with warnings.catch_warnings(record=True) as got_warned:
        warnings.simplefilter("always")
        a[key] = loom_value
    kinds = [{w.category.__name__ for w in ws} for ws in (got_warned, want_warned)]
    assert kinds[0] == kinds[1], (key, kinds)
    for w in got_warned:
        assert w.filename == __file__  # the warning points at the assignment
    return bool(got_warned)


def _same_structure(a, s):
    a, s = a.sorted_indices(), s.sorted_indices()
    assert a.shape == s.shape and a.dtype == s.dtype
    for name in ("indptr", "indices", "data"):
        np.testing.assert_array_equal(host(getattr(a, name)), getattr(s, name), err_msg=name)


def _assignments(rng, s, device):
    m, n = s.shape
    rows, cols = rng.integers(-m, m, size=6), rng.integers(-n, n, size=6)
    dense = rng.standard_normal((3, 4))
    sparse_row = rand(rng, (1, n), density=0.6)
    sparse_block = rand(rng, (3, 2), density=0.6)
    pairs = [
        ((1, 2), 5.0), ((1, 2), 0.0), ((-1, -2), np.array(3.0)), ((0, 1), loom.asarray(7.0, device=device)),
        ((2, 3), sp.csr_matrix([[4.0]])), (2, 1.5), ((slice(None), 3), 2.0),
        ((slice(1, 7, 2), slice(None, None, -2)), 0.5),
        ((slice(1, 4), slice(0, 4)), dense), ((slice(1, 4), slice(2, 3)), dense[:, :1]),
        ((list(rows), list(cols)), rng.standard_normal(6)), ((rows[:, None], cols[:4]), 1.25),
        (list(rows), 9.0), ((list(rows[:2]), slice(None)), rng.standard_normal((1, n))),
        (([0, 0, 3, 0], [1, 1, 2, 1]), np.array([1.0, 2.0, 3.0, 4.0])), (rng.random(m) < 0.4, -1.0),
        ((slice(None), rng.random(n) < 0.5), 0.0), ((4, slice(None)), sparse_row),
        ((slice(0, 3), slice(1, 3)), sparse_block), ((slice(0, 3), slice(0, n)), sparse_row),
        ((list(rows[:3]), list(cols[:3])), sp.csr_matrix([[2.5]])), ((slice(0, 0), 1), 3.0),
    ]
    for key, value in pairs:
        if sp.issparse(value):
            yield key, value, ls.csr_matrix(value, device=device)
        elif isinstance(value, loom.ndarray):
            yield key, host(value), value
        else:
            yield key, value, value if np.ndim(value) == 0 else loom.asarray(np.asarray(value), device=device)


@pytest.mark.parametrize("array", [False, True])
@pytest.mark.parametrize("fmt", FORMATS)
def test_setitem(device, rng, fmt, array):
    dtype = [np.float64, np.float32, np.complex128][rng.integers(3)]
    s = scipy_of(rand(rng, fmt=fmt, dtype=dtype), array)
    a = loom_of(s, device, array)
    warned = False
    for key, value, loom_value in _assignments(rng, s, device):
        try:
            warned |= _set_both(s, a, key, value, loom_value)
            _same_structure(a, s)
        except AssertionError as e:
            raise AssertionError(f"A[{key!r}] = {value!r}: {e}") from None
        assert a.device == device
    assert warned


@pytest.mark.parametrize("fmt", FORMATS)
def test_setitem_existing_positions_and_repeats(device, rng, fmt):
    s = rand(rng, fmt=fmt)
    a = loom_of(s, device)
    stored = s.tocoo()
    key = (stored.row[:4], stored.col[:4])
    assert not _set_both(s, a, key, np.arange(4.0), loom.arange(4.0, device=device))  # no new position
    _same_structure(a, s)
    # Repeated positions stored: SciPy sums them when an assignment hits one.
    data, indices, indptr = np.array([1.0, 2.0, 3.0, 4.0]), np.array([1, 1, 0, 2]), np.array([0, 2, 4])
    cls = getattr(sp, f"{fmt}_matrix")
    s = cls((data, indices, indptr), shape=(2, 3) if fmt == "csr" else (3, 2))
    a = getattr(ls, f"{fmt}_matrix")((data, indices, indptr), shape=s.shape, device=device)
    key = (0, 1) if fmt == "csr" else (1, 0)
    _set_both(s, a, key, 10.0, 10.0)
    assert a.nnz == s.nnz
    np.testing.assert_array_equal(host(a.toarray()), s.toarray())


@pytest.mark.parametrize("fmt", FORMATS)
def test_setitem_errors(device, rng, fmt):
    s = rand(rng, (6, 5), fmt=fmt)
    a = loom_of(s, device)
    bad = [((1, 2), [1.0, 2.0]), ((slice(None), 1), np.ones(4)), ((6, 0), 1.0), (([1, 2, 3], [1, 2]), 1.0),
           ((slice(0, 2), slice(0, 2)), np.ones((3, 3))),
           ((slice(0, 2), slice(0, 3)), sp.csr_matrix(np.ones((2, 2)))),
           ("foo", 1.0), ([[[0]]], 1.0)]
    for key, value in bad:
        loom_value = ls.csr_matrix(value, device=device) if sp.issparse(value) else value
        same_error(lambda: a.__setitem__(key, loom_value), lambda: s.copy().__setitem__(key, value))
    with pytest.raises(TypeError):
        ls.coo_matrix(s)[0, 0] = 1.0  # SciPy's coo_matrix takes no item assignment either


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
def test_setdiag(device, rng, fmt):
    for shape in [(6, 4), (4, 6), (5, 5)]:
        m, n = shape
        for k in range(-m + 1, n):
            length = min(m + min(k, 0), n - max(k, 0))
            for values in [rng.standard_normal(), rng.standard_normal(length), rng.standard_normal(length + 2),
                           rng.standard_normal(max(length - 2, 1)), []]:
                s = rand(rng, shape, fmt=fmt)
                a = loom_of(s, device)
                s.setdiag(values, k)
                a.setdiag(loom.asarray(np.asarray(values), device=device) if rng.random() < 0.5 else values, k)
                np.testing.assert_allclose(host(a.toarray()), s.toarray(), err_msg=f"k={k}")
                if fmt == "coo":  # SciPy's order: the kept values, then the diagonal
                    for name in ("row", "col", "data"):
                        np.testing.assert_array_equal(host(getattr(a, name)), getattr(s, name))
                else:
                    _same_structure(a, s)
        s = rand(rng, shape, fmt=fmt)
        a = loom_of(s, device)
        for k, values in [(n, 1.0), (-m, 1.0)]:
            same_error(lambda: a.setdiag(values, k), lambda: s.setdiag(values, k))
        with pytest.raises(ValueError, match="0-d or 1-d"):
            a.setdiag(np.ones((2, 2)))
