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

# IDX is 32-bit where the image allows (64-bit division costs a GPU many instructions per
# element); `packed` holds the weights (float64), the tap offsets and the mode's index table
# (int64), one upload for all three. Away from the borders a tap's source is j - before + k,
# with no table read.
_SOURCE = r"""
extern "C" __global__ void correlate_axis(const IN* x, OUT* y, const unsigned char* packed, int taps, IDX n,
                                          IDX inner, IDX total, IDX before, IDX span, double cval, double divide,
                                          int sym) {
  const double* w = (const double*)packed;
  const long long* off = (const long long*)(packed + 8 * taps);
  const long long* src = off + taps;
  const IDX stride = (IDX)gridDim.x * blockDim.x;
  for (IDX i = (IDX)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += stride) {
    const IDX q = i % inner;
    const IDX t = i / inner;
    const IDX j = t % n;
    const IN* line = x + (t - j) * inner + q;  // element 0 of this output's line
    const bool interior = j >= before && j - before + span < n;
#define TAP(k) (interior ? (double)line[(j - before + (IDX)off[k]) * inner] \
                         : (src[j + off[k]] < 0 ? cval : (double)line[src[j + off[k]] * inner]))
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
_tables = {}       # (device, packed bytes) -> device array, oldest dropped first
_MAX_TABLES = 64
# Tests set these: the kernel on cpu() through the emulator; 64-bit indices from this size.
force_on_cpu = False
wide_from = 2 ** 31


def applies(x, weights, output):
    """Whether the kernel computes this correlation: a real float32/float64 image and real
    weights, a float32/float64 result, on a GPU (or forced on cpu() by the tests)."""
    if x.device == loom.cpu() and not force_on_cpu:
        return False
    if weights.dtype.kind == "c" or x.dtype.name not in _C_TYPES or x.size == 0:
        return False
    return _support.output_dtype(x, output).name in _C_TYPES


def _kernel(in_name, out_name, wide=False):
    key = (in_name, out_name, wide)
    if key not in _kernels:
        src = _SOURCE.replace("IN*", _C_TYPES[in_name] + "*").replace("(OUT)", "(" + _C_TYPES[out_name] + ")")
        src = src.replace("OUT*", _C_TYPES[out_name] + "*").replace("IDX", "long long" if wide else "unsigned int")
        _kernels[key] = loom.RawKernel(src, "correlate_axis")
    return _kernels[key]


def _packed(dev, weights, offsets, table):
    """The kernel's tables as one device array, kept for the next call with the same ones (a
    filter applied again, or along another axis of the same length)."""
    host = np.concatenate([weights.astype(np.float64).view(np.uint8), offsets.astype(np.int64).view(np.uint8),
                           table.astype(np.int64).view(np.uint8)])
    key = (str(dev), host.tobytes())
    got = _tables.get(key)
    if got is None:
        if len(_tables) >= _MAX_TABLES:
            _tables.pop(next(iter(_tables)))
        got = _tables[key] = loom.asarray(host, device=dev)
    return got


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
    packed = _packed(x.device, weights[taps], taps, table)
    blocks = max(1, min(_MAX_BLOCKS, (x.size + _THREADS - 1) // _THREADS))
    # Every index the kernel forms stays below total + the table's length.
    wide = x.size + len(table) >= wide_from
    idx = np.int64 if wide else np.uint32
    _kernel(x.dtype.name, out_dt.name, wide)((blocks,), (_THREADS,), (
        xc, y, packed, np.int32(taps.size), idx(n), idx(inner), idx(x.size), idx(before), idx(size - 1), float(cval),
        float(divide or 1.0), np.int32(sym)))
    return _support.finish(y, x, output)
