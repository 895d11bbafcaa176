"""lfilter, sosfilt and their steady-state initial conditions (scipy.signal), without a
Python loop over samples.

A filter is a state-space system (A, B, C, D) with SciPy's state (direct form II transposed,
the zi/zf of lfilter; sections in series for sosfilt). The signal is cut into blocks of L
samples. Within a block the output is the zero-state response, one matmul with the L x L
Toeplitz matrix of the impulse response, plus the response to the block's starting state.
The starting states follow z[j+1] = A^L z[j] + u[j], a linear recurrence over blocks, which a
doubling scan solves in log2(blocks) steps of batched matmuls. The small matrices (powers of
A, the impulse response) are built on the host from the coefficients; the signal never leaves
its device. Exact up to rounding for stable filters; a C++ primitive (a sequential scan per
row) would do less arithmetic."""
import numpy as np

import loom

from .. import _util

_BLOCK = 128                     # fastest of 16..256 for 10^6 samples on cpu()


def _coefficients(b, a):
    b = np.atleast_1d(_util.host_table(b, None))
    a = np.atleast_1d(_util.host_table(a, None))
    if b.ndim != 1 or b.size == 0:
        raise ValueError(f"Parameter b is not a non-empty 1d array, since b.shape={b.shape}!")
    if a.ndim != 1 or a.size == 0:
        raise ValueError(f"Parameter a is not a non-empty 1d array, since a.shape={a.shape}!")
    return b, a


def _df2t(b, a):
    """(A, B, C, D) of direct form II transposed, the state SciPy's lfilter keeps."""
    with np.errstate(divide="ignore", invalid="ignore"):
        b, a = b / a[0], a / a[0]
    p = max(len(a), len(b)) - 1
    dt = np.result_type(b, a, np.float64)
    bb = np.zeros(p + 1, dt)
    aa = np.zeros(p + 1, dt)
    bb[:len(b)], aa[:len(a)] = b, a
    A = np.zeros((p, p), dt)
    if p:  # a gain alone (len(a) == len(b) == 1) keeps no state
        A[:, 0] = -aa[1:]
        A[np.arange(p - 1), np.arange(1, p)] = 1
    B = bb[1:] - aa[1:] * bb[0]
    C = np.zeros(p, dt)
    if p:
        C[0] = 1
    return A, B, C, bb[0]


def _series(first, second):
    """The system `second` fed by `first`."""
    A1, B1, C1, D1 = first
    A2, B2, C2, D2 = second
    p1, p2 = len(B1), len(B2)
    dt = np.result_type(A1, A2)
    A = np.zeros((p1 + p2, p1 + p2), dt)
    A[:p1, :p1] = A1
    A[p1:, :p1] = np.outer(B2, C1)
    A[p1:, p1:] = A2
    return A, np.concatenate([B1, B2 * D1]), np.concatenate([D2 * C1, C2]), D2 * D1


def _block_matrices(A, B, C, D, L):
    """T (L, L), O (L, p), A^L (p, p), R (p, L): y = T x + O z0, z_L = A^L z0 + R x."""
    p = len(B)
    dt = np.result_type(A, B, C, D)
    h = np.zeros(L, dt)
    h[0] = D
    O = np.zeros((L, p), dt)
    R = np.zeros((p, L), dt)
    row = C.astype(dt)
    col = B.astype(dt)
    for t in range(L):
        O[t] = row
        if t + 1 < L:
            h[t + 1] = row @ B
        R[:, L - 1 - t] = col
        row = row @ A
        col = A @ col
    idx = np.arange(L)
    T = np.where(idx[:, None] >= idx[None, :], h[np.abs(idx[:, None] - idx[None, :])], 0)
    return T, O, np.linalg.matrix_power(A, L) if p else np.zeros((0, 0), dt), R


def _run(system, x, axis, zi, dt):
    """Filter x along axis through the system, computing in dt; (y, zf)."""
    A, B, C, D = system
    p = len(B)
    n = x.shape[axis]
    xm = loom.moveaxis(x, axis, -1)
    batch = xm.shape[:-1]
    dev = x.device

    def dev_(m):
        return loom.asarray(np.ascontiguousarray(m), device=dev).astype(dt)

    rows = int(np.prod(batch))
    xm = xm.astype(dt).reshape(rows, n)
    z0 = (loom.zeros((rows, p), dtype=dt, device=dev) if zi is None
          else loom.moveaxis(zi, axis, -1).astype(dt).reshape(rows, p))
    if n == 0:
        y = xm
        zf = z0
    else:
        L = min(_BLOCK, n)
        nb = -(-n // L)
        T, O, AL, R = _block_matrices(A, B, C, D, L)
        xb = loom.pad(xm, [(0, 0), (0, nb * L - n)]).reshape(rows, nb, L)
        y0 = xb @ dev_(T.T)                                   # zero-state responses
        if p:
            # States at block starts: z[0] = z0, z[j+1] = AL z[j] + u[j].
            s = xb @ dev_(R.T)                                 # u[j], (rows, nb, p)
            s = s.at[:, 0].add(z0 @ dev_(AL.T))                # u[0] += AL z0: s[j] becomes z[j+1]
            d, Gd = 1, AL
            while d < nb:
                shifted = loom.concatenate([loom.zeros((rows, d, p), dtype=dt, device=dev), s[:, :-d]], axis=1)
                s = s + shifted @ dev_(Gd.T)
                Gd = Gd @ Gd
                d *= 2
            starts = loom.concatenate([z0[:, None, :], s[:, :-1]], axis=1)
            y0 = y0 + starts @ dev_(O.T)
            # The state after the last sample: the last block's start run for its real length.
            last = n - (nb - 1) * L
            _, _, ALr, Rr = _block_matrices(A, B, C, D, last)
            zf = starts[:, -1] @ dev_(ALr.T) + xb[:, -1, :last] @ dev_(Rr.T)
        else:
            zf = loom.zeros((rows, 0), dtype=dt, device=dev)
        y = y0.reshape(rows, nb * L)[:, :n]
    # fresh C-ordered arrays, as SciPy returns (a moved axis is a strided view)
    y = loom.ascontiguousarray(loom.moveaxis(y.reshape(batch + (n,)), -1, axis))
    zf = loom.ascontiguousarray(loom.moveaxis(zf.reshape(batch + (p,)), -1, axis))
    return y, zf


def _dtype(x, zi, *tables):
    """SciPy's result type of the signal, the state and the coefficients (floats at least)."""
    dt = np.result_type(*tables, np.dtype(x.dtype.name), *([np.dtype(zi.dtype.name)] if zi is not None else []))
    if dt.kind in "biu":
        dt = np.dtype(np.float64)
    return getattr(loom, dt.name)


def _check_zi(zi, x, axis, k, name="zi"):
    zi = _util.asarray(zi)
    expected = list(x.shape)
    expected[axis] = k
    expected = tuple(expected)
    if zi.shape != expected:
        ok = zi.ndim == len(expected) and all(z in (e, 1) for z, e in zip(zi.shape, expected)) and zi.shape[axis] == k
        if not ok:
            raise ValueError(f"Unexpected shape for parameter {name}: expected {expected}, found {tuple(zi.shape)}.")
        zi = loom.broadcast_to(zi, expected)
    return zi


def lfilter(b, a, x, axis=-1, zi=None):
    """Filter x along axis with the rational transfer function b(z)/a(z) (scipy.signal.lfilter);
    with zi (the direct form II transposed state, shape of x with max(len(a), len(b)) - 1
    along axis) it returns (y, zf)."""
    b, a = _coefficients(b, a)
    x = _util.asarray(x)
    if x.ndim == 0:
        raise ValueError("x must be at least 1-D")
    axis = _util.normalize_axis(axis, x.ndim)
    system = _df2t(b, a)
    k = len(system[1])
    if x.dtype.kind in "biu":
        x = x.astype(loom.float64)
    if zi is not None:
        zi = _check_zi(zi, x, axis, k)
    y, zf = _run(system, x, axis, zi, _dtype(x, zi, b, a))
    return y if zi is None else (y, zf)


def _sections(sos):
    sos = np.atleast_2d(_util.host_table(sos, None))
    if sos.ndim != 2 or sos.shape[1] != 6:
        raise ValueError("sos array must be shape (n_sections, 6)")
    if not np.all(sos[:, 3] == 1):
        raise ValueError("sos[:, 3] should be all ones")
    return sos


def sosfilt(sos, x, axis=-1, zi=None):
    """Filter x along axis with cascaded second-order sections (scipy.signal.sosfilt);
    zi has shape (n_sections, ..., 2, ...) and then (y, zf) is returned."""
    sos = _sections(sos)
    x = _util.asarray(x)
    axis = _util.normalize_axis(axis, x.ndim)
    if x.dtype.kind in "biu":
        x = x.astype(loom.float64)
    n_sections = sos.shape[0]
    system = None
    for row in sos:
        section = _df2t(row[:3], row[3:])
        A, B, C, D = section
        if len(B) < 2:                               # keep two states per section, as SciPy does
            A2 = np.zeros((2, 2), A.dtype)
            A2[:len(B), :len(B)] = A
            section = (A2, np.pad(B, (0, 2 - len(B))), np.pad(C, (0, 2 - len(C))), D)
        system = section if system is None else _series(system, section)
    if zi is not None:
        zi = _util.asarray(zi)
        shape = list(x.shape)
        shape[axis] = 2
        expected = (n_sections,) + tuple(shape)
        if tuple(zi.shape) != expected:
            raise ValueError(f"Invalid zi shape. With axis={axis}, an input with shape {tuple(x.shape)}, "
                             f"and an sos array with {n_sections} sections, zi must have shape {expected}, "
                             f"got {tuple(zi.shape)}.")
        zi_all = loom.concatenate([zi[s] for s in range(n_sections)], axis=axis)
    else:
        zi_all = None
    y, zf = _run(system, x, axis, zi_all, _dtype(x, zi, sos))
    if zi is None:
        return y
    zf = loom.stack([loom.take(zf, loom.arange(2 * s, 2 * s + 2, device=x.device), axis=axis)
                     for s in range(n_sections)])
    return y, zf


def lfilter_zi(b, a):
    """The steady-state of lfilter for a step input (scipy.signal.lfilter_zi), on the default device."""
    b, a = _coefficients(b, a)
    A, B, _, _ = _df2t(b, a)
    p = len(B)
    if not p:  # a pure gain has no state; SciPy's companion matrix refuses it
        raise ValueError("[lfilter_zi] The length of `a` along the last axis must be at least 2.")
    return loom.asarray(np.linalg.solve(np.eye(p) - A, B).astype(_state_dtype(b, a)))


def _state_dtype(*tables):
    """SciPy's dtype of lfilter_zi and sosfilt_zi: the coefficients' (float32 stays float32),
    float64 for integers."""
    dt = np.result_type(*tables)
    return np.dtype(np.float64) if dt.kind in "biu" else dt


def sosfilt_zi(sos):
    """The steady-state of sosfilt for a step input, shape (n_sections, 2) (scipy.signal.sosfilt_zi)."""
    sos = _sections(sos)
    zi = np.zeros((sos.shape[0], 2), np.result_type(sos, np.float64))
    scale = 1.0
    for s, row in enumerate(sos):
        A, B, _, _ = _df2t(row[:3], row[3:])
        A2 = np.zeros((2, 2), A.dtype)
        A2[:len(B), :len(B)] = A
        B2 = np.pad(B, (0, 2 - len(B)))
        zi[s] = scale * np.linalg.solve(np.eye(2) - A2, B2)
        scale *= row[:3].sum() / row[3:].sum()
    return loom.asarray(zi.astype(_state_dtype(sos)))
