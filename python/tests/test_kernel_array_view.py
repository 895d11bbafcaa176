"""Array view kernel parameters: a loom array passed to a `LoomArray<T, N, C>` parameter
arrives as its data pointer, shape and strides in elements (what kernels written in Python
are translated to), on cpu() (the kernel emulator, also in debug mode) and on each GPU."""
import numpy as np
import pytest

import loom

VIEW = r"""
template <class T, int N, bool C>   // C: the kernel assumes a C-contiguous array
struct LoomArray {
  T* data;
  long long shape[N];
  long long strides[N];   // in elements
};

// The offset, in elements, of the element at C-order position `flat` of `a`.
template <class T, int N, bool C>
__device__ long long offset_of(const LoomArray<T, N, C>& a, long long flat) {
  long long off = 0;
  for (int k = N - 1; k >= 0; --k) {
    off += (flat % a.shape[k]) * a.strides[k];
    flat /= a.shape[k];
  }
  return off;
}
"""

# out (C-contiguous, the same shape) = scale * x + (flat index), read through x's strides.
READ = VIEW + r"""
extern "C" __global__ void read1(LoomArray<const double, 1, false> x, LoomArray<double, 1, true> out, double scale) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < out.shape[0]) out.data[i] = scale * x.data[i * x.strides[0]] + i;
}
extern "C" __global__ void read2(LoomArray<const double, 2, false> x, LoomArray<double, 2, true> out, double scale) {
  long long j = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  long long i = blockIdx.y * (long long)blockDim.y + threadIdx.y;
  if (i < x.shape[0] && j < x.shape[1])
    out.data[i * out.shape[1] + j] = scale * x.data[i * x.strides[0] + j * x.strides[1]] + (i * x.shape[1] + j);
}
extern "C" __global__ void read3(LoomArray<const double, 3, false> x, LoomArray<double, 3, true> out, double scale) {
  long long n = out.shape[0] * out.shape[1] * out.shape[2];
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
    out.data[i] = scale * x.data[offset_of(x, i)] + i;
}
"""

# A C-contiguous view read by flat index, a template over the element type.
TEMPLATE = "#include <cuda_fp16.h>\n" + VIEW + r"""
template <class T>
__global__ void twice(LoomArray<const T, 2, true> x, LoomArray<T, 2, 1> out) {
  long long n = x.shape[0] * x.shape[1];
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < n) out.data[i] = x.data[i] + x.data[i];
}
"""

INC = VIEW + r"""
extern "C" __global__ void inc_view(LoomArray<float, 1, false> x) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < x.shape[0]) x.data[i * x.strides[0]] += 1.0f;
}
"""


# A view beside a checked pointer (debug mode): the pointer keeps its own argument's range.
GATHER = VIEW + r"""
extern "C" __global__ void gather(LoomArray<const float, 2, false> x, const int* idx, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[idx[i]] = x.data[i * x.strides[0]];  // x[i, 0]
}
"""


def cdiv(a, b):
    return (a + b - 1) // b


def expected(x, scale):
    """The kernels' result, as NumPy rounds it."""
    return scale * x + np.arange(x.size, dtype=np.float64).reshape(x.shape)


def assert_read(out, x, scale):
    """A GPU may fuse the kernel's multiply-add (FMA): one rounding fewer, an error of up to
    half an ulp of scale * x, which is large against the sum where the two terms cancel."""
    np.testing.assert_allclose(out.numpy(), expected(x, scale), rtol=1e-14,
                               atol=2.3e-16 * np.max(np.abs(scale * x), initial=0.0))


def launch_read(k, x, out, scale, **kw):
    if x.ndim == 2:
        k((cdiv(x.shape[1], 16), cdiv(x.shape[0], 16)), (16, 16), (x, out, scale), **kw)
    else:
        k((cdiv(max(x.size, 1), 128),), (128,), (x, out, scale), **kw)


# Inputs of each layout, made from a fresh random base on the test's device: (name, ndim,
# a function of the loom base giving the argument, the same of the NumPy base).
LAYOUTS = [
    ("contiguous1", (37,), lambda b: b),
    ("step1", (40,), lambda b: b[3::3]),
    ("reversed1", (29,), lambda b: b[::-1]),
    ("contiguous2", (7, 9), lambda b: b),
    ("transposed2", (7, 9), lambda b: b.T),
    ("sliced2", (10, 12), lambda b: b[1:8:2, ::3]),
    ("reversed2", (6, 5), lambda b: b[::-1, 1:]),
    ("contiguous3", (3, 4, 5), lambda b: b),
    ("transposed3", (3, 4, 5), lambda b: b.transpose(2, 0, 1)),
    ("sliced3", (6, 5, 8), lambda b: b[::2, 1:4, ::-3]),
]


@pytest.mark.parametrize("debug", [False, True], ids=["fast", "debug"])
@pytest.mark.parametrize("name,shape,take", LAYOUTS, ids=[n for n, _, _ in LAYOUTS])
def test_views_read_through_shape_and_strides(device, rng, name, shape, take, debug):
    if debug and device.type != "cpu":
        pytest.skip("debug mode is the CPU kernel emulator's")
    base = rng.standard_normal(shape)
    want = np.ascontiguousarray(take(base))
    x = take(loom.asarray(base, device=device))
    assert x.shape == want.shape
    out = loom.zeros(want.shape, dtype=loom.float64, device=device)
    k = loom.RawKernel(READ, f"read{want.ndim}")
    launch_read(k, x, out, 2.0, debug=debug)
    assert_read(out, want, 2.0)


@pytest.mark.parametrize("shape,target", [((5,), (4, 5)), ((3, 1), (3, 6)), ((1,), (50,)), ((2, 1, 4), (2, 3, 4))])
def test_broadcast_inputs_have_zero_strides(device, rng, shape, target):
    base = rng.standard_normal(shape)
    x = loom.broadcast_to(loom.asarray(base, device=device), target)
    assert 0 in x.strides
    want = np.broadcast_to(base, target)
    out = loom.zeros(target, dtype=loom.float64, device=device)
    launch_read(loom.RawKernel(READ, f"read{len(target)}"), x, out, -1.5)
    assert_read(out, want, -1.5)


def test_debug_mode_by_environment(monkeypatch, rng):
    monkeypatch.setenv("LOOM_EMULATOR_DEBUG", "1")
    base = rng.standard_normal((8, 6))
    x = loom.asarray(base, device=loom.cpu()).T
    out = loom.zeros((6, 8), dtype=loom.float64, device=loom.cpu())
    launch_read(loom.RawKernel(READ, "read2"), x, out, 3.0)
    assert_read(out, base.T, 3.0)


def test_pointers_beside_views_stay_checked_in_debug_mode(rng):
    n = 50
    x = loom.asarray(rng.standard_normal((3, n)).astype(np.float32), device=loom.cpu())
    perm = rng.permutation(n).astype(np.int32)
    out = loom.zeros(n, dtype=loom.float32, device=loom.cpu())
    k = loom.RawKernel(GATHER, "gather")
    k((1,), (64,), (x.T, loom.asarray(perm, device=loom.cpu()), out, n), debug=True)
    want = np.zeros(n, dtype=np.float32)
    want[perm] = x.numpy()[0]
    np.testing.assert_array_equal(out.numpy(), want)
    perm[int(rng.integers(0, n))] = n  # one write past the end of out
    with pytest.raises(IndexError, match="gather"):
        k((1,), (64,), (x.T, loom.asarray(perm.copy(), device=loom.cpu()), out, n), debug=True)


@pytest.mark.parametrize("ctype,dtype", [("float", np.float32), ("int", np.int32), ("long long", np.int64),
                                         ("unsigned char", np.uint8), ("__half", np.float16)])
def test_template_views_of_each_element_type(device, rng, ctype, dtype):
    mod = loom.RawModule(TEMPLATE, name_expressions=(f"twice<{ctype}>",))
    k = mod.get_function(f"twice<{ctype}>")
    host = (rng.integers(-20, 20, size=(5, 7)) % 100).astype(dtype)
    x = loom.asarray(host, device=device)
    out = loom.zeros((5, 7), dtype=host.dtype, device=device)
    k((1,), (64,), (x, out))
    np.testing.assert_array_equal(out.numpy(), host + host)


def test_parameter_sizes_are_the_views(device):
    k = loom.RawKernel(READ, "read3")
    assert k.attributes(device)["param_sizes"] == [8 + 16 * 3, 8 + 16 * 3, 8]


def test_refusals_name_the_kernel_and_the_parameter(device, rng):
    k = loom.RawKernel(READ, "read2")
    c = loom.RawModule(TEMPLATE, name_expressions=("twice<float>",)).get_function("twice<float>")
    x = loom.asarray(rng.standard_normal((4, 5)), device=device)
    f = loom.asarray(rng.standard_normal((4, 5)).astype(np.float32), device=device)
    out = loom.zeros((4, 5), dtype=loom.float64, device=device)
    fout = loom.zeros((4, 5), dtype=loom.float32, device=device)
    head = r"\[RawKernel read2\] argument 0 is "
    param = r"parameter 0 \(LoomArray<const double, 2, false> x\) is a view of a 2-D float64 array"
    with pytest.raises(TypeError, match=head + "a Python float but " + param + "; pass a loom array"):
        k((1, 1), (16, 16), (1.0, out, 2.0))
    with pytest.raises(TypeError, match=head + "a 2-D float32 array but " + param + r"; pass a float64 array \(astype\)"):
        k((1, 1), (16, 16), (f, out, 2.0))
    with pytest.raises(TypeError, match=head + "a 1-D float64 array but " + param + r" \(2 dimensions, not 1\)"):
        k((1, 1), (16, 16), (x[0], out, 2.0))
    with pytest.raises(TypeError, match=r"argument 1 is a non-C-contiguous 2-D float64 array \(strides \(8, 40\) bytes\) "
                                        r"but parameter 1 \(LoomArray<double, 2, true> out\) is a view of a C-contiguous "
                                        r"2-D float64 array: the kernel needs a C-contiguous array; pass a.copy\(\)"):
        k((1, 1), (16, 16), (x, out.T, 2.0))
    with pytest.raises(TypeError, match=r"\[RawKernel twice<float>\] argument 0 is a non-C-contiguous 2-D float32 "
                                        r"array .* is a view of a C-contiguous 2-D float32 array"):
        c((1,), (64,), (f[:, ::2], fout))
    # A stride that is no multiple of the itemsize cannot be made from Python (loom arrays,
    # NumPy's and DLPack's strides all count whole elements): kernel_args_test.cpp has it.


def test_auto_block_keeps_the_data_of_a_view(device, rng):
    # block="auto" times candidates on scratch copies of every array: the view's data
    # pointer must be swapped too, or x would be incremented once per timed launch.
    n = 100_003
    a = rng.standard_normal(2 * n).astype(np.float32)
    base = loom.asarray(a.copy(), device=device)  # asarray may share memory on the CPU
    x = base[1::2]
    k = loom.RawKernel(INC, "inc_view")
    k((x.shape[0],), "auto", (x,))
    k((x.shape[0],), "auto", (x,))
    want = a.copy()
    want[1::2] = (want[1::2] + np.float32(1)) + np.float32(1)
    np.testing.assert_array_equal(base.numpy(), want)


@pytest.mark.skipif(not loom.build_info()["cuda"], reason="loom built without CUDA (no NVRTC)")
def test_nvrtc_compiles_view_kernels_without_a_gpu():
    mod = loom.RawModule(TEMPLATE, name_expressions=("twice<float>", "twice<double>"))
    names = mod.compile(arch=90)
    assert len(names) == 2 and all("LoomArray" in n for n in names), names
    loom.RawModule(READ).compile(arch=80)
