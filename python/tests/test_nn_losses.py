"""loom.nn.losses on every device: cross_entropy, mse_loss,
binary_cross_entropy_with_logits, log_softmax and softmax against NumPy float64 references
on fresh random data, every reduction, their gradients against central finite differences
in float64, stability on large logits, loom.jit equal to eager, and the errors."""
import numpy as np
import pytest

import loom
from conftest import central_differences as num_grad
from loom.nn import losses

REDUCTIONS = ["mean", "sum", "none"]


# -- NumPy float64 references ---------------------------------------------------------------
def np_log_softmax(x, axis):
    shifted = x - x.max(axis=axis, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=axis, keepdims=True))


def np_reduce(loss, reduction):
    return {"mean": np.mean, "sum": np.sum, "none": lambda a: a}[reduction](loss)


def np_cross_entropy(logits, labels, reduction, label_smoothing=0.0):
    """torch's definition: the class axis is 1."""
    logp = np_log_softmax(logits, 1)
    nll = -np.take_along_axis(logp, np.expand_dims(labels, 1), axis=1).squeeze(1)
    smooth = -logp.mean(axis=1)
    return np_reduce((1 - label_smoothing) * nll + label_smoothing * smooth, reduction)


def np_bce_with_logits(x, y, reduction, pos_weight=None):
    """The definition, -[w y log s(x) + (1 - y) log(1 - s(x))], with s the logistic function."""
    w = 1.0 if pos_weight is None else pos_weight
    log_s = -np.logaddexp(0.0, -x)
    log_1ms = -np.logaddexp(0.0, x)
    return np_reduce(-(w * y * log_s + (1 - y) * log_1ms), reduction)


def check_grad(loom_fn, x, device, tol=1e-6):
    """loom.grad of loom_fn (a scalar function of one float64 array) against num_grad."""
    got = loom.grad(loom_fn)(loom.asarray(x, device=device))
    assert got.device == device and got.dtype == loom.float64
    want = num_grad(lambda v: float(loom_fn(loom.asarray(v, device=device))), x)
    np.testing.assert_allclose(np.asarray(got), want, rtol=tol, atol=tol)


def close(got, want, device, dtype=np.float64, rtol=1e-12):
    assert isinstance(got, loom.ndarray)
    assert got.device == device and got.dtype == np.dtype(dtype), (got.device, got.dtype)
    assert got.shape == np.shape(want)
    np.testing.assert_allclose(np.asarray(got), want, rtol=rtol, atol=rtol)


# -- softmax helpers -----------------------------------------------------------------------
@pytest.mark.parametrize("axis", [-1, 0, 1])
def test_log_softmax_and_softmax(device, rng, axis):
    x = rng.standard_normal((4, 5, 3)) * 3
    close(losses.log_softmax(loom.asarray(x, device=device), axis=axis), np_log_softmax(x, axis), device)
    close(losses.softmax(loom.asarray(x, device=device), axis=axis), np.exp(np_log_softmax(x, axis)), device)
    w = rng.standard_normal((4, 5, 3))
    wl = loom.asarray(w, device=device)
    check_grad(lambda a: loom.sum(losses.log_softmax(a, axis=axis) * wl), x, device)
    check_grad(lambda a: loom.sum(losses.softmax(a, axis=axis) * wl), x, device)


def test_softmax_is_stable_on_large_logits(device):
    x = np.array([[1e4, 0.0, -1e4], [-1e4, -1e4, -1e4], [800.0, 799.0, -800.0]])
    close(losses.log_softmax(loom.asarray(x, device=device)), np_log_softmax(x, -1), device)
    close(losses.softmax(loom.asarray(x, device=device)), np.exp(np_log_softmax(x, -1)), device)


def test_softmax_half_and_float32(device, rng):
    x = rng.standard_normal((6, 7)) * 4
    for dtype, rtol in ((np.float32, 1e-6), (np.float16, 2e-3)):
        got = losses.softmax(loom.asarray(x.astype(dtype), device=device))
        want = np.exp(np_log_softmax(x.astype(dtype).astype(np.float64), -1))
        close(got, want, device, dtype=dtype, rtol=rtol)


# -- cross_entropy --------------------------------------------------------------------------
@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("label_smoothing", [0.0, 0.1])
@pytest.mark.parametrize("shape", [(7, 5), (3, 4, 2, 5), (6,)], ids=["NC", "NCd1d2", "C"])
def test_cross_entropy_matches_reference(device, rng, reduction, label_smoothing, shape):
    logits = rng.standard_normal(shape) * 3
    if len(shape) == 1:
        labels = np.array(rng.integers(0, shape[0]), dtype=np.int64)
        want = np_cross_entropy(logits[None], labels[None], reduction, label_smoothing)
        want = want[0] if reduction == "none" else want
    else:
        labels = rng.integers(0, shape[1], (shape[0],) + shape[2:])
        want = np_cross_entropy(logits, labels, reduction, label_smoothing)
    got = losses.cross_entropy(loom.asarray(logits, device=device), loom.asarray(labels, device=device),
                               reduction=reduction, label_smoothing=label_smoothing)
    close(got, want, device)


@pytest.mark.parametrize("label_dtype", [np.int64, np.int32, np.uint8, np.int8])
def test_cross_entropy_label_dtypes_and_numpy_labels(device, rng, label_dtype):
    logits = rng.standard_normal((9, 4))
    labels = rng.integers(0, 4, 9).astype(label_dtype)
    want = np_cross_entropy(logits, labels.astype(np.int64), "mean")
    lg = loom.asarray(logits, device=device)
    close(losses.cross_entropy(lg, loom.asarray(labels, device=device)), want, device)
    close(losses.cross_entropy(lg, labels), want, device)   # NumPy labels go to the logits' device


def test_cross_entropy_many_classes_small_label_dtype(device, rng):
    """Class ids beyond the labels' dtype (300 classes, uint8 labels) compare as int64."""
    logits = rng.standard_normal((5, 300))
    labels = rng.integers(0, 256, 5).astype(np.uint8)
    close(losses.cross_entropy(loom.asarray(logits, device=device), loom.asarray(labels, device=device)),
          np_cross_entropy(logits, labels.astype(np.int64), "mean"), device)


@pytest.mark.parametrize("dtype,rtol", [(np.float32, 1e-5), (np.float16, 2e-3), ("bfloat16", 2e-2)])
def test_cross_entropy_low_precision(device, rng, dtype, rtol):
    logits = rng.standard_normal((16, 10)) * 2
    labels = rng.integers(0, 10, 16)
    x = loom.asarray(logits, device=device).astype(loom.dtype(dtype) if isinstance(dtype, str) else dtype)
    got = losses.cross_entropy(x, loom.asarray(labels, device=device))
    assert got.dtype == x.dtype
    want = np_cross_entropy(np.asarray(x.astype(loom.float64)), labels, "mean")
    np.testing.assert_allclose(float(got.astype(loom.float64)), want, rtol=rtol)


def test_cross_entropy_stable_on_large_logits(device):
    logits = np.array([[1e4, -1e4, 0.0], [-5e3, 5e3, 5e3], [100.0, 100.0, 100.0]])
    labels = np.array([1, 2, 0])
    got = losses.cross_entropy(loom.asarray(logits, device=device), loom.asarray(labels, device=device), reduction="none")
    close(got, np_cross_entropy(logits, labels, "none"), device)
    assert np.isfinite(np.asarray(got)).all()


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("label_smoothing", [0.0, 0.2])
@pytest.mark.parametrize("shape", [(5, 4), (2, 3, 3)], ids=["NC", "NCd"])
def test_cross_entropy_gradient(device, rng, reduction, label_smoothing, shape):
    logits = rng.standard_normal(shape)
    labels = loom.asarray(rng.integers(0, shape[1], (shape[0],) + shape[2:]), device=device)
    weights = loom.asarray(rng.standard_normal((shape[0],) + shape[2:]), device=device)

    def f(x):
        loss = losses.cross_entropy(x, labels, reduction=reduction, label_smoothing=label_smoothing)
        return loom.sum(loss * weights) if reduction == "none" else loss

    check_grad(f, logits, device)


def test_cross_entropy_gradient_is_softmax_minus_one_hot(device, rng):
    logits = rng.standard_normal((6, 5))
    labels = rng.integers(0, 5, 6)
    got = loom.grad(lambda x: losses.cross_entropy(x, loom.asarray(labels, device=device), reduction="sum"))(
        loom.asarray(logits, device=device))
    want = np.exp(np_log_softmax(logits, 1)) - np.eye(5)[labels]
    close(got, want, device)


def test_cross_entropy_under_jit_equals_eager(device, rng):
    logits = loom.asarray(rng.standard_normal((8, 6)).astype(np.float32), device=device)
    labels = loom.asarray(rng.integers(0, 6, 8), device=device)
    f = loom.jit(lambda x, y: loom.value_and_grad(lambda a: losses.cross_entropy(a, y, label_smoothing=0.1))(x))
    value, grad = f(logits, labels)
    value_eager, grad_eager = loom.value_and_grad(lambda a: losses.cross_entropy(a, labels, label_smoothing=0.1))(logits)
    np.testing.assert_allclose(float(value), float(value_eager), rtol=1e-6)
    np.testing.assert_allclose(np.asarray(grad), np.asarray(grad_eager), rtol=1e-5, atol=1e-7)
    f(logits, labels)
    assert f._cache_size == 1


def test_cross_entropy_per_example_under_vmap(device, rng):
    logits, labels = rng.standard_normal((6, 4)), rng.integers(0, 4, 6)
    got = loom.vmap(losses.cross_entropy)(loom.asarray(logits, device=device), loom.asarray(labels, device=device))
    close(got, np_cross_entropy(logits, labels, "none"), device)


def test_cross_entropy_label_out_of_range(device, rng):
    logits = loom.asarray(rng.standard_normal((4, 3)), device=device)
    for bad in (3, -1):
        labels = np.array([0, 1, bad, 2])
        with pytest.raises(ValueError, match=rf"\[nn.losses.cross_entropy\] labels must be in \[0, 3\).*got {bad}"):
            losses.cross_entropy(logits, labels)
        if device == loom.cpu():
            with pytest.raises(ValueError, match=r"labels must be in \[0, 3\)"):
                losses.cross_entropy(logits, loom.asarray(labels, device=device))
        # Where the labels cannot be read without a synchronisation (inside a trace, on a
        # GPU), the bad label's loss is NaN and the others are right.
        got = loom.jit(lambda x, y: losses.cross_entropy(x, y, reduction="none"))(logits, loom.asarray(labels, device=device))
        got = np.asarray(got)
        assert np.isnan(got[2])
        good = [0, 1, 3]
        np.testing.assert_allclose(got[good], np_cross_entropy(np.asarray(logits)[good], labels[good], "none"), rtol=1e-12)


@pytest.mark.parametrize("call,exc,pattern", [
    (lambda x, y: losses.cross_entropy(x, y, reduction="avg"), ValueError,
     r"\[nn.losses.cross_entropy\] reduction must be one of \('mean', 'sum', 'none'\), got 'avg'"),
    (lambda x, y: losses.cross_entropy(x, y.astype(loom.float32)), TypeError,
     r"\[nn.losses.cross_entropy\] labels must be integer class indices, got dtype float32"),
    (lambda x, y: losses.cross_entropy(x, y.astype(loom.bool_)), TypeError, "integer class indices"),
    (lambda x, y: losses.cross_entropy(x, [0, 1, 2, 0]), TypeError, "labels must be an integer array"),
    (lambda x, y: losses.cross_entropy(x, y[:3]), ValueError,
     r"\[nn.losses.cross_entropy\] logits of shape \(4, 3\) \(class axis 1\) need labels of shape \(4,\), got \(3,\)"),
    (lambda x, y: losses.cross_entropy(x.T, y), ValueError, r"need labels of shape \(3,\)"),
    (lambda x, y: losses.cross_entropy(x.astype(loom.int32), y), TypeError,
     r"\[nn.losses.cross_entropy\] logits must be a float array, got int32"),
    (lambda x, y: losses.cross_entropy(x, y, label_smoothing=1.5), ValueError, r"label_smoothing must be in \[0, 1\]"),
    (lambda x, y: losses.cross_entropy(x[0, 0], y), ValueError, "logits must have a class axis"),
    (lambda x, y: losses.mse_loss(x, x[:, :2]), ValueError,
     r"\[nn.losses.mse_loss\] pred has shape \(4, 3\) but target has shape \(4, 2\); they must match"),
    (lambda x, y: losses.mse_loss(x, x, reduction=None), ValueError, r"\[nn.losses.mse_loss\] reduction must be"),
    (lambda x, y: losses.mse_loss(x, y), TypeError, r"\[nn.losses.mse_loss\] target must be a float array"),
    (lambda x, y: losses.binary_cross_entropy_with_logits(x, x[0]), ValueError,
     r"\[nn.losses.binary_cross_entropy_with_logits\] logits have shape \(4, 3\) but targets have shape \(3,\)"),
    (lambda x, y: losses.binary_cross_entropy_with_logits(x, x, pos_weight=x[:, :2]), ValueError,
     r"pos_weight of shape \(4, 2\) does not broadcast against logits of shape \(4, 3\)"),
    (lambda x, y: losses.binary_cross_entropy_with_logits(x[0], x[0], pos_weight=x), ValueError,
     "does not broadcast"),
    (lambda x, y: losses.binary_cross_entropy_with_logits(x, x, reduction="max"), ValueError, "reduction must be"),
    (lambda x, y: losses.log_softmax(x, axis=2), loom.AxisError, r"\[nn.losses.log_softmax\] axis 2 is out of bounds"),
    (lambda x, y: losses.softmax(y), TypeError, r"\[nn.losses.softmax\] x must be a float array"),
])
def test_errors(device, call, exc, pattern):
    x = loom.ones((4, 3), dtype=loom.float32, device=device)
    y = loom.asarray(np.array([0, 1, 2, 0]), device=device)
    with pytest.raises(exc, match=pattern):
        call(x, y)


# -- mse_loss ---------------------------------------------------------------------------------
@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_mse_loss(device, rng, reduction):
    pred, target = rng.standard_normal((5, 3)), rng.standard_normal((5, 3))
    got = losses.mse_loss(loom.asarray(pred, device=device), loom.asarray(target, device=device), reduction=reduction)
    close(got, np_reduce((pred - target) ** 2, reduction), device)
    t = loom.asarray(target, device=device)
    w = loom.asarray(rng.standard_normal((5, 3)), device=device)
    check_grad(lambda p: loom.sum(losses.mse_loss(p, t, reduction=reduction) * (w if reduction == "none" else 1.0)),
               pred, device)
    p = loom.asarray(pred, device=device)
    check_grad(lambda tt: losses.mse_loss(p, tt, reduction=reduction if reduction != "none" else "sum"), target, device)


def test_mse_loss_float32(device, rng):
    pred, target = rng.standard_normal(100).astype(np.float32), rng.standard_normal(100).astype(np.float32)
    got = losses.mse_loss(loom.asarray(pred, device=device), loom.asarray(target, device=device))
    close(got, np.mean((pred.astype(np.float64) - target) ** 2), device, dtype=np.float32, rtol=1e-5)


# -- binary_cross_entropy_with_logits ------------------------------------------------------------
@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("with_pos_weight", [False, True])
def test_bce_with_logits(device, rng, reduction, with_pos_weight):
    x = rng.standard_normal((6, 4)) * 3
    y = rng.uniform(0, 1, (6, 4))
    y[0] = np.round(y[0])
    pos_weight = rng.uniform(0.5, 3.0, 4) if with_pos_weight else None
    pw = None if pos_weight is None else loom.asarray(pos_weight, device=device)
    yl = loom.asarray(y, device=device)
    got = losses.binary_cross_entropy_with_logits(loom.asarray(x, device=device), yl, reduction=reduction, pos_weight=pw)
    close(got, np_bce_with_logits(x, y, reduction, pos_weight), device)
    w = loom.asarray(rng.standard_normal((6, 4)), device=device)

    def f(a):
        loss = losses.binary_cross_entropy_with_logits(a, yl, reduction=reduction, pos_weight=pw)
        return loom.sum(loss * w) if reduction == "none" else loss

    check_grad(f, x, device)


def test_bce_with_logits_stable_and_integer_targets(device):
    x = np.array([1e4, -1e4, 800.0, -800.0, 0.0, 40.0])
    y = np.array([1, 1, 0, 0, 1, 0])
    got = losses.binary_cross_entropy_with_logits(loom.asarray(x, device=device), loom.asarray(y, device=device),
                                                  reduction="none")
    close(got, np_bce_with_logits(x, y.astype(np.float64), "none"), device)
    got = losses.binary_cross_entropy_with_logits(loom.asarray(x, device=device), y.astype(bool), reduction="sum",
                                                  pos_weight=np.float64(2.0))
    close(got, np_bce_with_logits(x, y.astype(np.float64), "sum", 2.0), device)


def test_bce_with_logits_float32(device, rng):
    x, y = rng.standard_normal(50).astype(np.float32) * 5, rng.uniform(0, 1, 50).astype(np.float32)
    got = losses.binary_cross_entropy_with_logits(loom.asarray(x, device=device), loom.asarray(y, device=device))
    close(got, np_bce_with_logits(x.astype(np.float64), y.astype(np.float64), "mean"), device, dtype=np.float32, rtol=1e-5)
