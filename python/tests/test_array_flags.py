"""x.flags on loom arrays (_numpy/flags.py) against NumPy's for the same layouts, and Numba's
cuda.device_array(order="F") / device_array_like keeping Fortran order."""
import numpy as np
import pytest

import loom
from loom import cuda


@pytest.mark.parametrize("make", [
    lambda a: a, lambda a: a.T, lambda a: a[::2], lambda a: a[:, 1:2], lambda a: a[:1], lambda a: a[:0],
    lambda a: a.reshape(-1), lambda a: a[1],
])
def test_flags_match_numpy(device, make):
    ref = np.arange(24.0).reshape(4, 6)
    x = loom.asarray(ref, device=loom.Device(device))
    want, got = make(ref), make(x)
    for key in ("C_CONTIGUOUS", "F_CONTIGUOUS", "WRITEABLE", "ALIGNED"):
        assert got.flags[key] == want.flags[key], key
    assert got.flags.c_contiguous == want.flags.c_contiguous
    assert got.flags.f_contiguous == want.flags.f_contiguous
    with pytest.raises(KeyError, match=r"\[flags\] loom arrays have the flags"):
        got.flags["OWNDATA"]


def test_device_array_fortran_order(device):
    with loom.device(loom.Device(device)):
        for shape in [(10,), (10, 12), (3, 4, 5)]:
            a = cuda.device_array(shape, order="F")
            ref = np.empty(shape, order="F")
            assert a.shape == ref.shape and a.strides == ref.strides
            assert a.flags["F_CONTIGUOUS"] and a.flags["C_CONTIGUOUS"] == ref.flags["C_CONTIGUOUS"]
        like = cuda.device_array_like(np.zeros((3, 4), order="F"))
        assert like.strides == np.zeros((3, 4), order="F").strides
        assert cuda.device_array_like(np.zeros((3, 4))).flags["C_CONTIGUOUS"]
        with pytest.raises(ValueError, match=r"\[cuda.device_array\] order is 'C' or 'F'"):
            cuda.device_array(3, order="K")


def test_pinned_and_mapped_arrays_follow_the_layout():
    f = np.zeros((4, 6), order="F")
    for like in (cuda.pinned_array_like, cuda.mapped_array_like):
        assert like(f).strides == f.strides
        assert like(np.zeros((4, 6))).strides == (48, 8)
    assert cuda.pinned_array((4, 6), order="F").strides == f.strides
    with pytest.raises(NotImplementedError, match=r"\[cuda.mapped_array\] explicit strides"):
        cuda.mapped_array((4, 6), strides=(8, 32))


@pytest.mark.parametrize("view", [lambda a: a[::2, ::2], lambda a: a[1:, ::3], lambda a: a[::2, ::2].T,
                                  lambda a: a[:, 2]])
@pytest.mark.parametrize("order", ["C", "F"])
def test_like_of_a_strided_view_takes_numpys_order_k(device, view, order):
    """*_like of a non-contiguous view: contiguous, in the order its strides run (NumPy's
    zeros_like, order='K', for 1 and 2 dimensions; Numba's rule too)."""
    host = view(np.zeros((10, 12), order=order))
    with device:
        d = view(cuda.device_array((10, 12), order=order))
        for like in (cuda.device_array_like, cuda.pinned_array_like, cuda.mapped_array_like):
            got = like(d)
            assert got.shape == host.shape and got.strides == np.zeros_like(host).strides
