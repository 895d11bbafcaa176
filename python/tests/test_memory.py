"""loom.memory statistics, limits, out-of-memory behaviour and pinned host arrays."""
import gc

import numpy as np
import pytest

import loom
from conftest import assert_matches, random_array

KEYS = {"in_use", "peak", "cached", "limit", "total"}


def test_stats_fields(device):
    s = loom.memory.stats(device)
    assert set(s) == KEYS
    assert all(isinstance(v, int) and v >= 0 for v in s.values())
    assert s["peak"] >= s["in_use"]
    assert s["total"] > 0
    assert set(loom.memory.stats(f"gpu:{device.index}" if device.type == "cuda" else "cpu")) == KEYS
    assert set(loom.memory.stats()) == KEYS


def test_in_use_counts_live_arrays(device):
    before = loom.memory.stats(device)["in_use"]
    x = loom.empty((1 << 20,), dtype=loom.uint8, device=device)
    s = loom.memory.stats(device)
    assert s["in_use"] >= before + (1 << 20)
    assert s["peak"] >= s["in_use"]
    v = x.T  # views share the buffer
    del x
    assert loom.memory.stats(device)["in_use"] >= before + (1 << 20)
    del v
    assert loom.memory.stats(device)["in_use"] == before


def test_stats_return_to_baseline_after_1000_cycles(device, rng):
    gc.collect()
    base = loom.memory.stats(device)["in_use"]
    sizes = rng.integers(1, 5000, size=1000)
    for n in sizes:
        x = loom.empty((int(n),), dtype=loom.float32, device=device)
        y = x.astype(loom.float64) if n % 7 == 0 else x
        del x, y
    assert loom.memory.stats(device)["in_use"] == base
    for _ in range(100):
        loom.asarray(np.ones(100), device=device).copy_to(device)
    assert loom.memory.stats(device)["in_use"] == base


def test_empty_cache(device):
    x = loom.zeros((1 << 16,), device=device)
    del x
    cached = loom.memory.stats(device)["cached"]
    loom.memory.empty_cache(device)
    loom.memory.empty_cache()
    # Segments that still hold live arrays stay; every free one is returned.
    assert loom.memory.stats(device)["cached"] <= cached


def test_set_limit(device):
    old = loom.memory.stats(device)["limit"]
    in_use = loom.memory.stats(device)["in_use"]
    try:
        loom.memory.set_limit(in_use + (1 << 20), device)
        assert loom.memory.stats(device)["limit"] == in_use + (1 << 20)
        with pytest.raises(loom.OutOfMemoryError) as e:
            loom.empty((64 << 20,), dtype=loom.uint8, device=device)
        assert isinstance(e.value, MemoryError)
    finally:
        loom.memory.set_limit(old, device)
    assert loom.memory.stats(device)["limit"] == old
    big = loom.empty((64 << 20,), dtype=loom.uint8, device=device)
    assert big.nbytes == 64 << 20


@pytest.mark.gpu
def test_gpu_out_of_memory_then_device_still_works(gpu, rng):
    total = gpu.total_memory
    with pytest.raises(loom.OutOfMemoryError) as e:
        loom.empty((2 * total,), dtype=loom.uint8, device=gpu)
    assert isinstance(e.value, MemoryError)
    a = random_array(rng, (1000,), np.float32)
    assert_matches(loom.asarray(a, device=gpu), a, exact=True)
    assert loom.memory.stats(gpu)["in_use"] < total


@pytest.mark.parametrize("dtype", [loom.float32, loom.bfloat16, loom.uint8, loom.bool_])
def test_empty_pinned(dtype, rng):
    p = loom.empty_pinned((64, 33), dtype)
    assert isinstance(p, np.ndarray)
    assert p.shape == (64, 33) and p.dtype == dtype and p.flags.writeable and p.flags.c_contiguous
    p[...] = random_array(rng, (64, 33), dtype.dtype)
    for d in loom.devices():
        x = loom.asarray(p, device=d)
        assert_matches(x, p, device=d, exact=True)
        q = loom.empty_pinned(p.shape, dtype)
        q[...] = np.asarray(x)
        np.testing.assert_array_equal(q.astype(np.float64), p.astype(np.float64))
    assert loom.empty_pinned(5).dtype == np.float64
    assert loom.empty_pinned((0, 3), "int32").shape == (0, 3)
    del p  # freed through its owner capsule (no leak checker here; must not crash)
    gc.collect()


@pytest.mark.gpu
def test_gpu_in_use_returns_after_100000_create_free_cycles(gpu):
    gc.collect()
    loom.synchronize(gpu)
    base = loom.memory.stats(gpu)["in_use"]
    for i in range(100_000):
        x = loom.empty((1000 + (i % 64) * 512,), dtype=loom.float32, device=gpu)
        del x
    assert loom.memory.stats(gpu)["in_use"] == base


def test_cpu_large_blocks_are_cached_and_released():
    cpu = loom.cpu()
    loom.memory.empty_cache(cpu)
    assert loom.memory.stats(cpu)["cached"] == 0
    x = loom.ones((3, 1 << 20), dtype=loom.float32, device=cpu)   # 12 MiB: a large block
    before = loom.memory.stats(cpu)["in_use"]
    del x
    st = loom.memory.stats(cpu)
    assert st["in_use"] == before - 12 * (1 << 20)
    assert st["cached"] >= 12 * (1 << 20)
    y = loom.full((3, 1 << 20), 2.5, dtype=loom.float32, device=cpu)  # reuses the block
    assert loom.memory.stats(cpu)["cached"] == st["cached"] - 12 * (1 << 20)
    np.testing.assert_array_equal(y.numpy(), np.full((3, 1 << 20), 2.5, np.float32))
    del y
    loom.memory.empty_cache(cpu)
    assert loom.memory.stats(cpu)["cached"] == 0
