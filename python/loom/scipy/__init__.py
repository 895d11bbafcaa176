"""SciPy's names on loom arrays: loom.scipy.linalg, fft (and the legacy fftpack), signal,
ndimage, special and sparse (with sparse.linalg), so they run unchanged on cpu() and on every GPU (the role of
cupyx.scipy for CuPy and jax.scipy for JAX). `from loom import scipy as cpx_scipy` serves
code ported from CuPy. special's elementwise functions are rows of loom's op table; sparse's
products with dense operands are the csr_matmul primitive (cuSPARSE on a GPU); the rest is
written over loom's public operations."""
from . import fft, fftpack, linalg, ndimage, signal, sparse, special

__all__ = ["fft", "fftpack", "linalg", "ndimage", "signal", "sparse", "special"]
