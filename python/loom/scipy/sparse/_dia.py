"""DIA matrices (scipy.sparse.dia_matrix and dia_array): a few diagonals stored whole.

`data` has one row per diagonal and `offsets` says which diagonal each row is (0 the main
one, k > 0 above it, k < 0 below it); data[d, j] holds A[j - offsets[d], j], so a row of
`data` is indexed by column, as in SciPy. Slots of `data` that fall outside the matrix are
kept but never read. Arithmetic and indexing go through CSR, as SciPy's DIA does for most
operations; conversions, the transpose and the diagonals work on the arrays directly."""
import numbers
import warnings

import loom

from ._base import CLASSES, _spbase, is_scipy_sparse, sparray, spmatrix
from ._kernels import keep
from ._sputils import SparseEfficiencyWarning, check_dtype, check_shape, index_dtype, is_shape, on_device, read_ints

# SciPy warns when a conversion makes more diagonals than this.
_MANY_DIAGONALS = 100


class _dia_base(_spbase):
    _format = "dia"

    def __init__(self, arg1, shape=None, dtype=None, copy=False, *, device=None):
        name = type(self).__name__
        if is_scipy_sparse(arg1):
            src = arg1.todia()
            shape_ = tuple(src.shape)
            data, offsets = on_device(src.data, device), on_device(src.offsets, device)
            copy = False  # the host arrays were copied to the device
        elif isinstance(arg1, _spbase):
            src = arg1.todia()
            shape_ = src.shape
            data, offsets = on_device(src.data, device), on_device(src.offsets, device)
            copy = copy and data is arg1.data  # a conversion or a move made new arrays already
        elif isinstance(arg1, tuple) and is_shape(arg1):
            shape_ = check_shape(arg1)
            dev = loom.default_device() if device is None else device
            data = loom.zeros((0, 0), dtype=loom.float64 if dtype is None else check_dtype(dtype), device=dev)
            offsets = loom.zeros(0, dtype=index_dtype(max(shape_)), device=dev)
        elif isinstance(arg1, tuple) and len(arg1) == 2:
            if shape is None:
                raise ValueError(f"{name}: expected a shape argument with (data, offsets)")
            shape_ = check_shape(shape)
            data, offsets = self._from_diagonals(arg1, shape_, device)
        elif isinstance(arg1, tuple):
            raise ValueError(f"unrecognized form for {name} constructor: a tuple of {len(arg1)} elements")
        else:
            # A dense input goes through COO, as SciPy's does.
            src = CLASSES[("coo", self._is_array)](arg1, shape=shape, dtype=dtype, device=device).todia()
            shape_, data, offsets, copy = src.shape, src.data, src.offsets, False
        if shape is not None and check_shape(shape) != tuple(shape_):
            raise ValueError(f"{name}: shape={tuple(shape)} does not match the input's shape {tuple(shape_)}")
        if copy:
            data, offsets = data.copy(), offsets.copy()
        if dtype is not None and check_dtype(dtype) != data.dtype:
            data = data.astype(check_dtype(dtype))
        check_dtype(data.dtype)
        self._set(data, offsets, tuple(shape_))

    @staticmethod
    def _from_diagonals(arg1, shape, device):
        """(data, offsets) checked as SciPy checks them: data 2-d (1-d is one diagonal),
        offsets 1-d in the index dtype, one per row of data, no offset twice (one read)."""
        data, offsets = arg1
        dev = next((a.device for a in arg1 if isinstance(a, loom.ndarray)), None) if device is None else device
        data, offsets = on_device(data, dev), on_device(offsets, dev)
        if offsets.ndim == 0:
            offsets = offsets.reshape(1)
        if data.ndim < 2:
            data = data.reshape(1, -1)
        if offsets.ndim != 1:
            raise ValueError(f"offsets array must have rank 1, got {offsets.ndim}")
        if data.ndim != 2:
            raise ValueError(f"data array must have rank 2, got {data.ndim}")
        if data.shape[0] != offsets.size:
            raise ValueError(f"number of diagonals ({data.shape[0]}) does not match the number of "
                             f"offsets ({offsets.size})")
        if offsets.dtype.kind not in "iu":
            raise TypeError(f"offsets must be integers, got dtype {offsets.dtype.name}")
        idx = index_dtype(max(shape))
        offsets = offsets if offsets.dtype == idx else offsets.astype(idx)
        if offsets.size > 1:
            ordered = loom.sort(offsets)
            if bool(loom.any(ordered[1:] == ordered[:-1])):
                raise ValueError("offset array contains duplicate values")
        return data, offsets

    def _set(self, data, offsets, shape):
        self.data, self.offsets, self._shape = data, offsets, shape

    @classmethod
    def _build(cls, data, offsets, shape):
        """A matrix over given arrays, unchecked (loom's own results)."""
        out = cls.__new__(cls)
        out._set(data, offsets, tuple(shape))
        return out

    @classmethod
    def _from_coo(cls, coo):
        """The DIA matrix of a COO one: one row of data per distinct col - row, as wide as
        the last stored column (SciPy's layout). Reads the number of diagonals and that width."""
        coo = coo.copy()
        coo.sum_duplicates()
        m, n = coo.shape
        idx = index_dtype(max(m, n))
        if not coo.nnz:
            return cls._build(loom.zeros((0, 0), dtype=coo.dtype, device=coo.device),
                              loom.zeros(0, dtype=idx, device=coo.device), coo.shape)
        col = coo.col.astype(loom.int64)
        diag_of_value = col - coo.row.astype(loom.int64)
        offsets = loom.unique(diag_of_value)
        if offsets.size > _MANY_DIAGONALS:
            warnings.warn(f"Constructing a DIA matrix with {offsets.size} diagonals is inefficient",
                          SparseEfficiencyWarning, stacklevel=3)
        width = read_ints(loom.max(col))[0] + 1
        slot = loom.searchsorted(offsets, diag_of_value) * width + col
        flat = loom.zeros(offsets.size * width, dtype=coo.dtype, device=coo.device)
        data = flat.at[slot].set(coo.data).reshape(offsets.size, width)
        return cls._build(data, offsets.astype(idx), coo.shape)

    def _host_arrays(self):
        return self.data, self.offsets

    def _with_data(self, data, copy=False):
        return self._build(data, self.offsets.copy() if copy else self.offsets, self._shape)

    def _known_nodup(self):
        return True  # distinct offsets: every slot is its own position

    # ---- the stored slots ---------------------------------------------------------------------
    def _slots(self):
        """Row, column and value of every slot of data that could lie in the matrix (as 2-d
        arrays, one row per diagonal), with the mask of those inside it."""
        m, n = self._shape
        width = min(self.data.shape[1], n)
        col = loom.broadcast_to(loom.arange(width, dtype=loom.int64, device=self.device)[None, :],
                                (self.offsets.size, width))
        row = col - self.offsets.astype(loom.int64)[:, None]
        return row, col, self.data[:, :width], (row >= 0) & (row < m)

    def _triples(self):
        """The nonzero slots inside the matrix, diagonal by diagonal (one count read); stored
        zeros are left out, as SciPy's tocoo leaves them out."""
        row, col, vals, inside = self._slots()
        row, col, vals = keep((inside & (vals != 0)).reshape(-1), row.reshape(-1), col.reshape(-1),
                              vals.reshape(-1))
        idx = index_dtype(*self._shape, vals.size)
        return row.astype(idx), col.astype(idx), vals

    @property
    def nnz(self):
        """The slots inside the matrix, stored zeros included (SciPy's count for DIA; one read)."""
        m, n = self._shape
        width = min(self.data.shape[1], n)
        if not self.offsets.size:
            return 0
        off = self.offsets.astype(loom.int64)
        per_diagonal = loom.maximum(loom.minimum(off + m, width) - loom.maximum(off, 0), 0)
        return read_ints(loom.sum(per_diagonal))[0]

    def getnnz(self, axis=None):
        """nnz (SciPy's DIA has no count along an axis)."""
        if axis is not None:
            raise NotImplementedError("getnnz over an axis is not implemented for DIA format")
        return self.nnz

    # ---- conversions --------------------------------------------------------------------------
    def tocoo(self, copy=False):
        """As COO: the nonzero slots inside the matrix, diagonal by diagonal (new arrays)."""
        row, col, vals = self._triples()
        return self._container("coo")._build(vals, row, col, self._shape, nodup=True)

    def tocsr(self, copy=False):
        """As CSR, through COO (new arrays)."""
        return self.tocoo().tocsr()

    def tocsc(self, copy=False):
        """As CSC, through COO (new arrays)."""
        return self.tocoo().tocsc()

    def todia(self, copy=False):
        """self (a copy with copy=True)."""
        return self.copy() if copy else self

    def transpose(self, axes=None, copy=False):
        """The DIA transpose: diagonal k becomes -k, each row of data shifted so that it is
        indexed by the new columns (the old rows); new arrays, whatever copy says."""
        self._check_axes(axes)
        m, n = self._shape
        ndiag, width = self.data.shape
        off = self.offsets.astype(loom.int64)[:, None]
        # The transpose's data[d, i] is A[i, i + offsets[d]]: the old data at column i + offsets[d].
        src = loom.arange(m, dtype=loom.int64, device=self.device)[None, :] + off
        valid = (src >= 0) & (src < width)
        if width:
            moved = loom.take_along_axis(self.data, loom.clip(src, 0, width - 1), axis=1)
            data = loom.where(valid, moved, loom.zeros((), dtype=self.dtype, device=self.device))
        else:
            data = loom.zeros((ndiag, m), dtype=self.dtype, device=self.device)
        return self._build(data, -self.offsets, (n, m))

    # ---- what SciPy's DIA computes on its own arrays --------------------------------------------
    def diagonal(self, k=0):
        """The k-th diagonal: the row of data for offset k (zeros without one; no host read)."""
        m, n = self._shape
        k = int(k)
        if k <= -m or k >= n:
            return loom.zeros(0, dtype=self.dtype, device=self.device)
        first, last = max(0, k), min(m + k, n)
        width = self.data.shape[1]
        zeros = loom.zeros(last - first, dtype=self.dtype, device=self.device)
        if not self.offsets.size or not width:
            return zeros
        match = self.offsets == k
        row = loom.take(self.data, loom.argmax(match), axis=0)  # any row when none matches; masked below
        cols = loom.arange(first, last, dtype=loom.int64, device=self.device)
        values = loom.take(row, loom.clip(cols, 0, width - 1))
        return loom.where(loom.any(match) & (cols < width), values, zeros)

    def sum(self, axis=None, dtype=None, out=None):
        """Sum of the values, as the other formats' (axis may also be a tuple of axes, as in
        SciPy 1.16 on; a non-integer axis is a TypeError)."""
        if isinstance(axis, tuple):
            axes = {self._axis(a) for a in axis}
            if len(axes) != len(axis):
                raise ValueError("duplicate value in 'axis'")
            axis = None if len(axes) == 2 else axes.pop()
        elif axis is not None and not isinstance(axis, numbers.Integral):
            raise TypeError(f"axis must be an integer, not {type(axis).__name__}")
        return super().sum(axis=axis, dtype=dtype, out=out)

    def setdiag(self, values, k=0):
        """Set the k-th diagonal in place, through CSR (SciPy's rules for values)."""
        csr = self.tocsr()
        csr.setdiag(values, k)
        new = self._from_coo(csr.tocoo())
        self._set(new.data, new.offsets, self._shape)

    def __repr__(self):
        kind = "array" if self._is_array else "matrix"
        return (f"<DIAgonal sparse {kind} of dtype '{self.dtype.name}'\n"
                f"\twith {self.nnz} stored elements ({self.data.shape[0]} diagonals) and shape {self._shape} "
                f"on {self.device!r}>")


class dia_matrix(spmatrix, _dia_base):
    """Sparse matrix with DIAgonal storage (scipy.sparse.dia_matrix) on a loom device: `*`
    is the matrix product. Construct from a dense array, (data, offsets) with shape=, a shape
    (M, N), a SciPy or loom sparse matrix of any format."""


class dia_array(sparray, _dia_base):
    """Sparse array with DIAgonal storage (scipy.sparse.dia_array): `*` is elementwise; 2-d only."""


for _cls in (dia_matrix, dia_array):
    CLASSES[("dia", _cls._is_array)] = _cls


def isspmatrix_dia(x):
    """True for a loom dia_matrix (not a dia_array), as SciPy's isspmatrix_dia."""
    return isinstance(x, dia_matrix)
