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
