"""svd and svdvals of stacks of small matrices, which a GPU factors with one gesvdjBatched
call (matrices up to 32 x 32; its full U and V, V not V^H, mapped onto loom's u, s, vh and cut
to economy size), and just past that size, where it keeps the per-matrix path. Against
NumPy: the singular values, the reconstruction u s vh, and unitary factors, for real and
complex, tall, wide and square matrices, full and reduced."""
import numpy as np
import pytest

import loom

TOL = {"float32": 2e-5, "float64": 1e-12, "complex64": 2e-5, "complex128": 1e-12}
SHAPES = [(300, 8, 8), (40, 5, 9), (40, 9, 5), (6, 32, 32), (3, 2, 17, 3), (5, 33, 4)]


def rand(rng, shape, dtype):
    a = rng.standard_normal(shape)
    if dtype.startswith("complex"):
        a = a + 1j * rng.standard_normal(shape)
    return a.astype(dtype)


def unitary(q, tol):
    eye = np.eye(q.shape[-1])
    np.testing.assert_allclose(np.conj(np.swapaxes(q, -1, -2)) @ q, np.broadcast_to(eye, q.shape[:-2] + eye.shape),
                               atol=tol * 10)


@pytest.mark.parametrize("dtype", sorted(TOL))
@pytest.mark.parametrize("shape", SHAPES)
def test_svd_of_many_small_matrices(device, rng, dtype, shape):
    a = rand(rng, shape, dtype)
    tol = TOL[dtype] * max(shape[-2:])
    x = loom.asarray(a, device=device)
    want_s = np.linalg.svd(a, compute_uv=False)
    np.testing.assert_allclose(loom.linalg.svdvals(x).numpy(), want_s, rtol=tol, atol=tol)
    k = min(shape[-2:])
    for full in (True, False):
        u, s, vh = loom.linalg.svd(x, full_matrices=full)
        U, S, VH = np.linalg.svd(a, full_matrices=full)
        assert (u.shape, s.shape, vh.shape) == (U.shape, S.shape, VH.shape)
        assert (u.dtype, s.dtype, vh.dtype) == (U.dtype, S.dtype, VH.dtype)
        np.testing.assert_allclose(s.numpy(), want_s, rtol=tol, atol=tol)
        uu, vv = u.numpy(), vh.numpy()
        recon = (uu[..., :, :k] * s.numpy()[..., None, :]) @ vv[..., :k, :]
        np.testing.assert_allclose(recon, a, rtol=tol, atol=tol * 4)
        unitary(uu, tol)
        unitary(np.conj(np.swapaxes(vv, -1, -2)), tol)
