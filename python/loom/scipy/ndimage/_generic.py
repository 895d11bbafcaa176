"""scipy.ndimage.generic_filter and generic_filter1d: a user's function over every window.

The function may be a loom.ReductionKernel (CuPy's form, reduced over each window:
_generic_reduction.py), a loom.RawKernel (CuPy's form) whose source defines it as an
`extern "C" __global__` function: loom compiles that source again with the function as a
`__device__` one, beside a kernel that calls it once per output element (generic_filter:
`f(const double* window, int size, double* result)`) or per line (generic_filter1d:
`f(const double* line, ptrdiff_t in_length, double* out, ptrdiff_t out_length)`), on the
GPU or through the CPU kernel emulator. The windows are gathered on the device first (the
input extended by the mode, one row of doubles per output element or line). A Python function
(SciPy's form) is called on the host with NumPy arrays, one call per element or line, as
SciPy does; the data go to the host and back for it."""
import re

import numpy as np

import loom

from .. import _util
from . import _support
from ._generic_reduction import window_reduction
from ._rank import _footprint, _taps

_THREADS = 128
_DRIVERS = {
    "element": """
extern "C" __global__ void loom_generic_filter(const double* windows, long long size, double* out, long long count) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) USER(windows + i * size, (int)size, out + i);
}""",
    "line": """
extern "C" __global__ void loom_generic_filter1d(const double* lines, long long in_length, double* out,
                                                 long long out_length, long long count) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) USER(lines + i * in_length, (ptrdiff_t)in_length, out + i * out_length, (ptrdiff_t)out_length);
}""",
}
_modules = {}


def _driver(kernel, kind):
    """The module that calls the RawKernel `kernel`'s function from loom's driver kernel."""
    key = (kernel.code, kernel.name, kind)
    if key not in _modules:
        pattern = r"__global__(\s+void\s+" + re.escape(kernel.name) + r"\s*\()"
        source, n = re.subn(pattern, r"__device__\1", kernel.code)
        if n != 1:
            raise ValueError(f"[generic_filter] kernel {kernel.name!r}: its source must define it once as a "
                             f"__global__ void function")
        name = "loom_generic_filter" if kind == "element" else "loom_generic_filter1d"
        _modules[key] = loom.RawKernel(source + _DRIVERS[kind].replace("USER", kernel.name), name)
    return _modules[key]


def _launch(kernel, count, args):
    kernel(((count + _THREADS - 1) // _THREADS,), (_THREADS,), args)


def _check_function(function, who, reduction_ok):
    if isinstance(function, loom.ReductionKernel) and not reduction_ok:
        raise TypeError(f"[{who}] a ReductionKernel reduces a window; {who} gives the function whole lines: pass a "
                        f"loom.RawKernel or a Python function")
    if isinstance(function, loom.ElementwiseKernel):
        raise TypeError(f"[{who}] only a ReductionKernel, a RawKernel or a Python callable may be the function, "
                        f"not an ElementwiseKernel")
    if isinstance(function, (loom.RawKernel, loom.ReductionKernel)) or callable(function):
        return
    raise TypeError(f"[{who}] function must be a loom.RawKernel, a loom.ReductionKernel or a Python callable, not "
                    f"{type(function).__name__}")


def generic_filter(input, function, size=None, footprint=None, output=None, mode="reflect", cval=0.0, origin=0,
                   extra_arguments=(), extra_keywords=None, *, axes=None):
    """function over the window of footprint (or size) around every element, in float64, the
    result cast to the output dtype (scipy.ndimage.generic_filter)."""
    _check_function(function, "generic_filter", True)
    x = _support.check_input(input)
    axes = _support.axes_of(axes, x.ndim)
    fp, _ = _footprint(size, footprint, axes)
    origins = _support.sequence(origin, len(axes))
    windows = loom.stack(_taps(x.astype(loom.float64), fp, axes, _support.sequence(mode, 1)[0], cval, origins),
                         axis=-1)
    k = int(fp.sum())
    flat = loom.ascontiguousarray(windows.reshape((-1, k)))
    if isinstance(function, loom.RawKernel):
        out = loom.empty((flat.shape[0],), dtype=loom.float64, device=x.device)
        if flat.shape[0]:
            _launch(_driver(function, "element"), flat.shape[0], (flat, k, out, flat.shape[0]))
    elif isinstance(function, loom.ReductionKernel):
        reducer, written = window_reduction(function, x.dtype, _support.output_dtype(x, output))
        out = loom.empty((flat.shape[0],), dtype=written, device=x.device)
        if flat.shape[0]:  # the windows in the input's dtype, CuPy's X
            _launch(reducer, flat.shape[0], (loom.ascontiguousarray(flat.astype(x.dtype)), k, out, flat.shape[0]))
    else:
        kw = extra_keywords or {}
        host = flat.numpy()
        out = loom.asarray(np.array([function(row, *extra_arguments, **kw) for row in host], dtype=np.float64),
                           device=x.device)
    return _support.finish(out.reshape(x.shape), x, output)


def generic_filter1d(input, function, filter_size, axis=-1, output=None, mode="reflect", cval=0.0, origin=0,
                     extra_arguments=(), extra_keywords=None):
    """function(line extended by filter_size - 1, output line) along axis, in float64
    (scipy.ndimage.generic_filter1d)."""
    _check_function(function, "generic_filter1d", False)
    if filter_size < 1:
        raise RuntimeError("invalid filter size")
    x = _support.check_input(input)
    axis = _util.normalize_axis(axis, x.ndim)
    if not 0 <= filter_size // 2 + origin < filter_size:
        raise ValueError("invalid origin")
    before = filter_size // 2 + origin
    ext = _support.extend(x.astype(loom.float64), axis, before, filter_size - 1 - before,
                          _support.filter_mode(mode), cval)
    lines = loom.ascontiguousarray(loom.moveaxis(ext, axis, -1))
    n, in_length = x.shape[axis], lines.shape[-1]
    flat = lines.reshape((-1, in_length))
    if isinstance(function, loom.RawKernel):
        out = loom.empty((flat.shape[0], n), dtype=loom.float64, device=x.device)
        if flat.shape[0] and n:
            _launch(_driver(function, "line"), flat.shape[0], (flat, in_length, out, n, flat.shape[0]))
    else:
        kw = extra_keywords or {}
        host = flat.numpy()
        res = np.zeros((host.shape[0], n))
        for row, dst in zip(host, res):
            function(row, dst, *extra_arguments, **kw)
        out = loom.asarray(res, device=x.device)
    moved_shape = tuple(lines.shape[:-1]) + (n,)
    return _support.finish(loom.moveaxis(out.reshape(moved_shape), -1, axis), x, output)


