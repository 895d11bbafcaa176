"""loom.pycuda.driver on every device: PyCUDA's contexts, memory at integer addresses, copies,
memsets, device queries and errors, checked against NumPy on fresh random data."""
import numpy as np
import pytest

import loom
import loom.pycuda.driver as drv


@pytest.fixture
def ctx(device):
    """A PyCUDA context on `device` (cpu() where the default device is the CPU)."""
    with loom.device(device):
        c = drv.Device(0).make_context()
        assert drv.Context.get_device().loom_device == device
        yield c
        c.pop()


def test_round_trips_through_allocations(ctx, rng):
    z = rng.standard_normal(400).astype(np.float32)
    np.testing.assert_array_equal(drv.from_device_like(drv.to_device(z), z), z)
    np.testing.assert_array_equal(drv.from_device(drv.to_device(z), (20, 20), np.float32), z.reshape(20, 20))
    a = drv.mem_alloc_like(z)
    assert a.nbytes == z.nbytes
    drv.memcpy_htod(a, z)
    back = np.empty_like(z)
    drv.memcpy_dtoh(back, a)
    np.testing.assert_array_equal(back, z)


def test_integer_addresses_and_offsets(ctx, rng):
    z = rng.integers(-1000, 1000, 64).astype(np.int32)
    a = drv.to_device(z)
    b = drv.mem_alloc(z.nbytes)
    drv.memset_d32(b, 0, z.size)
    drv.memcpy_dtod(int(b) + 8, int(a), z.nbytes - 8)  # PyCUDA's rule: pointers are integers
    got = drv.from_device_like(b, z)
    np.testing.assert_array_equal(got[2:], z[:-2])
    np.testing.assert_array_equal(got[:2], 0)
    drv.memcpy_htod(np.intp(int(b)) + 4, z[:3].copy())
    np.testing.assert_array_equal(drv.from_device_like(b, z)[1:4], z[:3])
    part = np.zeros(5, np.int32)
    drv.memcpy_dtoh(part, int(a) + 12)  # from an integer address, 3 elements in
    np.testing.assert_array_equal(part, z[3:8])
    strided = np.zeros((5, 2), np.int32)[:, 0]  # a non-contiguous destination is refused
    with pytest.raises(ValueError, match="contiguous"):
        drv.memcpy_dtoh(strided, a)


@pytest.mark.parametrize("bits, dtype", [(8, np.uint8), (16, np.uint16), (32, np.uint32)])
def test_memsets(ctx, rng, bits, dtype):
    n = 40
    a = drv.to_device(rng.integers(0, 200, n).astype(dtype))
    value = int(rng.integers(1, 200))
    getattr(drv, f"memset_d{bits}")(int(a) + 4 * np.dtype(dtype).itemsize, value, 10)
    got = drv.from_device(a, (n,), dtype)
    np.testing.assert_array_equal(got[4:14], value)


def test_async_copies_on_a_stream(ctx, rng):
    z = drv.pagelocked_zeros((32, 8), dtype=np.float32)
    z[:] = rng.standard_normal((32, 8))
    a = drv.mem_alloc(z.nbytes)
    s = drv.Stream()
    drv.memcpy_htod_async(a, z, s)
    back = drv.pagelocked_empty_like(z)
    drv.memcpy_dtoh_async(back, a, s)
    s.synchronize()
    assert s.is_done()
    np.testing.assert_array_equal(back, z)


def test_device_queries(ctx, device):
    d = drv.Context.get_device()
    assert isinstance(d.name(), str) and d.name()
    cc = d.compute_capability()
    assert isinstance(cc, tuple) and len(cc) == 2 and cc >= (7, 0)
    assert d.total_memory() == device.total_memory
    attrs = d.get_attributes()
    assert attrs[drv.device_attribute.MAX_THREADS_PER_BLOCK] == d.max_threads_per_block >= 1024
    assert attrs[drv.device_attribute.WARP_SIZE] == 32
    free, total = drv.mem_get_info()
    assert 0 < free <= total
    assert drv.Device.count() >= 1
    if loom.build_info()["cuda"]:  # a loom built without CUDA knows no CUDA version: 0
        assert drv.get_driver_version() >= 11000 and drv.get_version() >= (11, 0, 0)
    else:
        assert drv.get_driver_version() == 0 and drv.get_version() == (0, 0, 0)


def test_contexts_make_their_device_the_default(device):
    before = loom.default_device()
    with loom.device(device):
        c = drv.Device(0).make_context()
        # Device(0) is gpu(0) while loom's default is a GPU, and the emulated device while it
        # is cpu() (a machine without a GPU, or code that chose the CPU).
        device0 = loom.gpu(0) if device.type == "cuda" else loom.cpu()
        assert loom.default_device() == device0 and drv.Context.get_current() is c
        drv.Context.synchronize()
        assert drv.Context.pop() is c
        assert drv.Context.get_current() is None
        p = drv.Device(0).retain_primary_context()
        p.push()
        assert drv.Context.get_current() is p
        p.detach()
    assert loom.default_device() == before


def test_errors_name_the_call(ctx):
    with pytest.raises(drv.LogicError, match="no device 99"):
        drv.Device(99)
    with pytest.raises(drv.LogicError, match="flags"):
        drv.init(1)
    with pytest.raises(ValueError, match="NULL"):
        drv.memcpy_htod(0, np.zeros(4, np.float32))
    with pytest.raises(TypeError, match="memcpy_dtod"):
        drv.memcpy_dtod(drv.mem_alloc(4), "not a pointer", 4)
    with pytest.raises(ValueError, match="no device attribute|has no"):
        if drv.Context.get_device().loom_device.type == "cpu":
            drv.Context.get_device().get_attribute(drv.device_attribute.CLOCK_RATE)
        else:
            drv.Context.get_device().get_attribute(100000)


def test_a_context_is_current_on_its_own_thread_only(device):
    import threading
    with loom.device(device):
        c = drv.Device(0).make_context()
        seen = []
        t = threading.Thread(target=lambda: seen.append(drv.Context.get_current()))
        t.start()
        t.join()
        assert seen == [None] and drv.Context.get_current() is c
        c.pop()
        assert drv.Context.get_current() is None
