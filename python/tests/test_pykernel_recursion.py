"""Recursive device functions (compiler.device_function): allowed when a declared signature
gives the return type, as in Numba (a real call, declared up front, __noinline__), against
Python on every device; without one the error says what to add; the program compiles with
NVRTC without a GPU."""
import numpy as np
import pytest

import loom
from loom import cuda
from conftest import skip_cpu_kernels


@cuda.jit("int64(int64)", device=True)
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


@cuda.jit("float64(float64, int64)", device=True)
def power_sum(x, k):  # x + x**2 + ... + x**k, recursively
    if k == 0:
        return 0.0
    return x ** k + power_sum(x, k - 1)


@cuda.jit
def k_recursive(out, n, x):
    i = cuda.grid(1)
    if i < n.size:
        out[i] = fib(n[i]) + power_sum(x[i], n[i] % 5)


def _fib(n):
    return n if n < 2 else _fib(n - 1) + _fib(n - 2)


def test_recursion_with_a_declared_signature(device, rng):
    skip_cpu_kernels(device)
    dev = loom.Device(device)
    n, x = rng.integers(0, 16, 40), rng.random(40)
    out = loom.zeros(40, device=dev)
    k_recursive[2, 32](out, loom.array(n, device=dev), loom.array(x, device=dev))
    want = [_fib(int(a)) + sum(b ** j for j in range(1, int(a) % 5 + 1)) for a, b in zip(n, x)]
    np.testing.assert_allclose(out.to(loom.cpu()).numpy(), want, rtol=1e-13)


@pytest.mark.skipif(not loom.build_info()["cuda"], reason="loom built without CUDA (no NVRTC)")
def test_recursive_program_compiles_with_nvrtc_without_a_gpu():
    from loom.pykernel import types as T
    from loom.pykernel.compiler import translate_kernel
    src, _ = translate_kernel(k_recursive.py_func, (T.Array("float64", 1, "C"), T.Array("int64", 1, "C"),
                                                    T.Array("float64", 1, "C")))
    assert "__noinline__" in src
    loom.RawModule(src).compile(90)


def test_recursion_without_a_signature_says_what_to_add():
    @cuda.jit(device=True)
    def down(n):
        return 0 if n == 0 else down(n - 1)

    @cuda.jit
    def k(out):
        out[0] = down(3)

    with pytest.raises(loom.UnsupportedError, match=r"\[down\] recursion: 'down' calls itself .* needs a declared "
                                                    r"signature"):
        k[1, 1](loom.zeros(1, device=loom.cpu()))
