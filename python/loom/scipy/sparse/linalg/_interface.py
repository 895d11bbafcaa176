"""LinearOperator and aslinearoperator (scipy.sparse.linalg's): an m x n operator known by
its products. LinearOperator(shape, matvec, rmatvec=None, matmat=None, dtype=None,
rmatmat=None) wraps functions; a subclass defines _matvec or _matmat (and _rmatvec,
_rmatmat or _adjoint), as in SciPy. Operands are loom arrays; NumPy inputs go to loom's
default device."""
import numpy as np

import loom

from .._base import _spbase
from .._sputils import is_scalar, on_device


class LinearOperator:
    """A linear operator of `shape` and `dtype`: A @ x, A.matvec(x), A.rmatvec(x) (the
    conjugate transpose's product), A.matmat(X), A.H, A.T, and sums, products and scalar
    multiples of operators. Without dtype, SciPy's rule: the dtype of one matvec of zeros."""
    ndim = 2
    # NumPy operands defer to the operator's reflected products.
    __array_priority__ = 10.2
    __array_ufunc__ = None

    def __new__(cls, *args, **kwargs):
        if cls is LinearOperator:
            # LinearOperator(shape, matvec, ...) builds an operator over the given functions.
            return super().__new__(_CustomLinearOperator)
        obj = super().__new__(cls)
        if type(obj)._matvec is LinearOperator._matvec and type(obj)._matmat is LinearOperator._matmat:
            raise TypeError("LinearOperator subclass should implement at least one of _matvec and _matmat.")
        return obj

    def __init__(self, dtype, shape):
        shape = tuple(int(s) for s in shape)
        if len(shape) != 2 or min(shape) < 0:
            raise ValueError(f"invalid shape {shape!r} (must be 2-d and non-negative)")
        self.shape = shape
        self.dtype = None if dtype is None else loom.dtype(dtype)

    def _init_dtype(self):
        if self.dtype is None:
            self.dtype = self.matvec(loom.zeros(self.shape[1])).dtype

    # The defaults fill each product in from another, as SciPy's do.
    def _matvec(self, x):
        return self.matmat(x.reshape(-1, 1))

    def _matmat(self, X):
        return loom.stack([self.matvec(X[:, i]) for i in range(X.shape[1])], axis=1)

    def _rmatvec(self, x):
        if type(self)._adjoint is LinearOperator._adjoint:
            raise NotImplementedError("rmatvec is not defined")
        return self.H.matvec(x)

    def _rmatmat(self, X):
        if type(self)._adjoint is LinearOperator._adjoint:
            return loom.stack([self.rmatvec(X[:, i]) for i in range(X.shape[1])], axis=1)
        return self.H.matmat(X)

    def _adjoint(self):
        return _AdjointLinearOperator(self)

    def _vec(self, x, n, name):
        x = on_device(x)
        if x.shape not in ((n,), (n, 1)):
            raise ValueError(f"{name}: dimension mismatch: operator shape {self.shape}, operand {tuple(x.shape)}")
        return x

    def matvec(self, x):
        """A @ x for x of shape (N,) or (N, 1); the result has the same number of axes."""
        x = self._vec(x, self.shape[1], "matvec")
        y = self._matvec(x)
        return y.reshape(self.shape[0]) if x.ndim == 1 else y.reshape(self.shape[0], 1)

    def rmatvec(self, x):
        """A^H @ x for x of shape (M,) or (M, 1)."""
        x = self._vec(x, self.shape[0], "rmatvec")
        y = self._rmatvec(x)
        return y.reshape(self.shape[1]) if x.ndim == 1 else y.reshape(self.shape[1], 1)

    def matmat(self, X):
        """A @ X for a 2-d X of N rows."""
        X = on_device(X)
        if X.ndim != 2 or X.shape[0] != self.shape[1]:
            raise ValueError(f"matmat: dimension mismatch: operator shape {self.shape}, operand {tuple(X.shape)}")
        return self._matmat(X)

    def rmatmat(self, X):
        """A^H @ X for a 2-d X of M rows."""
        X = on_device(X)
        if X.ndim != 2 or X.shape[0] != self.shape[0]:
            raise ValueError(f"rmatmat: dimension mismatch: operator shape {self.shape}, operand {tuple(X.shape)}")
        return self._rmatmat(X)

    def dot(self, x):
        """A @ x: an operator for an operator, a scaled operator for a scalar, else matvec or matmat."""
        if isinstance(x, LinearOperator):
            return _ProductLinearOperator(self, x)
        if is_scalar(x):
            return _ScaledLinearOperator(self, x)
        x = on_device(x)
        if x.ndim == 1 or (x.ndim == 2 and x.shape[1] == 1):
            return self.matvec(x)
        if x.ndim == 2:
            return self.matmat(x)
        raise ValueError(f"expected 1-d or 2-d array or matrix, got {x.ndim}-d")

    __matmul__ = dot
    __mul__ = dot
    __call__ = dot

    def __rmul__(self, x):
        if is_scalar(x):
            return _ScaledLinearOperator(self, x)
        return NotImplemented

    def __rmatmul__(self, x):
        if is_scalar(x):
            raise ValueError("Scalar operands are not allowed, use '*' instead")
        x = on_device(x)  # x @ A = (A^T x^T)^T = conj(A^H conj(x^T))^T
        return loom.conj(self.rmatvec(loom.conj(x)) if x.ndim == 1 else self.rmatmat(loom.conj(x.T))).T

    def __add__(self, other):
        if not isinstance(other, LinearOperator):
            return NotImplemented
        return _SumLinearOperator(self, other)

    def __neg__(self):
        return _ScaledLinearOperator(self, -1)

    def __sub__(self, other):
        return self + (-other)

    def adjoint(self):
        """The conjugate transpose A^H as an operator (also A.H)."""
        return self._adjoint()

    H = property(adjoint)

    def transpose(self):
        """The transpose A^T as an operator (also A.T)."""
        return _TransposedLinearOperator(self)

    T = property(transpose)

    def __repr__(self):
        dt = "unspecified dtype" if self.dtype is None else f"dtype={self.dtype.name}"
        return f"<{self.shape[0]}x{self.shape[1]} {type(self).__name__} with {dt}>"


class _CustomLinearOperator(LinearOperator):
    def __init__(self, shape, matvec, rmatvec=None, matmat=None, dtype=None, rmatmat=None):
        super().__init__(dtype, shape)
        self._f = {"matvec": matvec, "rmatvec": rmatvec, "matmat": matmat, "rmatmat": rmatmat}
        self._init_dtype()

    def _matvec(self, x):
        return on_device(self._f["matvec"](x))

    def _matmat(self, X):
        f = self._f["matmat"]
        return on_device(f(X)) if f is not None else super()._matmat(X)

    def _rmatvec(self, x):
        f = self._f["rmatvec"]
        if f is None:
            raise NotImplementedError("rmatvec is not defined")
        return on_device(f(x))

    def _rmatmat(self, X):
        f = self._f["rmatmat"]
        return on_device(f(X)) if f is not None else super()._rmatmat(X)

    def _adjoint(self):
        f = self._f
        return _CustomLinearOperator(self.shape[::-1], f["rmatvec"], f["matvec"], f["rmatmat"], self.dtype,
                                     f["matmat"])


class _AdjointLinearOperator(LinearOperator):
    def __init__(self, A):
        super().__init__(A.dtype, A.shape[::-1])
        self.A = A

    def _matvec(self, x):
        return self.A._rmatvec(x)

    def _rmatvec(self, x):
        return self.A._matvec(x)

    def _matmat(self, X):
        return self.A._rmatmat(X)

    def _rmatmat(self, X):
        return self.A._matmat(X)


class _TransposedLinearOperator(LinearOperator):
    """A^T x = conj(A^H conj(x))."""
    def __init__(self, A):
        super().__init__(A.dtype, A.shape[::-1])
        self.A = A

    def _matvec(self, x):
        return loom.conj(self.A._rmatvec(loom.conj(x)))

    def _rmatvec(self, x):
        return loom.conj(self.A._matvec(loom.conj(x)))

    def _matmat(self, X):
        return loom.conj(self.A._rmatmat(loom.conj(X)))

    def _rmatmat(self, X):
        return loom.conj(self.A._matmat(loom.conj(X)))


def _dtype(*dts):
    dts = [d for d in dts if d is not None]
    return loom.result_type(*dts) if dts else None


class _SumLinearOperator(LinearOperator):
    def __init__(self, A, B):
        if A.shape != B.shape:
            raise ValueError(f"cannot add {A} and {B}: shape mismatch")
        super().__init__(_dtype(A.dtype, B.dtype), A.shape)
        self.args = (A, B)

    def _matvec(self, x):
        return self.args[0].matvec(x) + self.args[1].matvec(x)

    def _rmatvec(self, x):
        return self.args[0].rmatvec(x) + self.args[1].rmatvec(x)

    def _matmat(self, X):
        return self.args[0].matmat(X) + self.args[1].matmat(X)

    def _adjoint(self):
        return _SumLinearOperator(self.args[0].H, self.args[1].H)


class _ProductLinearOperator(LinearOperator):
    def __init__(self, A, B):
        if A.shape[1] != B.shape[0]:
            raise ValueError(f"cannot multiply {A} and {B}: shape mismatch")
        super().__init__(_dtype(A.dtype, B.dtype), (A.shape[0], B.shape[1]))
        self.args = (A, B)

    def _matvec(self, x):
        return self.args[0].matvec(self.args[1].matvec(x))

    def _rmatvec(self, x):
        return self.args[1].rmatvec(self.args[0].rmatvec(x))

    def _matmat(self, X):
        return self.args[0].matmat(self.args[1].matmat(X))

    def _adjoint(self):
        return _ProductLinearOperator(self.args[1].H, self.args[0].H)


def _conj(alpha):
    return loom.conj(alpha) if isinstance(alpha, loom.ndarray) else alpha.conjugate()


class _ScaledLinearOperator(LinearOperator):
    def __init__(self, A, alpha):
        super().__init__(None if A.dtype is None else loom.result_type(A.dtype, alpha), A.shape)
        self.args = (A, alpha)

    def _matvec(self, x):
        return self.args[1] * self.args[0].matvec(x)

    def _rmatvec(self, x):
        return _conj(self.args[1]) * self.args[0].rmatvec(x)

    def _matmat(self, X):
        return self.args[1] * self.args[0].matmat(X)

    def _adjoint(self):
        return _ScaledLinearOperator(self.args[0].H, _conj(self.args[1]))


class MatrixLinearOperator(LinearOperator):
    """A sparse matrix or a dense loom array as an operator; rmatvec uses A^H, formed once
    (a sparse A's transpose shares its arrays; only complex values are conjugated)."""
    def __init__(self, A):
        super().__init__(A.dtype, A.shape)
        self.A = A
        self._AH = None

    def _matvec(self, x):
        return self.A @ x

    _matmat = _matvec

    def _adjoint_matrix(self):
        if self._AH is None:
            self._AH = self.A.T.conj() if self.A.dtype.kind == "c" else self.A.T
        return self._AH

    def _rmatvec(self, x):
        return self._adjoint_matrix() @ x

    _rmatmat = _rmatvec

    def _adjoint(self):
        return MatrixLinearOperator(self._adjoint_matrix())

    @property
    def device(self):
        return self.A.device


def aslinearoperator(A):
    """A as a LinearOperator: operators pass through; loom sparse matrices, loom arrays and
    NumPy arrays (moved to loom's default device) become matrix operators; objects with
    shape and matvec (and optionally rmatvec, matmat, rmatmat, dtype) are wrapped."""
    if isinstance(A, LinearOperator):
        return A
    if isinstance(A, _spbase):
        return MatrixLinearOperator(A)
    if isinstance(A, (loom.ndarray, np.ndarray)):
        A = on_device(A)
        if A.ndim != 2:
            raise ValueError(f"array must have ndim <= 2, got {A.ndim}")
        return MatrixLinearOperator(A)
    if hasattr(A, "shape") and hasattr(A, "matvec"):
        return LinearOperator(A.shape, A.matvec, rmatvec=getattr(A, "rmatvec", None),
                              matmat=getattr(A, "matmat", None), dtype=getattr(A, "dtype", None),
                              rmatmat=getattr(A, "rmatmat", None))
    raise TypeError("type not understood")


def operator_device(A, default=None):
    """Where an operator's data lives, when it says (matrix operators), else `default`."""
    dev = getattr(A, "device", None)
    return dev if dev is not None else (default if default is not None else loom.default_device())
