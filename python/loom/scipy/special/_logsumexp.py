"""scipy.special.logsumexp, softmax and log_softmax over loom's reductions: shifted by the
maximum so that nothing overflows, with SciPy's b=, return_sign= and axis rules. They are
NumPy expressions in SciPy, not ufuncs, so their dtypes are NumPy's: softmax and log_softmax
compute in exp's float (float16 stays, int8 and uint8 give float16, int16 float32, wider
integers float64), logsumexp in the promoted type of a and b, integers as float64. Complex
inputs as SciPy's: the shift is the element with the largest real part, and logsumexp's
imaginary part lies in (-pi, pi] (with return_sign, the sign is the sum's phase)."""
import math

import loom


def _array(x):
    return x if isinstance(x, loom.ndarray) else loom.asarray(x)


def _exp_float(x, who):
    """x in the dtype NumPy's exp gives it: the smallest float that holds its values (complex
    stays complex)."""
    x = _array(x)
    if x.dtype == loom.bool_:
        raise TypeError(f"[{who}] boolean input: subtracting the maximum is not defined for booleans (as NumPy's "
                        "boolean subtract); convert with astype")
    dt = loom.result_type(x.dtype, loom.float16)
    return x if x.dtype == dt else x.astype(dt)


def _wrap_radians(t):
    """t taken into (-pi, pi], as SciPy gives a complex logarithm's imaginary part."""
    return -loom.remainder(-t + math.pi, 2 * math.pi) + math.pi


def _shift(a, axis):
    """The maximum along axis (keepdims), 0 where it is not finite (all -inf, or inf)."""
    m = loom.max(a, axis=axis, keepdims=True) if a.size else loom.zeros((1,) * a.ndim, dtype=a.dtype,
                                                                          device=a.device)
    return loom.stop_gradient(loom.where(loom.isfinite(m), m, 0))


def logsumexp(a, axis=None, b=None, keepdims=False, return_sign=False):
    """log(sum(b * exp(a))) along axis, as scipy.special.logsumexp. With return_sign, the
    log of the absolute value and the sign (b may be negative); without, a negative sum is NaN."""
    a = _array(a)
    if b is not None:
        b = loom.asarray(b, device=a.device) if not isinstance(b, loom.ndarray) else b
    dt = a.dtype if b is None else loom.result_type(a.dtype, b.dtype)
    dt = dt if dt.kind in "fc" else loom.float64
    a = a if a.dtype == dt else a.astype(dt)
    if b is not None:
        b = b if b.dtype == dt else b.astype(dt)
        a, b = loom.broadcast_arrays(a, b)
        a = loom.where(b == 0, -loom.inf, a)  # a zero weight drops its term, inf or NaN too (SciPy)
    complex_ = dt.kind == "c"
    m = _shift(a, axis)  # complex: the largest real part (NumPy's order), which sets the magnitude
    e = loom.exp(a - m)
    if b is not None:
        e = e * b
    s = loom.sum(e, axis=axis, keepdims=True)
    if return_sign:
        mag = loom.abs(s)
        sign = loom.sign(s) if not complex_ else loom.where(
            mag == 0, 0, s / loom.where(mag == 0, 1, mag) * loom.exp(1j * loom.imag(m)))
        out = loom.log(mag) + (loom.real(m) if complex_ else m)
    else:
        out = loom.log(s) + m
        if complex_:
            out = loom.real(out) + 1j * _wrap_radians(loom.imag(out))
    if not keepdims:
        out = loom.squeeze(out, axis=axis) if axis is not None else out.reshape(())
    if return_sign:
        if not keepdims:
            sign = loom.squeeze(sign, axis=axis) if axis is not None else sign.reshape(())
        return out, sign
    return out


def softmax(x, axis=None):
    """exp(x) / sum(exp(x)) along axis (all of x when None), as scipy.special.softmax."""
    x = _exp_float(x, "softmax")
    e = loom.exp(x - _shift(x, axis))
    return e / loom.sum(e, axis=axis, keepdims=True)


def log_softmax(x, axis=None):
    """x - logsumexp(x) along axis, as scipy.special.log_softmax."""
    x = _exp_float(x, "log_softmax")
    shifted = x - _shift(x, axis)
    return shifted - loom.log(loom.sum(loom.exp(shifted), axis=axis, keepdims=True))
