"""expm: the matrix exponential by scaling and squaring with Pade approximants (Higham 2005,
"The scaling and squaring method for the matrix exponential revisited"), all on loom matmuls.
The degree (3, 5, 7, 9 or 13) and the number of squarings come from the 1-norm: one scalar
read to the host per call (the largest norm of a stack)."""
import math

import numpy as np

import loom

from .. import _util

_THETA = {3: 1.495585217958292e-2, 5: 2.539398330063230e-1, 7: 9.504178996162932e-1,
          9: 2.097847961257068e0}
_THETA13 = 5.371920351148152
_B = {3: (120., 60., 12., 1.),
      5: (30240., 15120., 3360., 420., 30., 1.),
      7: (17297280., 8648640., 1995840., 277200., 25200., 1512., 56., 1.),
      9: (17643225600., 8821612800., 2075673600., 302702400., 30270240., 2162160., 110880.,
          3960., 90., 1.),
      13: (64764752532480000., 32382376266240000., 7771770303897600., 1187353796428800.,
           129060195264000., 10559470521600., 670442572800., 33522128640., 1323241920.,
           40840800., 960960., 16380., 182., 1.)}


def _pade(a, m, eye):
    b = _B[m]
    if m < 13:
        powers = [eye, a @ a]
        while len(powers) < (m + 1) // 2:
            powers.append(powers[-1] @ powers[1])
        u = sum(b[2 * k + 1] * p for k, p in enumerate(powers))
        v = sum(b[2 * k] * p for k, p in enumerate(powers))
        return a @ u, v
    a2 = a @ a
    a4 = a2 @ a2
    a6 = a4 @ a2
    u = a @ (a6 @ (b[13] * a6 + b[11] * a4 + b[9] * a2) + b[7] * a6 + b[5] * a4 + b[3] * a2 + b[1] * eye)
    v = a6 @ (b[12] * a6 + b[10] * a4 + b[8] * a2) + b[6] * a6 + b[4] * a4 + b[2] * a2 + b[0] * eye
    return u, v


def expm(A):
    """The matrix exponential of A, or of each matrix of a stack (..., n, n) (scipy.linalg.expm)."""
    a = _util.inexact(A)
    if a.ndim < 2:
        raise np.linalg.LinAlgError("The input array must be at least two-dimensional")
    if a.shape[-1] != a.shape[-2]:
        raise np.linalg.LinAlgError("Last 2 dimensions of the array must be square")
    n = a.shape[-1]
    if a.size == 0:
        return a.copy()
    if n == 1:
        return loom.exp(a)
    eye = loom.eye(n, dtype=a.dtype, device=a.device)
    norm1 = float(loom.max(loom.sum(loom.abs(a), axis=-2)))
    for m in (3, 5, 7, 9):
        if norm1 <= _THETA[m]:
            u, v = _pade(a, m, eye)
            return loom.linalg.solve(v - u, v + u)
    s = max(0, int(math.ceil(math.log2(norm1 / _THETA13)))) if norm1 > 0 and math.isfinite(norm1) else 0
    u, v = _pade(a / (2.0 ** s), 13, eye)
    r = loom.linalg.solve(v - u, v + u)
    for _ in range(s):
        r = r @ r
    return r
