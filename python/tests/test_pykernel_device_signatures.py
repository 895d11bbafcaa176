"""A device function declared with several signatures (Numba's cuda.jit([...], device=True)):
each call takes the signature Numba would choose (an exact match, else the fewest safe
conversions), never the first one by default; ties and impossible conversions are
TypingErrors naming the function."""
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
    f[1, 1](r, np.float32(1.25), 2)  # float32 and a literal: float64 is the safe choice
    assert r.to(loom.cpu()).numpy()[0] == 3.25


def test_precision_is_kept_by_an_exact_match(device):
    skip_cpu_kernels(device)
    f = _kernel(["float32(float32, float32)", "float64(float64, float64)"])
    r = loom.zeros(1, device=loom.Device(device))
    f[1, 1](r, np.float32(1), np.float32(2 ** -25))
    assert r.to(loom.cpu()).numpy()[0] == 1.0  # float32 arithmetic rounds 2**-25 away
    f[1, 1](r, 1.0, 2.0 ** -25)
    assert r.to(loom.cpu()).numpy()[0] == 1.0 + 2 ** -25


def test_no_match_and_ambiguity_name_the_function():
    r = loom.zeros(1, dtype=loom.complex128, device=loom.cpu())
    with pytest.raises(loom.TypingError, match=r"'add' has no declared signature that takes \(complex128, complex128\)"):
        _kernel(["int64(int64, int64)", "float64(float64, float64)"])[1, 1](r, 1j, 1j)
    with pytest.raises(loom.TypingError, match=r"'add' has 2 declared signatures .* ambiguous"):
        _kernel(["float32(float32, int64)", "float32(int64, float32)"])[1, 1](
            loom.zeros(1, device=loom.cpu()), np.int8(1), np.int8(2))
