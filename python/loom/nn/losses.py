"""loom.nn.losses: the loss functions, and the softmax helpers the Softmax layer uses:
cross_entropy with integer class labels, mse_loss and binary_cross_entropy_with_logits, with PyTorch's definitions and its `reduction` argument.

They are written with loom's array ops, so loom.grad differentiates them and loom.jit fuses
them; each is computed in a numerically stable form (log-softmax after subtracting the max,
the softplus form of the logistic loss). float16 and bfloat16 inputs are computed in float32
and the result is cast back, as PyTorch accumulates them.
"""
import numpy as np

from .. import _loom
from ..transforms._grad import stop_gradient

__all__ = ["log_softmax", "softmax", "cross_entropy", "mse_loss", "binary_cross_entropy_with_logits"]

_ndarray = _loom.ndarray
_FLOATS = ("float16", "bfloat16", "float32", "float64")
_HALF = ("float16", "bfloat16")
_REDUCTIONS = ("mean", "sum", "none")


def _as_float_array(x, who, what):
    if isinstance(x, (np.ndarray, np.generic)):
        x = _loom.asarray(x)
    if not isinstance(x, _ndarray):
        raise TypeError(f"[{who}] {what} must be an array, not {type(x).__name__}")
    if x.dtype.name not in _FLOATS:
        raise TypeError(f"[{who}] {what} must be a float array, got {x.dtype}")
    return x


def _compute_dtype(x):
    """Half inputs are computed in float32 (their sums of exponentials lose too much)."""
    return x.astype(_loom.float32) if x.dtype.name in _HALF else x


def _is_number(x):
    return isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, bool)


def _check_reduction(reduction, who):
    if reduction not in _REDUCTIONS:
        raise ValueError(f"[{who}] reduction must be one of {_REDUCTIONS}, got {reduction!r}")


def _reduce(loss, reduction, out_dtype):
    if reduction == "mean":
        loss = _loom.mean(loss)
    elif reduction == "sum":
        loss = _loom.sum(loss)
    return loss.astype(out_dtype) if loss.dtype != out_dtype else loss


def _axis(axis, ndim, who):
    if not isinstance(axis, int) or not -ndim <= axis < ndim:
        raise _loom.AxisError(f"[{who}] axis {axis!r} is out of bounds for an array of dimension {ndim}")
    return axis % ndim


def _shifted(x, axis):
    """(x - max(x), log(sum(exp(x - max(x))))) along axis. The max is a constant to grad:
    log-softmax does not depend on it, so its derivative through the max is zero anyway and
    the backward pass need not route it."""
    shifted = x - stop_gradient(_loom.max(x, axis=axis, keepdims=True))
    return shifted, _loom.log(_loom.sum(_loom.exp(shifted), axis=axis, keepdims=True))


def log_softmax(x, axis=-1):
    """log(softmax(x)) along `axis`, computed stably: x - max - log(sum(exp(x - max)))."""
    who = "nn.losses.log_softmax"
    x = _as_float_array(x, who, "x")
    axis = _axis(axis, x.ndim, who)
    shifted, lse = _shifted(_compute_dtype(x), axis)
    out = shifted - lse
    return out.astype(x.dtype) if out.dtype != x.dtype else out


def softmax(x, axis=-1):
    """exp(x) / sum(exp(x)) along `axis`, computed on x - max so that it cannot overflow."""
    who = "nn.losses.softmax"
    x = _as_float_array(x, who, "x")
    axis = _axis(axis, x.ndim, who)
    e = _loom.exp(_compute_dtype(x) - stop_gradient(_loom.max(_compute_dtype(x), axis=axis, keepdims=True)))
    out = e / _loom.sum(e, axis=axis, keepdims=True)
    return out.astype(x.dtype) if out.dtype != x.dtype else out


def _check_labels_on_host(labels, num_classes, who):
    """Labels out of [0, C) raise where the values can be read without waiting on a device:
    NumPy labels and cpu() arrays outside a trace. Elsewhere their loss is NaN (see
    cross_entropy)."""
    if isinstance(labels, np.ndarray):
        values = labels
    elif labels.device == _loom.cpu() and not _loom._is_tracing():
        values = np.asarray(labels)
    else:
        return
    if values.size and (values.min() < 0 or values.max() >= num_classes):
        bad = values[(values < 0) | (values >= num_classes)].flat[0]
        raise ValueError(f"[{who}] labels must be in [0, {num_classes}) (the number of classes), got {bad}")


def cross_entropy(logits, labels, reduction="mean", label_smoothing=0.0):
    """The cross-entropy of integer class labels under softmax(logits), as
    torch.nn.functional.cross_entropy: logits (N, C) with labels (N,), or (N, C, d1, ...)
    with labels (N, d1, ...) (the class axis is 1), or (C,) with a 0-d label.

    loss_i = logsumexp(logits_i) - logits_i[label_i]; with label_smoothing e it is
    (1 - e) * loss_i + e * mean over classes of (logsumexp(logits_i) - logits_i[c]).
    reduction "mean" averages over every label, "sum" adds, "none" returns labels' shape.

    A label outside [0, C) raises ValueError where it can be seen without a device
    synchronisation (NumPy labels, cpu() labels outside a trace); on a GPU or inside a trace
    its loss is NaN instead, so a bad label poisons the loss rather than passing silently.
    """
    who = "nn.losses.cross_entropy"
    _check_reduction(reduction, who)
    logits = _as_float_array(logits, who, "logits")
    if not isinstance(labels, (_ndarray, np.ndarray)):
        raise TypeError(f"[{who}] labels must be an integer array, not {type(labels).__name__}")
    label_dtype = labels.dtype if isinstance(labels, np.ndarray) else np.dtype(labels.dtype.name)
    if label_dtype.kind not in "iu":
        raise TypeError(f"[{who}] labels must be integer class indices, got dtype {labels.dtype} "
                        "(class probabilities as targets are not supported)")
    if not (_is_number(label_smoothing) and 0.0 <= label_smoothing <= 1.0):
        raise ValueError(f"[{who}] label_smoothing must be in [0, 1], got {label_smoothing!r}")
    if logits.ndim == 0:
        raise ValueError(f"[{who}] logits must have a class axis, got a 0-d array")
    unbatched = logits.ndim == 1
    if unbatched:
        logits = logits.reshape((1,) + tuple(logits.shape))
        labels = labels.reshape((1,))
    shape = tuple(logits.shape)
    num_classes = shape[1]
    want = (shape[0],) + shape[2:]
    if tuple(labels.shape) != want:
        raise ValueError(f"[{who}] logits of shape {shape} (class axis 1) need labels of shape {want}, "
                         f"got {tuple(labels.shape)}")
    _check_labels_on_host(labels, num_classes, who)
    if isinstance(labels, np.ndarray):
        labels = _loom.asarray(labels, device=logits.device)

    x = _compute_dtype(logits)
    if not label_smoothing and x.dtype in (_loom.float32, _loom.float64):
        # The fused op: one kernel forward, one backward (softmax - onehot), instead of a
        # dozen elementwise ops and reductions each way. Class axis last, one row per label.
        rows = x if x.ndim == 2 else _loom.moveaxis(x, 1, -1).reshape((-1, num_classes))
        loss = _loom.softmax_cross_entropy(rows, labels.reshape((-1,))).reshape(want)
        if unbatched:
            loss = loss.reshape(())
        return _reduce(loss, reduction, logits.dtype)
    shifted, lse = _shifted(x, 1)
    # The label's logit picked by a one-hot mask: one fused compare-select-sum, which grad
    # differentiates as a select (no scatter), and which finds labels out of range.
    # Class ids in the labels' dtype (no promotion in the compare) when every id fits in it.
    ids_dtype = labels.dtype if num_classes - 1 <= np.iinfo(label_dtype).max else _loom.int64
    class_ids = _loom.arange(num_classes, dtype=ids_dtype, device=logits.device)
    class_ids = class_ids.reshape((num_classes,) + (1,) * (len(shape) - 2))
    mask = _loom.expand_dims(labels, 1) == class_ids
    picked = _loom.sum(_loom.where(mask, shifted, 0.0), axis=1, keepdims=True)
    loss = lse - picked
    if label_smoothing:
        smooth = lse - _loom.mean(shifted, axis=1, keepdims=True)
        loss = (1.0 - label_smoothing) * loss + label_smoothing * smooth
    loss = _loom.where(_loom.any(mask, axis=1, keepdims=True), loss, float("nan"))
    loss = _loom.squeeze(loss, axis=1)
    if unbatched:
        loss = loss.reshape(())
    return _reduce(loss, reduction, logits.dtype)


def mse_loss(pred, target, reduction="mean"):
    """(pred - target)**2, averaged ("mean"), added ("sum") or elementwise ("none"), as
    torch.nn.functional.mse_loss; pred and target must have one shape (no broadcasting,
    which hides a (N,) against (N, 1) mistake)."""
    who = "nn.losses.mse_loss"
    _check_reduction(reduction, who)
    pred = _as_float_array(pred, who, "pred")
    target = _as_float_array(target, who, "target")
    if tuple(pred.shape) != tuple(target.shape):
        raise ValueError(f"[{who}] pred has shape {tuple(pred.shape)} but target has shape "
                         f"{tuple(target.shape)}; they must match")
    diff = _compute_dtype(pred) - _compute_dtype(target)
    return _reduce(diff * diff, reduction, pred.dtype)


def binary_cross_entropy_with_logits(logits, targets, reduction="mean", pos_weight=None):
    """The logistic loss of targets in [0, 1] given logits, as
    torch.nn.functional.binary_cross_entropy_with_logits, in the stable form
    max(x, 0) - x*y + log1p(exp(-|x|)); with pos_weight (broadcast against logits, e.g. one
    per class on the last axis) the positive term is weighted:
    (1 - y) * x + (1 + (pos_weight - 1) * y) * (log1p(exp(-|x|)) + max(-x, 0)).
    Integer or bool targets are taken as floats."""
    who = "nn.losses.binary_cross_entropy_with_logits"
    _check_reduction(reduction, who)
    logits = _as_float_array(logits, who, "logits")
    if isinstance(targets, (np.ndarray, np.generic)):
        targets = _loom.asarray(targets, device=logits.device)
    if not isinstance(targets, _ndarray):
        raise TypeError(f"[{who}] targets must be an array, not {type(targets).__name__}")
    if tuple(targets.shape) != tuple(logits.shape):
        raise ValueError(f"[{who}] logits have shape {tuple(logits.shape)} but targets have shape "
                         f"{tuple(targets.shape)}; they must match")
    x = _compute_dtype(logits)
    y = targets.astype(x.dtype) if targets.dtype != x.dtype else targets
    softplus_neg_abs = _loom.log1p(_loom.exp(-_loom.abs(x)))
    if pos_weight is None:
        loss = _loom.maximum(x, 0.0) - x * y + softplus_neg_abs
    else:
        if isinstance(pos_weight, (np.ndarray, np.generic)):
            pos_weight = _loom.asarray(pos_weight, device=logits.device)
        pos_weight = _as_float_array(pos_weight, who, "pos_weight")
        try:
            fits = np.broadcast_shapes(tuple(pos_weight.shape), tuple(logits.shape)) == tuple(logits.shape)
        except ValueError:
            fits = False
        if not fits:
            raise ValueError(f"[{who}] pos_weight of shape {tuple(pos_weight.shape)} does not broadcast "
                             f"against logits of shape {tuple(logits.shape)}")
        pw = pos_weight.astype(x.dtype) if pos_weight.dtype != x.dtype else pos_weight
        log_weight = (pw - 1.0) * y + 1.0
        loss = (1.0 - y) * x + log_weight * (softplus_neg_abs + _loom.maximum(-x, 0.0))
    return _reduce(loss, reduction, logits.dtype)

