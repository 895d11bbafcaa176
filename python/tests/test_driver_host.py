"""loom.driver's host half (PyCUDA's pagelocked_empty/zeros, host_alloc_flags,
memcpy_htod_async/memcpy_dtoh_async) and loom.autoinit. Without a GPU, page-locked arrays
are ordinary memory and the copies run on cpu(); the GPU cases run with one."""
import ctypes
import importlib

import numpy as np
import pytest

import loom
import loom.driver as drv

FLAGS = drv.host_alloc_flags


def test_flag_values_are_cudas():
    assert (FLAGS.PORTABLE, FLAGS.DEVICEMAP, FLAGS.WRITECOMBINED) == (1, 2, 4)


@pytest.mark.parametrize("flags", [0, FLAGS.PORTABLE, FLAGS.DEVICEMAP, FLAGS.WRITECOMBINED,
                                   FLAGS.PORTABLE | FLAGS.DEVICEMAP])
@pytest.mark.parametrize("order", ["C", "F"])
def test_pagelocked_empty(flags, order, rng):
    a = drv.pagelocked_empty((7, 9, 3), np.float32, order=order, mem_flags=flags)
    assert a.shape == (7, 9, 3) and a.dtype == np.float32 and a.flags.writeable
    assert a.flags.c_contiguous if order == "C" else a.flags.f_contiguous
    vals = rng.standard_normal((7, 9, 3)).astype(np.float32)
    a[...] = vals
    np.testing.assert_array_equal(a, vals)
    z = drv.pagelocked_zeros((5, 4), np.int64, order=order, mem_flags=flags)
    assert z.dtype == np.int64 and not z.any()


@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("dtype", ["float32", "int16", "complex128", "bfloat16"])
def test_pagelocked_like(order, dtype, rng):
    like = np.asarray(rng.standard_normal((4, 6)), order=order).astype(dtype, order=order)
    for fn, zero in ((drv.pagelocked_empty_like, False), (drv.pagelocked_zeros_like, True)):
        a = fn(like, mem_flags=FLAGS.PORTABLE)
        assert a.shape == like.shape and a.dtype == like.dtype
        assert a.flags.c_contiguous if order == "C" else a.flags.f_contiguous
        assert isinstance(a.base, drv.HostAllocation)
        assert a.base.nbytes == like.nbytes and a.base.flags == FLAGS.PORTABLE
        if zero:
            assert not np.ascontiguousarray(a).view(np.uint8).any()
        a[...] = like
        np.testing.assert_array_equal(a, like)
    # Not contiguous, or not even a NumPy array: NumPy's shape and dtype, in C order.
    b = drv.pagelocked_empty_like(like[:, ::2])
    assert b.shape == (4, 3) and b.flags.c_contiguous
    assert drv.pagelocked_zeros_like([[1, 2, 3]]).shape == (1, 3)


def test_device_pointer_needs_devicemap():
    a = drv.pagelocked_empty(8, np.float32)
    with pytest.raises(ValueError, match=r"\[get_device_pointer\] .* without host_alloc_flags.DEVICEMAP"):
        a.base.get_device_pointer()
    m = drv.pagelocked_empty(8, np.float32, mem_flags=FLAGS.DEVICEMAP)
    if loom.num_gpus() == 0:
        with pytest.raises(NotImplementedError, match="get_device_pointer"):  # DESIGN.md §5
            m.base.get_device_pointer()


WRITE = r'''
extern "C" __global__ void write_index(float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 3.0f * i - 1.0f;
}
'''


def test_kernel_writes_devicemap_memory_through_its_device_pointer(gpu):
    # PyCUDA's zero-copy recipe: the array's .base hands the kernel an address.
    n = 777
    a = drv.pagelocked_zeros(n, np.float32, mem_flags=FLAGS.DEVICEMAP | FLAGS.PORTABLE)
    ptr = a.base.get_device_pointer()
    assert isinstance(ptr, int) and ptr != 0
    with gpu:
        k = loom.RawKernel(WRITE, "write_index")
        # A raw address for a pointer parameter is a ctypes.c_void_p (PyCUDA's np.intp is an
        # integer to loom's typed launches, which refuse it for a pointer).
        k(((n + 127) // 128,), (128,), (ctypes.c_void_p(ptr), np.int32(n)))
    loom.synchronize(gpu)
    np.testing.assert_array_equal(a, 3.0 * np.arange(n, dtype=np.float32) - 1)


def test_pagelocked_errors():
    with pytest.raises(ValueError, match=r"\[pagelocked_empty\] mem_flags"):
        drv.pagelocked_empty(4, np.float32, mem_flags=8)
    with pytest.raises(ValueError, match="order must be 'C' or 'F'"):
        drv.pagelocked_zeros(4, np.float32, order="K")


def _round_trip(device, rng, stream, dest_kind):
    n = 4096
    src = drv.pagelocked_empty(n, np.float32)
    src[...] = rng.standard_normal(n).astype(np.float32)
    dest = drv.mem_alloc(src.nbytes, device) if dest_kind == "alloc" else loom.empty(n, loom.float32, device=device)
    back = drv.pagelocked_zeros(n, np.float32)
    drv.memcpy_htod_async(dest, src, stream)
    drv.memcpy_dtoh_async(back, dest, stream)
    (stream or loom.current_stream(device)).synchronize()
    np.testing.assert_array_equal(back, src)
    if dest_kind == "array":
        np.testing.assert_array_equal(dest.numpy(), src)


@pytest.mark.parametrize("dest_kind", ["alloc", "array"])
@pytest.mark.parametrize("with_stream", [False, True])
def test_async_round_trip(device, rng, dest_kind, with_stream):
    stream = loom.Stream(device) if with_stream else None
    _round_trip(device, rng, stream, dest_kind)


def test_async_copy_errors(device):
    buf = drv.mem_alloc(16, device)
    with pytest.raises(ValueError, match=r"\[memcpy_htod_async\] the host array has 32 bytes"):
        drv.memcpy_htod_async(buf, np.zeros(8, np.float32))
    with pytest.raises(TypeError, match="DeviceAllocation"):
        drv.memcpy_dtoh_async(np.zeros(4, np.float32), np.zeros(4, np.float32))
    with pytest.raises(ValueError, match="writeable"):
        ro = np.zeros(4, np.float32)
        ro.flags.writeable = False
        drv.memcpy_dtoh_async(ro, buf)


def test_async_stream_of_another_device(gpu):
    buf = drv.mem_alloc(16, gpu)
    with pytest.raises(loom.DeviceMismatchError):
        drv.memcpy_htod_async(buf, np.zeros(4, np.float32), loom.Stream(loom.cpu()))


def test_autoinit():
    auto = importlib.import_module("loom.autoinit")
    assert auto.device == loom.default_device()
    assert auto.context.get_device() == auto.device
    auto.context.synchronize()
    auto.context.push()
    auto.context.pop()
