"""scipy.special.logsumexp, softmax and log_softmax over loom's reductions: shifted by the
maximum so that nothing overflows, with SciPy's b=, return_sign= and axis rules."""
import loom

from ._functions import _scipy_float


def _shift(a, axis):
    """The maximum along axis (keepdims), 0 where it is not finite (all -inf, or inf)."""
    m = loom.max(a, axis=axis, keepdims=True) if a.size else loom.zeros((1,) * a.ndim, dtype=a.dtype,
                                                                          device=a.device)
    return loom.stop_gradient(loom.where(loom.isfinite(m), m, 0))


def logsumexp(a, axis=None, b=None, keepdims=False, return_sign=False):
    """log(sum(b * exp(a))) along axis, as scipy.special.logsumexp. With return_sign, the
    log of the absolute value and the sign (b may be negative); without, a negative sum is NaN."""
    a = _scipy_float(a)
    if b is not None:
        b = loom.asarray(b, device=a.device) if not isinstance(b, loom.ndarray) else b
        a, b = loom.broadcast_arrays(a, b)
    m = _shift(a, axis)
    e = loom.exp(a - m)
    if b is not None:
        e = e * b
    s = loom.sum(e, axis=axis, keepdims=True)
    if return_sign:
        sign = loom.sign(s)
        s = loom.abs(s)
    out = loom.log(s) + m
    if not keepdims:
        out = loom.squeeze(out, axis=axis) if axis is not None else out.reshape(())
    if return_sign:
        if not keepdims:
            sign = loom.squeeze(sign, axis=axis) if axis is not None else sign.reshape(())
        return out, sign
    return out


def softmax(x, axis=None):
    """exp(x) / sum(exp(x)) along axis (all of x when None), as scipy.special.softmax."""
    x = _scipy_float(x)
    e = loom.exp(x - _shift(x, axis))
    return e / loom.sum(e, axis=axis, keepdims=True)


def log_softmax(x, axis=None):
    """x - logsumexp(x) along axis, as scipy.special.log_softmax."""
    x = _scipy_float(x)
    shifted = x - _shift(x, axis)
    return shifted - loom.log(loom.sum(loom.exp(shifted), axis=axis, keepdims=True))
