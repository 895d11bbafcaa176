"""numpy.pad (ops/pad.h) against NumPy on fresh random data, on every device: every mode,
pad widths wider than the axis, per-axis values, integer and float dtypes, 1-d to 3-d,
non-contiguous input, and the errors."""
import numpy as np
import pytest

import loom

MODES = [("constant", {}), ("constant", {"constant_values": ((1, 2), (3, 4))}), ("edge", {}), ("wrap", {}),
         ("reflect", {}), ("symmetric", {}), ("reflect", {"reflect_type": "odd"}),
         ("symmetric", {"reflect_type": "odd"}), ("linear_ramp", {"end_values": (5, -2)}), ("maximum", {}),
         ("minimum", {"stat_length": 2}), ("mean", {}), ("median", {"stat_length": ((1, 3), (2, 2))}),
         ("mean", {"stat_length": 3})]


@pytest.mark.parametrize("mode,kw", MODES)
def test_pad_matches_numpy(device, rng, mode, kw):
    for x in (rng.standard_normal((4, 5)), rng.integers(-9, 9, (4, 5)), rng.standard_normal((6, 3)).T):
        for pw in ((1, 2), ((2, 3), (0, 7)), 3, ((9, 11), (12, 1))):
            got = loom.pad(loom.asarray(x, device=device), pw, mode, **kw)
            want = np.pad(x, pw, mode, **kw)
            assert got.device == device and got.dtype.name == want.dtype.name
            np.testing.assert_allclose(got.numpy(), want, rtol=1e-12, atol=1e-12)


def test_pad_other_ranks_and_errors(device, rng):
    v = rng.standard_normal(5)
    np.testing.assert_array_equal(loom.pad(loom.asarray(v, device=device), (3, 8), "reflect").numpy(),
                                  np.pad(v, (3, 8), "reflect"))
    c = rng.standard_normal((2, 3, 4)).astype("float32")
    np.testing.assert_array_equal(loom.pad(loom.asarray(c, device=device), ((0, 1), (2, 0), (1, 1)), "wrap").numpy(),
                                  np.pad(c, ((0, 1), (2, 0), (1, 1)), "wrap"))
    x = loom.asarray(np.ones((2, 2)), device=device)
    with pytest.raises(ValueError, match="pad"):
        loom.pad(x, -1)
    with pytest.raises(ValueError, match="mode"):
        loom.pad(x, 1, "sideways")
    with pytest.raises(ValueError, match="empty axis"):
        loom.pad(loom.asarray(np.ones((0, 2)), device=device), 1, "edge")
    with pytest.raises(TypeError, match="pad"):
        loom.pad(x, 1, lambda *a: None)
