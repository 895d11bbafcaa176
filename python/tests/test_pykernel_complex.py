"""Complex numbers in Python kernels (pykernel/complexfuncs.py, types.py): complex64/complex128
arrays and values, arithmetic, abs/.real/.imag/.conjugate(), complex(), the cmath functions
(the table's ops on loom_complex<T>), and NumPy ufuncs in their array form with an output
(np.sin(x, out)), on every device against NumPy and Python's cmath."""
import cmath

import numpy as np
import pytest

import loom
from loom import cuda
from conftest import skip_cpu_kernels


def _crandom(rng, n, dtype=np.complex128):
    return (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(dtype)


@cuda.jit
def k_arith(out, a, b):
    i = cuda.grid(1)
    if i < out.size:
        z = a[i] * b[i] + 1j
        out[i] = z / b[i] - z.conjugate() + complex(1, 2) + z.real * 2 - z.imag + abs(z) + z ** 2


def test_arithmetic_matches_numpy(device, rng):
    skip_cpu_kernels(device)
    dev = loom.Device(device)
    a, b = _crandom(rng, 70), _crandom(rng, 70)
    out = loom.zeros(70, dtype=loom.complex128, device=dev)
    k_arith[3, 32](out, loom.array(a, device=dev), loom.array(b, device=dev))
    z = a * b + 1j
    want = z / b - z.conj() + (1 + 2j) + z.real * 2 - z.imag + abs(z) + z ** 2
    np.testing.assert_allclose(out.to(loom.cpu()).numpy(), want, rtol=1e-12)


CMATH = ["sqrt", "exp", "log", "log10", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh",
         "asinh", "acosh", "atanh"]


@pytest.mark.parametrize("dtype, rtol", [(np.complex128, 1e-12), (np.complex64, 2e-5)])
def test_cmath_functions_match_python(device, rng, dtype, rtol):
    skip_cpu_kernels(device)
    dev = loom.Device(device)
    a = _crandom(rng, 40, dtype) * 0.8
    src = "\n".join(f"        out[{k}, i] = cmath.{f}(a[i])" for k, f in enumerate(CMATH))
    ns = {"cuda": cuda, "cmath": cmath}
    exec("def kernel(out, a):\n    i = cuda.grid(1)\n    if i < a.size:\n" + src, ns)
    out = loom.zeros((len(CMATH), 40), dtype=dtype, device=dev)
    cuda.jit(ns["kernel"])[2, 32](out, loom.array(a, device=dev))
    got = out.to(loom.cpu()).numpy()
    assert got.dtype == dtype  # complex64 stays complex64, as in Numba
    for k, f in enumerate(CMATH):
        want = np.array([getattr(cmath, f)(complex(z)) for z in a])
        np.testing.assert_allclose(got[k], want, rtol=rtol, atol=rtol, err_msg=f)


@cuda.jit
def k_polar_phase(r, phi, back, a):
    i = cuda.grid(1)
    if i < a.size:
        m, p = cmath.polar(a[i])
        r[i] = m
        phi[i] = cmath.phase(a[i])
        back[i] = cmath.rect(m, p) + cmath.log(a[i], 2.0) * 0 + cmath.isfinite(a[i])


def test_polar_rect_phase(device, rng):
    skip_cpu_kernels(device)
    dev = loom.Device(device)
    a = _crandom(rng, 33)
    r, phi = loom.zeros(33, device=dev), loom.zeros(33, device=dev)
    back = loom.zeros(33, dtype=loom.complex128, device=dev)
    k_polar_phase[2, 32](r, phi, back, loom.array(a, device=dev))
    np.testing.assert_allclose(r.to(loom.cpu()).numpy(), np.abs(a), rtol=1e-13)
    np.testing.assert_allclose(phi.to(loom.cpu()).numpy(), np.angle(a), rtol=1e-13)
    np.testing.assert_allclose(back.to(loom.cpu()).numpy(), a + 1, rtol=1e-12)


@cuda.jit
def k_ufunc_out(a, b, out, s):
    np.add(a, b, out)
    np.sqrt(out, out=s)


def test_ufuncs_in_array_form_with_an_output(device, rng):
    """Numba's semantics: the calling thread computes the whole output."""
    skip_cpu_kernels(device)
    dev = loom.Device(device)
    a, b = rng.random((3, 5)), rng.random((3, 5))
    out, s = loom.zeros((3, 5), device=dev), loom.zeros((3, 5), device=dev)
    k_ufunc_out[1, 1](loom.array(a, device=dev), loom.array(b, device=dev), out, s)
    np.testing.assert_allclose(out.to(loom.cpu()).numpy(), a + b, rtol=1e-15)
    np.testing.assert_allclose(s.to(loom.cpu()).numpy(), np.sqrt(a + b), rtol=1e-15)
    ca, cs = _crandom(rng, 7), loom.zeros(7, dtype=loom.complex128, device=dev)
    k_ufunc_out[1, 1](loom.array(ca, device=dev), 2.0, loom.zeros(7, dtype=loom.complex128, device=dev), cs)
    np.testing.assert_allclose(cs.to(loom.cpu()).numpy(), np.sqrt(ca + 2.0), rtol=1e-13)


@pytest.mark.skipif(not loom.build_info()["cuda"], reason="loom built without CUDA (no NVRTC)")
def test_complex_kernel_compiles_with_nvrtc_without_a_gpu():
    from loom.pykernel import types as T
    from loom.pykernel.compiler import translate_kernel
    src, _ = translate_kernel(k_arith.py_func, (T.Array("complex128", 1, "C"),) * 3)
    assert '#include "loom_complex.cuh"' in src
    loom.RawModule(src).compile(90)


def _kernel(body):
    ns = {"cuda": cuda, "np": np}
    exec("def k(out, a):\n    " + body, ns)
    return cuda.jit(ns["k"])


@pytest.mark.parametrize("body, message", [
    ("out[0] = a[0] < a[1]", r"complex numbers are not ordered \(<\)"),
    ("out[0] = a[0] // a[1]", r"the operator // does not take complex numbers"),
    ("out[0] = a[0] & 1", r"the operator & takes integers or bools"),
])
def test_complex_misuse_names_the_problem(body, message):
    z = loom.zeros(2, dtype=loom.complex128, device=loom.cpu())
    with pytest.raises(loom.TypingError, match=message):
        _kernel(body)[1, 1](z, z)
    with pytest.raises(loom.TypingError, match=r"complex128 does not convert to float64"):
        _kernel("out[0] = a[0]")[1, 1](loom.zeros(2, device=loom.cpu()), z)


@cuda.jit
def k_scalar_args(out, z, w):
    out[0] = z * 2 + w


def test_complex_scalar_arguments(device, rng):
    """A Python complex is complex128, NumPy's complex64/complex128 scalars keep their type."""
    skip_cpu_kernels(device)
    dev = loom.Device(device)
    z, w = complex(*rng.standard_normal(2)), np.complex64(complex(*rng.standard_normal(2)))
    out = loom.zeros(1, dtype=loom.complex128, device=dev)
    k_scalar_args[1, 1](out, z, w)
    np.testing.assert_allclose(out.to(loom.cpu()).numpy()[0], z * 2 + complex(w), rtol=1e-7)
    assert "complex128, complex64)" in str(list(k_scalar_args.inspect_source()))
    out32 = loom.zeros(1, dtype=loom.complex64, device=dev)
    k_scalar_args[1, 1](out32, np.complex64(z), w)
    np.testing.assert_allclose(out32.to(loom.cpu()).numpy()[0], np.complex64(z) * 2 + w, rtol=1e-6)
    with pytest.raises(loom.TypingError, match=r"\[k2\] a complex128 does not convert to float64"):
        ns = {"cuda": cuda}
        exec("def k2(out, z):\n    out[0] = z", ns)
        cuda.jit(ns["k2"])[1, 1](loom.zeros(1, device=loom.cpu()), 1j)


def test_a_complex_argument_matches_no_real_signature():
    k = cuda.jit(["void(float64[::1], float64)", "void(int64[::1], int64)"])(lambda r, x: None)
    with pytest.raises(loom.TypingError, match=r"No matching definition for argument type\(s\)"):
        k[1, 1](loom.zeros(1, dtype=loom.complex128, device=loom.cpu()), 1j)


def test_numpy_functions_of_complex_literals(device):
    """A Python complex literal is a weak complex128 operand of NumPy's functions (it raised KeyError)."""
    skip_cpu_kernels(device)

    @cuda.jit
    def k(out):
        out[0] = np.sqrt(-4 + 0j)
        out[1] = np.exp(1j)

    out = loom.zeros(2, dtype=loom.complex128, device=loom.Device(device))
    k[1, 1](out)
    np.testing.assert_allclose(out.to(loom.cpu()).numpy(), [np.sqrt(-4 + 0j), np.exp(1j)], rtol=1e-15)
