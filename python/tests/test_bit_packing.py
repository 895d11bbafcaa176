"""numpy's packbits and unpackbits against NumPy on fresh random data, on every device:
axes (None, negative), both bit orders, lengths that are not a multiple of eight, counts
(cut, padded, negative), every integer dtype and bool, non-contiguous, 0-size and 0-d
inputs, and the errors (typed, naming the op)."""
import numpy as np
import pytest

import loom
from conftest import compare, random_array

INT_DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]


@pytest.mark.parametrize("dtype", INT_DTYPES)
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
@pytest.mark.parametrize("bitorder", ["big", "little"])
def test_packbits(device, rng, dtype, axis, bitorder):
    a = random_array(rng, (5, 13), dtype, 0, 3) if dtype != "bool" else random_array(rng, (5, 13), dtype)
    compare(lambda xp, x: xp.packbits(x, axis=axis, bitorder=bitorder), a, device=device)
    compare(lambda xp, x: xp.packbits(x, axis=axis, bitorder=bitorder), a.T[::2], device=device)
    compare(lambda xp, x: xp.packbits(x, axis=axis, bitorder=bitorder), np.zeros((0, 3), dtype), device=device)


def test_packbits_0d_and_values_beyond_one(device, rng):
    compare(lambda xp, x: xp.packbits(x), np.array(7, np.int32), device=device)
    compare(lambda xp, x: xp.packbits(x, axis=0), np.array(7, np.int32), device=device)
    compare(lambda xp, x: xp.packbits(x), rng.integers(-100, 100, size=20), device=device)  # nonzero is a one bit


@pytest.mark.parametrize("axis", [None, 0, 1, -1])
@pytest.mark.parametrize("bitorder", ["big", "little"])
@pytest.mark.parametrize("count", [None, 0, 5, 16, 30, -3, -8])
def test_unpackbits(device, rng, axis, bitorder, count):
    a = random_array(rng, (3, 2), "uint8")
    compare(lambda xp, x: xp.unpackbits(x, axis=axis, count=count, bitorder=bitorder), a, device=device)
    compare(lambda xp, x: xp.unpackbits(x, axis=axis, count=count, bitorder=bitorder), a.T, device=device)


def test_unpackbits_undoes_packbits(device, rng):
    bits = (rng.random((4, 11)) < 0.5).astype(np.uint8)
    for bitorder in ("big", "little"):
        packed = loom.packbits(loom.asarray(bits, device=device), axis=1, bitorder=bitorder)
        back = loom.unpackbits(packed, axis=1, count=11, bitorder=bitorder)
        np.testing.assert_array_equal(back.numpy(), bits)


def test_unpackbits_0d_and_empty(device):
    compare(lambda xp, x: xp.unpackbits(x), np.array(5, np.uint8), device=device)
    compare(lambda xp, x: xp.unpackbits(x, axis=0), np.array(5, np.uint8), device=device)
    compare(lambda xp, x: xp.unpackbits(x, axis=1), np.zeros((2, 0), np.uint8), device=device)


def test_bit_packing_errors(device):
    f = loom.asarray(np.ones(3), device=device)
    with pytest.raises(TypeError, match=r"\[packbits\] Expected an input array of integer or boolean"):
        loom.packbits(f)
    with pytest.raises(TypeError, match=r"\[unpackbits\] Expected an input array of unsigned byte"):
        loom.unpackbits(loom.asarray(np.ones(3, np.int8), device=device))
    u = loom.asarray(np.ones((2, 3), np.uint8), device=device)
    with pytest.raises(ValueError, match=r"\[packbits\] 'order' must be either 'little' or 'big'"):
        loom.packbits(u, bitorder="middle")
    with pytest.raises(ValueError, match=r"\[unpackbits\] -count larger than number of elements"):
        loom.unpackbits(u, axis=1, count=-25)
    with pytest.raises(np.exceptions.AxisError, match=r"\[unpackbits\]"):
        loom.unpackbits(u, axis=2)
    with pytest.raises(np.exceptions.AxisError, match=r"\[packbits\]"):
        loom.packbits(u, axis=-3)
