"""Helpers every loom.scipy module shares: SciPy's argument rules over loom arrays."""
import numbers

import numpy as np

import loom


def asarray(x, dtype=None):
    """x as a loom array (device arrays pass through; lists and NumPy arrays go to the default device)."""
    if isinstance(x, loom.ndarray):
        return x if dtype is None or x.dtype == dtype else x.astype(dtype)
    return loom.asarray(x, dtype=dtype)


def inexact(x):
    """x in the float (or complex) dtype SciPy computes it in: integers and bools in float64,
    float16 in float32."""
    x = asarray(x)
    kind = x.dtype.kind
    if kind in "biu":
        return x.astype(loom.float64)
    if x.dtype == loom.float16 or x.dtype == loom.bfloat16:
        return x.astype(loom.float32)
    return x


def check_finite(a, check=True):
    """SciPy's check_finite: one device-to-host read of a bool."""
    if check and a.dtype.kind in "fc" and a.size and not bool(loom.all(loom.isfinite(a))):
        raise ValueError("array must not contain infs or NaNs")
    return a


def host_table(x, dtype=np.float64):
    """A small coefficient table (filter taps, window parameters) on the host."""
    return np.asarray(x.numpy() if isinstance(x, loom.ndarray) else x, dtype=dtype)


def normalize_axis(axis, ndim, name="axis"):
    if not isinstance(axis, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {axis!r}")
    if not -ndim <= axis < max(ndim, 1):
        raise np.exceptions.AxisError(f"{name} {axis} is out of bounds for array of dimension {ndim}")
    return int(axis) % max(ndim, 1)


def device_of(*arrays):
    for a in arrays:
        if isinstance(a, loom.ndarray):
            return a.device
    return loom.default_device()
