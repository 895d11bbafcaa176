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


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_linear_ramp_of_complex_arrays(device, rng, dtype):
    """The ramp keeps both parts and its fractions (NumPy's linspace in the complex dtype)."""
    x = (rng.standard_normal((3, 4)) + 1j * rng.standard_normal((3, 4))).astype(dtype)
    for pw, ends in (((1, 2), (0, 0)), (((2, 3), (4, 1)), (1.5, -3))):
        got = loom.pad(loom.asarray(x, device=device), pw, "linear_ramp", end_values=ends)
        want = np.pad(x, pw, "linear_ramp", end_values=ends)
        assert got.dtype.name == want.dtype.name
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)
    with pytest.raises(TypeError, match=r"\[pad\] complex end_values are not supported"):
        loom.pad(loom.asarray(x, device=device), 1, "linear_ramp", end_values=1 + 2j)


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


@pytest.mark.parametrize("dtype", ["float32", "int16", "bool", "complex64"])
def test_pad_constant_one_pass(device, rng, dtype):
    """Constant mode writes the result once (ops/pad.cpp pad_constant): per-axis values with
    corners from the last axis, 3-d, zero-size axes, a zero-width axis, a strided view."""
    c = (rng.standard_normal((3, 4, 5)) * 4).astype(dtype)
    for x in (c, c[:, ::2, ::-1], c[:, :0], c[0, 0, :0]):
        for pw in (((1, 2), (0, 3), (2, 1)), 2, ((0, 0), (1, 0), (0, 2))):
            pw = pw if x.ndim == 3 or isinstance(pw, int) else 2
            kw = {"constant_values": ((1, 2), (3, 4), (5, 6))} if x.ndim == 3 and dtype != "bool" else {}
            got = loom.pad(loom.asarray(x, device=device), pw, **kw)
            want = np.pad(x, pw, **kw)
            assert got.dtype.name == want.dtype.name
            np.testing.assert_array_equal(got.numpy(), want)
    a = loom.asarray(c, device=device)
    e = loom.pad(a, 0)
    assert not np.shares_memory(e.numpy(), c) and e.shape == a.shape


def test_pad_constant_under_transforms(device, rng):
    x = rng.standard_normal((3, 4)).astype("float32")
    a = loom.asarray(x, device=device)
    g = loom.grad(lambda t: (loom.pad(t, (1, 2), constant_values=3) ** 2).sum())(a)
    np.testing.assert_allclose(g.numpy(), 2 * x, rtol=1e-6)
    np.testing.assert_array_equal(loom.vmap(lambda t: loom.pad(t, 2, constant_values=5))(a).numpy(),
                                  np.stack([np.pad(r, 2, constant_values=5) for r in x]))
    np.testing.assert_array_equal(loom.jit(lambda t: loom.pad(t, 1) * 2)(a).numpy(), np.pad(x, 1) * 2)
