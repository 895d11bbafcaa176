"""cupy.cuda's names in loom.cuda (loom/_cupy_cuda.py, loom/_cupy_runtime.py): Stream with use()
and `with`, Event, Device, get_current_stream, runtime queries, memory pools and pointers; on
every device (cpu() is CuPy's device -1, CUDA's cudaCpuDeviceId)."""
import threading

import numpy as np
import pytest

import loom
from conftest import random_array
from loom import cuda


def _gpu_only(device, why):
    if device == loom.cpu():
        pytest.skip(f"cpu() has one synchronous stream: {why}")


def test_stream_is_a_loom_stream(device):
    with device:
        s = cuda.Stream(non_blocking=True)
        assert isinstance(s, loom.Stream) and isinstance(s, cuda.Stream) and s.device == device
        assert isinstance(cuda.stream(), cuda.Stream)  # Numba's and CuPy's give one kind
        assert cuda.Stream.null == loom.default_stream(device) == cuda.Stream(null=True)
        assert cuda.Stream(ptds=True) == loom.per_thread_default_stream(device)
        assert s.device_id == (-1 if device == loom.cpu() else device.index)
    with pytest.raises(ValueError, match=r"\[cuda.Stream\] null and ptds"):
        cuda.Stream(null=True, ptds=True)


def test_stream_use_and_with(device):
    _gpu_only(device, "every stream there is the default one")
    with device:
        before = cuda.get_current_stream()
        a, b, c = cuda.Stream(), cuda.Stream(), cuda.Stream()
        try:
            assert a.use() is a and cuda.get_current_stream() == a
            with b:
                assert cuda.get_current_stream() == b
                c.use()  # ends with the block, as CuPy's
                assert cuda.get_current_stream() == c
            assert cuda.get_current_stream() == a
            with loom.Stream(device) as d:  # loom's own stream class: the same rules
                assert cuda.get_current_stream() == d
            for _ in range(100):  # replaces, never piles up
                b.use()
            assert cuda.get_current_stream() == b
        finally:
            cuda.Stream.null.use()
        assert cuda.get_current_stream() == before


def test_stream_use_is_per_thread(device):
    _gpu_only(device, "every stream there is the default one")
    with device:
        s, seen = cuda.Stream(), []
        t = threading.Thread(target=lambda: (s.use(), seen.append(cuda.get_current_stream() == s)))
        t.start()
        t.join()
        assert seen == [True] and cuda.get_current_stream() != s


def test_work_on_a_used_stream(device, rng):
    a = random_array(rng, (257,), "float32")
    with device:
        s = cuda.Stream(non_blocking=True)
        with s:
            x = loom.asarray(a) * 2 + 1
        s.synchronize()
        assert s.done
        np.testing.assert_allclose(x.numpy(), a * 2 + 1, rtol=1e-6)
        called = []
        s.add_callback(lambda stream, err, arg: called.append((stream, err, arg)), 7)
        s.launch_host_func(called.append, 8)
        assert called == [(s, 0, 7), 8]


def test_events(device, rng):
    with device:
        start, end = cuda.Event(), cuda.Event(block=True)
        assert isinstance(start, loom.Event) and isinstance(end, cuda.Event)
        start.record()
        x = loom.asarray(random_array(rng, (1000,), "float64")).sum()
        end.record(cuda.get_current_stream())
        end.synchronize()
        assert end.done and start.done
        ms = cuda.get_elapsed_time(start, end)
        assert ms >= 0 and ms == pytest.approx(start.elapsed_time(end), abs=1e-3)
        assert np.isfinite(x.item())
        cuda.Event(disable_timing=True).record()
    with pytest.raises(NotImplementedError, match=r"\[cuda.Event\] interprocess"):
        cuda.Event(interprocess=True)


def test_device(device):
    d = cuda.Device(device)
    expected_id = -1 if device == loom.cpu() else device.index
    assert d.id == int(d) == expected_id and d.device == device
    assert cuda.Device(expected_id) == d == device
    major, minor = device.compute_capability
    assert d.compute_capability == f"{major}{minor}"  # CuPy's string; loom.Device's is a tuple
    free, total = d.mem_info
    assert 0 <= free <= total and total == device.total_memory
    d.synchronize()
    with loom.device(device):
        assert cuda.Device() == d and cuda.runtime.getDevice() == expected_id
    with d as entered:
        assert entered is d and loom.default_device() == device


def test_device_use_and_with(device):
    other = loom.cpu() if device != loom.cpu() else device
    before = loom.default_device()
    with loom.device(other):
        with cuda.Device(device):
            assert loom.default_device() == device
            cuda.Device(other).use()  # ends with the block
            assert loom.default_device() == other
        assert loom.default_device() == other
        assert cuda.Device(device).use().device == loom.default_device() == device
        cuda.runtime.setDevice(cuda.Device(other).id)
        assert loom.default_device() == other
    assert loom.default_device() == before


def test_device_errors():
    n = loom.num_gpus()
    with pytest.raises(ValueError, match=rf"\[cuda.Device\] there is no GPU {n} \({n} present"):
        cuda.Device(n)
    with pytest.raises(TypeError, match=r"\[cuda.Device\] a device is"):
        cuda.Device("gpu0")
    with pytest.raises(ValueError, match=r"\[getDeviceProperties\] there is no GPU"):
        cuda.runtime.getDeviceProperties(n)


def test_runtime_queries(device):
    rt = cuda.runtime
    import loom.cuda.runtime as imported
    assert imported is rt and rt.is_hip is False
    assert rt.getDeviceCount() == loom.num_gpus()
    assert rt.runtimeGetVersion() % 10 == 0 and rt.driverGetVersion() >= 0
    assert rt.get_version() >= (0, 0) and isinstance(rt.is_supported_version(), bool)  # Numba's
    assert rt.CUDARuntimeError is loom.CudaError
    with loom.device(device):
        free, total = rt.memGetInfo()
        assert 0 <= free <= total
        rt.deviceSynchronize()
    if device == loom.cpu():
        with pytest.raises(ValueError, match=r"\[cuda.Device.attributes\] cpu\(\) has no CUDA"):
            cuda.Device(device).attributes
        return
    props = rt.getDeviceProperties(device.index)
    assert props["name"] == device.name.encode() and props["totalGlobalMem"] == device.total_memory
    assert (props["major"], props["minor"]) == device.compute_capability
    assert props["multiProcessorCount"] == device.multiprocessor_count
    assert props["warpSize"] == 32 and props["maxThreadsPerBlock"] == 1024 and len(props["maxGridSize"]) == 3
    assert rt.deviceGetAttribute(16, device.index) == device.multiprocessor_count
    assert cuda.Device(device).attributes == props


def test_memory_pool(device):
    pool = loom.get_default_memory_pool()
    assert pool is cuda.get_default_memory_pool() and isinstance(pool, cuda.MemoryPool)
    with loom.device(device):
        used = pool.used_bytes()
        x = loom.empty((1 << 16,), dtype=loom.float32)
        assert pool.used_bytes() >= used + x.nbytes
        assert pool.total_bytes() == pool.used_bytes() + pool.free_bytes()
        del x
        cached = pool.free_bytes()
        pool.free_all_blocks()
        # A GPU pool keeps the free rest of a segment that live arrays still use (as CuPy's
        # does); on cpu() every cached block goes.
        assert pool.free_bytes() == 0 if device == loom.cpu() else pool.free_bytes() <= cached
        limit = pool.get_limit()
        try:
            pool.set_limit(size=1 << 30)
            assert pool.get_limit() == 1 << 30
            pool.set_limit(fraction=0.5)
            assert pool.get_limit() == int(0.5 * device.total_memory)
        finally:
            pool.set_limit(size=limit)
        p = pool.malloc(96)
        assert isinstance(p, cuda.MemoryPointer) and p.mem.size == 96 and p.device == device
    with pytest.raises(ValueError, match=r"\[MemoryPool.set_limit\] fraction"):
        pool.set_limit(fraction=2)
    with pytest.raises(NotImplementedError, match=r"\[MemoryPool\] a custom allocator"):
        cuda.MemoryPool(lambda n: None)
    cuda.set_allocator(pool.malloc)
    cuda.set_allocator(None)
    with pytest.raises(NotImplementedError, match=r"\[set_allocator\]"):
        cuda.set_allocator(lambda n: None)


def test_pinned_memory_pool():
    pool = loom.get_default_pinned_memory_pool()
    assert isinstance(pool, cuda.PinnedMemoryPool)
    assert pool.total_bytes() == pool.used_bytes() + pool.free_bytes()
    p = cuda.alloc_pinned_memory(128)
    assert p.size == 128 and int(p) == p.ptr == p.array.ctypes.data
    limit = pool.get_limit()
    pool.set_limit(1 << 20)
    assert pool.get_limit() == 1 << 20
    pool.set_limit(limit)
    pool.free_all_blocks()


def test_memory_pointer_copies(device, rng):
    a = random_array(rng, (64,), "uint8")
    with loom.device(device):
        p = cuda.alloc(64)
    assert p.device_id == cuda.Device(device).id and p.mem.device_id == p.device_id
    p.copy_from_host(a, 64)
    out = np.zeros(64, np.uint8)
    p.copy_to_host(out, 64)
    np.testing.assert_array_equal(out, a)
    with loom.device(device):
        q = cuda.memory.alloc(64)
    (q + 16).copy_from_device(p, 32)
    (q + 48).memset(7, 16)
    got = np.zeros(64, np.uint8)
    q.copy_to_host(got.ctypes.data, 64)
    np.testing.assert_array_equal(got[16:48], a[:32])
    np.testing.assert_array_equal(got[48:], 7)
    assert (q + 16).ptr == q.ptr + 16 and (q + 16) - 16 == q and q.device_pointer == q.ptr  # Numba's name
    with pytest.raises(ValueError, match=r"\[MemoryPointer\] offset 65"):
        q + 65
    with pytest.raises(ValueError, match=r"\[MemoryPointer.memset\] 65 bytes"):
        q.memset(0, 65)
