"""Streams and events on every device (synchronous stand-ins on the CPU)."""
import time

import numpy as np
import pytest

import loom
from conftest import assert_matches, random_array


def test_stream_basics(device):
    s = loom.Stream(device)
    assert s.device == device
    s.synchronize()
    assert s.query() is True
    assert isinstance(s.ptr, int)
    if device.type == "cpu":
        assert s.ptr == 0
    else:
        assert s.ptr != 0
        assert s != loom.Stream(device)
    assert loom.default_stream(device).ptr == 0
    assert s == s and hash(s) == hash(s)
    assert repr(device) in repr(s)
    with loom.device(device):
        assert loom.Stream().device == device


def test_with_stream_makes_it_current(device):
    before = loom.current_stream(device)
    s = loom.Stream(device)
    with s as entered:
        assert entered is s
        assert loom.current_stream(device) == s
        with loom.device(device):
            assert loom.current_stream() == s
    assert loom.current_stream(device) == before


def test_work_on_a_stream(device, rng):
    a = random_array(rng, (256, 64), np.float32)
    s = loom.Stream(device)
    with s:
        x = loom.asarray(a, device=device)
        y = x.astype(loom.float64)
        z = loom.ones((1000,), dtype=loom.int32, device=device)
    s.synchronize()
    assert s.query()
    assert_matches(y, a.astype(np.float64), exact=True)
    assert_matches(z, np.ones(1000, np.int32))


def test_events(device):
    start = loom.Event(device)
    end = loom.Event(device=device, enable_timing=True)
    assert start.device == device
    start.record()
    x = loom.zeros((1 << 16,), device=device)
    if device.type == "cpu":
        time.sleep(0.002)
    end.record(loom.current_stream(device))
    end.synchronize()
    assert end.query() and start.query()
    ms = start.elapsed_time(end)
    assert isinstance(ms, float) and ms >= 0
    if device.type == "cpu":
        assert ms >= 1.0
    del x


def test_event_errors(device):
    a, b = loom.Event(device), loom.Event(device)
    a.record()
    with pytest.raises(ValueError):
        a.elapsed_time(b)  # b never recorded
    c, d = loom.Event(device, enable_timing=False), loom.Event(device, enable_timing=False)
    c.record()
    d.record()
    with pytest.raises(ValueError):
        c.elapsed_time(d)


def test_stream_record_and_wait(device):
    s1, s2 = loom.Stream(device), loom.Stream(device)
    e = s1.record()
    assert isinstance(e, loom.Event)
    s2.wait_event(e)
    e.wait(s2)
    e.wait()
    f = loom.Event(device)
    assert s1.record(f) is not None
    s2.synchronize()


@pytest.mark.gpu
def test_event_and_stream_device_mismatch(gpu):
    e = loom.Event(loom.cpu())
    with pytest.raises(loom.DeviceMismatchError):
        e.record(loom.Stream(gpu))
    with pytest.raises(ValueError):  # DeviceMismatchError is a ValueError
        loom.Event(gpu).elapsed_time(loom.Event(loom.cpu()))


@pytest.mark.gpu
def test_gpu_stream_timing(gpu):
    s = loom.Stream(gpu)
    start, end = loom.Event(gpu), loom.Event(gpu)
    with s:
        start.record()
        for _ in range(10):
            loom.ones((1 << 22,), dtype=loom.float32, device=gpu)
        end.record()
    end.synchronize()
    assert start.elapsed_time(end) > 0


@pytest.mark.gpu
def test_mixing_devices_raises_device_mismatch(gpu):
    e = loom.Event(loom.cpu())
    with pytest.raises(loom.DeviceMismatchError, match=r"^\[Event.record\] operands are on cpu\(\) and gpu\(0\)"):
        e.record(loom.Stream(gpu))
    g = loom.Event(gpu)
    g.record()
    e.record()
    with pytest.raises(loom.DeviceMismatchError, match=r"\[Event.elapsed_time\].*cpu\(\).*gpu\(0\)"):
        e.elapsed_time(g)


# ---- Numba's stream names (loom.cuda): CUDA's special default streams, borrowed streams,
# auto_synchronize. On cpu() every stream is the synchronous default one, as in Numba's
# simulator, and a CUDA stream made elsewhere cannot be wrapped.

SPECIAL_STREAMS = [("legacy_default_stream", 1, "legacy default stream"),
                   ("per_thread_default_stream", 2, "per-thread default stream")]


@pytest.mark.parametrize("name,handle,words", SPECIAL_STREAMS)
def test_special_default_streams(device, rng, name, handle, words):
    s = getattr(loom, name)(device)
    assert s.device == device and s.external is False
    assert s.handle == s.ptr == int(s)
    if device.type == "cpu":
        assert s == loom.default_stream(device) and s.ptr == 0
    else:
        assert s.ptr == handle and words in repr(s) and s != loom.default_stream(device)
    assert s == getattr(loom, name)(device) and hash(s) == hash(getattr(loom, name)(device))
    a = random_array(rng, (64, 33), np.float32)
    with s:
        assert loom.current_stream(device) == s
        y = loom.asarray(a, device=device) * 2
        e = s.record()
    s.synchronize()
    e.synchronize()
    assert s.query()
    assert_matches(y, a * 2)
    with loom.device(device):
        assert getattr(loom, name)() == s
        assert getattr(loom.cuda, name)() == s


def test_auto_synchronize(device, rng):
    from loom import cuda

    @cuda.jit
    def scale(x, out):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = 3 * x[i]

    a = random_array(rng, (1000,), np.float32)
    before = loom.current_stream(device)
    s = loom.Stream(device)
    with s.auto_synchronize() as entered:
        assert entered is s
        assert loom.current_stream(device) == before  # Numba's: the stream is not made current
        x = loom.asarray(a, device=device)
        out = loom.empty((1000,), dtype=loom.float32, device=device)
        scale[4, 256, s](x, out)
    assert s.query()  # synchronized on leaving
    assert_matches(out, 3 * a)
    with pytest.raises(KeyError):  # an exception leaves the block as it came, without waiting
        with s.auto_synchronize():
            raise KeyError("inside")
    for f in (loom.default_stream, loom.legacy_default_stream, loom.per_thread_default_stream):
        with f(device).auto_synchronize() as t:
            assert t == f(device)


def test_external_stream_arguments_and_cpu():
    for bad in ("0x1", 1.5, None):
        with pytest.raises(TypeError, match=r"\[external_stream\] ptr must be an int"):
            loom.external_stream(bad)
    with pytest.raises(ValueError, match=r"\[external_stream\] ptr must be a cudaStream_t"):
        loom.external_stream(-1)
    # cpu() has no CUDA streams: NotImplementedError, a RuntimeError as Numba's simulator raises.
    with pytest.raises(NotImplementedError,
                       match=r"^\[external_stream\] cpu\(\) has no CUDA streams: wrapping CUDA stream 0x12345678 "):
        loom.external_stream(0x12345678, device=loom.cpu())
    with loom.device(loom.cpu()):
        with pytest.raises(RuntimeError, match=r"\[external_stream\] cpu\(\)"):
            loom.cuda.external_stream(0x12345678)
        assert loom.cuda.legacy_default_stream().handle == 0
        assert loom.cuda.per_thread_default_stream().handle == 0
        assert loom.cuda.default_stream().external is False
    n = loom.num_gpus()
    for f in (loom.legacy_default_stream, loom.per_thread_default_stream,
              lambda d: loom.external_stream(0x10, device=d)):
        with pytest.raises(ValueError, match=rf"gpu\({n + 1}\) does not exist"):
            f(loom.gpu(n + 1))


@pytest.mark.gpu
def test_external_stream_borrows(gpu, rng):
    from loom import cuda

    owner = loom.Stream(gpu, non_blocking=True)  # made "elsewhere": wrapped below by its handle
    ext = loom.external_stream(owner.ptr, device=gpu)
    assert ext.external is True and ext.handle == ext.ptr == int(ext) == owner.ptr
    assert ext == owner and ext.device == gpu
    assert repr(ext) == f"<loom.Stream gpu(0) {owner.ptr:#x} (external)>"
    a = random_array(rng, (4096,), np.float32)
    with ext:
        y = loom.asarray(a, device=gpu) + 1
        assert loom.current_stream(gpu) == owner
    ext.synchronize()
    assert_matches(y, a + 1)
    del ext, y
    import gc

    gc.collect()
    with owner:  # the wrapper is gone, the stream it borrowed is not
        z = loom.asarray(a, device=gpu) * 3
    owner.synchronize()
    assert owner.query()
    assert_matches(z, a * 3)
    with loom.device(gpu):  # Numba's API and test: any int is taken as it is, unchecked
        dummy = cuda.external_stream(0x12345678)
        assert dummy.handle == 0x12345678 and dummy.external
        assert cuda.external_stream(np.uint64(owner.ptr)) == owner
        assert cuda.legacy_default_stream().handle == 1 and cuda.per_thread_default_stream().handle == 2
        assert cuda.default_stream().handle == 0 and not cuda.stream().external
