"""Comparisons of sparse matrices (==, !=, <, >, <=, >=), as SciPy's: with a sparse operand (a
row or column broadcasts) or a scalar the result is a sparse boolean CSR matrix; with a dense operand it
is a dense boolean array. Where the comparison holds between two zeros (== and <= and >= with a
sparse operand, or any scalar comparison that 0 satisfies) every implicit zero becomes a stored
True, so the result is as large as a dense one: SciPy warns with SparseEfficiencyWarning, and so
does loom."""
import operator
import warnings

import loom

from . import _arith
from ._sputils import SparseEfficiencyWarning, SparseWarning, is_dense, is_scalar, on_device  # noqa: F401 (re-exported)

_OPS = {"==": (loom.equal, operator.eq), "!=": (loom.not_equal, operator.ne), "<": (loom.less, operator.lt),
        ">": (loom.greater, operator.gt), "<=": (loom.less_equal, operator.le),
        ">=": (loom.greater_equal, operator.ge)}
_INVERSE = {"==": "!=", "!=": "==", "<": ">=", ">": "<=", "<=": ">", ">=": "<"}


def _dense_result(A, dense):
    """A dense boolean result as A's kind of sparse matrix, in SciPy's format for it (CSC for
    CSC, else CSR; True stored, False left out)."""
    return A._container(_arith.result_format(A))(dense)


def compare(A, sym, other):
    """A `sym` other (sym one of _OPS), as the operator methods call it."""
    op, host_op = _OPS[sym]
    if isinstance(other, _arith._base()):
        A, other = _arith.broadcast_pair(A, other)
        if host_op(0, 0):
            warnings.warn(f"Comparing sparse matrices using {sym} is inefficient, try using {_INVERSE[sym]} instead.",
                          SparseEfficiencyWarning, stacklevel=3)
            return _dense_result(A, op(A.toarray(), other.toarray()))
        return _arith.binop(A, other, op, broadcast=True)
    if is_scalar(other) and not isinstance(other, loom.ndarray):
        if host_op(0, other):
            warnings.warn(f"Comparing a sparse matrix with {other} using {sym} is inefficient, try using "
                          f"{_INVERSE[sym]} instead.", SparseEfficiencyWarning, stacklevel=3)
            return _dense_result(A, op(A.toarray(), other))
        same = _arith.in_result_format(A)
        out = same._with_data(op(same.data, other), copy=True)
        out.eliminate_zeros()
        return out
    if is_dense(other):
        x = on_device(other, A.device)
        _arith._check_broadcast(A, x)
        return op(A.toarray(), x)
    return NotImplemented
