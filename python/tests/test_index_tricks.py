"""NumPy's index tricks on loom (r_, c_, mgrid, ogrid, broadcast, x.choose) and its abstract
scalar types, against NumPy on fresh random data, on every device."""
import numpy as np
import pytest

import loom
from conftest import compare, random_array


def test_r_and_c_concatenate_as_numpy(device, rng):
    a, b = random_array(rng, (3,), "float32"), random_array(rng, (4,), "int16", -9, 9)
    with loom.device(device):
        compare(lambda xp, x, y: xp.r_[x, 0, 4:7, y, -1:1:5j], a, b, device=device)
        compare(lambda xp, x, y: xp.r_[x, y[:3]], a, b, device=device)
        compare(lambda xp, x: xp.c_[x, x * 2], a, device=device)
        m, n = random_array(rng, (2, 3), "float64"), random_array(rng, (2, 1), "float64")
        compare(lambda xp, x, y: xp.r_["-1", x, y], m, n, device=device)
        compare(lambda xp, x, y: xp.r_["0,2", x, y], a, a[::-1], device=device)
        compare(lambda xp, x, y: xp.r_["0,2,0", x, y], a, a, device=device)
        compare(lambda xp, x: xp.c_[x, xp.ones((2, 2)), 7], m[:, :2].copy(), device=device)


def test_r_directive_errors():
    with pytest.raises(ValueError, match=r"\[r_\] special directives must be the first"):
        loom.r_[loom.ones(2), "0,2"]
    with pytest.raises(ValueError, match="unknown special directive"):
        loom.r_["x", loom.ones(2)]
    with pytest.raises(NotImplementedError, match="matrix"):
        loom.r_["r", loom.ones(2)]


def test_mgrid_and_ogrid(device):
    with loom.device(device):
        for key in [np.s_[0:3, 0:2], np.s_[-1:1:0.5, 2:5], np.s_[0:1:4j, -2:2:3j], np.s_[1:4]]:
            got = loom.mgrid[key]
            assert got.device == device
            np.testing.assert_allclose(got.numpy(), np.mgrid[key], rtol=1e-12)
            opened = loom.ogrid[key]
            want = np.ogrid[key]
            assert isinstance(opened, tuple) == isinstance(want, tuple)  # ranges, or one for one slice
            opened, want = (opened, want) if isinstance(want, tuple) else ((opened,), (want,))
            for g, w in zip(opened, want):
                np.testing.assert_allclose(g.numpy(), w, rtol=1e-12)


def test_broadcast_and_choose(device, rng):
    x, y = random_array(rng, (3, 1), "float32"), random_array(rng, (4,), "float32")
    b = loom.broadcast(loom.asarray(x, device=device), loom.asarray(y, device=device))
    nb = np.broadcast(x, y)
    assert (b.shape, b.size, b.nd, b.ndim) == (nb.shape, nb.size, nb.nd, nb.ndim)
    np.testing.assert_array_equal(b.values[0].numpy(), np.broadcast_to(x, nb.shape))
    idx = random_array(rng, (5,), "int64", 0, 3)
    choices = [random_array(rng, (5,), "float64") for _ in range(3)]
    compare(lambda xp, i, c0, c1, c2: i.choose([c0, c1, c2]), idx, *choices, device=device)


def test_s_index_exp_and_abstract_types():
    assert loom.s_[1:3, ::2] == np.s_[1:3, ::2] and loom.index_exp[2] == np.index_exp[2]
    assert issubclass(np.int8, loom.integer) and issubclass(np.uint8, loom.unsignedinteger)
    assert issubclass(np.float16, loom.floating) and issubclass(np.complex64, loom.complexfloating)
    assert loom.issubdtype(loom.float32, loom.floating) and not loom.issubdtype(loom.int32, loom.inexact)
    assert isinstance(np.float64(1), loom.number) and isinstance(np.bool_(1), loom.generic)
