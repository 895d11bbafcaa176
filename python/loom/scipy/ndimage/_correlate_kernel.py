"""One-axis correlation (correlate1d and the filters built on it: gaussian, uniform, and
their derivatives) as one CUDA C kernel per axis on a GPU.

The generic path (_filters._correlate_nd) extends the image along the axis and adds one
shifted slice per tap: two full-image ops per tap, which on a GPU is 2 x 17 kernels for a
gaussian of sigma 2 and 30 passes over memory. Here every output element reads its taps
straight from the input through the mode's index table (_support.extension_index: -1 marks
'constant' mode's outside, which reads cval) and sums them in float64 as SciPy does: one
read and one write of the image per axis. The source is plain CUDA C, so the CPU kernel
emulator runs the same kernel, which is how the tests check it without a GPU; cpu() itself
keeps the generic path, whose whole-array ops run at memory speed on a host."""
import numpy as np

import loom

from . import _support

_SOURCE = r"""
extern "C" __global__ void correlate_axis(const IN* x, OUT* y, const long long* src, const long long* off,
                                          const double* w, int taps, long long n, long long inner,
                                          long long total, double cval, double divide, int sym) {
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += stride) {
    const long long q = i % inner;
    const long long t = i / inner;
    const long long j = t % n;
    const IN* line = x + (t - j) * inner + q;  // element 0 of this output's line
#define TAP(k) (src[j + off[k]] < 0 ? cval : (double)line[src[j + off[k]] * inner])
    double acc = 0.0;
    if (sym != 0) {  // SciPy's (anti)symmetric sum: the centre, then pairs from the outside in
      const int c = taps / 2;
      acc = w[c] * TAP(c);
      for (int d = c; d > 0; --d) acc += (TAP(c - d) + sym * TAP(c + d)) * w[c - d];
    } else {
      for (int k = 0; k < taps; ++k) acc += w[k] * TAP(k);
    }
#undef TAP
    y[i] = (OUT)(acc / divide);
  }
}
"""
_C_TYPES = {"float32": "float", "float64": "double"}
_THREADS = 256
_MAX_BLOCKS = 65536  # a grid-stride loop covers the rest
_kernels = {}
# Tests set this to run the kernel on cpu() through the emulator.
force_on_cpu = False


def applies(x, weights, output):
    """Whether the kernel computes this correlation: a real float32/float64 image and real
    weights, a float32/float64 result, on a GPU (or forced on cpu() by the tests)."""
    if x.device == loom.cpu() and not force_on_cpu:
        return False
    if weights.dtype.kind == "c" or x.dtype.name not in _C_TYPES or x.size == 0:
        return False
    return _support.output_dtype(x, output).name in _C_TYPES


def _kernel(in_name, out_name):
    key = (in_name, out_name)
    if key not in _kernels:
        src = _SOURCE.replace("IN*", _C_TYPES[in_name] + "*").replace("(OUT)", "(" + _C_TYPES[out_name] + ")")
        src = src.replace("OUT*", _C_TYPES[out_name] + "*")
        _kernels[key] = loom.RawKernel(src, "correlate_axis")
    return _kernels[key]


def correlate_axis(x, weights, taps, axis, mode, cval, origin, output, divide=None, sym=0):
    """correlate1d of x with the host weight vector along axis, adding the weights where
    the boolean `taps` is set (mode already normalised, origin checked), cast and written
    as _support.finish does. sym +1 or -1: every tap, summed in the pairs of a symmetric
    or antisymmetric filter (_filters.symmetry)."""
    size = len(weights)
    before = size // 2 + origin
    table, inside = _support.extension_index(x.shape[axis], before, size - 1 - before, mode)
    if mode == "constant":
        table = np.where(inside, table, -1)
    taps = np.flatnonzero(taps)
    n = x.shape[axis]
    inner = int(np.prod(x.shape[axis + 1:], dtype=np.int64))
    xc = loom.ascontiguousarray(x)
    out_dt = _support.output_dtype(x, output)
    y = loom.empty(x.shape, dtype=out_dt, device=x.device)
    dev = x.device
    put = lambda a, dt: loom.asarray(np.ascontiguousarray(a, dtype=dt), device=dev)  # noqa: E731
    blocks = max(1, min(_MAX_BLOCKS, (x.size + _THREADS - 1) // _THREADS))
    _kernel(x.dtype.name, out_dt.name)((blocks,), (_THREADS,), (
        xc, y, put(table, np.int64), put(taps if taps.size else np.zeros(1), np.int64),
        put(weights[taps] if taps.size else np.zeros(1), np.float64), np.int32(taps.size), n, inner, x.size,
        float(cval), float(divide or 1.0), np.int32(sym)))
    return _support.finish(y, x, output)
