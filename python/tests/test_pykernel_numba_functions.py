"""Python functions Numba compiles in kernels, against Python itself on fresh data on every
device: the operator module (operator.add(a, b) is a + b), math.frexp and math.ldexp, dtype
names in cuda.local/shared.array, a @cuda.jit function (no device=True) called from a kernel
as a device function; and cuda.to_device keeping a Fortran-ordered array's layout."""
import math
import operator

import numpy as np
import pytest

import loom
from loom import cuda
from conftest import skip_cpu_kernels


@cuda.jit
def triple(x):  # a kernel-style @cuda.jit: Numba compiles it as a device function when called
    return x * 3


@cuda.jit
def k_functions(out, a):
    buf = cuda.local.array(2, "float64")
    buf[0] = operator.add(a[0], a[1])
    out[0] = buf[0]
    out[1] = operator.sub(a[0], a[1]) + operator.mul(a[0], 2) + operator.truediv(a[1], 4)
    out[2] = operator.lt(a[0], a[1]) + operator.ge(a[0], a[1]) * 10
    out[3] = operator.neg(a[1])
    m, e = math.frexp(a[0])
    out[4] = m
    out[5] = e
    out[6] = math.ldexp(a[1], 3)
    out[7] = triple(a[0])
    sm = cuda.shared.array(3, "int32")
    sm[0] = 7
    out[8] = sm[0]


def test_functions_match_python(device, rng):
    skip_cpu_kernels(device)
    dev = loom.Device(device)
    for _ in range(3):
        a = rng.standard_normal(2) * 100
        out = loom.zeros(9, device=dev)
        k_functions[1, 1](out, loom.array(a, device=dev))
        m, e = math.frexp(a[0])
        want = [a[0] + a[1], a[0] - a[1] + a[0] * 2 + a[1] / 4, (a[0] < a[1]) + (a[0] >= a[1]) * 10, -a[1], m, e,
                math.ldexp(a[1], 3), a[0] * 3, 7]
        np.testing.assert_allclose(out.to(loom.cpu()).numpy(), want, rtol=1e-15)


def test_bad_dtype_name_is_named():
    @cuda.jit
    def bad(out):
        buf = cuda.local.array(4, "int33")
        out[0] = buf[0]

    with pytest.raises(loom.TypingError, match=r"\[bad\] Invalid NumPy dtype specified: 'int33'"):
        bad[1, 1](loom.zeros(1, device=loom.cpu()))


def test_to_device_keeps_fortran_order(device, rng):
    with loom.device(loom.Device(device)):
        f = np.asfortranarray(rng.standard_normal((3, 5)))
        d = cuda.to_device(f)
        assert d.strides == f.strides and d.flags["F_CONTIGUOUS"]
        np.testing.assert_array_equal(d.to(loom.cpu()).numpy(), f)
        c = cuda.to_device(np.ascontiguousarray(f))
        assert c.flags["C_CONTIGUOUS"]


@cuda.jit
def k_more_math(x, y, out, deg, rad):
    i = cuda.grid(1)
    if i < x.size:
        f, n = math.modf(x[i])
        out[i, 0] = f
        out[i, 1] = n
        out[i, 2] = math.nextafter(x[i], y[i])
        out[i, 3] = pow(abs(x[i]), y[i])
    if i == 0:
        np.degrees(x, deg)  # the ufuncs' array form: one thread fills the output
        np.deg2rad(x, out=rad)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_modf_nextafter_pow_degrees_match_python(device, rng, dtype):
    skip_cpu_kernels(device)
    dev = loom.Device(device)
    n = 64
    x = (rng.standard_normal(n) * 100).astype(dtype)
    y = rng.standard_normal(n).astype(dtype)
    x[:3] = [np.inf, -np.inf, np.nan]
    out = loom.zeros((n, 4), dtype=dtype, device=dev)
    deg, rad = loom.zeros(n, dtype=dtype, device=dev), loom.zeros(n, dtype=dtype, device=dev)
    k_more_math[1, n](loom.array(x, device=dev), loom.array(y, device=dev), out, deg, rad)
    o = out.to(loom.cpu()).numpy()
    frac, whole = np.modf(x)
    np.testing.assert_array_equal(o[:, 0], frac)
    np.testing.assert_array_equal(o[:, 1], whole)
    np.testing.assert_array_equal(o[:, 2], np.nextafter(x, y))  # exact: one ulp toward y
    np.testing.assert_allclose(o[:, 3], np.abs(x) ** y, rtol=1e-6 if dtype == "float32" else 1e-14)
    np.testing.assert_allclose(deg.to(loom.cpu()).numpy(), np.degrees(x), rtol=1e-6 if dtype == "float32" else 1e-15)
    np.testing.assert_allclose(rad.to(loom.cpu()).numpy(), np.deg2rad(x), rtol=1e-6 if dtype == "float32" else 1e-15)
