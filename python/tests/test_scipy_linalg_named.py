"""loom.scipy.linalg's named matrices (hadamard ... khatri_rao, bandwidth) and batched
solve_triangular against scipy.linalg, on every device."""
import numpy as np
import pytest
import scipy.linalg as sl

import loom
from loom.scipy import linalg as ll
from scipy_compare import check, same_error


def test_matrices_of_a_size():
    for n in (1, 2, 4, 8):
        check(ll.hadamard(n), sl.hadamard(n))
        check(ll.hadamard(n, dtype=float), sl.hadamard(n, dtype=float))
    for n in (3, 0, 6):
        same_error(lambda: ll.hadamard(n), lambda: sl.hadamard(n))
    for n in (1, 2, 5):
        check(ll.helmert(n), sl.helmert(n))
        check(ll.helmert(n, full=True), sl.helmert(n, full=True))
    for n in (0, 1, 4, 7):
        check(ll.hilbert(n), sl.hilbert(n))
        for scale in (None, "sqrtn", "n"):
            check(ll.dft(n, scale=scale), sl.dft(n, scale=scale))
    same_error(lambda: ll.dft(3, scale="bad"), lambda: sl.dft(3, scale="bad"))


def test_matrices_of_arrays(device, rng):
    on = lambda x: loom.asarray(x, device=device)  # noqa: E731
    for f, s in ((rng.random(3), rng.random(2)), (np.array([1, 2, 3]), np.array([5, 2])),
                 (rng.random((2, 4)), rng.random((2, 3)))):
        check(ll.leslie(on(f), on(s)), sl.leslie(f, s), device=device)
    for f, s in ((np.array([1.0, 2]), np.array([0.5, 0.2])), (np.array([1.0]), np.array([]))):
        same_error(lambda: ll.leslie(on(f), on(s)), lambda: sl.leslie(f, s))
    for a in (np.array([1, 4, 2]), rng.random((2, 3))):
        check(ll.fiedler(on(a)), sl.fiedler(a), device=device)
    for m, n in ((3, 4), (4, 3), (1, 5), (5, 1), (4, 4)):
        a = rng.random(m)
        for mode in ("full", "same", "valid"):
            got = ll.convolution_matrix(on(a), n, mode=mode)
            check(got, sl.convolution_matrix(a, n, mode=mode), device=device)
            v = rng.random(n)  # its definition
            np.testing.assert_allclose(got.numpy() @ v, np.convolve(a, v, mode))
    for args in ((np.array([1, 2, 3]), 0), (np.array([1.0, 2]), 2, "x")):
        same_error(lambda: ll.convolution_matrix(on(args[0]), *args[1:]), lambda: sl.convolution_matrix(*args))
    a, b = rng.random((2, 3)), rng.random((4, 3))
    check(ll.khatri_rao(on(a), on(b)), sl.khatri_rao(a, b), device=device)
    same_error(lambda: ll.khatri_rao(on(a), on(b[:, :2])), lambda: sl.khatri_rao(a, b[:, :2]))
    for m in (np.triu(rng.random((4, 4))), np.tril(rng.random((5, 3)), -1), np.zeros((3, 3)),
              np.diag([1.0, 2, 3]) + np.diag([1.0, 1], 1)):
        assert ll.bandwidth(on(m)) == tuple(sl.bandwidth(m))
    same_error(lambda: ll.bandwidth(on(np.ones(3))), lambda: sl.bandwidth(np.ones(3)))


@pytest.mark.parametrize("b_shape", [(4, 3, 2), (3,), (3, 2), (2, 4, 3, 2), (1, 3, 2), (4, 3)])
@pytest.mark.parametrize("kw", [{}, {"trans": 1}, {"trans": "C", "unit_diagonal": True}, {"lower": True}])
def test_solve_triangular_batches(device, rng, b_shape, kw):
    a = np.triu(rng.standard_normal((4, 3, 3))) + 3 * np.eye(3)
    a = a + np.tril(rng.standard_normal((4, 3, 3)), -1)  # the other triangle is never read
    b = rng.standard_normal(b_shape)
    la, lb = loom.asarray(a, device=device), loom.asarray(b, device=device)
    try:
        want = sl.solve_triangular(a, b, **kw)
    except ValueError:
        same_error(lambda: ll.solve_triangular(la, lb, **kw), lambda: sl.solve_triangular(a, b, **kw))
        return
    check(ll.solve_triangular(la, lb, **kw), want, device=device, rtol=1e-10)
