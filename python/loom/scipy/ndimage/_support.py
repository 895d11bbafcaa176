"""What every ndimage function shares: SciPy's boundary modes as index tables, its argument
normalisation, and its output rule (the input's dtype; floats cast to integers truncate)."""
import numbers
import warnings

import numpy as np

import loom

from .. import _util

# Filters: SciPy's grid-* names are the same extensions as the plain ones.
FILTER_MODES = {"reflect": "reflect", "grid-mirror": "reflect", "constant": "constant",
                "grid-constant": "constant", "nearest": "nearest", "mirror": "mirror",
                "wrap": "wrap", "grid-wrap": "wrap"}
INTERP_MODES = ("constant", "grid-constant", "nearest", "reflect", "grid-mirror", "mirror",
                "wrap", "grid-wrap")


def filter_mode(mode):
    if mode not in FILTER_MODES:
        raise RuntimeError("boundary mode not supported")
    return FILTER_MODES[mode]


def sequence(value, rank, name=None):
    """A per-axis value as a list of rank entries (SciPy's _normalize_sequence)."""
    if isinstance(value, str) or not hasattr(value, "__len__"):
        return [value] * rank
    value = list(value)
    if len(value) != rank:
        raise RuntimeError("sequence argument must have length equal to input rank")
    return value


def axes_of(axes, ndim):
    if axes is None:
        return list(range(ndim))
    if isinstance(axes, numbers.Integral):
        axes = [axes]
    axes = [_util.normalize_axis(a, ndim, "axes") for a in axes]
    if len(set(axes)) != len(axes):
        raise ValueError("axes must be unique")
    return axes


def extension_index(n, before, after, mode):
    """(index, inside) for positions -before .. n + after - 1 of an axis of length n:
    the source index each takes under `mode`, and (for 'constant') whether it is inside."""
    j = np.arange(-before, n + after)
    inside = (j >= 0) & (j < n)
    if n == 0:
        return np.zeros(len(j), np.int64), inside
    if mode == "constant":
        idx = np.clip(j, 0, n - 1)
    elif mode == "nearest":
        idx = np.clip(j, 0, n - 1)
    elif mode == "wrap":
        idx = np.mod(j, n)
    elif mode == "reflect":
        m = np.mod(j, 2 * n)
        idx = np.where(m < n, m, 2 * n - 1 - m)
    elif mode == "mirror":
        if n == 1:
            idx = np.zeros_like(j)
        else:
            m = np.mod(j, 2 * n - 2)
            idx = np.where(m < n, m, 2 * n - 2 - m)
    else:
        raise RuntimeError("boundary mode not supported")
    return idx.astype(np.int64), inside


def extend(x, axis, before, after, mode, cval):
    """x extended along axis by before/after elements under a filter mode."""
    if before == 0 and after == 0:
        return x
    idx, inside = extension_index(x.shape[axis], before, after, mode)
    out = loom.take(x, loom.asarray(idx, device=x.device), axis=axis)
    if mode == "constant" and not inside.all():
        shape = [1] * x.ndim
        shape[axis] = len(idx)
        mask = loom.asarray(inside.reshape(shape), device=x.device)
        out = loom.where(mask, out, loom.asarray(cval, device=x.device).astype(out.dtype))
    return out


def output_dtype(x, output):
    if output is None:
        return x.dtype
    if isinstance(output, loom.ndarray):
        return output.dtype
    return getattr(loom, np.dtype(output).name)


def finish(result, x, output):
    """result cast to SciPy's output dtype (truncating toward zero for integers), written
    into `output` when that is an array."""
    dt = output_dtype(x, output)
    if result.dtype != dt:
        if dt.kind in "iu" and result.dtype.kind == "f":
            result = loom.trunc(result)
        result = result.astype(dt)
    if isinstance(output, loom.ndarray):
        if output.shape != result.shape:
            raise RuntimeError("output shape not correct")
        output[...] = result
        return output
    return loom.ascontiguousarray(result)  # a fresh C-ordered array, as SciPy returns (a view may not be)


def complex_output(output):
    """SciPy's output for complex input: None or a complex array as it is, a string naming a
    real dtype refused, a real dtype promoted to complex with SciPy's warning."""
    if output is None or isinstance(output, loom.ndarray):
        if output is not None and output.dtype.kind != "c":
            raise RuntimeError("output must have complex dtype")
        return output
    dt = np.dtype(output)
    if dt.kind != "c":
        if isinstance(output, str):
            raise RuntimeError("output must have complex dtype")
        warnings.warn("promoting specified output dtype to complex", UserWarning, stacklevel=3)
        dt = np.promote_types(dt, np.complex64)
    return dt


def work_dtype(x):
    """The dtype filters accumulate in: float64 for integers, the input's float otherwise."""
    if x.dtype.kind in "fc" and x.dtype != loom.float16 and x.dtype != loom.bfloat16:
        return x.dtype
    return loom.float64


def check_input(x):
    x = _util.asarray(x)
    if x.dtype.kind == "c":
        raise TypeError("Complex type not supported")
    return x
