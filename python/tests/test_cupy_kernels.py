"""CuPy's kernel-side names: RawKernel's call forms with loom.cuda streams, struct arguments as
NumPy structured scalars (and, once the C++ launcher takes them, one-element structured
arrays and the args= keyword), and loom.fuse (cupy.fuse); compared with NumPy on fresh
random data, on every device (cpu() runs kernels in the emulator)."""
import numpy as np
import pytest

import loom
from conftest import random_array
from loom import cuda

STRUCT_CODE = r"""
struct Params { int n; float scale; double shift; };
extern "C" __global__ void affine(Params p, const float* x, double* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < p.n) out[i] = p.scale * x[i] + p.shift;
}
"""
PARAMS = np.dtype([("n", np.int32), ("scale", np.float32), ("shift", np.float64)], align=True)


def _launch_inputs(device, rng, n=300):
    a = random_array(rng, (n,), "float32")
    scale, shift = random_array(rng, (2,), "float64")
    params = np.array([(n, scale, shift)], dtype=PARAMS)
    want = (np.float32(scale) * a).astype(np.float64) + shift  # float * float in the kernel
    x = loom.asarray(a, device=device)
    out = loom.zeros(n, dtype=loom.float64, device=device)
    return params, x, out, want


def test_struct_argument_as_structured_scalar(device, rng):
    params, x, out, want = _launch_inputs(device, rng)
    k = loom.RawKernel(STRUCT_CODE, "affine")
    with loom.device(device):
        s = cuda.Stream(non_blocking=True)
    k((2,), (256,), (params[0], x, out), shared_mem=0, stream=s)  # CuPy's positional form
    s.synchronize()
    np.testing.assert_allclose(out.numpy(), want, rtol=1e-6)


@pytest.mark.parametrize("shape", [(1,), ()])
def test_struct_argument_as_one_element_array(device, rng, shape):
    params, x, out, want = _launch_inputs(device, rng)
    k = loom.RawKernel(STRUCT_CODE, "affine")
    k((2,), (256,), (params.reshape(shape), x, out))
    np.testing.assert_allclose(out.numpy(), want, rtol=1e-6)


def test_args_keyword(device, rng):
    params, x, out, want = _launch_inputs(device, rng)
    k = loom.RawKernel(STRUCT_CODE, "affine")
    k((2,), (256,), args=(params[0], x, out), stream=None)
    np.testing.assert_allclose(out.numpy(), want, rtol=1e-6)
    out[...] = 0
    k(grid=(2,), block=(256,), args=[params[0], x, out], enable_cooperative_groups=False)
    np.testing.assert_allclose(out.numpy(), want, rtol=1e-6)
    with pytest.raises(TypeError, match="given twice"):
        k((2,), (256,), grid=(2,), args=(params[0], x, out))
    with pytest.raises(TypeError, match="needs grid and block"):
        k((2,), args=(params[0], x, out))
    with pytest.raises(TypeError, match="args must be a tuple"):
        k((2,), (256,), args=x)


def test_kernel_on_a_used_stream(device, rng):
    a = random_array(rng, (1000,), "float32")
    code = r'extern "C" __global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; ' \
           r'if (i < n) x[i] *= 2; }'
    k = loom.RawKernel(code, "twice")
    x = loom.array(a, device=device)  # a copy (asarray shares a NumPy array's memory on cpu())
    with loom.device(device):
        s = cuda.Stream()
    with s:
        k((4,), (256,), (x, np.int32(a.size)))
    s.synchronize()
    np.testing.assert_array_equal(x.numpy(), a * 2)


# ---- fuse --------------------------------------------------------------------------------------

@loom.fuse()
def squared_diff(x, y):
    return (x - y) * (x - y)


@loom.fuse(kernel_name="normalize")
def normalize(x, eps):
    centred = x - loom.mean(x, axis=-1, keepdims=True)
    return centred / loom.sqrt(loom.sum(centred * centred, axis=-1, keepdims=True) + eps)


@loom.fuse
def where_positive(x, y, s):
    return loom.where(x > 0, x * s, y)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32"])
def test_fuse_elementwise_broadcasts(device, rng, dtype):
    a, b = random_array(rng, (4, 5), dtype, -100, 100), random_array(rng, (5,), dtype, -100, 100)
    got = squared_diff(loom.asarray(a, device=device), loom.asarray(b, device=device))
    want = (a - b) * (a - b)
    assert got.dtype == want.dtype and got.device == device
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)
    got = squared_diff(loom.asarray(a, device=device), 3)  # a Python scalar is weak, as in NumPy 2
    assert got.dtype == a.dtype
    np.testing.assert_allclose(got.numpy(), (a - 3) * (a - 3), rtol=1e-6)


def test_fuse_with_reductions(device, rng):
    a = random_array(rng, (6, 33), "float64")
    eps = float(random_array(rng, (), "float64", 0.1, 1))
    got = normalize(loom.asarray(a, device=device), eps)
    c = a - a.mean(-1, keepdims=True)
    np.testing.assert_allclose(got.numpy(), c / np.sqrt((c * c).sum(-1, keepdims=True) + eps), rtol=1e-10)
    assert normalize.name == "normalize" and normalize.__name__ == "normalize"


def test_fuse_scalars_and_numpy_run_the_function(rng):
    assert squared_diff(2, 5) == 9 and squared_diff.name == "squared_diff"
    a, b = random_array(rng, (3,), "float64"), random_array(rng, (3,), "float64")
    got = squared_diff(a, b)
    assert isinstance(got, np.ndarray)  # no loom array: NumPy's own result, as in CuPy
    np.testing.assert_array_equal(got, (a - b) * (a - b))


def test_fuse_where_and_numpy_scalar(device, rng):
    a, b = random_array(rng, (50,), "float32"), random_array(rng, (50,), "float32")
    got = where_positive(loom.asarray(a, device=device), loom.asarray(b, device=device), np.float32(2.5))
    np.testing.assert_allclose(got.numpy(), np.where(a > 0, a * np.float32(2.5), b), rtol=1e-6)


def test_fuse_updates_arguments_in_place(device, rng):
    @loom.fuse()
    def accumulate(acc, x):
        acc += x * x
        return loom.sum(x)

    a, acc0 = random_array(rng, (40,), "float64"), random_array(rng, (40,), "float64")
    acc = loom.array(acc0, device=device)
    total = accumulate(acc, loom.asarray(a, device=device))
    np.testing.assert_allclose(acc.numpy(), acc0 + a * a, rtol=1e-12)
    np.testing.assert_allclose(total.item(), a.sum(), rtol=1e-12)


def test_fuse_errors(device):
    x = loom.ones(3, device=device)
    with pytest.raises(TypeError, match=r"\[fuse squared_diff\] arguments are arrays, scalars or None, not list"):
        squared_diff(x, [1, 2, 3])
    with pytest.raises(TypeError, match=r"\[fuse\] unexpected keyword argument 'name'"):
        loom.fuse(name="f")
    with pytest.raises(TypeError, match=r"\[fuse\] expected a function"):
        loom.fuse()(3)
