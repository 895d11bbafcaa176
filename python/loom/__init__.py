"""loom: NumPy-style arrays on the CPU and GPUs, with a C++ core.

>>> import loom
>>> x = loom.ones((2, 2), dtype=loom.float32, device=loom.try_gpu())
>>> x.to(loom.cpu()).numpy()
"""
# NumPy and ml_dtypes are imported before the extension: importing ml_dtypes from inside
# _loom's module init crashed in its own initialisation (seen on the GPU machine).
import ml_dtypes as _ml_dtypes  # noqa: F401
import numpy as _np  # noqa: F401

from . import _loom
from ._loom import (
    # errors
    CompileError,
    CudaError,
    GraphCaptureError,
    DeviceMismatchError,
    KernelFaultError,
    OutOfMemoryError,
    # dtypes
    dtype,
    bool_,
    int8,
    int16,
    int32,
    int64,
    uint8,
    uint16,
    uint32,
    uint64,
    float16,
    bfloat16,
    float32,
    float64,
    promote_types,
    # devices
    Device,
    cpu,
    gpu,
    num_gpus,
    try_gpu,
    try_all_gpus,
    devices,
    default_device,
    set_default_device,
    device,
    synchronize,
    # arrays
    ndarray,
    asarray,
    array,
    empty,
    zeros,
    ones,
    full,
    empty_like,
    zeros_like,
    ones_like,
    full_like,
    arange,
    linspace,
    eye,
    identity,
    asnumpy,
    from_dlpack,
    empty_pinned,
    # streams
    Stream,
    Event,
    current_stream,
    default_stream,
    # build
    build_info,
    __version__,
)
from . import memory
from .pykernel.errors import KernelSyntaxError, TypingError, UnsupportedError
from .transforms import CudaGraph, cuda_graph, fuse, jit, tree_util
from .transforms.tree_util import (register_pytree_node, register_pytree_node_class, tree_flatten, tree_leaves,
                                   tree_map, tree_structure, tree_unflatten)

# Every public name of the extension is re-exported, so that op families added in
# python/src need no edit here (explicit imports above document the core).
globals().update({_n: getattr(_loom, _n) for _n in dir(_loom) if not _n.startswith("_")})
# Submodules of the extension (loom.random, loom.linalg, ...) import as loom.<name> too.
import sys as _sys
import types as _types

for _n, _v in list(globals().items()):
    if isinstance(_v, _types.ModuleType) and getattr(_v, "__name__", "").startswith("loom._loom."):
        _sys.modules[f"{__name__}.{_n}"] = _v

# The transforms (after the extension's names: stop_gradient is bound there as the op, and
# the Python function takes pytrees).
from .transforms import grad, jvp, stop_gradient, value_and_grad, vjp, vmap  # noqa: E402
from .transforms import check_grads, hessian, jacfwd, jacobian, jacrev, linearize  # noqa: E402
from .transforms import checkpoint, checkpoint_policies, custom_jvp, custom_vjp, remat  # noqa: E402
# NumPy's __array_ufunc__ and __array_function__ on loom.ndarray: np.sin(x), np.mean(x) run loom's ops.
from ._numpy import protocols as _numpy_protocols  # noqa: E402, F401
from ._numpy import flags as _numpy_flags  # noqa: E402, F401 - x.flags
from ._numpy import pickling as _numpy_pickling  # noqa: E402, F401 - pickle of arrays, dtypes, devices
from ._numpy import setitem as _numpy_setitem  # noqa: E402, F401 - x[i] = nan on complex arrays
from ._numpy import jax_names as _numpy_jax_names  # noqa: E402, F401 - x.devices()
from ._numpy.pyfuncs import *  # noqa: E402, F401, F403 - NumPy's object-level functions
# CuPy's names (get_array_module, x.get(), x.fill()) and order= on the creation functions.
from ._numpy.cupy_names import *  # noqa: E402, F401, F403
# NumPy's index tricks (r_, c_, mgrid, ogrid, s_, broadcast, x.choose) and abstract scalar types.
from ._numpy.index_tricks import *  # noqa: E402, F401, F403
# CuPy's types: loom.ndarray(shape, dtype, memptr=...) constructs, x.data is a MemoryPointer, and
# dtypes are callable as NumPy's scalar types (loom.float32(1.5)).
from ._numpy.cupy_types import ndarray  # noqa: E402
# NumPy's keywords the bound functions lack: einsum's whole call, copyto(casting=, where=),
# dot(out=), and the ufunc keywords of float_power, heaviside, ldexp, matmul, ...
from ._numpy.einsum import einsum  # noqa: E402, F401
from ._numpy.out_keywords import *  # noqa: E402, F401, F403
from ._numpy.flat_partition import argpartition, partition  # noqa: E402, F401 - and x.flat, x.partition
from ._numpy import linalg_shapes as _linalg_shapes  # noqa: E402, F401 - LinAlgError for non-square, lstsq's rank
from ._numpy.quantile import median, nanmedian, percentile, quantile  # noqa: E402, F401 - every method, out=, complex median
from ._numpy.linspace import linspace  # noqa: E402, F401 - retstep=, axis=, array and complex ends

linalg.matmul = matmul  # noqa: F405 - one function under both names, as before
matmul._loom_bound = _loom.matmul  # noqa: F405 - what the extension's stub describes (tools/gen_stubs.py)

# The Python Array API standard: x.__array_namespace__() is this module (_numpy/array_api.py).
from ._numpy.array_api import __array_api_version__, __array_namespace_info__, e, inf, nan, newaxis, pi  # noqa: E402

# Every bound function gets a signature inspect.signature reads (help(), IDEs, the Array API
# suite): a builtin that forwards each call to it (_numpy/signatures.py).
from ._numpy import signatures as _signatures  # noqa: E402

_signatures.sign_namespace(globals(), __name__)
for _v in list(globals().values()):
    if isinstance(_v, _types.ModuleType) and getattr(_v, "__name__", "").startswith("loom._loom."):
        _signatures.sign_namespace(_v.__dict__, f"{__name__}.{_v.__name__.rsplit('.', 1)[-1]}")

# loom.random is a Python package (random/): the extension's keyed Philox draws with NumPy's
# legacy and Generator APIs over them. It takes the name the extension's submodule got above
# (while that name is bound, `from . import random` would return the submodule, not import).
_sys.modules.pop(f"{__name__}.random", None)
del random  # noqa: F821
from . import random  # noqa: E402

# Errors that say loom's spelling of a PyTorch name (dim= -> axis=, x.cuda(), loom.tensor).
from . import _porting_hints  # noqa: E402

_porting_hints.install()

Array = ndarray
bool = bool_  # NumPy 2 spells it np.bool too

# Kernels written in Python load on first use: the translator (ast, inspect) would add
# about a sixth to `import loom` for programs that never write one.
# The neural-network layer (nn, optim, data, Trainer: plain Python over the ops and
# transforms) loads on first use too: about 27 ms of `import loom` otherwise.
_LAZY = {"cuda": ("loom.cuda", None), "vectorize": ("loom.pykernel.vectorize", "vectorize"),
         "guvectorize": ("loom.pykernel.vectorize", "guvectorize"), "nn": ("loom.nn", None),
         "optim": ("loom.optim", None), "data": ("loom.train.data", None),
         "d2l": ("loom.train.d2l", None), "Trainer": ("loom.train.trainer", "Trainer"),
         # SciPy's names over loom's ops (a client package, as pycuda/ is): loom.scipy.linalg, ...
         "scipy": ("loom.scipy", None),
         "profiler": ("loom.monitor.profiler", None), "dashboard": ("loom.monitor.dashboard", None), "lax": ("loom.transforms.lax", None),
         # CuPy's pools (cupy.get_default_memory_pool()), over loom.memory
         "get_default_memory_pool": ("loom._cupy_runtime", "get_default_memory_pool"),
         "get_default_pinned_memory_pool": ("loom._cupy_runtime", "get_default_pinned_memory_pool")}

# Public module paths whose code moved into a subpackage (loom.profiler is loom/monitor/profiler.py):
# `import loom.profiler` and `python -m loom.launch` find them through this table.
from . import _public_paths  # noqa: E402

_public_paths.install()


def __getattr__(name):
    if name in _LAZY:
        import importlib
        module, attr = _LAZY[name]
        value = importlib.import_module(module)
        value = getattr(value, attr) if attr else value
        globals()[name] = value
        return value
    raise AttributeError(f"module 'loom' has no attribute {name!r}{_porting_hints.module_attribute_hint(name)}")


__all__ = [name for name in dir() if not name.startswith("_") and name != "bool"] + ["__version__"] + list(_LAZY)
