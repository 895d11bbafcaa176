"""CUDA's vector types in Python kernels (Numba's cuda.float32x3, cuda.double2, ...): built
from numbers and smaller vectors, read as .x .y .z .w, passed to and returned from device
functions, on every device."""
import numpy as np
import pytest

import loom
from loom import cuda
from conftest import needs_nvrtc
from loom.cuda.vector_types import vector_types


@cuda.jit(device=True)
def swap_xy(v):
    return cuda.float32x2(v.y, v.x)


@cuda.jit
def k_vectors(x, out):
    i = cuda.grid(1)
    if i < x.shape[0]:
        a = cuda.float32x2(x[i], x[i] * 2)
        b = cuda.float32x4(cuda.float32x1(1), swap_xy(a), x[i] + 1)
        d = cuda.double3(b.w, 2, a.x)  # C's name of float64x3; components are cast
        out[i, 0] = b.x + 10 * b.y + 100 * b.z + 1000 * b.w
        out[i, 1] = d.x + d.y * d.z
        s = 0.0
        for v in (a, swap_xy(a)):  # a loop over vectors, then one over other vectors
            s += v.x - v.y
        for v in (b, b):
            s += v.w
        out[i, 2] = s


def test_vectors_match_python(device, rng):
    x = rng.integers(-5, 5, 37).astype(np.float32)
    out = loom.zeros((37, 3), dtype=loom.float64, device=device)
    k_vectors[1, 64](loom.asarray(x, device=device), out)
    xd = x.astype(np.float64)
    b = (1, 2 * xd, xd, xd + 1)
    want = np.stack([b[0] + 10 * b[1] + 100 * b[2] + 1000 * b[3], (xd + 1) + 2 * xd,
                     (xd - 2 * xd) + (2 * xd - xd) + 2 * (xd + 1)], 1)
    np.testing.assert_allclose(out.numpy(), want, rtol=1e-6)


def test_the_table_and_the_aliases():
    assert len(vector_types) == 40 and vector_types["float64x3"].num_elements == 3
    assert cuda.double3 is cuda.float64x3 and "double3" in cuda.float64x3.aliases
    assert vector_types["int16x2"].user_facing_object is cuda.short2
    assert vector_types["uint8x4"].attr_names == ("x", "y", "z", "w")
    with pytest.raises(RuntimeError, match="inside a kernel"):
        cuda.float32x2(1, 2)


def test_a_wrong_number_of_components_is_refused():
    @cuda.jit
    def k(out):
        v = cuda.float32x3(1.0, cuda.float32x1(2.0))
        out[0] = v.x

    with pytest.raises(loom.TypingError, match=r"float32x3\(\) takes 3 components in all, not 2"):
        k[1, 1](loom.zeros(1, device=loom.cpu()))


@needs_nvrtc
def test_vector_kernels_compile_with_nvrtc():
    ptx, _ = cuda.compile_ptx(k_vectors.py_func, "void(float32[::1], float64[:, ::1])")
    assert ".entry" in ptx
