"""Sparse arithmetic: products with dense operands (the csr_matmul primitive), sparse x
sparse (expand, sort, sum), and elementwise operations of two sparse matrices (merging their
patterns). Dense operands are moved to the matrix's device; results live there."""
import warnings

import loom
from loom._loom import _sparse

from . import _kernels as K
from ._sputils import SparseEfficiencyWarning, is_dense, is_scalar, on_device


def _base():
    from ._base import _spbase  # lazy: _base imports this module at its top (the operators call here)
    return _spbase


def result_format(A):
    """The format SciPy gives a sparse result of A with another sparse operand: A's own when
    A is CSC (it works in A's compressed format), CSR otherwise (COO and DIA go through CSR)."""
    return "csc" if A.format == "csc" else "csr"


def in_result_format(A):
    """A converted to result_format(A) (itself when it is already)."""
    return A.tocsc() if A.format == "csc" else A.tocsr()


def product_dtype(a, b):
    return loom.result_type(a, b)


def mul_dense(A, x):
    """A @ x for a dense 1-d or 2-d x, by csr_matmul on A's arrays: CSR directly, CSC as the
    transposed product of its arrays (they are the CSR arrays of A.T), COO and DIA through CSR.
    csr_matmul computes in float (integer and bool matrices in float64); the result is cast to
    SciPy's dtype, the promoted dtype of A and x (exact for integers below 2**53)."""
    x = on_device(x, A.device)
    m, n = A.shape
    if x.ndim not in (1, 2):
        raise ValueError(f"matmul: the dense operand must be 1-d or 2-d, not {x.ndim}-d")
    if x.shape[0] != n:
        raise ValueError(f"matmul: dimension mismatch: the matrix has shape {A.shape}, the operand {x.shape}")
    if A.format not in ("csr", "csc"):
        A = A.tocsr()
    want = product_dtype(A.dtype, x.dtype)
    if A.format == "csr":
        y = _sparse.csr_matmul(A.data, A.indices, A.indptr, m, n, x)
    else:
        y = _sparse.csr_matmul(A.data, A.indices, A.indptr, n, m, x, transpose=True)
    return y if y.dtype == want else y.astype(want)


def _csr_matmul_sparse(a, b, dtype):
    """(data, indices, indptr) of a @ b for CSR a and b: every product of a stored value of
    a with the row of b it meets, then sorted and summed by position (two count reads)."""
    rows = K.majors(a.indptr, a.nnz)
    r, c, v = K.expand_products(rows, a.indices, a.data, b.indptr, b.indices, b.data, dtype)
    return K.compress(r, c, v, a.shape[0], b.shape[1], sum_duplicates=True)


def matmul_sparse(A, B):
    if A.shape[1] != B.shape[0]:
        raise ValueError(f"matmul: dimension mismatch: shapes {A.shape} and {B.shape}")
    dt = product_dtype(A.dtype, B.dtype)
    if A.format == "csc":
        # (A @ B).T = B.T @ A.T, and the CSC arrays of A and B are CSR arrays of their transposes.
        data, ind, ptr = _csr_matmul_sparse(B.tocsc().T, A.T, dt)
        return A._container("csc")._build(data, ind, ptr, (A.shape[0], B.shape[1]), canonical=True)
    data, ind, ptr = _csr_matmul_sparse(A.tocsr(), B.tocsr(), dt)
    return A._container("csr")._build(data, ind, ptr, (A.shape[0], B.shape[1]), canonical=True)


def matmul(A, other):
    if isinstance(other, _base()):
        return matmul_sparse(A, other)
    if is_dense(other):
        return mul_dense(A, other)
    return NotImplemented


def rmatmul(A, other):
    """x @ A = (A.T @ x.T).T (not conjugated)."""
    if not is_dense(other):
        return NotImplemented
    x = on_device(other, A.device)
    if x.ndim == 1:
        return mul_dense(A.T, x)
    if x.ndim != 2:
        raise ValueError(f"matmul: the dense operand must be 1-d or 2-d, not {x.ndim}-d")
    return mul_dense(A.T, x.T).T


def _canonical_keys(A):
    """Sorted distinct linear keys of A's stored positions and their summed values."""
    a = A.tocsr()
    if not a.has_canonical_format:
        a = a.copy()
        a.sum_duplicates()
    return K.linear_keys(K.majors(a.indptr, a.nnz), a.indices, a.shape[1]), a.data


def _expand(X, shape):
    """X (one row or one column, or 1 x 1) repeated to `shape` as COO, its stored values
    repeated with it: NumPy's broadcasting of a sparse operand."""
    if X.shape == shape:
        return X
    row, col, data = X._triples()
    row, col = row.astype(loom.int64), col.astype(loom.int64)
    (m, n), (xm, xn) = shape, X.shape
    dev = X.device
    if xm == 1 and m != 1:  # the row once per row of the result
        row = loom.repeat(loom.arange(m, dtype=loom.int64, device=dev), row.size)
        col, data = loom.tile(col, m), loom.tile(data, m)
    if xn == 1 and n != 1:  # each stored value across every column
        col = loom.tile(loom.arange(n, dtype=loom.int64, device=dev), row.size)
        row, data = loom.repeat(row, n), loom.repeat(data, n)
    return X._container("coo")._build(data, row, col, shape, X._known_nodup())


def broadcast_pair(A, B):
    """Sparse A and B at their common shape (a sparse row or column repeats along the other
    axis, as SciPy broadcasts them), or SciPy's ValueError."""
    if A.shape == B.shape:
        return A, B
    ok = all(a == b or 1 in (a, b) for a, b in zip(A.shape, B.shape))
    if not ok:
        raise ValueError(f"inconsistent shapes {A.shape} and {B.shape}")
    shape = tuple(max(a, b) for a, b in zip(A.shape, B.shape))
    return _expand(A, shape), _expand(B, shape)


def binop(A, B, op, broadcast=False):
    """op(A, B) elementwise for sparse A and B of one shape (or, with broadcast, a row or
    column against a matrix, as CuPy's multiply, maximum and minimum allow; its + and - do
    not), as CSR: op applies on the union of the patterns (0 where one stores nothing); zero
    results are not stored, as SciPy's binary operations drop them. Two count reads (the
    union, then the nonzeros)."""
    if not broadcast and A.shape != B.shape:
        raise ValueError(f"inconsistent shapes {A.shape} and {B.shape}")
    A, B = broadcast_pair(A, B)
    dt = product_dtype(A.dtype, B.dtype)
    ka, da = _canonical_keys(A)
    kb, db = _canonical_keys(B)
    keys, a, b = K.merge(ka, da, kb, db, dt)
    vals = op(a, b)
    if vals.size:
        keys, vals = K.keep(vals != 0, keys, vals)
    m, n = A.shape
    row = keys // max(n, 1)
    data, ind, ptr = K.compress(row, keys - row * n, vals, m, n, sum_duplicates=False, is_sorted=True)
    out = A._container("csr")._build(data, ind, ptr, A.shape, canonical=True)
    return out.tocsc() if result_format(A) == "csc" else out


def add(A, other, sign):
    """A + other (sign 1) or A - other (sign -1)."""
    word = "adding a nonzero scalar to" if sign > 0 else "subtracting a nonzero scalar from"
    if is_scalar(other):
        if isinstance(other, loom.ndarray) or other != 0:
            raise NotImplementedError(f"{word} a sparse array is not supported")
        return A.copy()
    if isinstance(other, _base()):
        return binop(A, other, loom.add if sign > 0 else loom.subtract)
    if is_dense(other):
        x = on_device(other, A.device)
        _check_broadcast(A, x)
        return A.toarray() + x if sign > 0 else A.toarray() - x
    return NotImplemented


def rsub(A, other):
    """other - A."""
    if is_scalar(other):
        if isinstance(other, loom.ndarray) or other != 0:
            raise NotImplementedError("subtracting a sparse array from a nonzero scalar is not supported")
        return -A
    if is_dense(other):
        x = on_device(other, A.device)
        _check_broadcast(A, x)
        return x - A.toarray()
    return NotImplemented


def _check_broadcast(A, x):
    """A dense operand must broadcast to A's shape without enlarging it."""
    shape = x.shape if x.ndim <= 2 else None
    ok = shape is not None and all(s in (1, t) for s, t in zip(((1,) * (2 - len(shape))) + tuple(shape), A.shape))
    if not ok:
        raise ValueError(f"inconsistent shapes {A.shape} and {tuple(x.shape)}")


def multiply(A, other):
    if is_scalar(other):
        return A._with_data(A.data * other)
    if isinstance(other, _base()):
        return binop(A, other, loom.multiply, broadcast=True)
    if not is_dense(other):
        return NotImplemented
    x = on_device(other, A.device)
    _check_broadcast(A, x)
    x2 = x.reshape((1,) * (2 - x.ndim) + tuple(x.shape))
    row, col, data = A._triples()
    bm, bn = x2.shape
    # Each stored value meets the operand's element at its position (row 0 / column 0 where
    # the operand broadcasts along that axis): a gather, no dense copy of the operand.
    r = row.astype(loom.int64) if bm > 1 else loom.zeros(row.shape, dtype=loom.int64, device=A.device)
    c = col.astype(loom.int64) if bn > 1 else loom.zeros(col.shape, dtype=loom.int64, device=A.device)
    vals = data * loom.take(x2.reshape(-1), r * bn + c)
    return A._container("coo")._build(vals, row, col, A.shape, nodup=A._known_nodup())


def truediv(A, other):
    if is_scalar(other):
        # SciPy divides in float64 whatever casts to it safely (float32 too), else in A's dtype.
        data = A.data.astype(loom.float64) if A.dtype.kind in "biuf" else A.data
        return A._with_data(data / other)
    if isinstance(other, _base()):
        if A.shape != other.shape:
            raise ValueError(f"inconsistent shapes {A.shape} and {other.shape}")
        return A.toarray() / other.toarray()  # SciPy's result is dense too (0/0 is nan)
    if is_dense(other):
        x = on_device(other, A.device)
        _check_broadcast(A, x)
        return A.toarray() / x
    return NotImplemented


def extremum(A, other, op, name):
    """maximum/minimum with a sparse matrix (CSR result) or a scalar: a scalar on the side of
    zero that leaves implicit zeros unchanged keeps the stored values' pattern; any other
    fills every position, and SciPy (1.16 on) still returns a sparse matrix then, of A's
    own format, with a SparseEfficiencyWarning."""
    if isinstance(other, _base()):
        return binop(A, other, op, broadcast=True)
    if is_scalar(other) and not isinstance(other, loom.ndarray):
        if (other <= 0) if name == "maximum" else (other >= 0):
            same = in_result_format(A)
            out = same._with_data(op(same.data, other), copy=True)
            out.eliminate_zeros()
            return out
        sign = "positive" if name == "maximum" else "negative"
        warnings.warn(f"Taking {name} with a {sign} number results in a dense matrix.", SparseEfficiencyWarning,
                      stacklevel=3)
        return A._container(A.format)(op(A.toarray(), other))  # SciPy keeps A's format here, any one
    if is_dense(other):
        x = on_device(other, A.device)
        _check_broadcast(A, x)
        return op(A.toarray(), x)
    raise TypeError(f"{name}: unsupported operand {type(other).__name__}")
