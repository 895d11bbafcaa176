"""The pinned host cache behind numpy() of GPU arrays (loom.memory.pinned_cache_stats,
empty_pinned_cache, set_pinned_cache_limit). The copies themselves need a GPU."""
import gc

import numpy as np

import loom


def test_api_and_limit():
    s = loom.memory.pinned_cache_stats()
    assert set(s) == {"in_use", "cached", "limit"} and s["limit"] > 0
    old = s["limit"]
    try:
        loom.memory.set_pinned_cache_limit(0)
        assert loom.memory.pinned_cache_stats()["limit"] == 0
        assert loom.memory.pinned_cache_stats()["cached"] == 0
    finally:
        loom.memory.set_pinned_cache_limit(old)
    loom.memory.empty_pinned_cache()
    assert loom.memory.pinned_cache_stats()["cached"] == 0


def test_numpy_of_gpu_arrays_uses_and_returns_blocks(gpu, rng):
    loom.memory.empty_pinned_cache()
    base = loom.memory.pinned_cache_stats()["in_use"]
    vals = rng.standard_normal((1024, 1024)).astype(np.float32)  # 4 MiB
    x = loom.asarray(vals, device=gpu)
    h = x.numpy()
    np.testing.assert_array_equal(h, vals)
    assert loom.memory.pinned_cache_stats()["in_use"] >= base + vals.nbytes
    del h
    gc.collect()
    s = loom.memory.pinned_cache_stats()
    assert s["in_use"] <= base and s["cached"] >= vals.nbytes
    h2 = (x + 1.0).numpy()  # the cached block again, with new values
    np.testing.assert_array_equal(h2, vals + 1)
    small = loom.asarray(vals[:4, :4], device=gpu).numpy()  # under 1 MiB: ordinary memory
    np.testing.assert_array_equal(small, vals[:4, :4])
    old = loom.memory.pinned_cache_stats()["limit"]
    try:
        loom.memory.set_pinned_cache_limit(0)  # off: numpy() still works, in ordinary memory
        np.testing.assert_array_equal(x.numpy(), vals)
    finally:
        loom.memory.set_pinned_cache_limit(old)
