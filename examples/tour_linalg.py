"""The tour's linear-algebra section: loom.linalg's decompositions (numpy.linalg's names;
LAPACK on cpu(), cuSOLVER on GPUs), checked against NumPy (imported by tour.py; runs on its
own too)."""
import numpy as np

import loom


def decompositions(default, section, check):
    section("Linear algebra: decompositions")
    rng = np.random.default_rng(5)
    n = 64
    a = rng.standard_normal((n, n)) + n * np.eye(n)
    b = rng.standard_normal((n, 3))
    la, lb = loom.asarray(a, device=default), loom.asarray(b, device=default)
    check("solve", loom.linalg.solve(la, lb), np.linalg.solve(a, b), rtol=1e-10)
    spd = a @ a.T
    check("cholesky (lower)", loom.linalg.cholesky(loom.asarray(spd, device=default)), np.linalg.cholesky(spd),
          rtol=1e-10, atol=1e-10)
    w, v = loom.linalg.eigh(loom.asarray(spd, device=default))
    check("eigh: eigenvalues ascending", w, np.linalg.eigvalsh(spd), rtol=1e-10)
    s = loom.linalg.svdvals(la)
    check("svdvals", s, np.linalg.svd(a, compute_uv=False), rtol=1e-10)
    # A batch of 1000 small systems is one call (one batched LU on a GPU).
    stack = rng.standard_normal((1000, 4, 4)) + 4 * np.eye(4)
    check("inv of 1000 4x4 matrices", loom.linalg.inv(loom.asarray(stack, device=default)), np.linalg.inv(stack),
          rtol=1e-9)
    # Complex matrices and eig: complex results for every input (NumPy returns real ones when
    # all eigenvalues happen to be real).
    rot = np.array([[0.0, -1.0], [1.0, 0.0]])
    ew = loom.linalg.eigvals(loom.asarray(rot, device=default))
    print(f"  eigvals of a rotation by 90 degrees: {np.sort_complex(ew.numpy())} ({ew.dtype})")
    z = (rng.standard_normal((8, 8)) + 1j * rng.standard_normal((8, 8))).astype(np.complex64)
    q, r = loom.linalg.qr(loom.asarray(z, device=default))
    check("complex64 qr: q @ r", q @ r, z, rtol=1e-4, atol=1e-4)
    try:
        loom.linalg.inv(loom.zeros((2, 3, 3), device=default))
    except np.linalg.LinAlgError as e:
        print(f"  singular input: LinAlgError: {e}")


if __name__ == "__main__":
    # On its own (python examples/tour_linalg.py): this section of the tour on the default device,
    # with the tour's heading and NumPy comparison helpers.
    from tour import check, section
    decompositions(loom.try_gpu(), section, check)
