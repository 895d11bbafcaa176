"""`for` loops in Python kernels over what Numba iterates besides range() (pykernel/for_loops.py):
a 1-d array, enumerate() with and without a start, zip() of arrays and ranges, nested
targets; on every device against the same loops in Python; the errors for what stays out."""
import numpy as np
import pytest

import loom
from loom import cuda
from conftest import skip_cpu_kernels


@cuda.jit
def loops(out, a, b):
    if cuda.grid(1) == 0:
        s = 0.0
        for x in a:
            s += x
        out[0] = s
        t = 0.0
        for j, (x, y) in enumerate(zip(a, b)):
            t += j * x * y
        out[1] = t
        u = 0.0
        for j, x in enumerate(a, 10):
            u += j * x
        out[2] = u
        v = 0.0
        for p, q in zip(range(3, 20, 4), b):
            if p > 14:
                break
            v += p * q
        out[3] = v


def python_loops(a, b):
    t = sum(j * x * y for j, (x, y) in enumerate(zip(a, b)))
    u = sum(j * x for j, x in enumerate(a, 10))
    v = 0.0
    for p, q in zip(range(3, 20, 4), b):
        if p > 14:
            break
        v += p * q
    return [a.sum(), t, u, v]


@pytest.mark.parametrize("na, nb", [(5, 7), (0, 3), (9, 2)])
def test_loops_match_python(device, rng, na, nb):
    skip_cpu_kernels(device)
    dev = loom.Device(device)
    a, b = rng.standard_normal(na), rng.standard_normal(nb)
    out = loom.zeros(4, device=dev)
    loops[1, 1](out, loom.asarray(a, device=dev), loom.asarray(b, device=dev))
    np.testing.assert_allclose(out.to(loom.cpu()).numpy(), python_loops(a, b), rtol=1e-12, atol=1e-12)


def over_a_call(out, a):
    for x in np.abs(a):
        out[0] = x


def over_a_negative_range(out, a):
    for i, x in zip(range(5, 0, -1), a):
        out[0] = x


@pytest.mark.parametrize("func, message", [
    (over_a_call, "for loops in kernels go over range(), a 1-d array or a tuple (by name, or a tuple display), enumerate() and zip()"),
    (over_a_negative_range, "a range() inside enumerate() or zip() takes a constant positive step"),
])
def test_what_stays_out_says_so(func, message):
    with pytest.raises(cuda.UnsupportedError, match=message.replace("(", r"\(").replace(")", r"\)")):
        cuda.jit(func)[1, 1](loom.zeros(1), loom.zeros(3))


@pytest.mark.skipif(not loom.build_info()["cuda"], reason="loom built without CUDA (no NVRTC)")
def test_generated_source_compiles_with_nvrtc_without_a_gpu():
    from loom.pykernel import types as T
    from loom.pykernel.compiler import translate_kernel
    src, _ = translate_kernel(loops.py_func, (T.Array("float64", 1, "C"),) * 3)
    loom.RawModule(src).compile(90)
