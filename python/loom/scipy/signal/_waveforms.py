"""sweep_poly (scipy.signal): a cosine whose instantaneous frequency follows a polynomial in
time, evaluated on the device of t by Horner's rule over the integrated polynomial."""
import math

import numpy as np

import loom

from .. import _util


def _coefficients(poly):
    """The polynomial's coefficients, highest power first, from a numpy.poly1d-like object
    (its .coeffs), a loom or NumPy array or a list."""
    coeffs = getattr(poly, "coeffs", poly)
    return np.atleast_1d(np.asarray(coeffs.numpy() if isinstance(coeffs, loom.ndarray) else coeffs))


def sweep_poly(t, poly, phi=0):
    """cos(2 pi integral(poly)(t) + phi degrees): a frequency-swept cosine whose frequency at
    time t is poly(t) (scipy.signal.sweep_poly)."""
    integral = np.polyint(_coefficients(poly))
    t = _util.asarray(t)
    dtype = loom.result_type(t.dtype, getattr(loom, integral.dtype.name))
    t = t.astype(dtype)
    value = loom.zeros_like(t)
    for c in integral.tolist():
        value = value * t + c
    return loom.cos(2 * math.pi * value + phi * (math.pi / 180))
