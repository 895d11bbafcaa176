"""scipy.sparse's constructors on a loom device: eye, identity, diags, random, kron, vstack,
hstack (and the *_array forms). Patterns are built from aranges on the device; nothing is read
back except where random() draws its positions (see loom.random's choice).

Where SciPy returns DIA or BSR for format=None (eye, diags, kron), loom returns CSR (eye,
diags) or COO (kron): loom has no BSR, and builds DIA only for format="dia"."""
import numbers

import numpy as np

import loom

from ._base import CLASSES, _spbase, sparray
from ._sputils import FORMATS, check_dtype, check_shape, index_dtype, on_device


def _device(device):
    return loom.default_device() if device is None else device


def _check_format(format):
    if format is not None and format not in FORMATS:
        raise ValueError(f"Format {format} is unknown.")


def _coo(triples, shape, is_array, nodup=True, canonical=None):
    data, row, col = triples
    idx = index_dtype(*shape, data.size)
    return CLASSES[("coo", is_array)]._build(data, row.astype(idx), col.astype(idx), shape, nodup, canonical)


def _diag_triples(values, k, m, n, device):
    """Row, column and value of the k-th diagonal of an (m, n) matrix, from the given values
    (one value broadcasts; a longer sequence is cut, as SciPy does)."""
    length = min(m + min(k, 0), n - max(k, 0))
    i = loom.arange(max(length, 0), dtype=loom.int64, device=device)
    if values.size == 1:
        vals = loom.broadcast_to(values.reshape(-1), (max(length, 0),))
    else:
        vals = values[:max(length, 0)]
    return vals, i + max(-k, 0), i + max(k, 0)


def eye(m, n=None, k=0, dtype=float, format=None, *, device=None):
    """Ones on the k-th diagonal of an (m, n) sparse matrix (CSR for format=None)."""
    return _eye(m, n, k, dtype, format, device, False)


def eye_array(m, n=None, *, k=0, dtype=float, format=None, device=None):
    """eye as a sparse array (csr_array for format=None)."""
    return _eye(m, n, k, dtype, format, device, True)


def _eye(m, n, k, dtype, format, device, is_array):
    _check_format(format)
    n = m if n is None else n
    m, n = check_shape((m, n))
    dev = _device(device)
    if m + k < 0 or n - k < 0:
        raise ValueError(f"Offset {k} (index 0) out of bounds")
    length = min(m + min(k, 0), n - max(k, 0))
    trip = _diag_triples(loom.ones(length, dtype=check_dtype(dtype), device=dev), k, m, n, dev)
    return _coo(trip, (m, n), is_array, canonical=True).asformat(format or "csr")


def identity(n, dtype="d", format=None, *, device=None):
    """The (n, n) identity as a sparse matrix (CSR for format=None)."""
    return eye(n, n, 0, dtype, format, device=device)


def diags(diagonals, offsets=0, shape=None, format=None, dtype=None, *, device=None):
    """A sparse matrix from diagonals (SciPy's diags): diagonals[i] goes on offsets[i]; a
    diagonal of one value broadcasts, a longer one is cut. format=None gives CSR (loom has no
    DIA). Integer diagonals give float64, as SciPy's diags does today."""
    return _diags(diagonals, offsets, shape, format, dtype, device, False)


def diags_array(diagonals, /, *, offsets=0, shape=None, format=None, dtype=None, device=None):
    """diags as a sparse array (csr_array for format=None)."""
    return _diags(diagonals, offsets, shape, format, dtype, device, True)


def _diags(diagonals, offsets, shape, format, dtype, device, is_array):
    _check_format(format)
    if isinstance(offsets, numbers.Integral):
        if len(diagonals) == 0 or np.ndim(diagonals[0]) == 0:
            diagonals = [diagonals]
        else:
            raise ValueError("Different number of diagonals and offsets.")
        offsets = [offsets]
    offsets = [int(k) for k in np.atleast_1d(np.asarray(offsets))]
    if len(diagonals) != len(offsets):
        raise ValueError("Different number of diagonals and offsets.")
    if len(set(offsets)) != len(offsets):
        raise ValueError("offset array contains duplicate values")
    dev = next((d.device for d in diagonals if isinstance(d, loom.ndarray)), _device(device))
    diagonals = [on_device(d, dev).reshape(-1) for d in diagonals]
    if shape is None:
        m = n = diagonals[0].size + abs(offsets[0]) if diagonals else 0
    else:
        m, n = check_shape(shape)
    if dtype is None:
        dt = loom.result_type(*[d.dtype for d in diagonals]) if diagonals else loom.float64
        dt = loom.float64 if dt.kind in "biu" else dt
    else:
        dt = check_dtype(dtype)
    parts = []
    for j, (d, k) in enumerate(zip(diagonals, offsets)):
        length = min(m + min(k, 0), n - max(k, 0))
        if length < 0:
            raise ValueError(f"Offset {k} (index {j}) out of bounds")
        if d.size != 1 and d.size < length:
            raise ValueError(f"Diagonal length (index {j}: {d.size} at offset {k}) does not agree with "
                             f"array size ({m}, {n}).")
        parts.append(_diag_triples(d.astype(dt), k, m, n, dev))
    trip = [loom.concatenate([p[i] for p in parts]) if parts else
            loom.zeros(0, dtype=dt if i == 0 else loom.int64, device=dev) for i in range(3)]
    # Distinct offsets never share a position: no repeats to sum.
    return _coo(trip, (m, n), is_array).asformat(format or "csr")


def _generator(rng):
    """A loom Generator from SciPy's rng argument: None, a seed, a loom Generator, or a loom
    or NumPy RandomState / NumPy Generator (which gives one seed for a loom Generator)."""
    if rng is None or isinstance(rng, (numbers.Integral, np.random.SeedSequence)):
        return loom.random.default_rng(rng)
    if isinstance(rng, loom.random.Generator):
        return rng
    if isinstance(rng, loom.random.RandomState):
        return loom.random.default_rng(int(rng.randint(2**31)))
    if isinstance(rng, np.random.Generator):
        return loom.random.default_rng(int(rng.integers(2**63)))
    if isinstance(rng, np.random.RandomState):
        return loom.random.default_rng(int(rng.randint(2**31)))
    raise TypeError(f"rng must be None, an int seed or a random generator, got {type(rng).__name__}")


def random(m, n, density=0.01, format="coo", dtype=None, rng=None, data_rvs=None, *, random_state=None,
           device=None):
    """A random (m, n) sparse matrix with round(density * m * n) stored values at distinct
    positions, drawn on the device with loom.random: the same seed gives other values than
    SciPy's (and the same ones on every loom device). Values: uniform in [0, 1) for floats
    (both parts for complex), the dtype's range for integers, True for bool; data_rvs(k)
    supplies them instead."""
    return _random((m, n), density, format, dtype, rng if rng is not None else random_state, data_rvs,
                   device, False)


def random_array(shape, *, density=0.01, format="coo", dtype=None, rng=None, data_sampler=None,
                 random_state=None, device=None):
    """random as a sparse array of `shape`; data_sampler(size) supplies the values."""
    return _random(shape, density, format, dtype, rng if rng is not None else random_state, data_sampler,
                   device, True)


def _random(shape, density, format, dtype, rng, data_rvs, device, is_array):
    _check_format(format)
    m, n = check_shape(shape)
    if not 0 <= density <= 1:
        raise ValueError("density expected to be 0 <= density <= 1")
    dt = loom.float64 if dtype is None else check_dtype(dtype)
    dev = _device(device)
    g = _generator(rng)
    k = int(round(density * m * n))
    pos = g.choice(m * n, size=k, replace=False, device=dev) if k else loom.zeros(0, dtype=loom.int64, device=dev)
    row = pos // max(n, 1)
    if data_rvs is not None:
        data = on_device(data_rvs(k), dev).astype(dt)
    elif dt.kind == "b":
        data = loom.ones(k, dtype=dt, device=dev)
    elif dt.kind in "iu":
        info = np.iinfo(np.dtype(dt.name))
        data = g.integers(int(info.min), int(info.max), size=k, dtype=dt, endpoint=True, device=dev)
    elif dt.kind == "c":
        part = loom.float32 if dt == loom.complex64 else loom.float64
        data = (g.random(k, dtype=part, device=dev) + 1j * g.random(k, dtype=part, device=dev)).astype(dt)
    else:
        data = g.random(k, dtype=dt, device=dev)
    return _coo((data, row, pos - row * n), (m, n), is_array).asformat(format)


def _as_sparse(x, is_array, device=None):
    if isinstance(x, _spbase):
        return x
    return CLASSES[("coo", is_array)](x, device=device)


def kron(A, B, format=None):
    """The Kronecker product: every stored value of A times every stored value of B, as
    COO for format=None (SciPy may give BSR)."""
    _check_format(format)
    is_array = isinstance(A, sparray) or isinstance(B, sparray)
    a = _as_sparse(A, is_array).tocoo()
    b = _as_sparse(B, is_array, a.device).tocoo()
    (am, an), (bm, bn) = a.shape, b.shape
    if a.nnz == 0 or b.nnz == 0:
        # SciPy's shortcut: an operand with no stored values gives an empty float64 matrix
        empty = loom.zeros(0, dtype=loom.float64, device=a.device)
        none = loom.zeros(0, dtype=loom.int64, device=a.device)
        return _coo((empty, none, none), (am * bm, an * bn), is_array).asformat(format)
    row = (a.row.astype(loom.int64)[:, None] * bm + b.row.astype(loom.int64)[None, :]).reshape(-1)
    col = (a.col.astype(loom.int64)[:, None] * bn + b.col.astype(loom.int64)[None, :]).reshape(-1)
    data = (a.data[:, None] * b.data[None, :]).reshape(-1)
    out = _coo((data, row, col), (am * bm, an * bn), is_array, nodup=a._nodup and b._nodup)
    return out.asformat(format)


def _stack(blocks, format, dtype, axis):
    _check_format(format)
    blocks = list(blocks)
    if not blocks or not all(isinstance(b, _spbase) for b in blocks):
        raise ValueError("blocks must be a non-empty sequence of sparse matrices")
    other = 1 - axis
    sizes = {b.shape[other] for b in blocks}
    if len(sizes) != 1:
        if axis == 0:
            raise ValueError("incompatible dimensions for axis 1")
        raise ValueError(f"Mismatching dimensions along axis 0: {sizes}")
    is_array = any(isinstance(b, sparray) for b in blocks)
    dt = loom.result_type(*[b.dtype for b in blocks]) if dtype is None else check_dtype(dtype)
    coos = [b.tocoo() for b in blocks]
    offsets = np.cumsum([0] + [b.shape[axis] for b in blocks])
    shift = [c.row if axis == 0 else c.col for c in coos]
    keep = [c.col if axis == 0 else c.row for c in coos]
    moved = loom.concatenate([s.astype(loom.int64) + int(o) for s, o in zip(shift, offsets)])
    kept = loom.concatenate([s.astype(loom.int64) for s in keep])
    data = loom.concatenate([c.data.astype(dt) for c in coos])
    shape = (int(offsets[-1]), sizes.pop()) if axis == 0 else (sizes.pop(), int(offsets[-1]))
    row, col = (moved, kept) if axis == 0 else (kept, moved)
    nodup = all(c._nodup for c in coos)
    out = _coo((data, row, col), shape, is_array, nodup=nodup,
               canonical=axis == 0 and all(c._canonical for c in coos) or None)
    formats = {b.format for b in blocks}
    if format is None and len(formats) == 1 and formats <= {"csr", "csc"}:
        format = formats.pop()  # SciPy keeps a common compressed format
    return out.asformat(format)


def vstack(blocks, format=None, dtype=None):
    """Blocks one above the other (COO unless all are CSR, or all CSC, for format=None)."""
    return _stack(blocks, format, dtype, 0)


def hstack(blocks, format=None, dtype=None):
    """Blocks side by side (COO unless all are CSR, or all CSC, for format=None)."""
    return _stack(blocks, format, dtype, 1)


def kronsum(A, B, format=None):
    """The Kronecker sum of square A (m x m) and B (n x n): kron(I_n, A) + kron(B, I_m), CSR
    for format=None, as SciPy's."""
    _check_format(format)
    is_array = isinstance(A, sparray) or isinstance(B, sparray)
    a = _as_sparse(A, is_array)
    b = _as_sparse(B, is_array, a.device)
    for name, x in (("A", a), ("B", b)):
        if x.shape[0] != x.shape[1]:
            raise ValueError(f"{name} is not square")
    dt = loom.result_type(a.dtype, b.dtype)
    left = kron(_eye(b.shape[0], b.shape[0], 0, dt, "coo", a.device, is_array), a)
    right = kron(b, _eye(a.shape[0], a.shape[0], 0, dt, "coo", a.device, is_array))
    return (left + right).asformat(format or "csr")


def bmat(blocks, format=None, dtype=None):
    """A sparse matrix from a 2-d grid of sparse blocks (None for an all-zero block); each
    block row has one height and each block column one width (0 where it holds only None).
    COO for format=None."""
    _check_format(format)
    grid = [list(r) for r in blocks]
    if not grid or any(len(r) != len(grid[0]) for r in grid) or not grid[0]:
        raise ValueError("blocks must be 2-D")
    present = [(i, j, b) for i, r in enumerate(grid) for j, b in enumerate(r) if b is not None]
    if not present:  # an empty (0, 0) matrix, as SciPy's
        dt = loom.float64 if dtype is None else check_dtype(dtype)
        empty, none = loom.zeros(0, dtype=dt), loom.zeros(0, dtype=loom.int64)
        return _coo((empty, none, none), (0, 0), False).asformat(format)
    is_array = any(isinstance(b, sparray) for _, _, b in present)
    device = next(b.device for _, _, b in present if isinstance(b, _spbase))
    present = [(i, j, _as_sparse(b, is_array, device)) for i, j, b in present]
    heights, widths = [None] * len(grid), [None] * len(grid[0])
    for i, j, b in present:
        for sizes, k, axis, where in ((heights, i, 0, f"blocks[{i},:] has incompatible row"),
                                      (widths, j, 1, f"blocks[:,{j}] has incompatible column")):
            n = b.shape[axis]
            if sizes[k] is None:
                sizes[k] = n
            elif sizes[k] != n:
                raise ValueError(f"{where} dimensions. Got blocks[{i},{j}].shape[{axis}] == {n}, "
                                 f"expected {sizes[k]}.")
    heights = [h or 0 for h in heights]  # a block row or column of None only is empty (SciPy's)
    widths = [w or 0 for w in widths]
    r0, c0 = np.cumsum([0] + heights), np.cumsum([0] + widths)
    dt = loom.result_type(*[b.dtype for _, _, b in present]) if dtype is None else check_dtype(dtype)
    coos = [(i, j, b.tocoo()) for i, j, b in present]
    data = loom.concatenate([c.data.astype(dt) for _, _, c in coos])
    row = loom.concatenate([c.row.astype(loom.int64) + int(r0[i]) for i, _, c in coos])
    col = loom.concatenate([c.col.astype(loom.int64) + int(c0[j]) for _, j, c in coos])
    out = _coo((data, row, col), (int(r0[-1]), int(c0[-1])), is_array, nodup=all(c._nodup for _, _, c in coos))
    formats = {b.format for _, _, b in present}
    if format is None and len(present) == len(grid) * len(grid[0]) and formats in ({"csr"}, {"csc"}):
        format = formats.pop()  # SciPy keeps the format when every block is CSR (or every one CSC)
    return out.asformat(format)


def rand(m, n, density=0.01, format="coo", dtype=None, rng=None, *, random_state=None, device=None):
    """scipy.sparse.rand: random() with uniform values."""
    return random(m, n, density=density, format=format, dtype=dtype, rng=rng, random_state=random_state,
                  device=device)
