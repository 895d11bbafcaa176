"""How kernels are found by name, the same on cpu() (the kernel emulator) and on a GPU
(issue 5): extern "C" kernels by their name wherever they are declared (namespaces and
extern "C" blocks included), C++ kernels (templates, overloads, namespaced) only through
name_expressions, and a missing or C++-linkage name raises ValueError at get_function on
the default device.
"""
import numpy as np
import pytest

import loom
from conftest import random_array
from test_emulator import cdiv, on, to

NAMESPACED = r"""
namespace outer {
namespace inner {
extern "C" __global__ void ns_scale(float* a, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] *= s;
}
template <class T>
__global__ void ns_add(T* a, T v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] += v;
}
}  // namespace inner
__global__ void cpp_linkage(float* a) { a[0] = '{'; }  // a brace in a character literal
}  // namespace outer
extern "C" {
__global__ void in_block(float* a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = -a[i];
}
}
"""


def test_namespaced_and_extern_c_block_kernels_are_found(device, rng):
    on(device)
    n = 1000
    mod = loom.RawModule(NAMESPACED, name_expressions=("outer::inner::ns_add<double>",))
    host = random_array(rng, n, np.float32)
    a = to(device, host)
    mod.get_function("ns_scale")((cdiv(n, 128),), (128,), (a, np.float32(3.0), n))
    mod.get_function("in_block")((cdiv(n, 128),), (128,), (a, n))
    np.testing.assert_array_equal(a.numpy(), -(host * np.float32(3.0)))
    d_host = random_array(rng, n, np.float64)
    d = to(device, d_host)
    mod.get_function("outer::inner::ns_add<double>")((cdiv(n, 256),), (256,), (d, 0.25, n))
    np.testing.assert_array_equal(d.numpy(), d_host + 0.25)


def test_cpp_linkage_kernel_needs_a_name_expression(device):
    on(device)
    mod = loom.RawModule(NAMESPACED)
    with loom.device(device):
        with pytest.raises(ValueError, match="cpp_linkage"):
            mod.get_function("cpp_linkage")
        with pytest.raises(ValueError, match="ns_add"):
            mod.get_function("ns_add")


def test_a_missing_name_raises_at_get_function_on_the_default_device(device):
    on(device)
    with loom.device(device):
        mod = loom.RawModule(r'extern "C" __global__ void present(float* a) { a[0] = 1.0f; }')
        with pytest.raises(ValueError, match="no kernel named 'absent'"):
            mod.get_function("absent")
        assert mod.get_function("present").name == "present"


OVERLOADED = r"""
__global__ void twice(float* a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = 2.0f * a[i];
}
__global__ void twice(int* a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = 2 * a[i] + 1;  // differs from the float one, so a mix-up shows
}
"""
TWICE_F = "(void (*)(float*, int))twice"
TWICE_I = "(void (*)(int*, int))twice"


def test_overloaded_kernels_by_cast_name_expressions(device, rng):
    on(device)
    n = 777
    mod = loom.RawModule(OVERLOADED, name_expressions=(TWICE_F, TWICE_I))
    f_host = random_array(rng, n, np.float32)
    i_host = rng.integers(-1000, 1000, n).astype(np.int32)
    f, i = to(device, f_host), to(device, i_host)
    mod.get_function(TWICE_F)((cdiv(n, 64),), (64,), (f, n))
    mod.get_function(TWICE_I)((cdiv(n, 64),), (64,), (i, n))
    np.testing.assert_array_equal(f.numpy(), f_host * np.float32(2))
    np.testing.assert_array_equal(i.numpy(), i_host * 2 + 1)


@pytest.mark.skipif(not loom.build_info()["cuda"], reason="loom built without CUDA (no NVRTC)")
def test_cast_name_expressions_compile_with_nvrtc_without_a_gpu():
    # The same expressions NVRTC must accept on a GPU machine: lowered names of both overloads.
    names = loom.RawModule(OVERLOADED, name_expressions=(TWICE_F, TWICE_I)).compile(arch=90)
    assert len(names) == 2 and names[0] != names[1] and all("twice" in s for s in names), names


def test_overloads_by_cast_in_the_emulators_debug_mode(device, rng):
    # Debug mode declares pointer parameters as checked pointers: the cast that picks the
    # overload must follow (on a GPU debug= does nothing).
    on(device)
    n = 300
    mod = loom.RawModule(OVERLOADED, name_expressions=(TWICE_F, TWICE_I))
    i_host = rng.integers(-1000, 1000, n).astype(np.int32)
    i = to(device, i_host)
    mod.get_function(TWICE_I)((cdiv(n, 64),), (64,), (i, n), debug=True)
    np.testing.assert_array_equal(i.numpy(), i_host * 2 + 1)
    if device == loom.cpu():
        with pytest.raises(IndexError, match=r"line 8 of the kernel source.*100-element int32 array argument 0 \(a\)"):
            mod.get_function(TWICE_I)((cdiv(n, 64),), (64,), (i[:100], n), debug=True)
