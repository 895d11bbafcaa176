"""What every sparse format shares: properties, conversions, reductions and the two
flavours of `*` (spmatrix: matrix product; sparray: elementwise), as scipy.sparse has them.

A format class supplies `_triples()` (row, col and value of every stored value, as device
arrays), `_with_data(data)` (the same pattern with other values), and its conversions; the
arithmetic is in _arith.py. Results that SciPy returns as NumPy scalars or np.matrix are loom
arrays on the matrix's device: 0-d for scalars, 2-d for matrices."""
import functools

import numpy as np

import loom

from . import _arith, _compare, _setitem
from ._kernels import dense_from_triples, keep
from ._sputils import FORMATS, check_dtype, check_shape, is_scalar, read_ints, sum_dtype

# (format, is an array) -> class; the format modules fill it in.
CLASSES = {}
_NAMES = {"csr": "Compressed Sparse Row", "csc": "Compressed Sparse Column", "coo": "COOrdinate", "dia": "DIAgonal"}


def is_scipy_sparse(x):
    """A SciPy sparse matrix or array, found without importing SciPy."""
    return type(x).__module__.startswith("scipy.sparse") and hasattr(x, "tocsr") and hasattr(x, "nnz")


class _spbase:
    """The base of loom's sparse matrices (scipy.sparse's _spbase)."""
    # NumPy operands defer to the sparse matrix's reflected operators.
    __array_priority__ = 10.1
    __array_ufunc__ = None
    ndim = 2
    _format = None
    _is_array = False

    @property
    def shape(self):
        """(rows, columns)."""
        return self._shape

    @property
    def dtype(self):
        """The stored values' dtype."""
        return self.data.dtype

    @property
    def device(self):
        """The device that holds the matrix's arrays (loom's addition to SciPy's attributes)."""
        return self.data.device

    @property
    def nnz(self):
        """Stored values, explicit zeros and duplicates included (no host read)."""
        return int(self.data.size)

    @property
    def size(self):
        """nnz, as SciPy's size of a sparse matrix is."""
        return self.nnz

    @property
    def format(self):
        """'csr', 'csc', 'coo' or 'dia'."""
        return self._format

    def _container(self, fmt):
        return CLASSES[(fmt, self._is_array)]

    def get_shape(self):
        """The shape (SciPy's older spelling)."""
        return self._shape

    def getnnz(self, axis=None):
        """nnz, or per row (axis=1) / column (axis=0) counts as a device array."""
        if axis is None:
            return self.nnz
        axis = self._axis(axis)
        row, col, _ = self._triples()
        idx = col if axis == 0 else row
        out = loom.zeros(self._shape[1 - axis], dtype=loom.int64, device=self.device)
        return out.at[idx].add(loom.ones(idx.shape, dtype=loom.int64, device=self.device)) if idx.size else out

    def count_nonzero(self, axis=None):
        """Nonzero values after summing duplicates: one count read."""
        if axis is not None:
            raise NotImplementedError("count_nonzero: axis= is not supported in loom.scipy.sparse")
        c = self.tocoo(copy=True)
        c.sum_duplicates()
        return read_ints(loom.count_nonzero(c.data))[0] if c.nnz else 0

    # ---- conversions ------------------------------------------------------------------------------
    def asformat(self, format, copy=False):
        """The matrix in `format` ('csr', 'csc', 'coo', 'dia'; None keeps it): self when it is one."""
        if format is None or format == self._format:
            return self.copy() if copy else self
        if format not in FORMATS:
            raise ValueError(f"Format {format} is unknown.")
        return getattr(self, "to" + format)(copy=copy)

    def todia(self, copy=False):
        """As DIA: one row of data per diagonal that holds a value (reads the number of
        diagonals and the last stored column; the DIA format overrides it)."""
        return self._container("dia")._from_coo(self.tocoo())

    def toarray(self, order=None, out=None):
        """The dense matrix as a loom array on the matrix's device (duplicates summed), in
        `order` ('C' or 'F'; by default F for CSC and C for the others, as SciPy's)."""
        if order not in (None, "C", "F", "c", "f"):
            raise ValueError(f"[toarray] order must be 'C' or 'F', got {order!r}")
        row, col, data = self._triples()
        dense = dense_from_triples(row, col, data, self._shape, self.dtype)
        if (order or ("F" if self._format == "csc" else "C")).upper() == "F":
            dense = loom.asfortranarray(dense)
        if out is not None:
            out[...] = dense
            return out
        return dense

    def todense(self, order=None, out=None):
        """As toarray: loom has no np.matrix, so matrices give 2-d arrays as CuPy's do."""
        return self.toarray(order=order, out=out)

    def get(self, stream=None):
        """The matrix as a SciPy sparse matrix (or array) on the host, as CuPy's .get()."""
        import scipy.sparse as sps
        cls = getattr(sps, f"{self._format}_{'array' if self._is_array else 'matrix'}")
        host = [np.array(a.numpy()) for a in self._host_arrays()]
        if self._format == "coo":
            return cls((host[0], (host[1], host[2])), shape=self._shape)
        return cls(tuple(host), shape=self._shape)

    def astype(self, dtype, casting="unsafe", copy=True):
        """The matrix with its values cast to `dtype` (one that scipy.sparse stores)."""
        dt = check_dtype(dtype)
        if dt == self.dtype:
            return self.copy() if copy else self
        return self._with_data(self.data.astype(dt), copy=copy)

    def copy(self):
        """A copy of the matrix's arrays, on the same device."""
        return self._with_data(self.data.copy(), copy=True)

    def conj(self, copy=True):
        """The elementwise complex conjugate (a copy of a real matrix)."""
        if self.dtype.kind == "c":
            return self._with_data(loom.conj(self.data), copy=copy)
        return self.copy() if copy else self

    conjugate = conj

    @property
    def T(self):
        """The transpose (see transpose)."""
        return self.transpose()

    def _check_axes(self, axes):
        if axes is not None and axes != (1, 0):  # SciPy takes that one tuple, nothing else
            raise ValueError("Sparse arrays/matrices do not support an 'axes' parameter because swapping "
                             "dimensions is the only logical permutation.")

    # ---- reductions -------------------------------------------------------------------------------
    def _axis(self, axis):
        if axis not in (0, 1, -1, -2):
            raise ValueError(f"axis out of range for ndim: {axis!r} (a sparse matrix has axes 0 and 1)")
        return axis % 2

    def _sum_axis(self, axis):
        """axis as sum takes it: None, an int, or SciPy's tuples (both axes: None; one: it)."""
        if not isinstance(axis, tuple):
            return None if axis is None else self._axis(axis)
        if not axis:
            raise ValueError("sparse does not accept 0D axis (). Either use toarray (for dense) or copy (for sparse).")
        axes = [self._axis(a) for a in axis]
        if len(set(axes)) != len(axes):
            raise ValueError("duplicate value in axis")
        return None if len(axes) == 2 else axes[0]

    def sum(self, axis=None, dtype=None, out=None):
        """Sum of the values (NumPy's dtype: small integers in int64). axis=None gives a 0-d
        device array; an axis gives 1-d for sparse arrays, (1, n) or (m, 1) for matrices."""
        dt = sum_dtype(self.dtype) if dtype is None else loom.dtype(dtype)
        row, col, data = self._triples()
        axis = self._sum_axis(axis)
        if axis is None:
            return loom.sum(data.astype(dt)) if data.size else loom.zeros((), dtype=dt, device=self.device)
        idx = col if axis == 0 else row
        res = loom.zeros(self._shape[1 - axis], dtype=dt, device=self.device)
        if data.size:
            res = res.at[idx].add(data.astype(dt))
        if not self._is_array:
            res = res.reshape((1, -1) if axis == 0 else (-1, 1))
        if out is not None:
            out[...] = res
            return out
        return res

    def max(self, axis=None, out=None, *, explicit=False):
        """The largest value (implicit zeros count unless explicit): 0-d, or a sparse row or
        column along an axis (SciPy's)."""
        from ._minmax import extreme  # lazy: _minmax imports this module at its top
        return _into_out(extreme(self, axis, explicit, True), out)

    def min(self, axis=None, out=None, *, explicit=False):
        """The smallest value, as max."""
        from ._minmax import extreme  # lazy: _minmax imports this module at its top
        return _into_out(extreme(self, axis, explicit, False), out)

    def reshape(self, *args, shape=None, order="C", copy=False):
        """The same values in another shape of as many positions, read in C (or F) order: a
        COO result, as SciPy's (self, or a copy with copy=True, for the same shape)."""
        new = check_shape(args[0] if len(args) == 1 and not isinstance(args[0], int) else (args or shape))
        if new == self._shape:
            return self.copy() if copy else self
        m, n = self._shape
        if new[0] * new[1] != m * n:
            raise ValueError(f"cannot reshape array of size {m * n} into shape {new}")
        if order not in ("C", "F"):
            raise ValueError("'order' must be 'C' or 'F'")
        row, col, data = self._triples()
        row, col = row.astype(loom.int64), col.astype(loom.int64)
        if order == "C":
            flat = row * n + col
            row, col = flat // new[1], flat % new[1]
        else:
            flat = col * m + row
            col, row = flat // new[0], flat % new[0]
        return CLASSES[("coo", self._is_array)]((data, (row, col)), shape=new, dtype=self.dtype)

    def asfptype(self):
        """A copy in floating point (float32 for 8/16-bit integers, float64 for wider ones,
        floats and complex kept: SciPy's upcast), or self when it already is one."""
        if self.dtype.kind in "fc":
            return self
        small = self.dtype.name in ("bool", "int8", "uint8", "int16", "uint16")
        return self.astype(loom.float32 if small else loom.float64)

    def mean(self, axis=None, dtype=None, out=None):
        """Mean over all positions (implicit zeros count): float64 for integers, as SciPy."""
        if dtype is None:
            dtype = loom.float64 if self.dtype.kind in "biu" else self.dtype
        count = self._shape[0] * self._shape[1] if axis is None else self._shape[self._axis(axis)]
        res = self.sum(axis=axis, dtype=dtype) / count
        if out is not None:
            out[...] = res
            return out
        return res

    def diagonal(self, k=0):
        """The k-th diagonal as a 1-d device array (duplicates summed)."""
        m, n = self._shape
        length = min(m + min(k, 0), n - max(k, 0))
        if length <= 0:
            return loom.zeros(0, dtype=self.dtype, device=self.device)
        row, col, data = self._triples()
        out = loom.zeros(length + 1, dtype=self.dtype, device=self.device)
        if data.size:
            # Values off the diagonal go to the spare last slot, cut off below.
            on = (col.astype(loom.int64) - row.astype(loom.int64)) == k
            pos = loom.where(on, (row if k >= 0 else col).astype(loom.int64), length)
            out = out.at[pos].add(data)
        return out[:length]

    def setdiag(self, values, k=0):
        """Set the k-th diagonal to values in place, as SciPy's: a scalar fills it, a shorter
        sequence sets its start, a longer one is cut; positions not stored yet are added."""
        _setitem.setdiag(self, values, k)

    def nonzero(self):
        """(rows, cols) of the stored values that are not zero, in the stored order (CSC's
        sorted by row, stably) and index dtype, as SciPy's; device arrays (one count read)."""
        row, col, data = self._triples()
        if not data.size:
            return row, col
        row, col = keep(data != 0, row, col)
        if self._format == "csc" and row.size > 1:
            order = loom.argsort(row)
            row, col = loom.take(row, order), loom.take(col, order)
        return row, col

    def trace(self, offset=0):
        """The sum of the offset-th diagonal, a 0-d device array."""
        return loom.sum(self.diagonal(offset))

    # ---- elementwise arithmetic ---------------------------------------------------------------------
    def __neg__(self):
        if self.dtype.kind == "b":
            raise NotImplementedError("negating a boolean sparse array is not supported")
        return self._with_data(-self.data)

    def __pos__(self):
        return self.copy()

    def __abs__(self):
        return self._with_data(loom.abs(self.data))

    def power(self, n, dtype=None):
        """Elementwise power of the stored values (implicit zeros stay zero; n must be a scalar)."""
        if not is_scalar(n):
            raise NotImplementedError("power: the exponent must be a scalar")
        data = self.data if dtype is None else self.data.astype(check_dtype(dtype))
        return self._with_data(data ** n)

    def multiply(self, other):
        """Elementwise product: a scalar scales; a dense array (broadcast to the shape) gives
        COO; a sparse matrix gives CSR holding the nonzero products."""
        return _arith.multiply(self, other)

    def maximum(self, other):
        """Elementwise maximum with a sparse matrix (CSR), a scalar or a dense array, as SciPy."""
        return _arith.extremum(self, other, loom.maximum, "maximum")

    def minimum(self, other):
        """Elementwise minimum with a sparse matrix (CSR), a scalar or a dense array, as SciPy."""
        return _arith.extremum(self, other, loom.minimum, "minimum")

    def __truediv__(self, other):
        return _arith.truediv(self, other)

    # Comparisons give sparse boolean matrices (dense arrays against dense operands), as SciPy's.
    __eq__ = functools.partialmethod(_compare.compare, "==")
    __ne__ = functools.partialmethod(_compare.compare, "!=")
    __lt__ = functools.partialmethod(_compare.compare, "<")
    __gt__ = functools.partialmethod(_compare.compare, ">")
    __le__ = functools.partialmethod(_compare.compare, "<=")
    __ge__ = functools.partialmethod(_compare.compare, ">=")
    __hash__ = None  # unhashable, as SciPy's (== is elementwise)

    def __add__(self, other):
        return _arith.add(self, other, 1)

    __radd__ = __add__

    def __sub__(self, other):
        return _arith.add(self, other, -1)

    def __rsub__(self, other):
        return _arith.rsub(self, other)

    # ---- products ---------------------------------------------------------------------------------
    def __matmul__(self, other):
        if is_scalar(other):
            raise ValueError("Scalar operands are not allowed, use '*' instead")
        return _arith.matmul(self, other)

    def __rmatmul__(self, other):
        if is_scalar(other):
            raise ValueError("Scalar operands are not allowed, use '*' instead")
        return _arith.rmatmul(self, other)

    def dot(self, other):
        """The matrix product (a scalar scales), for matrices and arrays alike."""
        return self._with_data(self.data * other) if is_scalar(other) else self @ other

    # ---- Python protocol --------------------------------------------------------------------------
    def __len__(self):
        raise TypeError("sparse array length is ambiguous; use getnnz() or shape[0]")

    def __bool__(self):
        if self._shape == (1, 1):
            return bool(self.toarray()[0, 0])
        raise ValueError("The truth value of an array with more than one element is ambiguous. "
                         "Use a.any() or a.all().")

    def __repr__(self):
        kind = "array" if self._is_array else "matrix"
        return (f"<{_NAMES[self._format]} sparse {kind} of dtype '{self.dtype.name}'\n"
                f"\twith {self.nnz} stored elements and shape {self._shape} on {self.device!r}>")


class spmatrix:
    """The matrix interface (mixed in before the format base): `*` is the matrix product, and
    getrow/getcol exist, as in scipy.sparse's *_matrix classes."""
    _is_array = False

    def __mul__(self, other):
        if is_scalar(other):
            return self._with_data(self.data * other)
        return self @ other

    def __rmul__(self, other):
        if is_scalar(other):
            return self._with_data(other * self.data)
        return other @ self if isinstance(other, _spbase) else self.__rmatmul__(other)

    def __pow__(self, power):
        """The matrix power (sparse.linalg.matrix_power), a matrix again (** 0 too)."""
        from .linalg._matfuncs import matrix_power  # lazy: sparse.linalg imports this package at its top
        r = matrix_power(self, power)
        return r if isinstance(r, spmatrix) else self._container(r.format)(r)

    def getrow(self, i):
        """Row i as a (1, n) CSR matrix."""
        return self.tocsr()[int(i), :]

    def getcol(self, j):
        """Column j as an (m, 1) matrix: CSC for CSC, CSR otherwise (SciPy's formats)."""
        return (self if self._format == "csc" else self.tocsr())[:, int(j)]


class sparray:
    """The array interface: `*` is elementwise (multiply), as in scipy.sparse's *_array."""
    _is_array = True

    def __mul__(self, other):
        return self.multiply(other)

    def __rmul__(self, other):
        return self.multiply(other)

    def __pow__(self, power):
        """Elementwise, as SciPy's sparse arrays (matrix_power gives the matrix power)."""
        return self.power(power)


def _into_out(result, out):
    if out is not None:
        raise ValueError("Sparse max/min do not support an 'out' parameter.")
    return result


def issparse(x):
    """True for loom's sparse matrices and arrays (of any format)."""
    return isinstance(x, _spbase)


def isspmatrix(x):
    """True for loom's *_matrix classes only (not the *_array ones), as SciPy's isspmatrix."""
    return isinstance(x, _spbase) and isinstance(x, spmatrix)
