"""
loom: NumPy-style arrays on the CPU and GPUs, with a C++ core.

>>> import loom
>>> x = loom.ones((2, 2), dtype=loom.float32, device=loom.try_gpu())
>>> x.to(loom.cpu()).numpy()
"""

import types

from numpy import (
    complexfloating as complexfloating,
    floating as floating,
    generic as generic,
    inexact as inexact,
    integer as integer,
    number as number,
    signedinteger as signedinteger,
    unsignedinteger as unsignedinteger
)
from numpy.exceptions import AxisError as AxisError
import numpy.lib._index_tricks_impl
from numpy.linalg import LinAlgError as LinAlgError

from loom import (
    _loom,
    cuda as cuda,
    distributed as distributed,
    monitor as monitor,
    nn as nn,
    optim as optim,
    pykernel as pykernel,
    random as random,
    scipy as scipy,
    train as train,
    transforms as transforms
)
from loom._cupy_runtime import (
    get_default_memory_pool as get_default_memory_pool,
    get_default_pinned_memory_pool as get_default_pinned_memory_pool
)
from loom._loom import (
    Device as Device,
    ElementwiseKernel as ElementwiseKernel,
    Event as Event,
    In as In,
    InOut as InOut,
    Out as Out,
    RawKernel as RawKernel,
    RawModule as RawModule,
    ReductionKernel as ReductionKernel,
    SourceModule as SourceModule,
    Stream as Stream,
    abs as abs,
    absolute as absolute,
    acos as acos,
    acosh as acosh,
    add as add,
    all as all,
    allclose as allclose,
    amax as amax,
    amin as amin,
    angle as angle,
    any as any,
    append as append,
    arange as arange,
    arccos as arccos,
    arccosh as arccosh,
    arcsin as arcsin,
    arcsinh as arcsinh,
    arctan as arctan,
    arctan2 as arctan2,
    arctanh as arctanh,
    argmax as argmax,
    argmin as argmin,
    argsort as argsort,
    argwhere as argwhere,
    around as around,
    array_equal as array_equal,
    array_equiv as array_equiv,
    array_split as array_split,
    ascontiguousarray as ascontiguousarray,
    asfortranarray as asfortranarray,
    asin as asin,
    asinh as asinh,
    asnumpy as asnumpy,
    astype as astype,
    atan as atan,
    atan2 as atan2,
    atanh as atanh,
    atleast_1d as atleast_1d,
    atleast_2d as atleast_2d,
    atleast_3d as atleast_3d,
    autotune as autotune,
    average as average,
    avg_pool2d as avg_pool2d,
    avg_pool2d_grad as avg_pool2d_grad,
    bartlett as bartlett,
    bincount as bincount,
    bitwise_and as bitwise_and,
    bitwise_invert as bitwise_invert,
    bitwise_left_shift as bitwise_left_shift,
    bitwise_not as bitwise_not,
    bitwise_or as bitwise_or,
    bitwise_right_shift as bitwise_right_shift,
    bitwise_xor as bitwise_xor,
    blackman as blackman,
    broadcast_arrays as broadcast_arrays,
    broadcast_to as broadcast_to,
    build_info as build_info,
    can_cast as can_cast,
    cbrt as cbrt,
    ceil as ceil,
    choose as choose,
    clip as clip,
    column_stack as column_stack,
    compress as compress,
    concat as concat,
    concatenate as concatenate,
    conj as conj,
    conjugate as conjugate,
    conv2d as conv2d,
    conv2d_input_grad as conv2d_input_grad,
    conv2d_weight_grad as conv2d_weight_grad,
    conv_backend as conv_backend,
    convolve as convolve,
    copysign as copysign,
    corrcoef as corrcoef,
    correlate as correlate,
    cos as cos,
    cosh as cosh,
    count_nonzero as count_nonzero,
    cov as cov,
    cpu as cpu,
    cross as cross,
    cumprod as cumprod,
    cumsum as cumsum,
    cumulative_prod as cumulative_prod,
    cumulative_sum as cumulative_sum,
    current_stream as current_stream,
    default_device as default_device,
    default_stream as default_stream,
    delete as delete,
    device as device,
    devices as devices,
    diag as diag,
    diag_indices as diag_indices,
    diag_indices_from as diag_indices_from,
    diagflat as diagflat,
    diagonal as diagonal,
    diff as diff,
    digitize as digitize,
    divide as divide,
    divmod as divmod,
    driver as driver,
    dsplit as dsplit,
    dstack as dstack,
    dtype as dtype,
    ediff1d as ediff1d,
    empty_mapped as empty_mapped,
    empty_pinned as empty_pinned,
    equal as equal,
    erf as erf,
    exp as exp,
    exp2 as exp2,
    expand_dims as expand_dims,
    expm1 as expm1,
    external_stream as external_stream,
    extract as extract,
    eye as eye,
    fabs as fabs,
    fft as fft,
    fill_diagonal as fill_diagonal,
    finfo as finfo,
    fix as fix,
    flatnonzero as flatnonzero,
    flip as flip,
    fliplr as fliplr,
    flipud as flipud,
    floor as floor,
    floor_divide as floor_divide,
    fmax as fmax,
    fmin as fmin,
    fmod as fmod,
    frexp as frexp,
    from_dlpack as from_dlpack,
    gcd as gcd,
    geomspace as geomspace,
    get_matmul_precision as get_matmul_precision,
    gpu as gpu,
    gradient as gradient,
    greater as greater,
    greater_equal as greater_equal,
    hamming as hamming,
    hanning as hanning,
    histogram as histogram,
    histogram2d as histogram2d,
    histogram_bin_edges as histogram_bin_edges,
    histogramdd as histogramdd,
    hsplit as hsplit,
    hstack as hstack,
    hypot as hypot,
    i0 as i0,
    identity as identity,
    iinfo as iinfo,
    imag as imag,
    indices as indices,
    inner as inner,
    insert as insert,
    interp as interp,
    intersect1d as intersect1d,
    invert as invert,
    isclose as isclose,
    iscomplex as iscomplex,
    iscomplexobj as iscomplexobj,
    isdtype as isdtype,
    isfinite as isfinite,
    isfortran as isfortran,
    isin as isin,
    isinf as isinf,
    isnan as isnan,
    isneginf as isneginf,
    isposinf as isposinf,
    isreal as isreal,
    isrealobj as isrealobj,
    ix_ as ix_,
    kaiser as kaiser,
    kron as kron,
    lcm as lcm,
    left_shift as left_shift,
    legacy_default_stream as legacy_default_stream,
    less as less,
    less_equal as less_equal,
    lexsort as lexsort,
    linalg as linalg,
    log as log,
    log10 as log10,
    log1p as log1p,
    log2 as log2,
    logical_and as logical_and,
    logical_not as logical_not,
    logical_or as logical_or,
    logical_xor as logical_xor,
    logspace as logspace,
    matrix_transpose as matrix_transpose,
    matvec as matvec,
    max as max,
    max_pool2d as max_pool2d,
    max_pool2d_grad as max_pool2d_grad,
    maximum as maximum,
    may_share_memory as may_share_memory,
    mean as mean,
    memory as memory,
    meshgrid as meshgrid,
    min as min,
    minimum as minimum,
    mod as mod,
    modf as modf,
    moveaxis as moveaxis,
    multiply as multiply,
    nan_to_num as nan_to_num,
    nanargmax as nanargmax,
    nanargmin as nanargmin,
    nancumprod as nancumprod,
    nancumsum as nancumsum,
    nanmax as nanmax,
    nanmean as nanmean,
    nanmin as nanmin,
    nanpercentile as nanpercentile,
    nanprod as nanprod,
    nanquantile as nanquantile,
    nanstd as nanstd,
    nansum as nansum,
    nanvar as nanvar,
    ndarray as Array,
    ndarray as ndarray,
    negative as negative,
    nextafter as nextafter,
    nonzero as nonzero,
    not_equal as not_equal,
    num_gpus as num_gpus,
    outer as outer,
    packbits as packbits,
    pad as pad,
    per_thread_default_stream as per_thread_default_stream,
    permute_dims as permute_dims,
    place as place,
    positive as positive,
    pow as pow,
    power as power,
    prod as prod,
    promote_types as promote_types,
    ptp as ptp,
    put as put,
    put_along_axis as put_along_axis,
    putmask as putmask,
    ravel as ravel,
    ravel_multi_index as ravel_multi_index,
    real as real,
    reciprocal as reciprocal,
    remainder as remainder,
    repeat as repeat,
    reshape as reshape,
    resize as resize,
    result_type as result_type,
    right_shift as right_shift,
    rint as rint,
    roll as roll,
    rollaxis as rollaxis,
    rot90 as rot90,
    round as round,
    row_stack as row_stack,
    searchsorted as searchsorted,
    select as select,
    set_default_device as set_default_device,
    set_matmul_precision as set_matmul_precision,
    setdiff1d as setdiff1d,
    setxor1d as setxor1d,
    shares_memory as shares_memory,
    sign as sign,
    sin as sin,
    sinc as sinc,
    sinh as sinh,
    softmax_cross_entropy as softmax_cross_entropy,
    sort as sort,
    split as split,
    sqrt as sqrt,
    square as square,
    squeeze as squeeze,
    stack as stack,
    std as std,
    subtract as subtract,
    sum as sum,
    swapaxes as swapaxes,
    synchronize as synchronize,
    take as take,
    take_along_axis as take_along_axis,
    tan as tan,
    tanh as tanh,
    tensordot as tensordot,
    tile as tile,
    trace as trace,
    transpose as transpose,
    trapezoid as trapezoid,
    tri as tri,
    tril as tril,
    tril_indices as tril_indices,
    tril_indices_from as tril_indices_from,
    trim_zeros as trim_zeros,
    triu as triu,
    triu_indices as triu_indices,
    triu_indices_from as triu_indices_from,
    true_divide as true_divide,
    trunc as trunc,
    try_all_gpus as try_all_gpus,
    try_gpu as try_gpu,
    union1d as union1d,
    unique as unique,
    unique_all as unique_all,
    unique_counts as unique_counts,
    unique_inverse as unique_inverse,
    unique_values as unique_values,
    unpackbits as unpackbits,
    unravel_index as unravel_index,
    unstack as unstack,
    unwrap as unwrap,
    vander as vander,
    var as var,
    vdot as vdot,
    vecdot as vecdot,
    vecmat as vecmat,
    vsplit as vsplit,
    vstack as vstack,
    where as where
)
from loom._numpy.array_api import (
    __array_namespace_info__ as __array_namespace_info__
)
from loom._numpy.cupy_names import (
    array as array,
    asarray as asarray,
    empty as empty,
    empty_like as empty_like,
    full as full,
    full_like as full_like,
    get_array_module as get_array_module,
    ones as ones,
    ones_like as ones_like,
    zeros as zeros,
    zeros_like as zeros_like
)
from loom._numpy.einsum import einsum as einsum
from loom._numpy.flat_partition import (
    argpartition as argpartition,
    partition as partition
)
from loom._numpy.index_tricks import broadcast as broadcast
from loom._numpy.linspace import linspace as linspace
from loom._numpy.out_keywords import (
    copyto as copyto,
    dot as dot,
    matmul as matmul
)
from loom._numpy.pyfuncs import (
    apply_along_axis as apply_along_axis,
    apply_over_axes as apply_over_axes,
    asanyarray as asanyarray,
    asarray_chkfinite as asarray_chkfinite,
    block as block,
    broadcast_shapes as broadcast_shapes,
    common_type as common_type,
    copy as copy,
    einsum_path as einsum_path,
    frombuffer as frombuffer,
    fromfunction as fromfunction,
    fromiter as fromiter,
    fromstring as fromstring,
    isscalar as isscalar,
    issubdtype as issubdtype,
    iterable as iterable,
    mask_indices as mask_indices,
    min_scalar_type as min_scalar_type,
    mintypecode as mintypecode,
    ndim as ndim,
    piecewise as piecewise,
    real_if_close as real_if_close,
    require as require,
    shape as shape,
    size as size,
    sort_complex as sort_complex,
    typename as typename
)
from loom._numpy.quantile import (
    median as median,
    nanmedian as nanmedian,
    percentile as percentile,
    quantile as quantile
)
from loom.monitor import dashboard as dashboard, profiler as profiler
from loom.pykernel.errors import (
    TypingError as TypingError,
    UnsupportedError as KernelSyntaxError,
    UnsupportedError as UnsupportedError
)
from loom.pykernel.vectorize import (
    guvectorize as guvectorize,
    vectorize as vectorize
)
from loom.train import d2l as d2l, data as data
from loom.train.trainer import Trainer as Trainer
from loom.transforms import lax as lax, tree_util as tree_util
from loom.transforms._check_grads import check_grads as check_grads
from loom.transforms._cuda_graph import (
    CudaGraph as CudaGraph,
    cuda_graph as cuda_graph
)
from loom.transforms._custom import (
    checkpoint as checkpoint,
    checkpoint as remat,
    custom_jvp as custom_jvp,
    custom_vjp as custom_vjp
)
from loom.transforms._fuse import fuse as fuse
from loom.transforms._grad import (
    grad as grad,
    jvp as jvp,
    stop_gradient as stop_gradient,
    value_and_grad as value_and_grad,
    vjp as vjp
)
from loom.transforms._jacobian import (
    hessian as hessian,
    jacfwd as jacfwd,
    jacrev as jacobian,
    jacrev as jacrev,
    linearize as linearize
)
from loom.transforms._jit import jit as jit
from loom.transforms._vmap import vmap as vmap
from loom.transforms.tree_util import (
    register_pytree_node as register_pytree_node,
    register_pytree_node_class as register_pytree_node_class,
    tree_flatten as tree_flatten,
    tree_leaves as tree_leaves,
    tree_map as tree_map,
    tree_structure as tree_structure,
    tree_unflatten as tree_unflatten
)



class CompileError(RuntimeError):
    """
    Kernel compilation (NVRTC or host compiler) failed; `.log` holds the compiler log.
    """

class CudaError(RuntimeError):
    """
    A CUDA runtime, driver or library call failed; `.code` holds the CUDA error code and `.context_lost` whether the device must be reset.
    """

class GraphCaptureError(RuntimeError):
    """
    Something a CUDA graph cannot record ran while loom.cuda_graph was capturing: a host read of GPU data, a synchronize, a kernel compile.
    """

class DeviceMismatchError(ValueError):
    """Operands of one operation live on different devices."""

class KernelFaultError(RuntimeError):
    """
    A fault inside a kernel run on the CPU (a NULL or wild pointer, an integer division by zero, a stack overflow); the process and the device stay usable.
    """

class OutOfMemoryError(MemoryError):
    """A device allocation failed after freeing the cache and retrying."""

bool_: _loom.dtype = ...

int8: _loom.dtype = ...

int16: _loom.dtype = ...

int32: _loom.dtype = ...

int64: _loom.dtype = ...

uint8: _loom.dtype = ...

uint16: _loom.dtype = ...

uint32: _loom.dtype = ...

uint64: _loom.dtype = ...

float16: _loom.dtype = ...

bfloat16: _loom.dtype = ...

float32: _loom.dtype = ...

float64: _loom.dtype = ...

class ConcretizationTypeError(TypeError):
    """
    An operation needs the values of an array that is being traced (inside loom.jit, vmap or grad), which are not known until the function runs: a Python if, bool(), int(), float(), .item() or a NumPy conversion.
    """

class DistributedError(RuntimeError):
    """
    A collective or the rendezvous failed: a peer died or closed its connection, a communicator was aborted, or the ranks called collectives that do not match.
    """

class DistributedTimeoutError(DistributedError, TimeoutError):
    """The other ranks did not arrive within the process group's timeout."""

def bitwise_count(x, /, out=None, *, where=True, casting='same_kind', order='K', dtype=None, subok=True):
    """
    numpy.bitwise_count: the number of 1 bits in |x|.

    NumPy's ufunc keywords: out= (the result cast into it by `casting`), where=, dtype= (the inputs cast to it), casting=, order=; subok= is accepted (loom has no subclasses).
    """

byte: _loom.dtype = ...

cdouble: _loom.dtype = ...

complex128: _loom.dtype = ...

complex64: _loom.dtype = ...

csingle: _loom.dtype = ...

def deg2rad(x, /, out=None, *, where=True, casting='same_kind', order='K', dtype=None, subok=True):
    """
    numpy.deg2rad: degrees to radians.

    NumPy's ufunc keywords: out= (the result cast into it by `casting`), where=, dtype= (the inputs cast to it), casting=, order=; subok= is accepted (loom has no subclasses).
    """

def degrees(x, /, out=None, *, where=True, casting='same_kind', order='K', dtype=None, subok=True):
    """
    numpy.degrees: radians to degrees.

    NumPy's ufunc keywords: out= (the result cast into it by `casting`), where=, dtype= (the inputs cast to it), casting=, order=; subok= is accepted (loom has no subclasses).
    """

double: _loom.dtype = ...

def float_power(x1, x2, /, out=None, *, where=True, casting='same_kind', order='K', dtype=None, subok=True):
    """
    numpy.float_power: x1 ** x2 in float64 (complex128).

    NumPy's ufunc keywords: out= (the result cast into it by `casting`), where=, dtype= (the inputs cast to it), casting=, order=; subok= is accepted (loom has no subclasses).
    """

half: _loom.dtype = ...

def heaviside(x1, x2, /, out=None, *, where=True, casting='same_kind', order='K', dtype=None, subok=True):
    """
    numpy.heaviside: 0 where x1 < 0, x2 where x1 == 0, 1 where x1 > 0.

    NumPy's ufunc keywords: out= (the result cast into it by `casting`), where=, dtype= (the inputs cast to it), casting=, order=; subok= is accepted (loom has no subclasses).
    """

int_: _loom.dtype = ...

intc: _loom.dtype = ...

intp: _loom.dtype = ...

def ldexp(x1, x2, /, out=None, *, where=True, casting='same_kind', order='K', dtype=None, subok=True):
    """
    numpy.ldexp: x1 * 2 ** x2.

    NumPy's ufunc keywords: out= (the result cast into it by `casting`), where=, dtype= (the inputs cast to it), casting=, order=; subok= is accepted (loom has no subclasses).
    """

def logaddexp(x1, x2, /, out=None, *, where=True, casting='same_kind', order='K', dtype=None, subok=True):
    """
    numpy.logaddexp: log(exp(x1) + exp(x2)), without overflow.

    NumPy's ufunc keywords: out= (the result cast into it by `casting`), where=, dtype= (the inputs cast to it), casting=, order=; subok= is accepted (loom has no subclasses).
    """

def logaddexp2(x1, x2, /, out=None, *, where=True, casting='same_kind', order='K', dtype=None, subok=True):
    """
    numpy.logaddexp2: log2(2 ** x1 + 2 ** x2), without overflow.

    NumPy's ufunc keywords: out= (the result cast into it by `casting`), where=, dtype= (the inputs cast to it), casting=, order=; subok= is accepted (loom has no subclasses).
    """

long: _loom.dtype = ...

longlong: _loom.dtype = ...

def rad2deg(x, /, out=None, *, where=True, casting='same_kind', order='K', dtype=None, subok=True):
    """
    numpy.rad2deg: radians to degrees.

    NumPy's ufunc keywords: out= (the result cast into it by `casting`), where=, dtype= (the inputs cast to it), casting=, order=; subok= is accepted (loom has no subclasses).
    """

def radians(x, /, out=None, *, where=True, casting='same_kind', order='K', dtype=None, subok=True):
    """
    numpy.radians: degrees to radians.

    NumPy's ufunc keywords: out= (the result cast into it by `casting`), where=, dtype= (the inputs cast to it), casting=, order=; subok= is accepted (loom has no subclasses).
    """

short: _loom.dtype = ...

def signbit(x, /, out=None, *, where=True, casting='same_kind', order='K', dtype=None, subok=True):
    """
    numpy.signbit: True where the sign bit is set.

    NumPy's ufunc keywords: out= (the result cast into it by `casting`), where=, dtype= (the inputs cast to it), casting=, order=; subok= is accepted (loom has no subclasses).
    """

single: _loom.dtype = ...

def spacing(x, /, out=None, *, where=True, casting='same_kind', order='K', dtype=None, subok=True):
    """
    numpy.spacing: the distance from x to the nearest adjacent number.

    NumPy's ufunc keywords: out= (the result cast into it by `casting`), where=, dtype= (the inputs cast to it), casting=, order=; subok= is accepted (loom has no subclasses).
    """

ubyte: _loom.dtype = ...

uint: _loom.dtype = ...

uintc: _loom.dtype = ...

uintp: _loom.dtype = ...

ulong: _loom.dtype = ...

ulonglong: _loom.dtype = ...

ushort: _loom.dtype = ...

checkpoint_policies: types.SimpleNamespace = ...

r_: _numpy.index_tricks._Concatenator = ...

c_: _numpy.index_tricks._Concatenator = ...

mgrid: _numpy.index_tricks._Grid = ...

ogrid: _numpy.index_tricks._Grid = ...

s_: numpy.lib._index_tricks_impl.IndexExpression = ...

index_exp: numpy.lib._index_tricks_impl.IndexExpression = ...

__array_api_version__: str = '2024.12'

e: float = 2.718281828459045

inf: float = float('inf')

nan: float = float('nan')

newaxis: None = None

pi: float = 3.141592653589793

bool: _loom.dtype = ...

__all__: list = ['Array', 'AxisError', 'CompileError', 'ConcretizationTypeError', 'CudaError', 'CudaGraph', 'Device', 'DeviceMismatchError', 'DistributedError', 'DistributedTimeoutError', 'ElementwiseKernel', 'Event', 'GraphCaptureError', 'In', 'InOut', 'KernelFaultError', 'KernelSyntaxError', 'LinAlgError', 'Out', 'OutOfMemoryError', 'RawKernel', 'RawModule', 'ReductionKernel', 'SourceModule', 'Stream', 'TypingError', 'UnsupportedError', 'abs', 'absolute', 'acos', 'acosh', 'add', 'all', 'allclose', 'amax', 'amin', 'angle', 'any', 'append', 'apply_along_axis', 'apply_over_axes', 'arange', 'arccos', 'arccosh', 'arcsin', 'arcsinh', 'arctan', 'arctan2', 'arctanh', 'argmax', 'argmin', 'argpartition', 'argsort', 'argwhere', 'around', 'array', 'array_equal', 'array_equiv', 'array_split', 'asanyarray', 'asarray', 'asarray_chkfinite', 'ascontiguousarray', 'asfortranarray', 'asin', 'asinh', 'asnumpy', 'astype', 'atan', 'atan2', 'atanh', 'atleast_1d', 'atleast_2d', 'atleast_3d', 'autotune', 'average', 'avg_pool2d', 'avg_pool2d_grad', 'bartlett', 'bfloat16', 'bincount', 'bitwise_and', 'bitwise_count', 'bitwise_invert', 'bitwise_left_shift', 'bitwise_not', 'bitwise_or', 'bitwise_right_shift', 'bitwise_xor', 'blackman', 'block', 'bool_', 'broadcast', 'broadcast_arrays', 'broadcast_shapes', 'broadcast_to', 'build_info', 'byte', 'c_', 'can_cast', 'cbrt', 'cdouble', 'ceil', 'check_grads', 'checkpoint', 'checkpoint_policies', 'choose', 'clip', 'column_stack', 'common_type', 'complex128', 'complex64', 'complexfloating', 'compress', 'concat', 'concatenate', 'conj', 'conjugate', 'conv2d', 'conv2d_input_grad', 'conv2d_weight_grad', 'conv_backend', 'convolve', 'copy', 'copysign', 'copyto', 'corrcoef', 'correlate', 'cos', 'cosh', 'count_nonzero', 'cov', 'cpu', 'cross', 'csingle', 'cuda_graph', 'cumprod', 'cumsum', 'cumulative_prod', 'cumulative_sum', 'current_stream', 'custom_jvp', 'custom_vjp', 'default_device', 'default_stream', 'deg2rad', 'degrees', 'delete', 'device', 'devices', 'diag', 'diag_indices', 'diag_indices_from', 'diagflat', 'diagonal', 'diff', 'digitize', 'divide', 'divmod', 'dot', 'double', 'driver', 'dsplit', 'dstack', 'dtype', 'e', 'ediff1d', 'einsum', 'einsum_path', 'empty', 'empty_like', 'empty_mapped', 'empty_pinned', 'equal', 'erf', 'exp', 'exp2', 'expand_dims', 'expm1', 'external_stream', 'extract', 'eye', 'fabs', 'fft', 'fill_diagonal', 'finfo', 'fix', 'flatnonzero', 'flip', 'fliplr', 'flipud', 'float16', 'float32', 'float64', 'float_power', 'floating', 'floor', 'floor_divide', 'fmax', 'fmin', 'fmod', 'frexp', 'from_dlpack', 'frombuffer', 'fromfunction', 'fromiter', 'fromstring', 'full', 'full_like', 'fuse', 'gcd', 'generic', 'geomspace', 'get_array_module', 'get_matmul_precision', 'gpu', 'grad', 'gradient', 'greater', 'greater_equal', 'half', 'hamming', 'hanning', 'heaviside', 'hessian', 'histogram', 'histogram2d', 'histogram_bin_edges', 'histogramdd', 'hsplit', 'hstack', 'hypot', 'i0', 'identity', 'iinfo', 'imag', 'index_exp', 'indices', 'inexact', 'inf', 'inner', 'insert', 'int16', 'int32', 'int64', 'int8', 'int_', 'intc', 'integer', 'interp', 'intersect1d', 'intp', 'invert', 'isclose', 'iscomplex', 'iscomplexobj', 'isdtype', 'isfinite', 'isfortran', 'isin', 'isinf', 'isnan', 'isneginf', 'isposinf', 'isreal', 'isrealobj', 'isscalar', 'issubdtype', 'iterable', 'ix_', 'jacfwd', 'jacobian', 'jacrev', 'jit', 'jvp', 'kaiser', 'kron', 'lcm', 'ldexp', 'left_shift', 'legacy_default_stream', 'less', 'less_equal', 'lexsort', 'linalg', 'linearize', 'linspace', 'log', 'log10', 'log1p', 'log2', 'logaddexp', 'logaddexp2', 'logical_and', 'logical_not', 'logical_or', 'logical_xor', 'logspace', 'long', 'longlong', 'mask_indices', 'matmul', 'matrix_transpose', 'matvec', 'max', 'max_pool2d', 'max_pool2d_grad', 'maximum', 'may_share_memory', 'mean', 'median', 'memory', 'meshgrid', 'mgrid', 'min', 'min_scalar_type', 'minimum', 'mintypecode', 'mod', 'modf', 'moveaxis', 'multiply', 'nan', 'nan_to_num', 'nanargmax', 'nanargmin', 'nancumprod', 'nancumsum', 'nanmax', 'nanmean', 'nanmedian', 'nanmin', 'nanpercentile', 'nanprod', 'nanquantile', 'nanstd', 'nansum', 'nanvar', 'ndarray', 'ndim', 'negative', 'newaxis', 'nextafter', 'nonzero', 'not_equal', 'num_gpus', 'number', 'ogrid', 'ones', 'ones_like', 'outer', 'packbits', 'pad', 'partition', 'per_thread_default_stream', 'percentile', 'permute_dims', 'pi', 'piecewise', 'place', 'positive', 'pow', 'power', 'prod', 'promote_types', 'ptp', 'put', 'put_along_axis', 'putmask', 'pykernel', 'quantile', 'r_', 'rad2deg', 'radians', 'random', 'ravel', 'ravel_multi_index', 'real', 'real_if_close', 'reciprocal', 'register_pytree_node', 'register_pytree_node_class', 'remainder', 'remat', 'repeat', 'require', 'reshape', 'resize', 'result_type', 'right_shift', 'rint', 'roll', 'rollaxis', 'rot90', 'round', 'row_stack', 's_', 'searchsorted', 'select', 'set_default_device', 'set_matmul_precision', 'setdiff1d', 'setxor1d', 'shape', 'shares_memory', 'short', 'sign', 'signbit', 'signedinteger', 'sin', 'sinc', 'single', 'sinh', 'size', 'softmax_cross_entropy', 'sort', 'sort_complex', 'spacing', 'split', 'sqrt', 'square', 'squeeze', 'stack', 'std', 'stop_gradient', 'subtract', 'sum', 'swapaxes', 'synchronize', 'take', 'take_along_axis', 'tan', 'tanh', 'tensordot', 'tile', 'trace', 'transforms', 'transpose', 'trapezoid', 'tree_flatten', 'tree_leaves', 'tree_map', 'tree_structure', 'tree_unflatten', 'tree_util', 'tri', 'tril', 'tril_indices', 'tril_indices_from', 'trim_zeros', 'triu', 'triu_indices', 'triu_indices_from', 'true_divide', 'trunc', 'try_all_gpus', 'try_gpu', 'typename', 'ubyte', 'uint', 'uint16', 'uint32', 'uint64', 'uint8', 'uintc', 'uintp', 'ulong', 'ulonglong', 'union1d', 'unique', 'unique_all', 'unique_counts', 'unique_inverse', 'unique_values', 'unpackbits', 'unravel_index', 'unsignedinteger', 'unstack', 'unwrap', 'ushort', 'value_and_grad', 'vander', 'var', 'vdot', 'vecdot', 'vecmat', 'vjp', 'vmap', 'vsplit', 'vstack', 'where', 'zeros', 'zeros_like', '__version__', 'cuda', 'vectorize', 'guvectorize', 'nn', 'optim', 'data', 'd2l', 'Trainer', 'scipy', 'profiler', 'dashboard', 'lax', 'get_default_memory_pool', 'get_default_pinned_memory_pool']
