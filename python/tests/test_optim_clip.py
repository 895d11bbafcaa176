"""loom.optim.clip_grad_norm on every device against NumPy float64 (torch's definition:
one L2 norm over all gradients, scale min(1, max_norm / (norm + 1e-6))), mixed dtypes, None
gradients, under loom.jit, and its errors."""
import numpy as np
import pytest

import loom
from loom import optim

SHAPES = {"layer.weight": (3, 4), "layer.bias": (4,), "scale": ()}


def to_loom(tree, device, dtype):
    return {n: loom.asarray(np.asarray(v, dtype=dtype), device=device) for n, v in tree.items()}


@pytest.mark.parametrize("max_norm", [0.5, 1e6])
def test_clip_grad_norm(device, rng, max_norm):
    grads = {n: rng.standard_normal(s) for n, s in SHAPES.items()}
    norm = np.sqrt(sum(np.sum(g * g) for g in grads.values()))
    scale = min(1.0, max_norm / (norm + 1e-6))
    for dtype, rtol in ((np.float64, 1e-12), (np.float32, 1e-6)):
        clipped, total = optim.clip_grad_norm(to_loom(grads, device, dtype), max_norm)
        assert total.shape == () and total.device == device
        assert total.dtype == (loom.float64 if dtype == np.float64 else loom.float32)
        np.testing.assert_allclose(float(total), norm, rtol=rtol)
        for n, g in grads.items():
            assert clipped[n].dtype == np.dtype(dtype) and clipped[n].device == device
            np.testing.assert_allclose(np.asarray(clipped[n]), g * scale, rtol=rtol, atol=1e-12)
    if max_norm < norm:
        clipped, _ = optim.clip_grad_norm(to_loom(grads, device, np.float64), max_norm)
        got = np.sqrt(sum(np.sum(np.asarray(g) ** 2) for g in clipped.values()))
        np.testing.assert_allclose(got, max_norm, rtol=1e-6)


def test_clip_grad_norm_mixed_dtypes_none_and_jit(device, rng):
    a, b = rng.standard_normal((4, 3)), rng.standard_normal(5)
    grads = {"a": loom.asarray(a.astype(np.float16), device=device), "b": loom.asarray(b.astype(np.float32), device=device),
             "none": None}
    norm = np.sqrt(np.sum(a.astype(np.float16).astype(np.float64) ** 2) + np.sum(b.astype(np.float32) ** 2.0))
    clipped, total = loom.jit(optim.clip_grad_norm, static_argnums=1)(grads, 1.0)
    assert clipped["none"] is None and total.dtype == loom.float32
    np.testing.assert_allclose(float(total), norm, rtol=1e-5)
    assert clipped["a"].dtype == loom.float16
    np.testing.assert_allclose(np.asarray(clipped["b"]), b * (1.0 / (norm + 1e-6)), rtol=1e-5)
    # Nothing to clip: an empty norm.
    assert optim.clip_grad_norm({}, 1.0)[0] == {}


def test_clip_grad_norm_errors():
    g = {"w": loom.ones((2,), dtype=loom.float32)}
    with pytest.raises(ValueError, match=r"\[optim.clip_grad_norm\] max_norm must be >= 0"):
        optim.clip_grad_norm(g, -1.0)
    with pytest.raises(TypeError, match="float arrays"):
        optim.clip_grad_norm({"w": loom.ones((2,), dtype=loom.int32)}, 1.0)
    with pytest.raises(TypeError, match="loom arrays"):
        optim.clip_grad_norm({"w": [1.0, 2.0]}, 1.0)
