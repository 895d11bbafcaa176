"""SciPy's names on loom arrays: loom.scipy.linalg, fft, signal, ndimage and special, so
they run unchanged on cpu() and on every GPU (the role of cupyx.scipy for CuPy and jax.scipy
for JAX). `from loom import scipy as cpx_scipy` serves code ported from CuPy. special's
elementwise functions are rows of loom's op table; the others are written over loom's public
operations. Sparse matrices are not here yet."""
from . import fft, linalg, ndimage, signal, special

__all__ = ["fft", "linalg", "ndimage", "signal", "special"]
