"""Products with a long inner dimension: dot products (vdot, dot and matmul of vectors, which
run as BLAS's dot on cpu() and cuBLAS's on a GPU) and thin matrices whose k passes the GPU's
tiled kernel (cuBLAS then), against float64 references on fresh random data, every device."""
import numpy as np
import pytest

import loom

K = 20000  # past the GPU tiled kernel's k (4096)
# Relative to sum |a_i b_i|: float32 sums of K terms may lose about log2(K) roundings.
TOL = {"float16": 2e-3, "float32": 1e-5, "float64": 1e-13, "complex64": 1e-5, "complex128": 1e-13}


def _vector(rng, dt, n):
    v = rng.standard_normal(n)
    if dt.startswith("complex"):
        v = v + 1j * rng.standard_normal(n)
    return v.astype(dt)


def _check(got, a, b, dt, conj=False):
    wide = np.complex128 if dt.startswith("complex") else np.float64
    a64, b64 = a.astype(wide), b.astype(wide)
    want = np.vdot(a64, b64) if conj else np.dot(a64, b64)
    scale = float(np.sum(np.abs(a64) * np.abs(b64)))
    assert got.dtype == np.dtype(dt) and got.shape == ()
    assert abs(complex(got.numpy()) - complex(want)) <= TOL[dt] * scale


@pytest.mark.parametrize("dt", sorted(TOL))
def test_vector_products(device, rng, dt):
    a, b = _vector(rng, dt, K), _vector(rng, dt, K)
    la, lb = loom.asarray(a, device=device), loom.asarray(b, device=device)
    _check(loom.vdot(la, lb), a, b, dt, conj=True)
    _check(loom.dot(la, lb), a, b, dt)
    _check(loom.matmul(la, lb), a, b, dt)
    _check(la @ lb, a, b, dt)


@pytest.mark.parametrize("dt", ["float32", "float64", "complex64"])
def test_strided_and_reversed_vectors(device, rng, dt):
    """Views with a step (BLAS increments) and reversed views (copied first) give the same dots."""
    a, b = _vector(rng, dt, 3 * K), _vector(rng, dt, 2 * K)
    la, lb = loom.asarray(a, device=device), loom.asarray(b, device=device)
    _check(loom.vdot(la[::3], lb[::2]), a[::3], b[::2], dt, conj=True)
    _check(loom.dot(la[K:][::-2], lb[::2]), a[K:][::-2], b[::2], dt)


@pytest.mark.parametrize("shape_a, shape_b", [((2, 9000), (9000, 3)), ((1, 9000), (9000, 1)), ((4, 1, 6000), (4, 6000, 1)),
                                              ((9000,), (9000, 2))])
def test_thin_products_with_long_k(device, rng, shape_a, shape_b):
    a = rng.standard_normal(shape_a).astype(np.float32)
    b = rng.standard_normal(shape_b).astype(np.float32)
    got = loom.matmul(loom.asarray(a, device=device), loom.asarray(b, device=device))
    want = np.matmul(a.astype(np.float64), b.astype(np.float64))
    scale = np.matmul(np.abs(a).astype(np.float64), np.abs(b).astype(np.float64))
    assert got.dtype == loom.float32 and got.shape == want.shape
    assert np.all(np.abs(got.numpy() - want) <= 1e-5 * scale)
