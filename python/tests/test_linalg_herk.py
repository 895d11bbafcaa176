"""x @ x.conj().T as a Hermitian rank-k update: x.conj() remembers x (its buffer's origin),
and matmul runs the product on x alone (cherk/zherk, the other triangle its conjugate, the
diagonal exactly real) while neither buffer has been written since. Every test compares
with NumPy on the values the arrays hold when the product runs; writes after the conjugate
must make matmul fall back to the plain product."""
import numpy as np
import pytest

import loom

HERK_SIZES = [(60, 37), (5, 200), (1, 9), (33, 1)]
# Big enough that a GPU runs per-matrix cuBLAS calls (n * n * k >= 2^24), not a batched GEMM.
GPU_RANK_K = (300, 190)


def crand(rng, shape, dtype):
    x = rng.standard_normal(shape) + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def fresh(x, device):
    """A loom array with memory of its own (loom.asarray of a NumPy array on cpu() shares
    NumPy's memory, which loom cannot track, so its conjugates are never reused)."""
    return loom.array(x, device=device, copy=True)


def tol(dtype, k):
    return (3e-6 if dtype in ("complex64", "float32") else 1e-14) * max(k, 8)


def check(got, want, dtype, k):
    t = tol(dtype, k)
    np.testing.assert_allclose(got, want, rtol=t, atol=t * max(1.0, np.abs(want).max()))


def matmul_kinds(fn):
    """The traceable flags of the matmul records `fn` dispatched: False is the Hermitian one."""
    rec = loom._loom._DispatchRecorder()
    rec.start()
    try:
        out = fn()
        out.block_until_ready()
    finally:
        rec.stop()
    return out, [tr for name, _, _, tr in rec.events() if name == "matmul"]


def assert_hermitian_exact(g):
    np.testing.assert_array_equal(g, np.conj(np.swapaxes(g, -1, -2)))
    np.testing.assert_array_equal(np.diagonal(g, axis1=-2, axis2=-1).imag, 0)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("shape", HERK_SIZES)
def test_hermitian_products_match_numpy(device, rng, dtype, shape):
    x = crand(rng, shape, dtype)
    xl = fresh(x, device)
    cases = [
        (lambda: xl @ xl.conj().T, x @ x.conj().T),
        (lambda: xl.conj().T @ xl, x.conj().T @ x),
        (lambda: xl @ xl.T.conj(), x @ x.T.conj()),
        (lambda: xl.T.conj() @ xl, x.T.conj() @ x),
        (lambda: xl.conj() @ xl.T, x.conj() @ x.T),  # the conjugate on the left: conj(x x^H)
        (lambda: xl.T @ xl.conj(), x.T @ x.conj()),
        (lambda: loom.matmul(xl, loom.conj(xl).T), x @ x.conj().T),
        (lambda: np.matmul(xl, np.conj(xl).T), x @ x.conj().T),
    ]
    for fn, want in cases:
        out, kinds = matmul_kinds(fn)
        g = out.numpy()
        check(g, want, dtype, max(shape))
        if min(shape) > 1:  # a row or a column reads as row-major either way: a plain product
            assert kinds == [False], kinds  # one Hermitian update, no GEMM
            assert_hermitian_exact(g)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_hermitian_batched_and_views(device, rng, dtype):
    x = crand(rng, (3, 40, 25), dtype)
    xl = fresh(x, device)
    xc = xl.conj()
    cases = [
        (lambda: xl @ loom.swapaxes(xc, 1, 2), x @ np.swapaxes(x.conj(), 1, 2)),
        (lambda: xc.mT @ xl, np.swapaxes(x.conj(), 1, 2) @ x),
        (lambda: xl[1] @ xc[1].T, x[1] @ x[1].conj().T),  # a slice of the conjugate
        (lambda: xl[2, 5:30, 3:20] @ xc[2, 5:30, 3:20].T, x[2, 5:30, 3:20] @ x[2, 5:30, 3:20].conj().T),
        (lambda: xl[0, :, 4:11].conj().T @ xl[0, :, 4:11], x[0, :, 4:11].conj().T @ x[0, :, 4:11]),
    ]
    for fn, want in cases:
        out, kinds = matmul_kinds(fn)
        assert kinds and not any(kinds), kinds
        g = out.numpy()
        check(g, want, dtype, 40)
        assert_hermitian_exact(g)
    # Conjugates of strided sources: every other row, and a transposed view.
    s = xl[0, ::2]
    out, kinds = matmul_kinds(lambda: s @ s.conj().T)
    assert kinds == [False]
    check(out.numpy(), x[0, ::2] @ x[0, ::2].conj().T, dtype, 25)
    t = xl[1].T
    out, kinds = matmul_kinds(lambda: t @ t.conj().T)
    assert kinds == [False]
    check(out.numpy(), x[1].T @ x[1].conj(), dtype, 40)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_non_hermitian_pairs_stay_general(device, rng, dtype):
    x = crand(rng, (30, 30), dtype)
    xl = fresh(x, device)
    xc = xl.conj()
    cases = [
        (lambda: xl @ xc, x @ x.conj()),  # not transposed
        (lambda: xl[::-1] @ xc.T, x[::-1] @ x.conj().T),  # rows reversed on one side only
        (lambda: xl[1:] @ xc[:-1].T, x[1:] @ x[:-1].conj().T),  # shifted
        (lambda: xl[:, :20] @ xc[:, 5:25].T, x[:, :20] @ x[:, 5:25].conj().T),
        (lambda: xc @ xc.T, x.conj() @ x.conj().T),  # both conjugated: symmetric, not Hermitian
    ]
    for fn, want in cases:
        out, kinds = matmul_kinds(fn)
        assert kinds == [True], kinds
        check(out.numpy(), want, dtype, 30)


def _writes(xp):
    """Ways to write x (or its conjugate c) between the conjugate and the product."""
    def setitem(x, c):
        x[0, 0] = 5 - 2j

    def inplace(x, c):
        x += 1j

    def real_view(x, c):
        x.real[1] = 0.25

    def copyto(x, c):
        ones = xp.ones(x.shape, dtype=x.dtype) if xp is np else xp.ones(x.shape, dtype=x.dtype, device=x.device)
        xp.copyto(x, ones * 0.5j)

    def out_kw(x, c):
        xp.multiply(x, 2, out=x)

    def conj_written(x, c):
        c[2, 1] = 7j

    def conj_inplace(x, c):
        c *= 3
    return [setitem, inplace, real_view, copyto, out_kw, conj_written, conj_inplace]


@pytest.mark.parametrize("which", range(7))
def test_writes_after_the_conjugate_are_seen(device, rng, which):
    x = crand(rng, (12, 9), "complex128")
    xl = fresh(x, device)
    cl = xl.conj()
    xn, cn = x.copy(), x.conj()
    _writes(loom)[which](xl, cl)
    _writes(np)[which](xn, cn)
    np.testing.assert_array_equal(xl.numpy(), xn)
    for fn, want in ((lambda: xl @ cl.T, xn @ cn.T), (lambda: cl.T @ xl, cn.T @ xn)):
        out, kinds = matmul_kinds(fn)
        assert kinds == [True], kinds  # stale: the plain product
        check(out.numpy(), want, "complex128", 12)


def test_memory_shared_with_numpy_is_never_trusted(rng):
    x = crand(rng, (10, 6), "complex128")
    old = x.copy()
    xl = loom.asarray(x, device=loom.cpu())  # a view of x's memory
    cl = xl.conj()
    x[0, 0] = 3 + 3j  # written behind loom's back
    out, kinds = matmul_kinds(lambda: xl @ cl.T)
    assert kinds == [True]
    check(out.numpy(), x @ old.conj().T, "complex128", 10)
    # An array of loom's own whose memory was handed to NumPy later is untracked from then on.
    yl = fresh(x, loom.cpu())
    cy = yl.conj()
    view = np.asarray(yl)
    view[1, 1] = -4j
    out, kinds = matmul_kinds(lambda: yl @ cy.T)
    assert kinds == [True]
    check(out.numpy(), view @ cy.numpy().T, "complex128", 10)


def test_conjugates_that_remember_nothing(device, rng):
    x = crand(rng, (8, 5), "complex64")
    xl = fresh(x, device)
    c = loom.empty_like(xl)
    loom.conj(xl, out=c)  # into an existing array: no record
    out, kinds = matmul_kinds(lambda: xl @ c.T)
    assert kinds == [True]
    check(out.numpy(), x @ x.conj().T, "complex64", 8)
    # Inside a transformed function the product is traced as a plain matmul.
    f = loom.jit(lambda a: a @ a.conj().T)
    check(f(xl).numpy(), x @ x.conj().T, "complex64", 8)
    check(f(xl).numpy(), x @ x.conj().T, "complex64", 8)


def test_user_kernel_writes_are_seen(rng):
    x = crand(rng, (6, 4), "complex64")
    xl = fresh(x, loom.cpu())
    cl = xl.conj()
    k = loom.RawKernel(r'''
    extern "C" __global__ void zero_first(void* p) { if (threadIdx.x < 2) ((float*)p)[threadIdx.x] = 0.f; }
    ''', "zero_first")
    k((1,), (2,), (xl,))
    xn = x.copy()
    xn[0, 0] = 0
    out, kinds = matmul_kinds(lambda: xl @ cl.T)
    assert kinds == [True]
    check(out.numpy(), xn @ x.conj().T, "complex64", 6)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_real_conj_products_run_as_syrk(device, rng, dtype):
    """For real x, x.conj() is a copy: matmul reads x twice, so x @ x.conj().T is x @ x.T (a
    syrk, exactly symmetric on a CPU) rather than a product with the copy."""
    x = rng.standard_normal((50, 33)).astype(dtype)
    xl = fresh(x, device)
    for got, want in ((xl @ xl.conj().T, x @ x.T), (xl.conj().T @ xl, x.T @ x)):
        g = got.numpy()
        check(g, want, dtype, 50)
        if device == loom.cpu():
            np.testing.assert_array_equal(g, g.T)
    cl = xl.conj()
    xl[0, 0] = 9.0
    xn = x.copy()
    xn[0, 0] = 9.0
    check((xl @ cl.T).numpy(), xn @ x.T, dtype, 50)


@pytest.mark.parametrize("dtype", ["complex64", "complex128", "float32", "float64"])
def test_rank_k_updates_large(device, rng, dtype):
    """Matrices large enough for a GPU's per-matrix syrk/herk (and the mirror kernel, in each
    of its modes: row-major and column-major operands, both orders)."""
    n, k = GPU_RANK_K
    x = crand(rng, (n, k), dtype) if dtype.startswith("complex") else rng.standard_normal((n, k)).astype(dtype)
    xl = fresh(x, device)
    for fn, want in ((lambda: xl @ xl.conj().T, x @ x.conj().T),
                     (lambda: xl.T.conj() @ xl, x.T.conj() @ x),
                     (lambda: xl.T @ xl.conj(), x.T @ x.conj()),
                     (lambda: xl.conj() @ xl.T, x.conj() @ x.T),
                     (lambda: xl @ xl.T, x @ x.T),
                     (lambda: xl.T @ xl, x.T @ x)):
        g = fn().numpy()
        check(g, want, dtype, n)
        if dtype.startswith("complex") and not np.array_equal(want, want.T):  # Hermitian ones
            assert_hermitian_exact(g)
