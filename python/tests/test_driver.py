"""loom.driver: PyCUDA-style mem_alloc / memcpy_htod / memcpy_dtoh on every device."""
import numpy as np
import pytest

import loom
import loom.driver as drv


def test_round_trip(device, rng):
    host = rng.standard_normal((7, 5)).astype(np.float32)
    d = drv.mem_alloc(host.nbytes, device=device)
    assert d.nbytes == host.nbytes and d.device == device and int(d) != 0
    drv.memcpy_htod(d, host)
    back = np.empty_like(host)
    drv.memcpy_dtoh(back, d)
    np.testing.assert_array_equal(back, host)


def test_size_and_layout_errors(device, rng):
    d = drv.mem_alloc(16, device=device)
    with pytest.raises(ValueError, match="has 32 bytes but the allocation has 16"):
        drv.memcpy_htod(d, np.ones(8, np.float32))
    with pytest.raises(ValueError, match="C-contiguous"):
        drv.memcpy_htod(d, np.ones((4, 4), np.float32)[:, 1])
    with pytest.raises(ValueError, match="writeable"):
        out = np.ones(4, np.float32)
        out.flags.writeable = False
        drv.memcpy_dtoh(out, d)
    d.free()
    assert "freed" in repr(d)
    with pytest.raises(ValueError, match="freed"):
        drv.memcpy_htod(d, np.ones(2, np.float32))
    with pytest.raises(ValueError, match=">= 0"):
        drv.mem_alloc(-1)


def test_pycuda_names_are_there():
    assert drv.In is loom.In and drv.Out is loom.Out and drv.InOut is loom.InOut
