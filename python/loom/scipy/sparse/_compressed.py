"""CSR and CSC matrices (scipy.sparse's csr_matrix/csc_matrix and the *_array names).

Both are one class over "major" and "minor" axes: rows and columns for CSR, the other way
round for CSC, whose (data, indices, indptr) are exactly the CSR arrays of its transpose.
So A.T of either is the other format over the same arrays, and CSC's products are
csr_matmul's transposed products."""
import loom

from . import _index, _setitem
from . import _kernels as K
from ._base import CLASSES, _spbase, is_scipy_sparse, sparray, spmatrix
from ._sputils import as_index, check_dtype, check_shape, index_dtype, is_shape, on_device, read_ints


class _cs_base(_spbase):
    """Compressed sparse storage: data and indices of the stored values, major by major, and
    indptr, where each major's values start (SciPy's layout)."""

    def __init__(self, arg1, shape=None, dtype=None, copy=False, *, device=None):
        fmt, name = self._format, type(self).__name__
        if is_scipy_sparse(arg1):
            # The host matrix in this format (SciPy converts), its arrays copied to the device.
            src = arg1.asformat(fmt)
            shape_ = tuple(src.shape)
            arrays = [on_device(a, device) for a in (src.data, src.indices, src.indptr)]
            flags, copy = (bool(src.has_sorted_indices), bool(src.has_canonical_format)), False
        elif isinstance(arg1, _spbase):
            src = arg1.asformat(fmt)
            shape_ = src.shape
            arrays = [on_device(a, device) for a in (src.data, src.indices, src.indptr)]
            flags = (src._sorted, src._canonical)
            copy = copy and arrays[0] is arg1.data  # a conversion or a move made new arrays already
        elif isinstance(arg1, tuple) and is_shape(arg1):
            shape_ = check_shape(arg1)
            idx = index_dtype(*shape_)
            dev = loom.default_device() if device is None else device
            arrays = [loom.zeros(0, dtype=loom.float64 if dtype is None else check_dtype(dtype), device=dev),
                      loom.zeros(0, dtype=idx, device=dev),
                      loom.zeros(self._swap(shape_)[0] + 1, dtype=idx, device=dev)]
            flags = (True, True)
        elif isinstance(arg1, tuple) and len(arg1) == 2:
            # (data, (row, col)): through COO, summing duplicates as SciPy does.
            src = CLASSES[("coo", self._is_array)](arg1, shape=shape, dtype=dtype, device=device).asformat(fmt)
            shape_, arrays, flags = src.shape, [src.data, src.indices, src.indptr], (True, True)
        elif isinstance(arg1, tuple) and len(arg1) == 3:
            shape_, arrays = self._from_arrays(arg1, shape, device)
            flags = (None, None)
        elif isinstance(arg1, tuple):
            raise ValueError(f"unrecognized {name} constructor input: a tuple of {len(arg1)} elements")
        else:
            shape_, arrays = self._from_dense(arg1, device)
            flags = (True, True)
        if shape is not None and check_shape(shape) != tuple(shape_):
            raise ValueError(f"{name}: shape={tuple(shape)} does not match the input's shape {tuple(shape_)}")
        data, indices, indptr = arrays
        if copy:
            data, indices, indptr = data.copy(), indices.copy(), indptr.copy()
        if dtype is not None and check_dtype(dtype) != data.dtype:
            data = data.astype(check_dtype(dtype))
        check_dtype(data.dtype)
        self._set(data, indices, indptr, tuple(shape_), *flags)

    def _from_arrays(self, arg1, shape, device):
        data, indices, indptr = arg1
        dev = next((a.device for a in arg1 if isinstance(a, loom.ndarray)), device)
        data, indices, indptr = (on_device(a, dev if device is None else device) for a in (data, indices, indptr))
        if data.ndim != 1 or indices.ndim != 1 or indptr.ndim != 1:
            raise ValueError("data, indices, and indptr should be 1-D")
        if indices.size != data.size:
            raise ValueError(f"indices and data should have the same size ({indices.size} != {data.size})")
        if shape is None:
            # SciPy's inference: one major per indptr gap, minors up to the largest index (a read).
            minor = read_ints(loom.max(indices))[0] + 1 if indices.size else 0
            shape = self._swap((max(indptr.size - 1, 0), minor))
        shape = check_shape(shape)
        nmajor = self._swap(shape)[0]
        if indptr.size != nmajor + 1:
            raise ValueError(f"index pointer size {indptr.size} should be {nmajor + 1}")
        given = {indices.dtype.name, indptr.dtype.name}
        if given <= {"int32"}:
            idx = loom.int32
        elif given <= {"int32", "int64"}:
            idx = loom.int64
        else:
            idx = loom.int64 if "int64" in given or "uint64" in given else index_dtype(*shape, data.size)
        return shape, [data, as_index(indices, idx, "indices"), as_index(indptr, idx, "indptr")]

    def _from_dense(self, arg1, device):
        d = on_device(arg1, device)
        if d.ndim == 1 and not self._is_array:
            d = d.reshape(1, -1)  # a matrix holds a 1-d input as one row, as SciPy's do
        if d.ndim != 2:
            raise ValueError(f"{self._format.upper()} input must be 2-d (loom.scipy.sparse has no "
                             f"{d.ndim}-d sparse arrays), got shape {tuple(d.shape)}")
        check_dtype(d.dtype)
        dm = d if self._format == "csr" else d.T
        # nonzero reads the count of nonzeros on the host: the result's size.
        major, minor = loom.nonzero(dm)
        idx = index_dtype(*d.shape, major.size)
        data = dm[major, minor] if major.size else loom.zeros(0, dtype=d.dtype, device=d.device)
        return tuple(d.shape), [data, minor.astype(idx), K.indptr_of(major, dm.shape[0], idx)]

    def check_format(self, full_check=False):
        """SciPy's check of the arrays: their shapes always (the constructor's check); with
        full_check, also their values (one read of five scalars): indptr starts at 0, never
        decreases and ends at most at nnz, and every index lies in [0, minor size). Neither
        the constructor nor csr_matmul reads the values: an index out of range makes A @ x read
        outside x (SciPy's constructor reads indptr[0] alone)."""
        nmajor, nminor = self._swap(self._shape)
        if self.indptr.size != nmajor + 1:
            raise ValueError(f"index pointer size {self.indptr.size} should be {nmajor + 1}")
        if self.indices.size != self.data.size:
            raise ValueError("indices and data should have the same size")
        if not full_check:
            return
        ptr, ind = self.indptr.astype(loom.int64), self.indices.astype(loom.int64)
        zero = loom.zeros((), dtype=loom.int64, device=self.device)
        steps = loom.min(ptr[1:] - ptr[:-1]) if nmajor else zero
        lo, hi = (loom.min(ind), loom.max(ind)) if ind.size else (zero, zero)
        first, last, step, lo, hi = read_ints(ptr[0], ptr[-1], steps, lo, hi)
        if first != 0:
            raise ValueError("index pointer should start with 0")
        if last > self.nnz:
            raise ValueError(f"last value of index pointer should be less than the size of index and data "
                             f"arrays ({last} > {self.nnz})")
        if step < 0:
            raise ValueError("index pointer values must form a non-decreasing sequence")
        if self.nnz and (lo < 0 or hi >= nminor):
            raise ValueError(f"indices must be in [0, {nminor}) (the {'column' if self._format == 'csr' else 'row'}"
                             f" count), found {lo if lo < 0 else hi}")

    def _set(self, data, indices, indptr, shape, sorted_=None, canonical=None):
        self.data, self.indices, self.indptr, self._shape = data, indices, indptr, shape
        self._sorted = True if canonical else sorted_
        self._canonical = canonical

    @classmethod
    def _build(cls, data, indices, indptr, shape, canonical=None, sorted_=None):
        """A matrix over given arrays, unchecked (loom's own results)."""
        out = cls.__new__(cls)
        out._set(data, indices, indptr, tuple(shape), sorted_, canonical)
        return out

    def _host_arrays(self):
        return self.data, self.indices, self.indptr

    def _with_data(self, data, copy=False):
        ind, ptr = (self.indices.copy(), self.indptr.copy()) if copy else (self.indices, self.indptr)
        return self._build(data, ind, ptr, self._shape, self._canonical, self._sorted)

    def _known_nodup(self):
        return bool(self._canonical)

    def _majors(self):
        return K.majors(self.indptr, self.nnz)

    def _triples(self):
        row, col = self._swap((self._majors(), self.indices))
        return row, col, self.data

    # ---- index order and duplicates (SciPy's in-place methods) ----------------------------------------
    def _check_order(self, strict):
        """Whether the indices increase (strictly: no duplicates) within each major: one bool read."""
        if self.nnz < 2:
            return True
        maj = self._majors()
        ind = self.indices
        step = ind[1:] > ind[:-1] if strict else ind[1:] >= ind[:-1]
        return bool(loom.all(step | (maj[1:] != maj[:-1])))

    @property
    def has_sorted_indices(self):
        """Whether the indices increase within each major (one bool read when not known)."""
        if self._sorted is None:
            self._sorted = self._check_order(strict=False)
        return self._sorted

    @has_sorted_indices.setter
    def has_sorted_indices(self, value):
        self._sorted = bool(value)

    @property
    def has_canonical_format(self):
        """Sorted indices and no repeated position (one bool read when not known)."""
        if self._canonical is None:
            self._canonical = self.has_sorted_indices and self._check_order(strict=True)
        return self._canonical

    @has_canonical_format.setter
    def has_canonical_format(self, value):
        self._canonical = bool(value)
        if value:
            self._sorted = True

    def sort_indices(self):
        """Sort the indices within each major, in place (a stable sort of linear keys)."""
        if self._sorted:
            return
        if self.nnz > 1:
            keys = K.linear_keys(self._majors(), self.indices, self._swap(self._shape)[1])
            order = loom.argsort(keys)
            self.indices, self.data = loom.take(self.indices, order), loom.take(self.data, order)
        self._sorted = True

    def sorted_indices(self):
        """A copy with sorted indices."""
        out = self.copy()
        out.sort_indices()
        return out

    def sum_duplicates(self):
        """Add up repeated positions and sort the indices, in place (one count read)."""
        if self._canonical:
            return
        nmajor, nminor = self._swap(self._shape)
        data, ind, ptr = K.compress(self._majors(), self.indices, self.data, nmajor, nminor, sum_duplicates=True)
        self._set(data, ind, ptr, self._shape, True, True)

    def eliminate_zeros(self):
        """Drop stored zeros, in place (one count read: the number kept)."""
        if not self.nnz:
            return
        maj, self.indices, self.data = K.keep(self.data != 0, self._majors(), self.indices, self.data)
        self.indptr = K.indptr_of(maj, self._swap(self._shape)[0], self.indptr.dtype)

    def prune(self):
        """Nothing to trim: loom's arrays hold exactly nnz values."""

    # ---- conversions --------------------------------------------------------------------------------
    def _same(self, copy):
        return self.copy() if copy else self

    def _other(self, fmt, copy=False):
        """The other compressed format: the stored values re-sorted by the other axis
        (duplicates kept, as SciPy's conversion keeps them)."""
        if fmt == self._format:
            return self._same(copy)
        nmajor, nminor = self._swap(self._shape)
        data, ind, ptr = K.compress(self.indices, self._majors(), self.data, nminor, nmajor, sum_duplicates=False)
        return self._container(fmt)._build(data, ind, ptr, self._shape, True if self._canonical else None, True)

    def tocsr(self, copy=False):
        """As CSR: self for CSR; CSC's values re-sorted by row on the device (no host read)."""
        return self._other("csr", copy)

    def tocsc(self, copy=False):
        """As CSC: self for CSC; CSR's values re-sorted by column on the device (no host read)."""
        return self._other("csc", copy)

    def tocoo(self, copy=False):
        """As COO: the row of each value found from indptr on the device; values shared."""
        row, col, data = self._triples()
        if copy:  # the majors are new arrays already; the indices and values are shared
            data = data.copy()
            row, col = self._swap((self._swap((row, col))[0], self.indices.copy()))
        sorted_rows = self._format == "csr" and self._canonical
        return self._container("coo")._build(data, row, col, self._shape, nodup=bool(self._canonical),
                                             canonical=True if sorted_rows else None)

    def transpose(self, axes=None, copy=False):
        """The other format over the same arrays (copies with copy=True)."""
        self._check_axes(axes)
        other = "csc" if self._format == "csr" else "csr"
        arrays = [a.copy() for a in self._host_arrays()] if copy else self._host_arrays()
        return self._container(other)._build(*arrays, self._shape[::-1], self._canonical, self._sorted)

    def __getitem__(self, key):
        return _index.getitem(self, key)

    def __setitem__(self, key, x):
        _setitem.setitem(self, key, x)


class _csr_base(_cs_base):
    _format = "csr"

    @staticmethod
    def _swap(x):
        return x


class _csc_base(_cs_base):
    _format = "csc"

    @staticmethod
    def _swap(x):
        return x[1], x[0]


class csr_matrix(spmatrix, _csr_base):
    """Compressed Sparse Row matrix (scipy.sparse.csr_matrix) on a loom device: `*` is the
    matrix product. Construct from a dense array, (data, indices, indptr), (data, (row,
    col)), a shape (M, N), a SciPy or loom sparse matrix; device= places host inputs."""


class csr_array(sparray, _csr_base):
    """Compressed Sparse Row array (scipy.sparse.csr_array): `*` is elementwise; 2-d only."""


class csc_matrix(spmatrix, _csc_base):
    """Compressed Sparse Column matrix (scipy.sparse.csc_matrix) on a loom device: the CSR
    arrays of its transpose; `*` is the matrix product."""


class csc_array(sparray, _csc_base):
    """Compressed Sparse Column array (scipy.sparse.csc_array): `*` is elementwise; 2-d only."""


for _cls in (csr_matrix, csr_array, csc_matrix, csc_array):
    CLASSES[(_cls._format, _cls._is_array)] = _cls


def isspmatrix_csr(x):
    """True for a loom csr_matrix (not a csr_array), as SciPy's isspmatrix_csr."""
    return isinstance(x, csr_matrix)


def isspmatrix_csc(x):
    """True for a loom csc_matrix (not a csc_array), as SciPy's isspmatrix_csc."""
    return isinstance(x, csc_matrix)
