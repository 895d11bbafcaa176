"""SciPy's names on loom arrays: loom.scipy.linalg, fft, signal and ndimage, written over
loom's public operations, so they run unchanged on cpu() and on every GPU (the role of
cupyx.scipy for CuPy and jax.scipy for JAX). `from loom import scipy as cpx_scipy` serves
code ported from CuPy. Special functions and sparse matrices are not here yet."""
from . import fft, linalg, ndimage, signal

__all__ = ["fft", "linalg", "ndimage", "signal"]
