"""pickle for loom arrays, dtypes and devices, as NumPy's and CuPy's arrays pickle: what
`multiprocessing`, `concurrent.futures` and `dask.distributed` send between processes.

An array travels as its data (a NumPy array: dtype, shape and values; a non-contiguous view
arrives C-contiguous, as NumPy's do) and the name of its device. It is rebuilt on the device of
that name where the receiving process has it, else on that process's default device: an array
of gpu(1) unpickled where there is one GPU lands on gpu(0), one of any GPU unpickled on a
machine without a GPU lands on cpu(). A cpu() array's data is read in place (no copy before
pickle's own; with protocol 5 its buffer goes out of band); a GPU array's is copied to the host.
dtypes travel by name, devices as (type, index) with the same fallback.

The functions named in the pickles (_array, _dtype, _device) are part of the format: a pickle
names them by module path, so they keep this path and these arguments.
"""
from .. import _loom


def _device(kind, index):
    """The device `kind`/`index` names in this process, else the default device."""
    if kind == "cpu":
        return _loom.cpu()
    if 0 <= index < _loom.num_gpus():
        return _loom.gpu(index)
    return _loom.default_device()


def _array(data, kind, index):
    return _loom.asarray(data, device=_device(kind, index))


def _dtype(name):
    return _loom.dtype(name)


def _reduce_array(self):
    dev = self.device
    return _array, (self.numpy(), dev.type, dev.index)


def _reduce_dtype(self):
    return _dtype, (self.name,)


def _reduce_device(self):
    return _device, (self.type, self.index)


_loom.ndarray.__reduce__ = _reduce_array
_loom.dtype.__reduce__ = _reduce_dtype
_loom.Device.__reduce__ = _reduce_device
