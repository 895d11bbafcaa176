"""loom arrays as the chunks of `dask.array`: Dask's way for an array program to grow past one
device and one machine (docs/site/guide/dask.md).

    import dask, dask.array as da
    import loom, loom.dask_backend               # registers loom with Dask (importing loom does not)

    x = da.from_array(loom.asarray(host), chunks=(1000, 1000))   # loom chunks, loom meta
    with dask.config.set({"array.backend": "loom"}):
        y = da.random.default_rng(0).standard_normal((4000, 4000), chunks=1000)
    (x @ y).sum(axis=0).compute()                # a loom array

What importing this module registers, as Dask registers CuPy:

- the chunk type (`dask.array.register_chunk_type(loom.ndarray)`): Dask keeps loom chunks and
  does not defer to them in operators and NumPy functions;
- the array backend "loom" (`array_creation_dispatch`; also the `dask.array.backends` entry
  point of loom's pyproject.toml, so an installed loom is found without this import): under
  `dask.config.set({"array.backend": "loom"})`, `da.ones`, `zeros`, `empty`, `full`, `arange`,
  `da.random` (`RandomState` is loom.random.RandomState, `default_rng` takes loom's Philox)
  and `x.to_backend("loom")` make loom chunks; the creation functions take `device=`;
- the data-directed dispatches of dask.array.dispatch for loom chunks: concatenate, take,
  tensordot, einsum, empty, divide, percentile, numel, nannumel, to_numpy (and its
  converse, `to_loom_dispatch`, here);
- `dask.sizeof.sizeof` (a chunk's nbytes: what distributed's memory limits count) and
  `dask.base.normalize_token` (a hash of the data, dtype, shape and device: `from_array`'s
  deterministic names; a GPU array is copied to the host once for it);
- itself in `distributed.worker.preload`, so that the workers a cluster started from this
  process runs (LocalCluster and others that pass Dask's config on) import it too; a worker
  started elsewhere takes `dask worker --preload loom.dask_backend`;
- LOOM_NUM_THREADS=1 in `distributed.nanny.pre-spawn-environ` (beside distributed's own
  OMP_NUM_THREADS=1, ...): a worker's threads run the chunks, each with one loom CPU thread.
"""
from collections.abc import Iterator

import dask
import dask.array as da
import numpy as np
from dask.array.backends import ArrayBackendEntrypoint, array_creation_dispatch
from dask.array.chunk_types import is_valid_chunk_type, register_chunk_type
from dask.array.dispatch import (concatenate_lookup, divide_lookup, einsum_lookup, empty_lookup, nannumel_lookup,
                                 numel_lookup, percentile_lookup, take_lookup, tensordot_lookup, to_numpy_dispatch)
from dask.base import normalize_token
from dask.sizeof import sizeof
from dask.utils import Dispatch

import loom

__all__ = ["LoomBackendEntrypoint", "to_loom_dispatch", "register"]

BACKEND = "loom"
# The arrays' own type (Dask's dispatch looks chunks up by type(chunk)).
_ndarray = loom.ndarray

# to_loom_dispatch(chunk, device=None, dtype=None): a NumPy or loom chunk as a loom array on `device`
# (a loom chunk stays where it is by default); what x.to_backend("loom") maps over the chunks.
to_loom_dispatch = Dispatch("to_loom_dispatch")


@to_loom_dispatch.register(np.ndarray)
def _numpy_to_loom(data, device=None, **kwargs):
    return loom.asarray(data, device=device, **kwargs)


@to_loom_dispatch.register(_ndarray)
def _loom_to_loom(data, device=None, **kwargs):
    dtype = kwargs.pop("dtype", None)
    if kwargs:
        raise TypeError(f"[to_loom_dispatch] unexpected keywords {sorted(kwargs)}")
    out = data if device is None else data.to(device)
    return out if dtype is None else out.astype(dtype)


@to_numpy_dispatch.register(_ndarray)
def _loom_to_numpy(data, **kwargs):
    return np.asarray(loom.asnumpy(data), **kwargs)


# ---- chunk functions (dask.array.dispatch) --------------------------------------------------

def _concatenate(arrays, axis=0):
    return loom.concatenate(list(arrays), axis=axis)


def _take(a, indices, axis=None):
    return loom.take(a, indices, axis=axis)


def _tensordot(a, b, axes=2):
    return loom.tensordot(a, b, axes=axes)


def _einsum(subscripts, *operands, dtype=None, casting=None, order=None, optimize=None, **kwargs):
    """loom.einsum takes neither dtype= nor NumPy's casting/order/optimize, which Dask passes:
    dtype= casts the operands (NumPy's einsum computes in that dtype); the others do not
    change the values."""
    if dtype is not None:
        operands = [o.astype(dtype) if isinstance(o, _ndarray) and o.dtype != dtype else o for o in operands]
    return loom.einsum(subscripts, *operands, **kwargs)


def _empty(shape, dtype=None, **kwargs):
    return loom.empty(shape, dtype=np.float64 if dtype is None else dtype, **kwargs)


def _divide(x1, x2, out=None, dtype=None):
    """Dask's mean and var divide sums by counts with dtype= the result's dtype."""
    result = loom.true_divide(x1, x2)
    if dtype is not None and result.dtype != dtype:
        result = result.astype(dtype)
    if out is not None:
        out[...] = result
        return out
    return result


def _percentile(a, q, method="linear"):
    """One chunk's percentiles and its length (dask.array.percentile merges them)."""
    n = len(a)
    if not n:
        return None, n
    q = list(q) if isinstance(q, Iterator) else q
    if np.dtype(a.dtype).kind not in "iuf":
        method = "nearest"
    return loom.percentile(a, loom.asarray(np.asarray(q, dtype=np.float64), device=a.device), method=method), n


def _numel(x, axis=None, keepdims=False, dtype=None, **kwargs):
    """The element count a reduction divides by, as a loom array on x's device (kept out of
    NumPy, so that dividing a GPU sum by it moves nothing)."""
    dtype = np.float64 if dtype is None else dtype
    shape = tuple(x.shape)
    axes = tuple(range(len(shape))) if axis is None else (axis,) if isinstance(axis, int) else tuple(axis)
    axes = tuple(a % len(shape) for a in axes) if shape else ()
    count = int(np.prod([shape[a] for a in axes], dtype=np.int64))
    if axis is None and not keepdims:
        return loom.full((), count, dtype=dtype, device=x.device)
    out_shape = tuple(1 if i in axes else n for i, n in enumerate(shape)) if keepdims else \
        tuple(n for i, n in enumerate(shape) if i not in axes)
    return loom.full(out_shape, count, dtype=dtype, device=x.device)


def _nannumel(x, axis=None, keepdims=False, dtype=None, **kwargs):
    return loom.sum(loom.logical_not(loom.isnan(x)), axis=axis, keepdims=keepdims, dtype=dtype)


def _sizeof(x):
    return int(x.nbytes)


def _token(x):
    """Dask's names for arrays hash their data, as for NumPy's (a GPU array's via a host copy)."""
    host = np.ascontiguousarray(loom.asnumpy(x))
    return ("loom.ndarray", repr(x.device), normalize_token(host))


# ---- the "loom" array backend -----------------------------------------------------------------

def _meta(device=None, dtype=np.float64):
    """The 0-d loom array whose type and device Dask's creation functions copy into chunks."""
    return loom.empty((), dtype=dtype, device=device)


def _with_loom_meta(name, *args, meta=None, device=None, **kwargs):
    meta = _meta(device) if meta is None else meta
    with dask.config.set({"array.backend": "numpy"}):
        return getattr(da, name)(*args, meta=meta, **kwargs)


class LoomBackendEntrypoint(ArrayBackendEntrypoint):
    """Dask's "loom" array backend: creation functions and random numbers make loom chunks.
    Instantiating it registers loom's dispatches (Dask does so for an entry point)."""

    def __init__(self):
        register()

    @classmethod
    def to_backend_dispatch(cls):
        return to_loom_dispatch

    @classmethod
    def to_backend(cls, data, device=None, **kwargs):
        """`x.to_backend("loom")`: loom chunks (on `device`, default: where they are, else the
        default device)."""
        if isinstance(data._meta, _ndarray) and (device is None or data._meta.device == device):
            return data if not kwargs else data.map_blocks(to_loom_dispatch, **kwargs)
        meta = loom.empty((0,) * data.ndim, dtype=kwargs.get("dtype", data.dtype), device=device)
        return data.map_blocks(to_loom_dispatch, device=device, meta=meta, **kwargs)

    @property
    def RandomState(self):
        return loom.random.RandomState

    @property
    def default_bit_generator(self):
        return loom.random.Philox

    @staticmethod
    def ones(*args, **kwargs):
        return _with_loom_meta("ones", *args, **kwargs)

    @staticmethod
    def zeros(*args, **kwargs):
        return _with_loom_meta("zeros", *args, **kwargs)

    @staticmethod
    def empty(*args, **kwargs):
        return _with_loom_meta("empty", *args, **kwargs)

    @staticmethod
    def full(*args, **kwargs):
        return _with_loom_meta("full", *args, **kwargs)

    @staticmethod
    def arange(*args, like=None, device=None, **kwargs):
        like = _meta(device) if like is None else like
        with dask.config.set({"array.backend": "numpy"}):
            return da.arange(*args, like=like, **kwargs)


_registered = False
_ENVIRON = "distributed.nanny.pre-spawn-environ"


def register():
    """Registers loom with Dask (this module's import does it; calling again does nothing)."""
    global _registered
    if _registered:
        return
    _registered = True
    if not is_valid_chunk_type(_ndarray):
        register_chunk_type(_ndarray)
    concatenate_lookup.register(_ndarray, _concatenate)
    take_lookup.register(_ndarray, _take)
    tensordot_lookup.register(_ndarray, _tensordot)
    einsum_lookup.register(_ndarray, _einsum)
    empty_lookup.register(_ndarray, _empty)
    divide_lookup.register(_ndarray, _divide)
    percentile_lookup.register(_ndarray, _percentile)
    numel_lookup.register(_ndarray, _numel)
    nannumel_lookup.register(_ndarray, _nannumel)
    sizeof.register(_ndarray, _sizeof)
    normalize_token.register(_ndarray, _token)
    normalize_token.register(loom.dtype, lambda d: ("loom.dtype", d.name))
    normalize_token.register(loom.Device, lambda d: ("loom.Device", repr(d)))
    array_creation_dispatch.register_backend(BACKEND, LoomBackendEntrypoint())
    preload = list(dask.config.get("distributed.worker.preload", None) or [])
    if __name__ not in preload:
        dask.config.set({"distributed.worker.preload": preload + [__name__]})
    # A worker's loom runs one CPU thread, as distributed's defaults pin OpenMP, MKL and
    # OpenBLAS: the worker's threads are the parallelism (a value the user set is kept).
    if dask.config.get(f"{_ENVIRON}.LOOM_NUM_THREADS", None) is None:
        dask.config.set({f"{_ENVIRON}.LOOM_NUM_THREADS": 1})


register()
