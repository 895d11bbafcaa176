"""Python builtins inside kernels that are written in the kernel dialect itself: plain Python
functions that the translator compiles as device functions where a kernel calls the builtin
(mathfuncs.py routes the call here).

(The translation key of a kernel does not hash this file: a change here bumps cache._KEY_VERSION.)

round(x, ndigits) follows Python's float rounding as Numba computes it on a GPU: scale by a
power of ten (split in two past 1e22, so that the power does not overflow), round half to
even, scale back; an infinity or NaN, or a scaled value that overflows, is returned as it is.
"""
import math

import numpy as np


def round_ndigits(x, ndigits):
    if math.isinf(x) or math.isnan(x):
        return np.float64(x)
    if ndigits >= 0:
        p1 = 10.0 ** ndigits
        p2 = 1.0
        if ndigits > 22:
            p1 = 10.0 ** (ndigits - 22)
            p2 = 1e22
        y = (x * p1) * p2
        if math.isinf(y):
            return np.float64(x)
        return (np.rint(y) / p2) / p1
    p = 10.0 ** (-ndigits)
    return np.rint(x / p) * p
