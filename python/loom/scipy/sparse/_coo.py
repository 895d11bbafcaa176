"""COO matrices (scipy.sparse.coo_matrix and coo_array): the row, column and value of each
stored value, in any order, repeats allowed (they add up on conversion, as in SciPy)."""
import loom

from . import _kernels as K
from ._base import CLASSES, _spbase, is_scipy_sparse, sparray, spmatrix
from ._sputils import as_index, check_dtype, check_shape, index_dtype, is_shape, on_device, read_ints


class _coo_base(_spbase):
    _format = "coo"

    def __init__(self, arg1, shape=None, dtype=None, copy=False, *, device=None):
        name = type(self).__name__
        nodup = canonical = None
        if is_scipy_sparse(arg1):
            src = arg1.tocoo()
            shape_ = tuple(src.shape)
            data, row, col = (on_device(a, device) for a in (src.data, src.row, src.col))
            copy = False
        elif isinstance(arg1, _spbase):
            src = arg1.tocoo()
            shape_, nodup, canonical = src.shape, src._nodup, src._canonical
            data, row, col = (on_device(a, device) for a in (src.data, src.row, src.col))
            copy = copy and data is arg1.data
        elif isinstance(arg1, tuple) and is_shape(arg1):
            shape_ = check_shape(arg1)
            dev = loom.default_device() if device is None else device
            idx = index_dtype(*shape_)
            data = loom.zeros(0, dtype=loom.float64 if dtype is None else check_dtype(dtype), device=dev)
            row, col = loom.zeros(0, dtype=idx, device=dev), loom.zeros(0, dtype=idx, device=dev)
            nodup = canonical = True
        elif isinstance(arg1, tuple) and len(arg1) == 2:
            shape_, data, row, col = self._from_triples(arg1, shape, device)
        elif isinstance(arg1, tuple):
            raise ValueError(f"unrecognized {name} constructor input: a tuple of {len(arg1)} elements")
        else:
            d = on_device(arg1, device)
            if d.ndim == 1 and not self._is_array:
                d = d.reshape(1, -1)
            if d.ndim != 2:
                raise ValueError(f"COO input must be 2-d (loom.scipy.sparse has no {d.ndim}-d sparse arrays), "
                                 f"got shape {tuple(d.shape)}")
            check_dtype(d.dtype)
            row, col = loom.nonzero(d)  # reads the count of nonzeros: the result's size
            shape_ = tuple(d.shape)
            data = d[row, col] if row.size else loom.zeros(0, dtype=d.dtype, device=d.device)
            idx = index_dtype(*shape_, row.size)
            row, col, nodup, canonical = row.astype(idx), col.astype(idx), True, True
        if shape is not None and check_shape(shape) != tuple(shape_):
            raise ValueError(f"{name}: shape={tuple(shape)} does not match the input's shape {tuple(shape_)}")
        if copy:
            data, row, col = data.copy(), row.copy(), col.copy()
        if dtype is not None and check_dtype(dtype) != data.dtype:
            data = data.astype(check_dtype(dtype))
        check_dtype(data.dtype)
        self._set(data, row, col, tuple(shape_), nodup, canonical)

    def _from_triples(self, arg1, shape, device):
        data, ij = arg1
        if not isinstance(ij, (tuple, list)) or len(ij) != 2:
            raise TypeError("invalid input format: expected (data, (row, col))")
        dev = next((a.device for a in (data, *ij) if isinstance(a, loom.ndarray)), None) if device is None else device
        data, row, col = (on_device(a, dev) for a in (data, *ij))
        if data.ndim != 1:
            raise ValueError("row, column, and data arrays must be 1-D")
        if not row.size == col.size == data.size:
            raise ValueError("all index and data arrays must have the same length")
        shape_ = None if shape is None else check_shape(shape)
        row, col = as_index(row, loom.int64, "row"), as_index(col, loom.int64, "col")
        if data.size:
            # SciPy's checks of the indices (and its inference of the shape): one read.
            lo_r, hi_r, lo_c, hi_c = read_ints(loom.min(row), loom.max(row), loom.min(col), loom.max(col))
            if shape_ is None:
                shape_ = (hi_r + 1, hi_c + 1)
            for axis, lo, hi in ((0, lo_r, hi_r), (1, lo_c, hi_c)):
                if lo < 0:
                    raise ValueError(f"negative axis {axis} index: {lo}")
                if hi >= shape_[axis]:
                    raise ValueError(f"axis {axis} index {hi} exceeds matrix dimension {shape_[axis]}")
        elif shape_ is None:
            raise ValueError("cannot infer dimensions from zero sized index arrays")
        idx = index_dtype(*shape_, data.size)
        return shape_, data, row.astype(idx), col.astype(idx)

    def _set(self, data, row, col, shape, nodup=None, canonical=None):
        self.data, self.row, self.col, self._shape = data, row, col, shape
        self._nodup = True if canonical else nodup
        self._canonical = canonical

    @classmethod
    def _build(cls, data, row, col, shape, nodup=None, canonical=None):
        out = cls.__new__(cls)
        out._set(data, row, col, tuple(shape), nodup, canonical)
        return out

    @property
    def coords(self):
        """(row, col), SciPy's newer name for them."""
        return self.row, self.col

    def _host_arrays(self):
        return self.data, self.row, self.col

    def _triples(self):
        return self.row, self.col, self.data

    def _known_nodup(self):
        return bool(self._nodup)

    def _with_data(self, data, copy=False):
        row, col = (self.row.copy(), self.col.copy()) if copy else (self.row, self.col)
        return self._build(data, row, col, self._shape, self._nodup, self._canonical)

    @property
    def has_canonical_format(self):
        """Sorted by row, then column, without repeats: one bool read when not known."""
        if self._canonical is None:
            if self.nnz < 2:
                self._canonical = True
            else:
                keys = K.linear_keys(self.row, self.col, self._shape[1])
                self._canonical = bool(loom.all(keys[1:] > keys[:-1]))
            self._nodup = self._nodup or self._canonical
        return self._canonical

    def _compressed(self, fmt):
        """(data, indices, indptr) in CSR (fmt 'csr') or CSC order, repeats summed (one count
        read, skipped when the pattern is known to have none)."""
        m, n = self._shape
        major, minor, nmajor, nminor = (self.row, self.col, m, n) if fmt == "csr" else (self.col, self.row, n, m)
        return K.compress(major, minor, self.data, nmajor, nminor, sum_duplicates=not self._nodup,
                          is_sorted=fmt == "csr" and bool(self._canonical))

    def _to(self, fmt, copy):
        data, ind, ptr = self._compressed(fmt)
        if copy and data is self.data:  # already in order and without repeats: the values are shared
            data = data.copy()
        return self._container(fmt)._build(data, ind, ptr, self._shape, canonical=True)

    def tocsr(self, copy=False):
        """As CSR, repeats summed (one count read unless the pattern is known to have none)."""
        return self._to("csr", copy)

    def tocsc(self, copy=False):
        """As CSC, repeats summed (one count read unless the pattern is known to have none)."""
        return self._to("csc", copy)

    def tocoo(self, copy=False):
        """self (a copy with copy=True)."""
        return self.copy() if copy else self

    def sum_duplicates(self):
        """Sort by row, then column, and add up repeats, in place (one count read)."""
        if self._canonical:
            return
        data, ind, ptr = self._compressed("csr")
        self._set(data, K.majors(ptr, data.size), ind, self._shape, True, True)

    def eliminate_zeros(self):
        """Drop stored zeros, in place (one count read)."""
        if self.nnz:
            self.row, self.col, self.data = K.keep(self.data != 0, self.row, self.col, self.data)

    def transpose(self, axes=None, copy=False):
        """The COO matrix with row and col swapped (shared unless copy=True)."""
        self._check_axes(axes)
        row, col, data = (self.col, self.row, self.data)
        if copy:
            row, col, data = row.copy(), col.copy(), data.copy()
        return self._build(data, row, col, self._shape[::-1], self._nodup, None)


class coo_matrix(spmatrix, _coo_base):
    """COOrdinate matrix (scipy.sparse.coo_matrix) on a loom device: `*` is the matrix
    product. Construct from a dense array, (data, (row, col)) with shape= (without it, one
    read finds the largest indices), a shape (M, N), a SciPy or loom sparse matrix."""


class coo_array(sparray, _coo_base):
    """COOrdinate array (scipy.sparse.coo_array): `*` is elementwise; 2-d only."""


for _cls in (coo_matrix, coo_array):
    CLASSES[("coo", _cls._is_array)] = _cls


def isspmatrix_coo(x):
    """True for a loom coo_matrix (not a coo_array), as SciPy's isspmatrix_coo."""
    return isinstance(x, coo_matrix)
