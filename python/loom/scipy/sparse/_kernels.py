"""The device algorithms under loom.scipy.sparse, over plain loom arrays: the row of each
stored value, compression of (row, col, value) triples by a stable sort of linear keys,
merging two matrices' patterns, and the expanded products of sparse x sparse.

Every step is a loom op on the arrays' device. The only host reads are counts that size a
result: the number of distinct positions after summing duplicates, and the number of
products in sparse x sparse (one int each, read where the docstrings say)."""
import loom

from ._sputils import index_dtype, read_ints

_INT64_MAX = 2**63 - 1


def majors(indptr, nnz):
    """The major index (the row of a CSR matrix) of each of the nnz stored values: how many
    row ends lie at or before each position, found by searchsorted on the device."""
    pos = loom.arange(nnz, dtype=indptr.dtype, device=indptr.device)
    return loom.searchsorted(indptr[1:], pos, side="right").astype(indptr.dtype)


def linear_keys(major, minor, nminor):
    """major * nminor + minor in int64: one sort key that orders by major, then minor."""
    return major.astype(loom.int64) * nminor + minor.astype(loom.int64)


def check_key_range(nmajor, nminor):
    if nmajor * nminor > _INT64_MAX:
        raise ValueError(f"a sparse matrix of shape ({nmajor}, {nminor}) has more positions than int64 indexes")


def indptr_of(sorted_major, nmajor, dtype):
    """Row starts of values sorted by major index: the first position of each row."""
    bounds = loom.arange(nmajor + 1, dtype=loom.int64, device=sorted_major.device)
    return loom.searchsorted(sorted_major, bounds, side="left").astype(dtype)


def segments(sorted_keys):
    """(segment id of each key, number of distinct keys) for sorted keys: the count is the
    one host read, since it sizes the result."""
    n = sorted_keys.size
    if n == 0:
        return loom.zeros(0, dtype=loom.int64, device=sorted_keys.device), 0
    starts = loom.concatenate([loom.ones(1, dtype=loom.bool_, device=sorted_keys.device),
                               sorted_keys[1:] != sorted_keys[:-1]])
    seg = loom.cumsum(starts.astype(loom.int64)) - 1
    (last,) = read_ints(seg[-1])
    return seg, last + 1


def sum_sorted(keys, data):
    """Sorted keys with repeats, and their values -> distinct keys and the summed values."""
    seg, n = segments(keys)
    if n == keys.size:
        return keys, data
    out = loom.zeros(n, dtype=data.dtype, device=data.device).at[seg].add(data)
    # Every key of a segment is the same, so which write wins does not matter.
    return loom.zeros(n, dtype=loom.int64, device=keys.device).at[seg].set(keys), out


def compress(major, minor, data, nmajor, nminor, *, sum_duplicates, is_sorted=False):
    """(data, indices, indptr) of the compressed matrix (CSR with rows as majors) holding
    `data` at (major, minor). A stable sort of the linear keys orders the values by major,
    then minor; with sum_duplicates, repeated positions are added (one count read), as SciPy's
    conversions from COO do. The index dtype follows SciPy's rule for the sizes."""
    check_key_range(nmajor, nminor)
    keys = linear_keys(major, minor, nminor)
    if not is_sorted and keys.size > 1:
        order = loom.argsort(keys)
        keys, data = loom.take(keys, order), loom.take(data, order)
    if sum_duplicates:
        keys, data = sum_sorted(keys, data)
    idx = index_dtype(nmajor, nminor, keys.size)
    if nminor == 0:
        rows = cols = keys
    else:
        rows = keys // nminor
        cols = keys - rows * nminor
    return data, cols.astype(idx), indptr_of(rows, nmajor, idx)


def keep(mask, *arrays):
    """The arrays' elements where mask holds: one nonzero (one count read) for all of them."""
    (pos,) = loom.nonzero(mask)
    return [loom.take(a, pos) for a in arrays]


def merge(ka, da, kb, db, dtype):
    """Two canonical patterns (sorted distinct keys with their values) -> the union's sorted
    keys and each operand's value there (0 where it stores none). One count read."""
    na = ka.size
    keys = loom.concatenate([ka, kb])
    data = loom.concatenate([da.astype(dtype), db.astype(dtype)])
    if keys.size > 1:
        order = loom.argsort(keys)  # stable: a's value comes before b's at a shared key
        keys, data, from_a = loom.take(keys, order), loom.take(data, order), order < na
    else:
        from_a = loom.arange(keys.size, device=keys.device) < na
    seg, n = segments(keys)
    zero = loom.zeros_like(data)
    a = loom.zeros(n, dtype=dtype, device=keys.device).at[seg].add(loom.where(from_a, data, zero))
    b = loom.zeros(n, dtype=dtype, device=keys.device).at[seg].add(loom.where(from_a, zero, data))
    ukeys = loom.zeros(n, dtype=loom.int64, device=keys.device).at[seg].set(keys)
    return ukeys, a, b


def expand_products(a_row, a_col, a_data, b_indptr, b_indices, b_data, dtype):
    """Every product of A @ B before summing: A's value at (i, k) meets each value of B's row k.
    Returns (row, col, value) of the products; their number (the one host read) is the sum
    over A's values of the length of B's row they meet."""
    a_col64 = a_col.astype(loom.int64)
    ptr = b_indptr.astype(loom.int64)
    starts = loom.take(ptr, a_col64)
    counts = loom.take(ptr, a_col64 + 1) - starts
    ends = loom.cumsum(counts)
    (total,) = read_ints(ends[-1]) if ends.size else (0,)
    p = loom.arange(total, dtype=loom.int64, device=ptr.device)
    which = loom.searchsorted(ends, p, side="right")  # the A value each product comes from
    bpos = loom.take(starts, which) + p - loom.take(ends - counts, which)
    row = loom.take(a_row, which)
    col = loom.take(b_indices, bpos)
    val = loom.take(a_data.astype(dtype), which) * loom.take(b_data.astype(dtype), bpos)
    return row, col, val


def dense_from_triples(row, col, data, shape, dtype):
    """The dense (m, n) array of the triples, duplicates added (a scatter-add on the device)."""
    m, n = shape
    out = loom.zeros(m * n, dtype=dtype, device=data.device)
    if data.size:
        out = out.at[linear_keys(row, col, n)].add(data.astype(dtype))
    return out.reshape(m, n)
