"""loom.scipy.sparse against scipy.sparse on fresh random matrices, on every device: shapes
with empty rows and columns, no stored values at all, int32 and int64 indices, real and
complex values; grad through A @ x; round trips with SciPy; SciPy's exception types.
(sparse.linalg: test_scipy_sparse_linalg.py.)"""
import warnings

import numpy as np
import pytest
import scipy.sparse as sp

import loom
from loom.scipy import sparse as ls
from scipy_compare import check, same_error

SHAPES = [(7, 5), (1, 9), (12, 12), (0, 3), (4, 0)]
DTYPES = [np.float64, np.float32, np.complex128]
FORMATS = ["csr", "csc", "coo"]


def rand(rng, shape, dtype=np.float64, density=0.35, fmt="csr", idx=np.int32):
    """A random SciPy matrix with some empty rows and columns, in `fmt`, indices of `idx`."""
    m, n = shape
    a = rng.standard_normal(shape) * (rng.random(shape) < density)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal(shape) * (a != 0)
    if m > 2:
        a[rng.integers(m)] = 0
    if n > 2:
        a[:, rng.integers(n)] = 0
    s = sp.csr_matrix(a.astype(dtype)).asformat(fmt)
    for name in ("indices", "indptr", "row", "col"):
        if hasattr(s, name):
            setattr(s, name, getattr(s, name).astype(idx))
    return s


def loom_of(s, device, array=False):
    return getattr(ls, f"{s.format}_{'array' if array else 'matrix'}")(s, device=device)


def same(got, want, device=None, rtol=None):
    """A loom sparse matrix equals a SciPy one: format, shape, dtype, values."""
    assert ls.issparse(got) and got.format == want.format and got.shape == want.shape
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    if device is not None:
        assert got.device == device
    check(got.toarray(), want.toarray(), rtol=rtol)


@pytest.mark.parametrize("idx", [np.int32, np.int64])
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("fmt", FORMATS)
def test_round_trip_with_scipy(device, rng, fmt, dtype, idx):
    for shape in SHAPES:
        s = rand(rng, shape, dtype, fmt=fmt, idx=idx)
        a = loom_of(s, device)
        same(a, s, device)
        assert a.nnz == s.nnz and a.ndim == 2 and type(a.get()) is type(s)
        back = a.get()
        assert back.format == fmt and (back != s).nnz == 0
        if fmt != "coo":
            assert a.indices.dtype == np.dtype(idx) and a.indptr.dtype == np.dtype(idx)
            np.testing.assert_array_equal(a.indptr.numpy(), s.indptr)
        arr = loom_of(s, device, array=True)
        assert isinstance(arr, ls.sparray) and not ls.isspmatrix(arr) and ls.isspmatrix(a)
        assert type(arr.get()) is getattr(sp, f"{fmt}_array")


@pytest.mark.parametrize("fmt", FORMATS)
def test_from_dense_matches_scipy_layout(device, rng, fmt):
    for shape in SHAPES + [(3, 4)]:
        d = rand(rng, shape).toarray() if shape != (3, 4) else np.zeros(shape)
        want = getattr(sp, f"{fmt}_matrix")(d)
        for src in (d, loom.asarray(d, device=device)):
            got = getattr(ls, f"{fmt}_matrix")(src, device=device)
            same(got, want, device)
            for name in ("data", "indices", "indptr", "row", "col"):
                if hasattr(want, name):
                    np.testing.assert_array_equal(getattr(got, name).numpy(), getattr(want, name))
    assert ls.csr_matrix(np.ones(3), device=device).shape == (1, 3)  # a matrix makes 1-d a row


def test_triples_sum_duplicates_and_arrays(device, rng):
    m, n, k = 6, 5, 40
    r, c = rng.integers(0, m, k), rng.integers(0, n, k)
    v = rng.standard_normal(k)
    for fmt in FORMATS:
        want = getattr(sp, f"{fmt}_matrix")((v, (r, c)), shape=(m, n))
        got = getattr(ls, f"{fmt}_matrix")((loom.asarray(v, device=device), (r, c)), shape=(m, n))
        same(got, want, device)
        if fmt != "coo":
            assert got.nnz == want.nnz and got.has_canonical_format
    inferred = ls.coo_matrix((v, (r, c)), device=device)
    assert inferred.shape == sp.coo_matrix((v, (r, c))).shape and not inferred.has_canonical_format
    csr = ls.coo_matrix((v, (r, c)), shape=(m, n), device=device).tocsr()
    np.testing.assert_array_equal(csr.indptr.numpy(), sp.coo_matrix((v, (r, c)), shape=(m, n)).tocsr().indptr)
    s = rand(rng, (5, 8), idx=np.int64)
    got = ls.csr_matrix((s.data, s.indices, s.indptr), device=device)  # shape inferred: one read
    assert got.shape == sp.csr_matrix((s.data, s.indices, s.indptr)).shape and got.indices.dtype == loom.int64
    e = ls.csr_matrix((3, 4), dtype=np.complex64, device=device)
    assert e.nnz == 0 and e.dtype == loom.complex64 and e.toarray().shape == (3, 4)


def test_copy_dtype_and_device_arguments(device, rng):
    s = rand(rng, (6, 6))
    a = ls.csr_matrix(s, device=device)
    b = ls.csr_matrix(a)
    c = ls.csr_matrix(a, copy=True, dtype=np.float32)
    assert b.data is a.data and c.dtype == loom.float32 and c.device == device
    d = a.copy()
    d.data[...] = 0
    check(a.toarray(), s.toarray())
    assert ls.csc_matrix(a).format == "csc" and ls.coo_array(a).format == "coo"
    same(a.astype(np.complex64), s.astype(np.complex64))
    same(a.asformat("coo"), s.asformat("coo"))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("fmt", FORMATS)
def test_matmul_with_dense(device, rng, fmt, dtype):
    for m, n in SHAPES:
        s = rand(rng, (m, n), dtype, fmt=fmt, idx=np.int64 if m == 12 else np.int32)
        a = loom_of(s, device)
        for x in (rng.standard_normal(n).astype(dtype), rng.standard_normal((n, 3)).astype(dtype)):
            check(a @ loom.asarray(x, device=device), s @ x, device=device)
            check(a.dot(x), s.dot(x))
            check(a * x, s * x)  # matrix: * is the product
        y = rng.standard_normal((2, m)).astype(dtype)
        check(loom.asarray(y, device=device) @ a, y @ s, device=device)
        check(y[0] @ a, y[0] @ s)
    i = sp.csr_matrix(np.array([[1, 0], [2, 3]], np.int8))
    check(ls.csr_matrix(i, device=device) @ np.array([1, 1], np.int8), i @ np.array([1, 1], np.int8))


@pytest.mark.parametrize("fa,fb", [("csr", "csr"), ("csc", "csc"), ("csr", "csc"), ("coo", "csr")])
def test_sparse_times_sparse(device, rng, fa, fb):
    for m, k, n in [(6, 7, 5), (1, 4, 9), (0, 3, 2), (5, 3, 0)]:
        sa, sb = rand(rng, (m, k), fmt=fa), rand(rng, (k, n), np.complex128, fmt=fb)
        got = loom_of(sa, device) @ loom_of(sb, device)
        want = sa @ sb
        assert got.format == ("csc" if fa == fb == "csc" else "csr")
        check(got.toarray(), want.toarray(), device=device)


def test_star_is_matmul_for_matrices_and_elementwise_for_arrays(device, rng):
    sa, sb = rand(rng, (5, 5)), rand(rng, (5, 5))
    am, bm = loom_of(sa, device), loom_of(sb, device)
    aa, ba = loom_of(sa, device, True), loom_of(sb, device, True)
    check((am * bm).toarray(), (sa * sb).toarray())
    check((aa * ba).toarray(), (sp.csr_array(sa) * sp.csr_array(sb)).toarray())
    d = rng.standard_normal((5, 5))
    check((aa * d).toarray(), (sp.csr_array(sa) * d).toarray())
    check(am * d, sa * d)
    check((2 * aa).toarray(), 2 * sa.toarray())


@pytest.mark.parametrize("dtype", DTYPES)
def test_elementwise_operations(device, rng, dtype):
    sa, sb = rand(rng, (8, 6), dtype), rand(rng, (8, 6), dtype, fmt="csc")
    a, b = loom_of(sa, device), loom_of(sb, device)
    for got, want in [(a + b, sa + sb), (a - b, sa - sb), (a.multiply(b), sa.multiply(sb)), (-a, -sa),
                      (a * 2.5, sa * 2.5), (a / 4, sa / 4), (abs(a), abs(sa)), (a.conj(), sa.conj()),
                      (a.power(2), sa.power(2))]:
        assert ls.issparse(got)
        check(got.toarray(), want.toarray(), device=device)
    assert (a - a).nnz == 0 == (sa - sa).nnz  # cancelled values are not stored, as in SciPy
    d = rng.standard_normal((8, 6)).astype(dtype)
    for got, want in [(a + d, sa + d), (d - a, d - sa), (a.multiply(d[0]), sa.multiply(d[0]))]:
        check(got if isinstance(got, loom.ndarray) else got.toarray(),
              np.asarray(want if isinstance(want, np.ndarray) else want.toarray()))
    if dtype != np.complex128:
        for got, want in [(a.maximum(b), sa.maximum(sb)), (a.minimum(b), sa.minimum(sb)),
                          (a.maximum(0), sa.maximum(0))]:
            check(got.toarray(), want.toarray())
        # A scalar that fills every position: still a sparse matrix of A's format (SciPy >= 1.16).
        for name, value in (("maximum", 0.5), ("minimum", -0.5)):
            with pytest.warns(ls.SparseEfficiencyWarning, match=f"Taking {name} with a"):
                got = getattr(a, name)(value)
            with pytest.warns(sp.SparseEfficiencyWarning):
                want = getattr(sa, name)(value)
            assert ls.issparse(got) and got.format == want.format
            check(got.toarray(), want.toarray())


def test_reductions_and_diagonal(device, rng):
    for shape in SHAPES:
        for dtype in (np.float32, np.complex128, np.int8):
            s = sp.csr_matrix((rand(rng, shape).toarray() * 10).astype(dtype))
            for fmt in FORMATS:
                a = loom_of(s.asformat(fmt), device)
                check(a.sum(), np.asarray(s.sum()), device=device)
                for axis in (0, 1, -1):
                    check(a.sum(axis=axis), np.asarray(s.sum(axis=axis)))
                    arr = loom_of(s.asformat(fmt), device, array=True)
                    check(arr.sum(axis=axis), sp.csr_array(s).sum(axis=axis))
                    if 0 not in shape:  # SciPy's mean divides by zero there
                        check(a.mean(axis=axis), np.asarray(s.mean(axis=axis)))
                if 0 not in shape:
                    check(a.mean(), np.asarray(s.mean()), rtol=1e-5)
                for k in (0, 1, -2, 10):
                    check(a.diagonal(k), s.diagonal(k))


def test_transpose_shares_arrays(device, rng):
    s = rand(rng, (6, 4), np.complex128)
    a = loom_of(s, device)
    t = a.T
    assert t.format == "csc" and t.shape == (4, 6) and t.data is a.data and t.indptr is a.indptr
    assert t.T.format == "csr"
    same(t, s.T.tocsc())
    same(a.transpose(copy=True), s.transpose())
    same(loom_of(s.tocoo(), device).T, s.tocoo().T)
    check(t @ np.ones(6), s.T @ np.ones(6))


def test_index_order_duplicates_and_zeros(device, rng):
    # An unsorted CSR with a repeat and a stored zero, as SciPy allows.
    data, indices, indptr = np.array([3.0, 1.0, 2.0, 0.0, 5.0]), np.array([2, 0, 2, 1, 0]), np.array([0, 3, 3, 5])
    s = sp.csr_matrix((data, indices, indptr), shape=(3, 4))
    a = ls.csr_matrix((data, indices, indptr), shape=(3, 4), device=device)
    assert a.has_sorted_indices == s.has_sorted_indices is False and not a.has_canonical_format
    check(a.toarray(), s.toarray())
    b = a.sorted_indices()
    assert b.has_sorted_indices and b.nnz == 5
    a.sum_duplicates()
    s.sum_duplicates()
    np.testing.assert_array_equal(a.indices.numpy(), s.indices)
    np.testing.assert_array_equal(a.indptr.numpy(), s.indptr)
    a.eliminate_zeros()
    s.eliminate_zeros()
    assert a.nnz == s.nnz
    np.testing.assert_array_equal(a.data.numpy(), s.data)
    a.check_format(full_check=True)
    for ind, ptr, words in [([0, 4], [0, 1, 2, 2], "indices must"), ([0, 1], [1, 1, 2, 2], "start"),
                            ([0, 1], [0, 2, 1, 2], "non-decreasing"), ([0, 1], [0, 1, 2, 3], "last value")]:
        def make(m, **kw):  # SciPy's constructor reads indptr[0]; loom checks it in check_format
            return m.csr_matrix((np.ones(2), np.array(ind), np.array(ptr)), shape=(3, 4), **kw).check_format(True)
        assert words in str(same_error(lambda: make(ls, device=device), lambda: make(sp)))
    c = ls.coo_matrix((np.array([1.0, 0.0, 2.0]), (np.array([1, 0, 1]), np.array([1, 1, 1]))), shape=(2, 2))
    c.sum_duplicates()
    assert c.nnz == 2 and c.has_canonical_format
    assert c.count_nonzero() == 1


@pytest.mark.parametrize("fmt", ["csr", "csc"])
def test_indexing(device, rng, fmt):
    s = rand(rng, (9, 7), fmt=fmt)
    a = loom_of(s, device)
    for key in [2, -1, slice(2, 6), slice(None, None, 2), slice(5, 5), [4, 0, 4], (slice(1, 4), slice(None)),
                (slice(None), 3), (slice(None), [6, 1]), (slice(2, 8), slice(1, 5))]:
        got, want = a[key], s[key]
        assert got.format == fmt and got.shape == want.shape, key
        check(got.toarray(), want.toarray(), device=device)
    check(a[3, 4], np.asarray(s[3, 4]))
    check(a.getrow(1).toarray(), s.getrow(1).toarray())
    check(a.getcol(2).toarray(), s.getcol(2).toarray())
    # SciPy's csr_array[2] is a 1-d COO array; loom's (2-d only) keeps the row's axis.
    row = loom_of(s, device, array=True)[2]
    assert row.format == "coo" and row.shape == (1, 7) and isinstance(row, ls.sparray)
    check(row.toarray().reshape(-1), sp.csr_array(s)[2].toarray())
    check(loom_of(s, device, array=True)[2:3].toarray(), sp.csr_array(s)[2:3].toarray())


def test_constructors(device, rng):
    for args in [(4,), (3, 5), (5, 3, 1), (5, 3, -2), (4, 4, 4)]:
        check(ls.eye(*args, device=device).toarray(), sp.eye(*args).toarray(), device=device)
    e = ls.eye(3, dtype=np.int32, format="coo", device=device)
    assert e.format == "coo" and e.dtype == loom.int32 and ls.identity(4).format == "csr"
    assert isinstance(ls.eye_array(3), ls.csr_array)
    d0, d1 = rng.standard_normal(5), rng.standard_normal(4)
    for diags, offsets, shape in [([d0, d1], [0, 1], None), ([d0, d1], [0, -1], (5, 5)), (d1, 2, None),
                                  ([d0, 3.0], [0, 2], (5, 6))]:
        check(ls.diags(diags, offsets, shape=shape, device=device).toarray(),
              sp.diags(diags, offsets, shape=shape).toarray())
    check(ls.diags([loom.asarray(d0, device=device)], [0]).toarray(), np.diag(d0), device=device)
    sa, sb = rand(rng, (3, 4), density=0.9), rand(rng, (3, 5), np.complex128, density=0.9)
    a, b = loom_of(sa, device), loom_of(sb, device)
    check(ls.kron(a, b).toarray(), sp.kron(sa, sb).toarray())
    check(ls.kron(a, sb.toarray(), format="csr").toarray(), sp.kron(sa, sb).toarray())
    sc = rand(rng, (6, 4), fmt="csc")
    c = loom_of(sc, device)
    check(ls.vstack([a, c]).toarray(), sp.vstack([sa, sc]).toarray())
    assert ls.vstack([a, a]).format == "csr" and ls.vstack([a, c]).format == "coo"
    check(ls.hstack([a, loom_of(sa.tocsc(), device)], format="csr").toarray(), sp.hstack([sa, sa]).toarray())


def test_kronsum_bmat_and_scipys_shortcuts(device, rng):
    sa, sb = rand(rng, (3, 3), density=0.6), rand(rng, (4, 4), np.float32, density=0.6)
    a, b = loom_of(sa, device), loom_of(sb, device)
    same(ls.kronsum(a, b), sp.kronsum(sa, sb).asformat("csr"), device=device)
    same(ls.kronsum(a, b, format="coo"), sp.kronsum(sa, sb, format="coo"))
    with pytest.raises(ValueError, match="not square"):
        ls.kronsum(loom_of(rand(rng, (2, 3)), device), b)
    # SciPy's kron of an operand with no stored values is an empty float64 matrix
    z = sp.csr_matrix(np.zeros((2, 1), np.float32))
    same(ls.kron(loom_of(z, device), b), sp.kron(z, sb))
    sc = rand(rng, (3, 4), np.complex128)
    c = loom_of(sc, device)
    for grid in ([[a, c], [None, loom_of(rand(rng, (2, 4)), device)]], [[None, c]], [[a], [loom_of(sa, device)]]):
        sgrid = [[None if x is None else x.get() for x in row] for row in grid]
        same(ls.bmat(grid), sp.bmat(sgrid), device=device)
        same(ls.bmat(grid, format="csr", dtype=np.complex128), sp.bmat(sgrid, format="csr", dtype=np.complex128))
    same(ls.bmat([[None, None]], dtype=np.float32), sp.bmat([[None, None]], dtype=np.float32))
    with pytest.raises(ValueError, match=r"blocks\[:,0\] has incompatible column dimensions"):
        ls.bmat([[a], [c]])
    assert ls.rand(3, 4, density=0.5, device=device).nnz == 6


@pytest.mark.parametrize("sym", ["==", "!=", "<", ">", "<=", ">="])
def test_comparisons_are_sparse_as_scipys(device, rng, sym):
    import operator
    import warnings
    op = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, ">": operator.gt, "<=": operator.le,
          ">=": operator.ge}[sym]
    sa, sb = rand(rng, (6, 5)), rand(rng, (6, 5))
    sb.data[: sb.nnz // 2] = 0.0  # explicit zeros compare as zeros
    a, b = loom_of(sa, device), loom_of(sb, device)
    for other, sother in ((b, sb), (0.25, 0.25), (0, 0), (-0.5, -0.5)):
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            got = op(a, other)
        with warnings.catch_warnings(record=True) as want_seen:
            warnings.simplefilter("always")
            want = op(sa, sother)
        assert ls.issparse(got) and got.format == "csr" and got.dtype == loom.bool_
        assert got.nnz == want.nnz
        check(got.toarray(), want.toarray(), device=device)
        # SciPy's SparseEfficiencyWarning exactly where SciPy warns
        assert any(w.category is ls.SparseEfficiencyWarning for w in seen) == any(
            issubclass(w.category, sp.SparseEfficiencyWarning) for w in want_seen)
    dense = rng.standard_normal((6, 5))
    check(op(a, loom.asarray(dense, device=device)), np.asarray(op(sa, dense)), device=device)
    with pytest.raises(ValueError, match="inconsistent shapes"):
        op(a, loom_of(rand(rng, (5, 6)), device))


def test_a_sparse_row_or_column_broadcasts(device, rng):
    # CuPy broadcasts a sparse row or column in binary operations (SciPy raises): loom as CuPy
    sa = rand(rng, (6, 5), density=0.5)
    a, dense = loom_of(sa, device), sa.toarray()
    for shape in [(1, 5), (6, 1), (1, 1)]:
        so = rand(rng, shape, density=0.8)
        o, od = loom_of(so, device), so.toarray()
        check(a.maximum(o).toarray(), np.maximum(dense, od), device=device)
        check(a.minimum(o).toarray(), np.minimum(dense, od), device=device)
        check(a.multiply(o).toarray(), dense * od, device=device)
        check(o.multiply(a).toarray(), dense * od, device=device)
        check((a > o).toarray(), dense > od, device=device)
    with pytest.raises(ValueError, match="inconsistent shapes"):
        a.maximum(loom_of(rand(rng, (2, 5)), device))
    with pytest.raises(ValueError, match="inconsistent shapes"):  # + and - do not broadcast (CuPy's rule)
        a + loom_of(rand(rng, (1, 5)), device)


def test_toarray_order_is_scipys(device, rng):
    s = rand(rng, (5, 4))
    for fmt in FORMATS:
        m = loom_of(s.asformat(fmt), device)
        want = s.asformat(fmt).toarray()
        got = m.toarray()
        assert got.flags.f_contiguous == want.flags.f_contiguous and got.flags.c_contiguous == want.flags.c_contiguous
        assert m.toarray(order="F").flags.f_contiguous and m.toarray(order="C").flags.c_contiguous
        check(got, want)
    with pytest.raises(ValueError, match="order"):
        m.toarray(order="K")


def test_random(device):
    r = ls.random(40, 30, density=0.1, rng=3, device=device)
    assert r.format == "coo" and r.nnz == 120 and r.shape == (40, 30) and r.device == device
    d = r.toarray().numpy()
    assert np.count_nonzero(d) == 120 and d.min() >= 0 and d.max() < 1  # distinct positions
    again = ls.random(40, 30, density=0.1, rng=3, device=device)
    np.testing.assert_array_equal(again.toarray().numpy(), d)  # a seed repeats (not SciPy's values)
    assert ls.random(5, 5, 0.4, format="csr", dtype=np.int16, device=device).dtype == loom.int16
    c = ls.random_array((6, 7), density=0.5, dtype=np.complex64, rng=np.random.default_rng(1))
    assert isinstance(c, ls.coo_array) and c.nnz == 21 and c.dtype == loom.complex64


def test_grad_through_matmul(device, rng):
    s = rand(rng, (8, 6))
    x = rng.standard_normal(6)
    ind, ptr = loom.asarray(s.indices, device=device), loom.asarray(s.indptr, device=device)
    lx = loom.asarray(x, device=device)

    def f(data, v):
        return loom.sum((ls.csr_matrix((data, ind, ptr), shape=s.shape) @ v) ** 2)

    gd, gx = loom.grad(f, argnums=(0, 1))(loom.asarray(s.data, device=device), lx)
    y = s @ x
    rows = np.repeat(np.arange(8), np.diff(s.indptr))
    check(gd, 2 * y[rows] * x[s.indices], device=device)
    check(gx, 2 * (s.T @ y), device=device)
    c = s.tocsc()
    g = loom.grad(lambda v: loom.sum((loom_of(c, device) @ v) ** 2))(lx)  # CSC: the transposed product
    check(g, 2 * (s.T @ y))


def test_errors_are_scipys(device):
    d, i3, p4 = np.ones(3), np.array([0, 1, 2]), np.array([0, 1, 2, 3])
    a, sa = ls.csr_matrix(np.eye(3), device=device), sp.csr_matrix(np.eye(3))
    cases = [
        (lambda m: m.csr_matrix((d, i3, np.array([0, 1, 3])), shape=(3, 3)), "index pointer"),
        (lambda m: m.csr_matrix((d, i3[:2], p4), shape=(3, 3)), "same size"),
        (lambda m: m.csr_matrix((d[:, None], i3, p4), shape=(3, 3)), "1-D"),
        (lambda m: m.csr_matrix((3, -1)), "shape"),
        (lambda m: m.coo_matrix((np.ones(2), (np.array([0, 1]), np.array([0, 5]))), shape=(2, 2)), "index 5"),
        (lambda m: m.coo_matrix((np.ones(2), (np.array([0, -1]), np.array([0, 1]))), shape=(2, 2)), "negative"),
        (lambda m: m.coo_matrix((np.ones(2), (np.array([0]), np.array([0, 1]))), shape=(2, 2)), "same length"),
        (lambda m: m.csr_matrix(np.ones((2, 2), np.float16)), "float16"),
        (lambda m: m.random(3, 3, density=2), "density"),
        (lambda m: m.eye(3, format="xyz"), "xyz"),
        (lambda m: m.vstack([m.csr_matrix(np.ones((2, 2))), m.csr_matrix(np.ones((2, 3)))]), "axis 1"),
        (lambda m: m.diags([[1.0, 2.0], [1.0, 2.0, 3.0]], [0, 0]), "duplicate"),
    ]
    for call, words in cases:
        err = same_error(lambda: call(ls), lambda: call(sp))
        assert words in str(err), (words, str(err))
    ops = [(lambda x: x @ np.ones(4), "dimension mismatch"), (lambda x: x + x[:2], "inconsistent shapes"),
           (lambda x: x[5], "out of range"), (lambda x: x[0, -4], "out of range"),
           (lambda x: x + 1, "nonzero scalar"), (lambda x: len(x), "ambiguous"),
           (lambda x: x.asformat("dia2"), "dia2"), (lambda x: x.sum(axis=2), "axis"),
           (lambda x: x @ 2, "Scalar"), (lambda x: -(x.astype(bool)), "boolean")]
    for op, words in ops:
        err = same_error(lambda: op(a), lambda: op(sa))
        assert words in str(err), (words, str(err))


def test_results_take_scipys_formats(device, rng):
    """A sparse result with another sparse operand is CSC when the left one is CSC, else CSR,
    as SciPy's (sums, products, elementwise ops, comparisons, extrema)."""
    s = sp.random(6, 6, 0.4, rng=rng, format="csr")
    t = sp.random(6, 6, 0.4, rng=rng, format="csr")
    for fa, fb in (("csc", "csr"), ("csc", "coo"), ("coo", "csc"), ("csr", "csc"), ("csc", "csc")):
        a, b = loom_of(s.asformat(fa), device), loom_of(t.asformat(fb), device)
        sa, sb = s.asformat(fa), t.asformat(fb)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", sp.SparseEfficiencyWarning)
            warnings.simplefilter("ignore", ls.SparseEfficiencyWarning)
            for got, want in ((a + b, sa + sb), (a - b, sa - sb), (a @ b, sa @ sb), (a.multiply(b), sa.multiply(sb)),
                              (a.maximum(b), sa.maximum(sb)), (a < b, sa < sb), (a != 0, sa != 0), (a < 0.5, sa < 0.5),
                              (a.maximum(0.25), sa.maximum(0.25))):
                assert got.format == want.format, (fa, fb, want.format)
                check(got.toarray(), np.asarray(want.toarray()))


def test_sum_tuple_axes_and_transpose_axes_as_scipy(device, rng):
    s = sp.random(5, 7, 0.4, rng=rng, format="csr")
    for fmt in FORMATS:
        a = loom_of(s.asformat(fmt), device)
        check(a.sum(axis=(0, 1)), np.asarray(s.sum(axis=(0, 1))))
        check(a.sum(axis=(1,)), np.asarray(s.sum(axis=(1,))))
        check(a.sum(axis=(-1, 0)), np.asarray(s.sum(axis=(-1, 0))))
        for bad in ((0, 0), (), (2,)):
            same_error(lambda: a.sum(axis=bad), lambda: s.asformat(fmt).sum(axis=bad))
        assert a.transpose(axes=(1, 0)).shape == (7, 5)
        for bad in (0, (0, 1), [1, 0]):
            same_error(lambda: a.transpose(axes=bad), lambda: s.asformat(fmt).transpose(axes=bad))


@pytest.mark.parametrize("fmt", FORMATS)
def test_max_min_asfptype_find_tril_triu_as_scipy(device, rng, fmt):
    s = sp.random(6, 5, 0.4, rng=rng, format="csr")
    s.data = rng.integers(-5, 6, s.nnz).astype(np.float64)  # negative and positive values, some zeros
    s = s.asformat(fmt)
    a = loom_of(s, device)
    for name in ("max", "min"):
        check(getattr(a, name)(), np.asarray(getattr(s, name)()))
        check(getattr(a, name)(explicit=True), np.asarray(getattr(s, name)(explicit=True)))
        for axis in (0, 1, -1):
            got, want = getattr(a, name)(axis=axis), getattr(s, name)(axis=axis)
            assert ls.issparse(got) and got.format == "coo" and got.shape == want.shape
            check(got.toarray(), want.toarray())
            check(getattr(a, name)(axis=axis, explicit=True).toarray(), getattr(s, name)(axis=axis, explicit=True).toarray())
    assert a.asfptype().dtype == s.asfptype().dtype
    i16 = loom_of(s.astype(np.int16), device)
    assert i16.asfptype().dtype == s.astype(np.int16).asfptype().dtype
    row, col, data = ls.find(a)
    srow, scol, sdata = sp.find(s)
    check(ls.coo_matrix((data, (row, col)), shape=a.shape, device=device).toarray(),
          sp.coo_matrix((sdata, (srow, scol)), shape=s.shape).toarray())
    for k in (-2, 0, 3):
        for f in (None, "csc"):
            for name in ("tril", "triu"):
                got, want = getattr(ls, name)(a, k, format=f), getattr(sp, name)(s, k, format=f)
                assert got.format == want.format and got.nnz == want.nnz
                check(got.toarray(), want.toarray())


@pytest.mark.parametrize("fmt", FORMATS)
def test_reshape_as_scipy(device, rng, fmt):
    s = sp.random(4, 6, 0.5, rng=rng, format=fmt)
    a = loom_of(s, device)
    for shape, order in (((3, 8), "C"), ((8, 3), "F"), ((24, 1), "C"), ((1, 24), "F")):
        got, want = a.reshape(shape, order=order), s.reshape(shape, order=order)
        assert got.format == want.format and got.shape == want.shape
        check(got.toarray(), want.toarray())
    assert a.reshape(4, 6) is a and a.reshape((4, 6), copy=True) is not a
    same_error(lambda: a.reshape((5, 5)), lambda: s.reshape((5, 5)))
    same_error(lambda: a.reshape((3, 8), order="K"), lambda: s.reshape((3, 8), order="K"))
