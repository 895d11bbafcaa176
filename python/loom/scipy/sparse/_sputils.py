"""SciPy's argument rules for loom.scipy.sparse: the dtypes it stores, shapes, index dtypes,
and moving inputs onto a device."""
import numbers
import operator

import numpy as np

import loom

# scipy.sparse stores these dtypes (its compiled kernels have no float16); loom adds none.
SUPPORTED = ("bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
             "float32", "float64", "complex64", "complex128")
FORMATS = ("csr", "csc", "coo", "dia")
_INT32_MAX = int(np.iinfo(np.int32).max)


class SparseWarning(Warning):
    """scipy.sparse.SparseWarning."""


class SparseEfficiencyWarning(SparseWarning):
    """scipy.sparse.SparseEfficiencyWarning: an operation that stores (nearly) every element."""


def check_dtype(dtype):
    """dtype as a loom dtype that scipy.sparse can store (ValueError, SciPy's type, otherwise)."""
    dt = loom.dtype(dtype)
    if dt.name not in SUPPORTED:
        raise ValueError(f"scipy.sparse does not support dtype {dt.name}. The only supported types are: "
                         f"{', '.join(SUPPORTED)}.")
    return dt


def index_dtype(*sizes):
    """SciPy's index dtype rule from sizes alone: int32 while every index (and nnz) fits.
    SciPy may also look at the values of given int64 indices to downcast them; loom keeps
    what it is given, since that would read the indices on the host."""
    return loom.int32 if max((int(s) for s in sizes), default=0) <= _INT32_MAX else loom.int64


def check_shape(shape, name="shape"):
    """A 2-tuple of non-negative Python ints (SciPy: 1-d and n-d sparse arrays are not in loom)."""
    try:
        dims = tuple(operator.index(s) for s in shape)
    except TypeError:
        raise TypeError(f"'{name}' must be a tuple of 2 integers, got {shape!r}") from None
    if len(dims) != 2:
        raise ValueError(f"'{name}' must have 2 dimensions (loom.scipy.sparse is 2-d only), got {shape!r}")
    if min(dims) < 0:
        raise ValueError(f"'{name}' elements cannot be negative, got {shape!r}")
    return dims


def is_shape(x):
    """x looks like a 2-d shape tuple (SciPy's isshape): two Python or NumPy integers."""
    return (isinstance(x, tuple) and len(x) == 2
            and all(isinstance(v, numbers.Integral) and not isinstance(v, bool) for v in x))


def is_scalar(x):
    """A number, or a 0-d array (a loom 0-d array stays on the device: no host read)."""
    if isinstance(x, (numbers.Number, np.generic)):
        return True
    return isinstance(x, (loom.ndarray, np.ndarray)) and x.ndim == 0


def is_dense(x):
    return isinstance(x, (loom.ndarray, np.ndarray, list))


def on_device(x, device=None, dtype=None):
    """x as a loom array on `device` (None: x's own device for loom arrays, else loom's
    default device). NumPy inputs are copied, never shared, so that a sparse matrix never
    aliases a caller's host buffer."""
    if isinstance(x, loom.ndarray):
        if device is not None and x.device != device:
            x = x.to_device(device)
        return x if dtype is None or x.dtype == dtype else x.astype(dtype)
    host = np.array(x, dtype=None if dtype is None else np.dtype(loom.dtype(dtype).name))
    return loom.asarray(host, device=loom.default_device() if device is None else device)


def as_index(x, dtype, name):
    """An integer index array in `dtype` (SciPy accepts float arrays of whole numbers too)."""
    if x.ndim != 1:
        raise ValueError(f"{name} should be 1-D, got {x.ndim}-D")
    if x.dtype.kind not in "iuf":
        raise TypeError(f"{name} must be an integer array, got dtype {x.dtype.name}")
    return x if x.dtype == dtype else x.astype(dtype)


def device_scalar(x, device):
    """A scalar operand as a Python number or a 0-d loom array on `device`."""
    if isinstance(x, np.ndarray):
        x = x[()]
    if isinstance(x, np.generic):
        return x.item()
    if isinstance(x, loom.ndarray) and x.device != device:
        return x.to_device(device)
    return x


def sum_dtype(dt):
    """NumPy's dtype of a sum: small signed integers and bool in int64, unsigned in uint64."""
    if dt.kind in "b" or (dt.kind == "i" and dt.itemsize < 8):
        return loom.int64
    if dt.kind == "u" and dt.itemsize < 8:
        return loom.uint64
    return dt


def read_ints(*scalars):
    """Python ints of 0-d device values in one device-to-host copy."""
    if not scalars:
        return []
    return [int(v) for v in loom.stack([s.astype(loom.int64) for s in scalars]).tolist()]
