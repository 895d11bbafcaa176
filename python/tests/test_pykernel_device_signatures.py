"""A device function declared with several signatures (Numba's cuda.jit([...], device=True)):
each call takes the signature Numba would choose (overloads.py: fewest unsafe conversions,
then safe ones, then promotions), never the first one by default; of equals the first
declared, as Numba; impossible conversions are TypingErrors naming the function."""
import numpy as np
import pytest

import loom
from loom import cuda
from conftest import skip_cpu_kernels


def add(x, y):
    return x + y


def _kernel(sigs):
    add_device = cuda.jit(sigs, device=True)(add)

    @cuda.jit
    def f(r, x, y):
        r[0] = add_device(x, y)
    return f


def test_the_matching_signature_is_chosen(device):
    skip_cpu_kernels(device)
    dev = loom.Device(device)
    f = _kernel(["int64(int64, int64)", "float64(float64, float64)"])
    r = loom.zeros(1, dtype=loom.int64, device=dev)
    f[1, 1](r, 1, 2)
    assert r.to(loom.cpu()).numpy()[0] == 3
    r = loom.zeros(1, device=dev)
    f[1, 1](r, 1.5, 2.5)
    assert r.to(loom.cpu()).numpy()[0] == 4.0  # not 3: the float64 signature, not the first
    # float32 and int64: both signatures need one unsafe conversion (float32 to int64, int64
    # to float64: Numba's table), and int64's needs no promotion besides, so it wins
    f[1, 1](r, np.float32(1.25), 2)
    assert r.to(loom.cpu()).numpy()[0] == 3
    f[1, 1](r, np.float32(1.25), np.int16(2))  # int16 to float64 is safe: float64 now
    assert r.to(loom.cpu()).numpy()[0] == 3.25


def test_precision_is_kept_by_an_exact_match(device):
    skip_cpu_kernels(device)
    f = _kernel(["float32(float32, float32)", "float64(float64, float64)"])
    r = loom.zeros(1, device=loom.Device(device))
    f[1, 1](r, np.float32(1), np.float32(2 ** -25))
    assert r.to(loom.cpu()).numpy()[0] == 1.0  # float32 arithmetic rounds 2**-25 away
    f[1, 1](r, 1.0, 2.0 ** -25)
    assert r.to(loom.cpu()).numpy()[0] == 1.0 + 2 ** -25


def test_no_match_names_the_function_and_a_tie_takes_the_first():
    r = loom.zeros(1, dtype=loom.complex128, device=loom.cpu())
    with pytest.raises(loom.TypingError, match=r"Invalid use of type\(device function 'add'\) with parameters "
                                               r"\(complex128, complex128\)"):
        _kernel(["int64(int64, int64)", "float64(float64, float64)"])[1, 1](r, 1j, 1j)
    # Two signatures rated the same: the first declared (Numba resolves such a tie for a device
    # function); its float32 result shows which ran
    def tenth(x, y):
        return 0.1 + x * 0 + y * 0

    dev = cuda.jit(["float32(float32, int64)", "float64(int64, float32)"], device=True)(tenth)

    @cuda.jit
    def k(r, x, y):
        r[0] = dev(x, y)

    out = loom.zeros(1, dtype=loom.float64, device=loom.cpu())
    k[1, 1](out, np.int8(1), np.int8(2))  # int8 to each: one safe conversion and one promotion
    assert out.numpy()[0] == np.float32(0.1)


@pytest.mark.parametrize("src, dst, kind", [
    ("int32", "int32", "EXACT"), ("int8", "int64", "PROMOTE"), ("float32", "float64", "PROMOTE"),
    ("int64", "int32", "UNSAFE"), ("uint8", "int16", "SAFE"), ("uint32", "int32", "UNSAFE"),
    ("int16", "float32", "SAFE"), ("int32", "float32", "UNSAFE"), ("int32", "float64", "SAFE"),
    ("int64", "float64", "UNSAFE"), ("uint16", "float32", "UNSAFE"), ("uint16", "float64", "SAFE"),
    ("float32", "complex64", "SAFE"), ("float64", "complex64", "UNSAFE"), ("bool", "int8", "SAFE"),
    ("float64", "int64", "UNSAFE"), ("int32", "uint64", "UNSAFE"), ("complex64", "float64", None),
])
def test_numbas_conversion_table(src, dst, kind):
    from loom.pykernel import overloads
    assert overloads.conversion(src, dst) == (getattr(overloads, kind) if kind else None)


def test_a_kernel_launch_takes_the_best_rated_signature_and_refuses_a_tie(rng):
    def add_kernel(r, x, y):
        r[0] = x + y

    f = cuda.jit(["(float64[::1], float32, float32)", "(float64[::1], float64, float64)"])(add_kernel)
    r = np.zeros(1)
    f[1, 1](r, np.float32(1), np.float32(2 ** -25))
    assert r[0] == 1.0  # float32 arithmetic: the exact match
    f[1, 1](r, 1, 2 ** -25)
    assert r[0] == 1.0 + 2 ** -25  # int64 and float64: float64's needs one unsafe conversion, float32's two
    g = cuda.jit(["(float64[::1], float32, float64)", "(float64[::1], float64, float32)",
                  "(float64[::1], int64, int64)"])(add_kernel)
    with pytest.raises(TypeError, match=r"Ambiguous overloading for <function .*add_kernel .*\(float64\[::1\]|"
                                        r"Ambiguous overloading .*\n\(Array\(float64, 1, 'C', False, aligned=True\), "
                                        r"float32, float64\) -> none"):
        g[1, 1](r, 1.0, 2.0)
