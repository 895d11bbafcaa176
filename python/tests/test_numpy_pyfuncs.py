"""NumPy's object-level functions (python/loom/_numpy/pyfuncs.py) and the memory-layout
queries (ops/memory_layout.h) against NumPy on fresh random data, on every device."""
import numpy as np
import pytest

import loom


def L(x, device):
    return loom.asarray(x, device=device)


def test_apply_along_and_over_axes(device, rng):
    x = rng.standard_normal((3, 4, 5))
    for axis in (0, 1, -1):
        got = loom.apply_along_axis(lambda v: loom.sort(v)[::2], axis, L(x, device))
        want = np.apply_along_axis(lambda v: np.sort(v)[::2], axis, x)
        assert got.device == device
        np.testing.assert_allclose(got.numpy(), want)
        got = loom.apply_along_axis(lambda v: loom.outer(v, v), axis, L(x, device))
        np.testing.assert_allclose(got.numpy(), np.apply_along_axis(lambda v: np.outer(v, v), axis, x), rtol=1e-14)
    got = loom.apply_over_axes(loom.sum, L(x, device), [0, 2])
    np.testing.assert_allclose(got.numpy(), np.apply_over_axes(np.sum, x, [0, 2]), rtol=1e-12)
    with pytest.raises(np.exceptions.AxisError, match="apply_along_axis"):
        loom.apply_along_axis(loom.sum, 3, L(x, device))


def test_piecewise_fromfunction_mask_indices(device, rng):
    x = rng.standard_normal(20)
    conds = [x < -0.5, x > 0.5]
    funcs = [lambda v: v * 2, lambda v: v ** 2, 7.0]
    got = loom.piecewise(L(x, device), [L(c, device) for c in conds], funcs)
    np.testing.assert_allclose(got.numpy(), np.piecewise(x, conds, funcs), rtol=1e-14)
    got = loom.piecewise(L(x, device), L(x > 0, device), [lambda v: -v])
    np.testing.assert_allclose(got.numpy(), np.piecewise(x, x > 0, [lambda v: -v]))
    got = loom.fromfunction(lambda i, j: i * 10 + j, (3, 4), device=device)
    assert got.device == device
    np.testing.assert_array_equal(got.numpy(), np.fromfunction(lambda i, j: i * 10 + j, (3, 4)))
    for k in (-1, 0, 2):
        for g, w in zip(loom.mask_indices(4, loom.triu, k), np.mask_indices(4, np.triu, k)):
            np.testing.assert_array_equal(g.numpy(), w)
    with pytest.raises(ValueError, match="piecewise"):
        loom.piecewise(L(x, device), [L(c, device) for c in conds], [1.0])


def test_host_readers(device):
    data = np.arange(10, dtype="float32")
    got = loom.frombuffer(data.tobytes(), dtype=loom.float32, count=5, offset=8, device=device)
    assert got.device == device and got.dtype == loom.float32
    np.testing.assert_array_equal(got.numpy(), np.frombuffer(data.tobytes(), "float32", 5, 8))
    np.testing.assert_array_equal(loom.fromiter((i * i for i in range(6)), dtype="int64", device=device).numpy(),
                                  np.arange(6) ** 2)
    np.testing.assert_array_equal(loom.fromstring("1 2 3", dtype=int, sep=" ", device=device).numpy(), [1, 2, 3])


def test_dtype_and_shape_questions(device):
    a = L(np.ones(3, "int16"), device)
    b = L(np.ones(3, "float32"), device)
    assert loom.common_type(a) == loom.float64 and loom.common_type(b, L(np.ones(1, "float16"), device)) == loom.float32
    assert loom.min_scalar_type(300) == loom.uint16 and loom.min_scalar_type(b) == loom.float32
    assert loom.mintypecode(["f", loom.float64]) == np.mintypecode(["f", "d"])
    assert loom.typename("d") == np.typename("d")
    assert loom.issubdtype(loom.float32, np.floating) and not loom.issubdtype(loom.int8, loom.float32)
    assert loom.isscalar(3.0) and not loom.isscalar(b) and not loom.isscalar(L(np.float64(1), device))
    assert loom.iterable(b) and not loom.iterable(L(np.float64(1), device)) and not loom.iterable(3)
    x = L(np.zeros((2, 3, 4)), device)
    assert (loom.ndim(x), loom.shape(x), loom.size(x), loom.size(x, 1)) == (3, (2, 3, 4), 24, 3)
    assert loom.ndim([[1, 2]]) == 2 and loom.shape([[1, 2]]) == (1, 2)
    assert loom.broadcast_shapes((2, 1), (3,), ()) == (2, 3)
    ops = [L(np.zeros(s), device) for s in ((4, 5), (5, 6), (6, 7))]
    want = np.einsum_path("ij,jk,kl->il", *[np.zeros(s) for s in ((4, 5), (5, 6), (6, 7))], optimize="greedy")
    assert loom.einsum_path("ij,jk,kl->il", *ops)[0] == want[0]


def test_conversions(device, rng):
    x = rng.standard_normal((3, 4))
    assert loom.asanyarray(L(x, device)).device == device
    assert loom.copy(L(x, device)).device == device
    with pytest.raises(ValueError, match="asarray_chkfinite"):
        loom.asarray_chkfinite(L(np.array([1.0, np.inf]), device))
    np.testing.assert_array_equal(loom.asarray_chkfinite(L(x, device)).numpy(), x)
    f = loom.require(L(x, device), requirements=["F"])
    assert loom.isfortran(f) and not loom.isfortran(L(x, device))
    np.testing.assert_array_equal(f.numpy(), x)
    c = loom.ascontiguousarray(L(x, device).T)
    np.testing.assert_array_equal(c.numpy(), x.T)
    assert loom.ascontiguousarray(L(np.float64(2.0), device)).shape == (1,)
    with pytest.raises(KeyError, match="require"):
        loom.require(L(x, device), requirements="Q")


def test_block_real_if_close_sort_complex(device, rng):
    a, b = rng.standard_normal((2, 2)), rng.standard_normal((2, 3))
    c, d = rng.standard_normal((1, 2)), rng.standard_normal((1, 3))
    got = loom.block([[L(a, device), L(b, device)], [L(c, device), L(d, device)]])
    np.testing.assert_array_equal(got.numpy(), np.block([[a, b], [c, d]]))
    v = rng.standard_normal(3)
    np.testing.assert_array_equal(loom.block([L(v, device), 1.0, L(v, device)]).numpy(), np.block([v, 1.0, v]))
    np.testing.assert_array_equal(loom.block([[L(v, device)], [L(v, device)]]).numpy(), np.block([[v], [v]]))
    with pytest.raises(ValueError, match="block"):
        loom.block([[L(v, device)], L(v, device)])
    z = v + 1e-16j
    assert loom.real_if_close(L(z, device)).dtype == loom.float64
    assert loom.real_if_close(L(v + 1e-3j, device)).dtype == loom.complex128
    for dtype in ("int8", "float32", "float64"):
        y = (rng.standard_normal((3, 5)) * 4).astype(dtype)
        got, want = loom.sort_complex(L(y, device)), np.sort_complex(y)
        assert got.dtype.name == want.dtype.name
        np.testing.assert_array_equal(got.numpy(), want)


def test_shares_memory(device):
    base = L(np.zeros((6, 8)), device)
    assert loom.may_share_memory(base, base[2:4]) and loom.shares_memory(base, base[2:4])
    assert not loom.may_share_memory(base[:2], base[3:])
    # Interleaved columns: the spans overlap, no element does.
    assert loom.may_share_memory(base[:, ::2], base[:, 1::2])
    assert not loom.shares_memory(base[:, ::2], base[:, 1::2])
    assert loom.shares_memory(base[:, ::2], base[1:2, 2:3])
    assert not loom.shares_memory(base, L(np.zeros((6, 8)), device))
    want = np.shares_memory(np.zeros((6, 8))[:, ::3], np.zeros((6, 8))[:, 1::3])
    assert loom.shares_memory(base[:, ::3], base[:, 1::3]) == want
