"""loom.empty_mapped and ndarray.host: mapped (zero-copy) host memory that kernels write
and the host reads without a copy. The GPU cases skip without a GPU."""
import numpy as np
import pytest

import loom

WRITE = r'''
extern "C" __global__ void write_index(float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.0f * i + 1.0f;
}
'''


def test_cpu_mapped_is_an_ordinary_array_with_a_host_view(rng):
    a = loom.empty_mapped((4, 5), loom.float32, device=loom.cpu())
    assert a.device == loom.cpu() and a.shape == (4, 5) and a.dtype == loom.float32
    vals = rng.standard_normal((4, 5)).astype(np.float32)
    a.host[...] = vals  # a view: writes the array
    np.testing.assert_array_equal(a.numpy(), vals)
    np.testing.assert_array_equal(a[1:, 2].host, vals[1:, 2])


def test_kernel_writes_are_visible_on_the_host(gpu):
    n = 1000
    a = loom.empty_mapped((n,), loom.float32, device=gpu)
    assert a.device == gpu
    k = loom.RawKernel(WRITE, "write_index")
    k(((n + 127) // 128,), (128,), (a, np.int32(n)))
    loom.synchronize(gpu)
    want = 2.0 * np.arange(n, dtype=np.float32) + 1
    np.testing.assert_array_equal(a.host, want)  # no copy: the host's view of the same memory
    np.testing.assert_array_equal(a.numpy(), want)


def test_host_writes_are_read_by_gpu_ops(gpu, rng):
    a = loom.empty_mapped((3, 64), loom.float64, device=gpu)
    vals = rng.standard_normal((3, 64))
    a.host[...] = vals
    np.testing.assert_allclose((a * 2.0 + 1.0).numpy(), vals * 2 + 1)
    np.testing.assert_allclose(a[1:, ::2].host, vals[1:, ::2])
    out = loom.empty_mapped((3, 64), loom.float64, device=gpu)
    loom.multiply(a, 3.0, out=out)  # an op writing mapped memory
    loom.synchronize(gpu)
    np.testing.assert_allclose(out.host, vals * 3)


def test_host_of_an_ordinary_gpu_array_raises(gpu):
    with pytest.raises(ValueError, match=r"\[host\] .* not in mapped host memory"):
        loom.zeros(4, device=gpu).host
