"""loom's C++ core (import loom, not loom._loom)."""

from collections.abc import Sequence

import loom
from loom import (
    CompileError as CompileError,
    ConcretizationTypeError as ConcretizationTypeError,
    CudaError as CudaError,
    DeviceMismatchError as DeviceMismatchError,
    DistributedError as DistributedError,
    DistributedTimeoutError as DistributedTimeoutError,
    GraphCaptureError as GraphCaptureError,
    KernelFaultError as KernelFaultError,
    OutOfMemoryError as OutOfMemoryError
)
import loom._cupy_cuda
from loom._cupy_cuda import (
    _stream_add_callback as add_callback,
    _stream_launch_host_func as launch_host_func,
    _stream_use as use
)
from loom._loom import (
    autotune as autotune,
    driver as driver,
    fft as fft,
    linalg as linalg,
    memory as memory,
    random as random
)
from loom._numpy.array_api import (
    _array_namespace as __array_namespace__,
    _dlpack as __dlpack__,
    _to_device as to_device
)
import loom._numpy.cupy_names
from loom._numpy.cupy_names import _fill as fill, _get as get
from loom._numpy.cupy_types import (
    _dtype_call as __call__,
    _dtype_instancecheck as __instancecheck__,
    _dtype_subclasscheck as __subclasscheck__
)
import loom._numpy.flags
import loom._numpy.flat_partition
from loom._numpy.flat_partition import (
    _argpartition_method as argpartition,
    _partition_method as partition
)
from loom._numpy.index_tricks import _choose as choose
from loom._numpy.jax_names import _devices as devices
import loom._numpy.memptr
from loom._numpy.out_keywords import _dot_method as dot
from loom._numpy.protocols import (
    array_function as __array_function__
)
from loom._numpy.setitem import _setitem as __setitem__
from loom._numpy.ufuncs import array_ufunc as __array_ufunc__
from loom._porting_hints import array_getattr as __getattr__
from loom.cuda import (
    _copy_to_device as copy_to_device,
    _copy_to_host as copy_to_host
)
import loom.pykernel.host_api
from loom.pykernel.host_api import (
    _bind as bind,
    _is_c_contiguous as is_c_contiguous,
    _is_f_contiguous as is_f_contiguous,
    _split as split
)
from loom.pykernel.serialize import reduce_launcher as __reduce__


class dtype:
    """
    A loom element type (loom.float32, ...). Compares equal to the NumPy dtypes, scalar types and names that denote the same type.
    """

    def __init__(self, spec: object | None) -> None:
        """
        The loom dtype that `spec` (a dtype, NumPy dtype or type, or name; None: float64) denotes.
        """

    @property
    def name(self) -> str:
        """NumPy's name of the type: 'float32', 'bool', 'bfloat16', ..."""

    @property
    def itemsize(self) -> int:
        """Size of one element in bytes."""

    @property
    def kind(self) -> str:
        """
        NumPy's kind character: 'b' bool, 'i' signed, 'u' unsigned, 'f' floating, 'c' complex.
        """

    @property
    def dtype(self) -> object:
        """
        The equivalent numpy.dtype (ml_dtypes.bfloat16 for bfloat16); lets np.dtype(loom.float32) and np.zeros(3, dtype=loom.float32) work.
        """

    def __eq__(self, other: object | None) -> bool:
        """
        True when `other` denotes the same type (loom/NumPy dtype, name, type).
        """

    def __ne__(self, other: object | None) -> bool:
        """Negation of __eq__."""

    def __hash__(self) -> int:
        """Hash of the type's name."""

    def __repr__(self) -> str:
        """'loom.float32'"""

    def __str__(self) -> str:
        """'float32'"""

    type: loom._numpy.cupy_names.NumpyDtypeAttribute = ...

    char: loom._numpy.cupy_names.NumpyDtypeAttribute = ...

    str: loom._numpy.cupy_names.NumpyDtypeAttribute = ...

bool_: dtype = ...

int8: dtype = ...

int16: dtype = ...

int32: dtype = ...

int64: dtype = ...

uint8: dtype = ...

uint16: dtype = ...

uint32: dtype = ...

uint64: dtype = ...

float16: dtype = ...

bfloat16: dtype = ...

float32: dtype = ...

float64: dtype = ...

complex64: dtype = ...

complex128: dtype = ...

half: dtype = ...

single: dtype = ...

double: dtype = ...

csingle: dtype = ...

cdouble: dtype = ...

byte: dtype = ...

ubyte: dtype = ...

short: dtype = ...

ushort: dtype = ...

intc: dtype = ...

uintc: dtype = ...

int_: dtype = ...

intp: dtype = ...

long: dtype = ...

longlong: dtype = ...

uint: dtype = ...

uintp: dtype = ...

ulong: dtype = ...

ulonglong: dtype = ...

def promote_types(type1: object, type2: object) -> object:
    """
    The dtype NumPy 2 promotes two array dtypes to (bfloat16 follows ml_dtypes).
    """

class Device:
    """
    A place where arrays live: the CPU or one GPU. Also a context manager: `with loom.gpu(1): ...` makes it the default device of this thread.
    """

    def __init__(self, spec: object) -> None:
        """The device a string ('cpu', 'gpu', 'gpu:1', 'cuda:0') or Device names."""

    @property
    def type(self) -> str:
        """'cpu' or 'cuda'."""

    @property
    def index(self) -> int:
        """GPU number (0 for the CPU)."""

    @property
    def name(self) -> str:
        """Device name."""

    @property
    def total_memory(self) -> int:
        """Memory size in bytes."""

    @property
    def free_memory(self) -> int:
        """
        Free memory in bytes, as the driver (or loom's host accounting) reports it.
        """

    @property
    def compute_capability(self) -> tuple[int, int]:
        """(major, minor) for a GPU, (0, 0) for the CPU."""

    @property
    def multiprocessor_count(self) -> int:
        """Number of SMs of a GPU (0 for the CPU)."""

    def attribute(self, attribute: int) -> int:
        """
        A GPU's CUDA device attribute by its number (CUdevice_attribute, cudaDeviceAttr: 1 is MAX_THREADS_PER_BLOCK); ValueError for cpu() and for a number CUDA does not know.
        """

    def __repr__(self) -> str:
        """'cpu()' or 'gpu(0)'."""

    def __eq__(self, other: object | None) -> bool:
        """Same device (another Device or a string such as 'gpu:0')."""

    def __ne__(self, other: object | None) -> bool:
        """Negation of __eq__."""

    def __hash__(self) -> int:
        """Hash of (type, index)."""

    def __enter__(self) -> Device:
        """Makes it current in this thread until the with-block ends."""

    def __exit__(self, exc_type: object | None = None, exc_value: object | None = None, traceback: object | None = None) -> bool:
        """Restores what was current before the with-block."""

    def synchronize(self) -> None:
        """Waits for all work queued on this device."""

def cpu() -> Device:
    """The host CPU device."""

def gpu(i: object = 0) -> Device:
    """
    GPU `i`; raises ValueError naming how many GPUs exist when there is no such GPU.
    """

def num_gpus() -> int:
    """Number of usable GPUs (0 without a GPU, a driver or a CUDA build)."""

def try_gpu(i: object = 0) -> Device:
    """gpu(i) when it exists, else cpu()."""

def try_all_gpus() -> list[Device]:
    """[gpu(0), gpu(1), ...], or [cpu()] when there is no GPU."""

def devices() -> list[Device]:
    """Every device: cpu() followed by each GPU."""

def default_device() -> Device:
    """
    The device new arrays go to: the innermost `with device`, else set_default_device(), else $LOOM_DEVICE, else gpu(0) when present, else cpu().
    """

def set_default_device(device: object) -> None:
    """
    Sets the process-wide default device (a Device or a string such as 'gpu:1').
    """

def device(device: object) -> Device:
    """
    The Device a Device or string ('cpu', 'gpu', 'gpu:1', 'cuda:0') denotes; use it as `with loom.device('cpu'): ...` to change the default device in a block.
    """

def synchronize(device: object | None = None) -> None:
    """Waits for all queued work on `device` (every device when None)."""

def empty_pinned(shape: object, dtype: object | None = None) -> object:
    """
    A NumPy array (uninitialised) in page-locked host memory, freed when the array dies; transfers from and to it skip the staging copy.
    """

def build_info() -> dict:
    """
    dict: version, cuda (built with the CUDA backend), cuda_toolkit, cuda_runtime, driver, nvrtc (version strings, '' when unknown), num_gpus and blas (the CPU BLAS behind float matmul: 'openblas', 'blas', or 'none' for loom's own loops).
    """

class _StreamAutoSynchronize:
    """
    What Stream.auto_synchronize() returns: `with` gives the stream and synchronizes it at the end of the block.
    """

    def __enter__(self) -> object:
        """The stream."""

    def __exit__(self, exc_type: object | None, exc_value: object | None, traceback: object | None) -> bool:
        """
        Synchronizes the stream unless the block raised; never swallows the exception.
        """

class Stream:
    """
    An ordered queue of work on one device. `with s:` makes it the current stream of its device in this thread. CPU streams are synchronous stand-ins.
    """

    def __init__(self, device: object | None = None, non_blocking: bool = False) -> None:
        """
        A new stream on `device` (the default device when None). non_blocking=True: not ordered with the legacy default stream (CuPy's and CUDA's meaning), so its work overlaps kernels queued there; order it with events.
        """

    @property
    def device(self) -> Device:
        """The stream's device."""

    @property
    def ptr(self) -> int:
        """The cudaStream_t as an int (0 for the default stream and on the CPU)."""

    @property
    def handle(self) -> int:
        """Numba's name for ptr: the cudaStream_t as an int."""

    @property
    def external(self) -> bool:
        """
        True for a stream made by other code (external_stream()), which loom never destroys.
        """

    def __int__(self) -> int:
        """ptr (Numba's int(stream))."""

    def auto_synchronize(self) -> _StreamAutoSynchronize:
        """
        Numba's `with s.auto_synchronize():` gives the stream and synchronizes it when the block ends (not when it raises); the stream is not made current.
        """

    def synchronize(self) -> None:
        """Waits until all work queued on the stream is done."""

    def query(self) -> bool:
        """True when all queued work has finished."""

    def wait_event(self, event: Event) -> None:
        """
        Makes later work on this stream wait for `event`, without blocking the host.
        """

    def record(self, event: Event | None = None) -> Event:
        """Records `event` (a new one when None) on this stream and returns it."""

    def __enter__(self) -> Stream:
        """Makes it current in this thread until the with-block ends."""

    def __exit__(self, exc_type: object | None = None, exc_value: object | None = None, traceback: object | None = None) -> bool:
        """Restores what was current before the with-block."""

    def __eq__(self, other: object | None) -> bool:
        """Same device and same native stream."""

    def __hash__(self) -> int:
        """Hash of (device, ptr)."""

    def __repr__(self) -> str:
        """<loom.Stream gpu(0) 0x...>"""

    done: loom._cupy_cuda.DoneAttribute = ...

    device_id: loom._cupy_cuda.DeviceIdAttribute = ...

def current_stream(device: object | None = None) -> Stream:
    """
    The stream ops on `device` (the default device when None) enqueue to in this thread.
    """

def default_stream(device: object | None = None) -> Stream:
    """The default (null) stream of `device`."""

def legacy_default_stream(device: object | None = None) -> Stream:
    """
    CUDA's legacy default stream (handle 1, cudaStreamLegacy) of `device` (the default device when None); on the CPU its default stream.
    """

def per_thread_default_stream(device: object | None = None) -> Stream:
    """
    The calling thread's per-thread default stream (handle 2, cudaStreamPerThread) of `device` (the default device when None); on the CPU its default stream.
    """

def external_stream(ptr: object | None, device: object | None = None) -> Stream:
    """
    A loom.Stream over a CUDA stream made by other code (`ptr`: its cudaStream_t as an int) on GPU `device` (the default device when None); loom never destroys it, so its owner must keep it alive while loom uses it. The CPU has no CUDA streams: NotImplementedError there.
    """

class Event:
    """A marker in a stream: wait for it, or time between two of them."""

    def __init__(self, device: object | None = None, enable_timing: bool = True) -> None:
        """A new event on `device` (the default device when None)."""

    def record(self, stream: Stream | None = None) -> None:
        """Records the event on `stream` (the device's current stream when None)."""

    def synchronize(self) -> None:
        """Waits until the work before the recorded point is done."""

    def query(self) -> bool:
        """True when the work before the recorded point has finished."""

    def elapsed_time(self, end: Event) -> float:
        """
        Milliseconds from this event to `end`; both must have been recorded with timing enabled.
        """

    def wait(self, stream: Stream | None = None) -> None:
        """
        Makes `stream` (the current one when None) wait for this event without blocking the host.
        """

    @property
    def device(self) -> Device:
        """The event's device."""

    def __repr__(self) -> str:
        """<loom.Event gpu(0)>"""

    done: loom._cupy_cuda.DoneAttribute = ...

class ndarray:
    """
    An n-dimensional array on a device (the CPU or a GPU). Create one with loom.asarray, loom.zeros, ...; it cannot be constructed directly.
    """

    def __init__(self, *args, **kwargs) -> None:
        """
        ndarray(shape, dtype=float, memptr=None, strides=None, order='C'): CuPy's constructor, a new uninitialised array on the default device, or one over memptr's memory (a loom.cuda.MemoryPointer: x.data, loom.cuda.alloc(n)) with strides in bytes. loom.empty/zeros/asarray are the usual ways.
        """

    @property
    def shape(self) -> object:
        """
        Tuple of dimensions. Assigning reshapes in place (AttributeError when that needs a copy).
        """

    @shape.setter
    def shape(self, arg: object, /) -> None: ...

    @property
    def dtype(self) -> object:
        """Element type (loom.float32, ...)."""

    @property
    def ndim(self) -> int:
        """Number of dimensions."""

    @property
    def size(self) -> int:
        """Number of elements."""

    @property
    def nbytes(self) -> int:
        """size * itemsize."""

    @property
    def itemsize(self) -> int:
        """Bytes per element."""

    @property
    def strides(self) -> object:
        """Bytes to step in each dimension (NumPy convention)."""

    @property
    def device(self) -> Device:
        """The device the array lives on."""

    @property
    def T(self) -> ndarray:
        """The array with its axes reversed (a view)."""

    @property
    def mT(self) -> ndarray:
        """
        The array with its last two axes swapped (a view; the Array API's matrix transpose).
        """

    def to(self, device: object) -> object:
        """This same array when it already lives on `device`, else a copy there."""

    def copy_to(self, device: object) -> ndarray:
        """A new copy on `device`, always."""

    def copy(self) -> ndarray:
        """A new contiguous copy on the same device."""

    def __copy__(self) -> ndarray: ...

    def __deepcopy__(self, memo: object) -> ndarray: ...

    def astype(self, dtype: object, copy: bool = True) -> object:
        """
        A new contiguous array converted to `dtype` with NumPy's cast results (out-of-range float-to-int casts are undefined, as in NumPy). With copy=False and the same dtype, self.
        """

    def numpy(self) -> object:
        """
        The elements as a NumPy array: a view sharing memory for CPU arrays (like torch.Tensor.numpy()), a copy for GPU arrays (waits for pending work).
        """

    def item(self) -> object:
        """The only element as a Python bool, int or float."""

    def tolist(self) -> object:
        """Nested Python lists of Python scalars."""

    def block_until_ready(self) -> object:
        """
        Waits until the work that writes this array is done; returns the array.
        """

    def __array__(self, dtype: object | None = None, copy: object | None = None) -> object:
        """
        NumPy conversion (np.asarray(x)): a view for CPU arrays unless copy=True, a copy for GPU arrays.
        """

    def __len__(self) -> int:
        """Length of the first dimension."""

    def __bool__(self) -> bool:
        """Truth value of a size-1 array; ValueError for other sizes."""

    def __float__(self) -> float:
        """float() of a size-1 array."""

    def __int__(self) -> int:
        """int() of a size-1 array."""

    def __complex__(self) -> object:
        """complex() of a size-1 array."""

    def __index__(self) -> int:
        """operator.index() of an integer size-1 array."""

    def __repr__(self) -> str:
        """array([...], dtype=float32, device=gpu(0))"""

    def __str__(self) -> str:
        """The elements as NumPy prints them."""

    __array_priority__: int = 100

    def __dlpack_device__(self) -> tuple:
        """
        (device_type, device_id) as DLPack names them: (1, 0) for cpu(), (2, i) for gpu(i).
        """

    @property
    def __cuda_array_interface__(self) -> object:
        """
        The CUDA Array Interface (v3) of a GPU array; AttributeError for CPU arrays.
        """

    def round(self, decimals: object = 0, out: object | None = None) -> object:
        """a.round(decimals=0, out=None): loom.round(a, decimals, out)."""

    def __round__(self, ndigits: object | None = None) -> object:
        """round(a, ndigits): loom.round(a, ndigits)."""

    def clip(self, min: object | None = None, max: object | None = None, out: object | None = None) -> object:
        """a.clip(min=None, max=None, out=None): loom.clip(a, min, max, out)."""

    def __add__(self, other: object | None) -> object:
        """self add other: loom.add(self, other)."""

    def __radd__(self, other: object | None) -> object:
        """other add self (reflected): loom.add(other, self)."""

    def __iadd__(self, other: object | None) -> object:
        """self add= other: loom.add(self, other, out=self)."""

    def __sub__(self, other: object | None) -> object:
        """self sub other: loom.subtract(self, other)."""

    def __rsub__(self, other: object | None) -> object:
        """other sub self (reflected): loom.subtract(other, self)."""

    def __isub__(self, other: object | None) -> object:
        """self sub= other: loom.subtract(self, other, out=self)."""

    def __mul__(self, other: object | None) -> object:
        """self mul other: loom.multiply(self, other)."""

    def __rmul__(self, other: object | None) -> object:
        """other mul self (reflected): loom.multiply(other, self)."""

    def __imul__(self, other: object | None) -> object:
        """self mul= other: loom.multiply(self, other, out=self)."""

    def __truediv__(self, other: object | None) -> object:
        """self truediv other: loom.divide(self, other)."""

    def __rtruediv__(self, other: object | None) -> object:
        """other truediv self (reflected): loom.divide(other, self)."""

    def __itruediv__(self, other: object | None) -> object:
        """self truediv= other: loom.divide(self, other, out=self)."""

    def __floordiv__(self, other: object | None) -> object:
        """self floordiv other: loom.floor_divide(self, other)."""

    def __rfloordiv__(self, other: object | None) -> object:
        """other floordiv self (reflected): loom.floor_divide(other, self)."""

    def __ifloordiv__(self, other: object | None) -> object:
        """self floordiv= other: loom.floor_divide(self, other, out=self)."""

    def __mod__(self, other: object | None) -> object:
        """self mod other: loom.remainder(self, other)."""

    def __rmod__(self, other: object | None) -> object:
        """other mod self (reflected): loom.remainder(other, self)."""

    def __imod__(self, other: object | None) -> object:
        """self mod= other: loom.remainder(self, other, out=self)."""

    def __and__(self, other: object | None) -> object:
        """self and other: loom.bitwise_and(self, other)."""

    def __rand__(self, other: object | None) -> object:
        """other and self (reflected): loom.bitwise_and(other, self)."""

    def __iand__(self, other: object | None) -> object:
        """self and= other: loom.bitwise_and(self, other, out=self)."""

    def __or__(self, other: object | None) -> object:
        """self or other: loom.bitwise_or(self, other)."""

    def __ror__(self, other: object | None) -> object:
        """other or self (reflected): loom.bitwise_or(other, self)."""

    def __ior__(self, other: object | None) -> object:
        """self or= other: loom.bitwise_or(self, other, out=self)."""

    def __xor__(self, other: object | None) -> object:
        """self xor other: loom.bitwise_xor(self, other)."""

    def __rxor__(self, other: object | None) -> object:
        """other xor self (reflected): loom.bitwise_xor(other, self)."""

    def __ixor__(self, other: object | None) -> object:
        """self xor= other: loom.bitwise_xor(self, other, out=self)."""

    def __lshift__(self, other: object | None) -> object:
        """self lshift other: loom.left_shift(self, other)."""

    def __rlshift__(self, other: object | None) -> object:
        """other lshift self (reflected): loom.left_shift(other, self)."""

    def __ilshift__(self, other: object | None) -> object:
        """self lshift= other: loom.left_shift(self, other, out=self)."""

    def __rshift__(self, other: object | None) -> object:
        """self rshift other: loom.right_shift(self, other)."""

    def __rrshift__(self, other: object | None) -> object:
        """other rshift self (reflected): loom.right_shift(other, self)."""

    def __irshift__(self, other: object | None) -> object:
        """self rshift= other: loom.right_shift(self, other, out=self)."""

    def __pow__(self, other: object | None, mod: object | None = None) -> object:
        """self ** other: loom.power(self, other)."""

    def __rpow__(self, other: object | None, mod: object | None = None) -> object:
        """other ** self: loom.power(other, self)."""

    def __ipow__(self, other: object | None) -> object:
        """self **= other: loom.power(self, other, out=self)."""

    def __eq__(self, other: object | None) -> object:
        """self eq other, elementwise: loom.equal(self, other)."""

    def __ne__(self, other: object | None) -> object:
        """self ne other, elementwise: loom.not_equal(self, other)."""

    def __lt__(self, other: object | None) -> object:
        """self lt other, elementwise: loom.less(self, other)."""

    def __le__(self, other: object | None) -> object:
        """self le other, elementwise: loom.less_equal(self, other)."""

    def __gt__(self, other: object | None) -> object:
        """self gt other, elementwise: loom.greater(self, other)."""

    def __ge__(self, other: object | None) -> object:
        """self ge other, elementwise: loom.greater_equal(self, other)."""

    def __neg__(self) -> object:
        """-self: loom.negative(self)."""

    def __pos__(self) -> object:
        """+self: loom.positive(self)."""

    def __abs__(self) -> object:
        """abs(self): loom.absolute(self)."""

    def __invert__(self) -> object:
        """~self: loom.invert(self)."""

    __hash__: None = None

    @property
    def real(self) -> ndarray:
        """
        The real parts: a view for complex arrays (assigning to it writes the array), the array itself otherwise.
        """

    @real.setter
    def real(self, arg: object, /) -> None: ...

    @property
    def imag(self) -> ndarray:
        """
        The imaginary parts: a view for complex arrays (assigning to it writes the array), zeros otherwise.
        """

    @imag.setter
    def imag(self, arg: object, /) -> None: ...

    def conj(self) -> ndarray:
        """The complex conjugate (a copy), as numpy.ndarray.conj."""

    def conjugate(self) -> ndarray:
        """The complex conjugate (a copy)."""

    def __getitem__(self, key: object | None) -> ndarray:
        """
        x[key] as NumPy: basic indices (ints, slices, None, ...) give views, integer and boolean arrays gather into a new array (the GPU is waited on to check bounds).
        """

    @property
    def at(self) -> _AtHelper:
        """
        JAX-style functional updates: x.at[idx].set(v), .add(v), .multiply(v), .min(v), .max(v) return a new array.
        """

    def __iter__(self) -> _ArrayIterator:
        """Iterates over the first axis (views)."""

    def nonzero(self) -> tuple:
        """Indices of the nonzero elements, one int64 array per dimension."""

    sum: loom._forwarding_method = ...

    prod: loom._forwarding_method = ...

    mean: loom._forwarding_method = ...

    var: loom._forwarding_method = ...

    std: loom._forwarding_method = ...

    min: loom._forwarding_method = ...

    max: loom._forwarding_method = ...

    any: loom._forwarding_method = ...

    all: loom._forwarding_method = ...

    argmin: loom._forwarding_method = ...

    argmax: loom._forwarding_method = ...

    cumsum: loom._forwarding_method = ...

    cumprod: loom._forwarding_method = ...

    take: loom._forwarding_method = ...

    compress: loom._forwarding_method = ...

    def put(self, indices: object, values: object, mode: str = 'raise') -> None:
        """
        ndarray.put: self.flat[indices] = values (repeated cyclically), in place, as loom.put.
        """

    sort: loom._forwarding_method = ...

    argsort: loom._forwarding_method = ...

    def searchsorted(self, v: object, side: str = 'left', sorter: object | None = None) -> ndarray:
        """
        Insertion points of `v` into this sorted 1-d array. See loom.searchsorted.
        """

    def __matmul__(self, other: object) -> object:
        """self @ other (matmul)."""

    def __rmatmul__(self, other: object) -> object:
        """other @ self (matmul)."""

    def __imatmul__(self, other: object) -> object:
        """self @= other: the product written into self (same shape required)."""

    def trace(self, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype: object | None = None) -> ndarray:
        """trace(self, offset, axis1, axis2, dtype)."""

    def reshape(self, *args, **kwargs) -> ndarray:
        """
        a.reshape(shape, order='C', copy=None) or a.reshape(d0, d1, ...): see loom.reshape.
        """

    def ravel(self, order: object | None = 'C') -> ndarray:
        """1-d: a view when contiguous, else a copy (see loom.ravel)."""

    def flatten(self, order: object | None = 'C') -> ndarray:
        """A 1-d copy of the array, always."""

    def transpose(self, *args) -> ndarray:
        """
        a.transpose(), a.transpose((1, 0)) or a.transpose(1, 0): a view with permuted axes.
        """

    def diagonal(self, offset: int = 0, axis1: int = 0, axis2: int = 1) -> ndarray:
        """A view of a diagonal (see loom.diagonal)."""

    def swapaxes(self, axis1: object, axis2: object) -> ndarray:
        """A view with two axes interchanged."""

    squeeze: loom._forwarding_method = ...

    repeat: loom._forwarding_method = ...

    @property
    def host(self) -> object:
        """
        A NumPy view (no copy) of an array in mapped host memory (loom.empty_mapped) or on cpu(); ValueError for other GPU arrays (numpy() copies those).
        """

    flags: loom._numpy.flags.FlagsAttribute = ...

    data: loom._numpy.memptr._DataAttribute = ...

    flat: loom._numpy.flat_partition.FlatAttribute = ...

    gpu_data: loom.pykernel.host_api.AddressAttribute = ...

    device_ctypes_pointer: loom.pykernel.host_api.AddressAttribute = ...

def from_dlpack(x: object, *, device: object | None = None, copy: object | None = None) -> object:
    """
    An array sharing memory with `x` (any object with __dlpack__, or a DLPack capsule), on the device the memory lives on; `device`/`copy` as in the Array API.
    """

def asnumpy(x: object, *, out: object | None = None) -> object:
    """
    A NumPy array of `x`: a copy of a GPU array, a view of a CPU array (like x.numpy()), np.asarray(x) for anything else. With out= (a C-contiguous, writeable NumPy array of x's shape and dtype, as in CuPy) the data is copied into it and `out` is returned; page-locked memory from loom.empty_pinned is filled by DMA directly.
    """

def asarray(obj: object, dtype: object | None = None, device: object | None = None, copy: object | None = None) -> object:
    """
    A loom array from a NumPy array, nested lists, a scalar, a loom array, or an object with __dlpack__ or __cuda_array_interface__. Copies only when needed: a loom array already on `device` with that dtype is returned as is; NumPy/DLPack host memory on cpu() and CAI/DLPack GPU memory on its GPU are shared. device=None: the source's GPU for GPU memory, else the default device. copy=True always copies, copy=False raises ValueError if a copy is needed.
    """

def array(obj: object, dtype: object | None = None, device: object | None = None, copy: object | None = True) -> object:
    """Like asarray() but copies by default (copy=True)."""

def empty(shape: object, dtype: object | None = None, device: object | None = None) -> ndarray:
    """
    A new array with uninitialised contents (dtype float64 when None; the default device when None).
    """

def zeros(shape: object, dtype: object | None = None, device: object | None = None) -> ndarray:
    """A new array of zeros (dtype float64 when None)."""

def ones(shape: object, dtype: object | None = None, device: object | None = None) -> ndarray:
    """A new array of ones (dtype float64 when None)."""

def full(shape: object, fill_value: object, dtype: object | None = None, device: object | None = None) -> ndarray:
    """
    A new array filled with `fill_value` (dtype as NumPy infers it from the value when None).
    """

def empty_like(a: object, dtype: object | None = None, device: object | None = None) -> ndarray:
    """
    An uninitialised array with the shape and dtype of `a`, on a's device (GPU arrays) or the default device.
    """

def zeros_like(a: object, dtype: object | None = None, device: object | None = None) -> ndarray:
    """Zeros with the shape and dtype of `a`."""

def ones_like(a: object, dtype: object | None = None, device: object | None = None) -> ndarray:
    """Ones with the shape and dtype of `a`."""

def full_like(a: object, fill_value: object, dtype: object | None = None, device: object | None = None) -> ndarray:
    """`fill_value` with the shape and dtype of `a`."""

def arange(start: object, stop: object | None = None, step: object | None = None, dtype: object | None = None, device: object | None = None) -> ndarray:
    """
    Evenly spaced values in [start, stop), as numpy.arange (int64 or float64 inferred from the arguments when dtype is None).
    """

def linspace(start: object, stop: object, num: object = 50, endpoint: bool = True, dtype: object | None = None, device: object | None = None) -> ndarray:
    """
    `num` evenly spaced values from start to stop (inclusive when endpoint), as numpy.linspace.
    """

def eye(N: object, M: object | None = None, k: object = 0, dtype: object | None = None, device: object | None = None) -> ndarray:
    """N x M array with ones on diagonal k (dtype float64 when None)."""

def identity(n: object, dtype: object | None = None, device: object | None = None) -> ndarray:
    """The n x n identity matrix (dtype float64 when None)."""

def add(x1: object, x2: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    add(x1, x2, /, out=None, *, where=True, dtype=None)

    Elementwise x1 + x2, as numpy.add. The result has the promoted input dtype.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def subtract(x1: object, x2: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    subtract(x1, x2, /, out=None, *, where=True, dtype=None)

    Elementwise x1 - x2, as numpy.subtract. The result has the promoted input dtype.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def multiply(x1: object, x2: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    multiply(x1, x2, /, out=None, *, where=True, dtype=None)

    Elementwise x1 * x2, as numpy.multiply. The result has the promoted input dtype.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def divide(x1: object, x2: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    divide(x1, x2, /, out=None, *, where=True, dtype=None)

    Elementwise x1 / x2 (true division; integers give float64), as numpy.divide. Integer inputs give float64.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def floor_divide(x1: object, x2: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    floor_divide(x1, x2, /, out=None, *, where=True, dtype=None)

    Elementwise x1 // x2, rounded toward -inf (integer division by zero gives 0), as numpy.floor_divide. The result has the promoted input dtype.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def remainder(x1: object, x2: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    remainder(x1, x2, /, out=None, *, where=True, dtype=None)

    Elementwise x1 % x2 with the sign of x2, as Python (integer modulo by zero gives 0), as numpy.remainder. The result has the promoted input dtype.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def power(x1: object, x2: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    power(x1, x2, /, out=None, *, where=True, dtype=None)

    Elementwise x1 ** x2 (integers to negative integer powers raise ValueError), as numpy.power. The result has the promoted input dtype.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def negative(x: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    negative(x, /, out=None, *, where=True, dtype=None)

    Elementwise -x, as numpy.negative. The result has the promoted input dtype.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def positive(x: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    positive(x, /, out=None, *, where=True, dtype=None)

    Elementwise +x, as numpy.positive. The result has the promoted input dtype.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def absolute(x: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    absolute(x, /, out=None, *, where=True, dtype=None)

    Elementwise |x|, as numpy.absolute. The result has the promoted input dtype.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def conjugate(x: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    conjugate(x, /, out=None, *, where=True, dtype=None)

    Elementwise the complex conjugate of x (x itself when real; bool gives int8, as NumPy), as numpy.conjugate. The result has the promoted input dtype.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def sign(x: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    sign(x, /, out=None, *, where=True, dtype=None)

    Elementwise -1, 0 or 1 by the sign of x (NaN stays NaN), as numpy.sign. The result has the promoted input dtype.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def sqrt(x: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    sqrt(x, /, out=None, *, where=True, dtype=None)

    Elementwise sqrt(x), as numpy.sqrt. Integer inputs give float16/float32/float64 as NumPy does.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def cbrt(x: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    cbrt(x, /, out=None, *, where=True, dtype=None)

    Elementwise cbrt(x), as numpy.cbrt. Integer inputs give float16/float32/float64 as NumPy does.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def square(x: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    square(x, /, out=None, *, where=True, dtype=None)

    Elementwise x * x, as numpy.square. The result has the promoted input dtype.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def reciprocal(x: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    reciprocal(x, /, out=None, *, where=True, dtype=None)

    Elementwise 1 / x in x's dtype, as numpy.reciprocal. The result has the promoted input dtype.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def exp(x: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    exp(x, /, out=None, *, where=True, dtype=None)

    Elementwise exp(x), as numpy.exp. Integer inputs give float16/float32/float64 as NumPy does.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def exp2(x: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    exp2(x, /, out=None, *, where=True, dtype=None)

    Elementwise exp2(x), as numpy.exp2. Integer inputs give float16/float32/float64 as NumPy does.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def expm1(x: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    expm1(x, /, out=None, *, where=True, dtype=None)

    Elementwise expm1(x), as numpy.expm1. Integer inputs give float16/float32/float64 as NumPy does.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def log(x: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    log(x, /, out=None, *, where=True, dtype=None)

    Elementwise log(x), as numpy.log. Integer inputs give float16/float32/float64 as NumPy does.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def log2(x: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    log2(x, /, out=None, *, where=True, dtype=None)

    Elementwise log2(x), as numpy.log2. Integer inputs give float16/float32/float64 as NumPy does.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def log10(x: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    log10(x, /, out=None, *, where=True, dtype=None)

    Elementwise log10(x), as numpy.log10. Integer inputs give float16/float32/float64 as NumPy does.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def log1p(x: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    log1p(x, /, out=None, *, where=True, dtype=None)

    Elementwise log1p(x), as numpy.log1p. Integer inputs give float16/float32/float64 as NumPy does.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def sin(x: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    sin(x, /, out=None, *, where=True, dtype=None)

    Elementwise sin(x), as numpy.sin. Integer inputs give float16/float32/float64 as NumPy does.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def cos(x: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    cos(x, /, out=None, *, where=True, dtype=None)

    Elementwise cos(x), as numpy.cos. Integer inputs give float16/float32/float64 as NumPy does.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def tan(x: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    tan(x, /, out=None, *, where=True, dtype=None)

    Elementwise tan(x), as numpy.tan. Integer inputs give float16/float32/float64 as NumPy does.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def arcsin(x: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    arcsin(x, /, out=None, *, where=True, dtype=None)

    Elementwise arcsin(x), as numpy.arcsin. Integer inputs give float16/float32/float64 as NumPy does.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def arccos(x: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    arccos(x, /, out=None, *, where=True, dtype=None)

    Elementwise arccos(x), as numpy.arccos. Integer inputs give float16/float32/float64 as NumPy does.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def arctan(x: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    arctan(x, /, out=None, *, where=True, dtype=None)

    Elementwise arctan(x), as numpy.arctan. Integer inputs give float16/float32/float64 as NumPy does.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def arctan2(x1: object, x2: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    arctan2(x1, x2, /, out=None, *, where=True, dtype=None)

    Elementwise the angle of the point (x2, x1), in (-pi, pi], as numpy.arctan2. Integer inputs give float16/float32/float64 as NumPy does.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def sinh(x: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    sinh(x, /, out=None, *, where=True, dtype=None)

    Elementwise sinh(x), as numpy.sinh. Integer inputs give float16/float32/float64 as NumPy does.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def cosh(x: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    cosh(x, /, out=None, *, where=True, dtype=None)

    Elementwise cosh(x), as numpy.cosh. Integer inputs give float16/float32/float64 as NumPy does.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def tanh(x: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    tanh(x, /, out=None, *, where=True, dtype=None)

    Elementwise tanh(x), as numpy.tanh. Integer inputs give float16/float32/float64 as NumPy does.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def arcsinh(x: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    arcsinh(x, /, out=None, *, where=True, dtype=None)

    Elementwise arcsinh(x), as numpy.arcsinh. Integer inputs give float16/float32/float64 as NumPy does.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def arccosh(x: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    arccosh(x, /, out=None, *, where=True, dtype=None)

    Elementwise arccosh(x), as numpy.arccosh. Integer inputs give float16/float32/float64 as NumPy does.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def arctanh(x: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    arctanh(x, /, out=None, *, where=True, dtype=None)

    Elementwise arctanh(x), as numpy.arctanh. Integer inputs give float16/float32/float64 as NumPy does.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def floor(x: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    floor(x, /, out=None, *, where=True, dtype=None)

    Elementwise the largest integer <= x, as numpy.floor. The result has the promoted input dtype.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def ceil(x: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    ceil(x, /, out=None, *, where=True, dtype=None)

    Elementwise the smallest integer >= x, as numpy.ceil. The result has the promoted input dtype.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def trunc(x: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    trunc(x, /, out=None, *, where=True, dtype=None)

    Elementwise x rounded toward zero, as numpy.trunc. The result has the promoted input dtype.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def rint(x: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    rint(x, /, out=None, *, where=True, dtype=None)

    Elementwise x rounded to the nearest integer, halves to even, as numpy.rint. Integer inputs give float16/float32/float64 as NumPy does.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def maximum(x1: object, x2: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    maximum(x1, x2, /, out=None, *, where=True, dtype=None)

    Elementwise the larger of x1 and x2; NaN propagates, as numpy.maximum. The result has the promoted input dtype.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def minimum(x1: object, x2: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    minimum(x1, x2, /, out=None, *, where=True, dtype=None)

    Elementwise the smaller of x1 and x2; NaN propagates, as numpy.minimum. The result has the promoted input dtype.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def fmax(x1: object, x2: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    fmax(x1, x2, /, out=None, *, where=True, dtype=None)

    Elementwise the larger of x1 and x2; NaN is ignored when the other is a number, as numpy.fmax. The result has the promoted input dtype.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def fmin(x1: object, x2: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    fmin(x1, x2, /, out=None, *, where=True, dtype=None)

    Elementwise the smaller of x1 and x2; NaN is ignored when the other is a number, as numpy.fmin. The result has the promoted input dtype.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def isnan(x: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    isnan(x, /, out=None, *, where=True, dtype=None)

    Elementwise True where x is NaN, as numpy.isnan. The result is bool.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def isinf(x: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    isinf(x, /, out=None, *, where=True, dtype=None)

    Elementwise True where x is +inf or -inf, as numpy.isinf. The result is bool.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def isfinite(x: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    isfinite(x, /, out=None, *, where=True, dtype=None)

    Elementwise True where x is neither inf nor NaN, as numpy.isfinite. The result is bool.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def logical_and(x1: object, x2: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    logical_and(x1, x2, /, out=None, *, where=True, dtype=None)

    Elementwise x1 and x2 (truth values), as bool, as numpy.logical_and. The result is bool.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def logical_or(x1: object, x2: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    logical_or(x1, x2, /, out=None, *, where=True, dtype=None)

    Elementwise x1 or x2 (truth values), as bool, as numpy.logical_or. The result is bool.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def logical_xor(x1: object, x2: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    logical_xor(x1, x2, /, out=None, *, where=True, dtype=None)

    Elementwise truth values of x1 and x2 differ, as bool, as numpy.logical_xor. The result is bool.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def logical_not(x: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    logical_not(x, /, out=None, *, where=True, dtype=None)

    Elementwise not x, as bool, as numpy.logical_not. The result is bool.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def bitwise_and(x1: object, x2: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    bitwise_and(x1, x2, /, out=None, *, where=True, dtype=None)

    Elementwise x1 & x2 (integers and bool), as numpy.bitwise_and. The result has the promoted input dtype.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def bitwise_or(x1: object, x2: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    bitwise_or(x1, x2, /, out=None, *, where=True, dtype=None)

    Elementwise x1 | x2 (integers and bool), as numpy.bitwise_or. The result has the promoted input dtype.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def bitwise_xor(x1: object, x2: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    bitwise_xor(x1, x2, /, out=None, *, where=True, dtype=None)

    Elementwise x1 ^ x2 (integers and bool), as numpy.bitwise_xor. The result has the promoted input dtype.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def invert(x: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    invert(x, /, out=None, *, where=True, dtype=None)

    Elementwise ~x (bitwise not; logical not for bool), as numpy.invert. The result has the promoted input dtype.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def left_shift(x1: object, x2: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    left_shift(x1, x2, /, out=None, *, where=True, dtype=None)

    Elementwise x1 << x2 (0 for shifts of the width or more), as numpy.left_shift. The result has the promoted input dtype.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def right_shift(x1: object, x2: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    right_shift(x1, x2, /, out=None, *, where=True, dtype=None)

    Elementwise x1 >> x2 (arithmetic for signed integers), as numpy.right_shift. The result has the promoted input dtype.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def equal(x1: object, x2: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    equal(x1, x2, /, out=None, *, where=True, dtype=None)

    Elementwise x1 == x2, as numpy.equal. The result is bool.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def not_equal(x1: object, x2: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    not_equal(x1, x2, /, out=None, *, where=True, dtype=None)

    Elementwise x1 != x2, as numpy.not_equal. The result is bool.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def less(x1: object, x2: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    less(x1, x2, /, out=None, *, where=True, dtype=None)

    Elementwise x1 < x2, as numpy.less. The result is bool.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def less_equal(x1: object, x2: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    less_equal(x1, x2, /, out=None, *, where=True, dtype=None)

    Elementwise x1 <= x2, as numpy.less_equal. The result is bool.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def greater(x1: object, x2: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    greater(x1, x2, /, out=None, *, where=True, dtype=None)

    Elementwise x1 > x2, as numpy.greater. The result is bool.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def greater_equal(x1: object, x2: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    greater_equal(x1, x2, /, out=None, *, where=True, dtype=None)

    Elementwise x1 >= x2, as numpy.greater_equal. The result is bool.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def hypot(x1: object, x2: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    hypot(x1, x2, /, out=None, *, where=True, dtype=None)

    Elementwise sqrt(x1**2 + x2**2), as numpy.hypot. Integer inputs give float16/float32/float64 as NumPy does.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def copysign(x1: object, x2: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    copysign(x1, x2, /, out=None, *, where=True, dtype=None)

    Elementwise |x1| with the sign of x2, as numpy.copysign. Integer inputs give float16/float32/float64 as NumPy does.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def erf(x: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    erf(x, /, out=None, *, where=True, dtype=None)

    Elementwise the error function (scipy.special.erf), as numpy.erf. Integer inputs give float16/float32/float64 as NumPy does.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def fabs(x: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    fabs(x, /, out=None, *, where=True, dtype=None)

    Elementwise |x| as a float (no complex: use absolute), as numpy.fabs. Integer inputs give float16/float32/float64 as NumPy does.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def fmod(x1: object, x2: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    fmod(x1, x2, /, out=None, *, where=True, dtype=None)

    Elementwise C's fmod: x1 - trunc(x1 / x2) * x2, with the sign of x1 (integer fmod by zero gives 0), as numpy.fmod. The result has the promoted input dtype.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def gcd(x1: object, x2: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    gcd(x1, x2, /, out=None, *, where=True, dtype=None)

    Elementwise the greatest common divisor of |x1| and |x2|, as numpy.gcd. The result has the promoted input dtype.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def lcm(x1: object, x2: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    lcm(x1, x2, /, out=None, *, where=True, dtype=None)

    Elementwise the least common multiple of |x1| and |x2|, as numpy.lcm. The result has the promoted input dtype.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def nextafter(x1: object, x2: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    nextafter(x1, x2, /, out=None, *, where=True, dtype=None)

    Elementwise the next float after x1 toward x2 (float32 and float64 loops; 16-bit floats raise), as numpy.nextafter. Integer inputs give float16/float32/float64 as NumPy does.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def true_divide(x1: object, x2: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    true_divide(x1, x2, /, out=None, *, where=True, dtype=None)

    Elementwise x1 / x2 (true division; integers give float64), as numpy.divide. Integer inputs give float64.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def mod(x1: object, x2: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    mod(x1, x2, /, out=None, *, where=True, dtype=None)

    Elementwise x1 % x2 with the sign of x2, as Python (integer modulo by zero gives 0), as numpy.remainder. The result has the promoted input dtype.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def abs(x: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    abs(x, /, out=None, *, where=True, dtype=None)

    Elementwise |x|, as numpy.absolute. The result has the promoted input dtype.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def conj(x: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    conj(x, /, out=None, *, where=True, dtype=None)

    Elementwise the complex conjugate of x (x itself when real; bool gives int8, as NumPy), as numpy.conjugate. The result has the promoted input dtype.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def pow(x1: object, x2: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    pow(x1, x2, /, out=None, *, where=True, dtype=None)

    Elementwise x1 ** x2 (integers to negative integer powers raise ValueError), as numpy.power. The result has the promoted input dtype.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def acos(x: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    acos(x, /, out=None, *, where=True, dtype=None)

    Elementwise arccos(x), as numpy.arccos. Integer inputs give float16/float32/float64 as NumPy does.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def acosh(x: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    acosh(x, /, out=None, *, where=True, dtype=None)

    Elementwise arccosh(x), as numpy.arccosh. Integer inputs give float16/float32/float64 as NumPy does.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def asin(x: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    asin(x, /, out=None, *, where=True, dtype=None)

    Elementwise arcsin(x), as numpy.arcsin. Integer inputs give float16/float32/float64 as NumPy does.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def asinh(x: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    asinh(x, /, out=None, *, where=True, dtype=None)

    Elementwise arcsinh(x), as numpy.arcsinh. Integer inputs give float16/float32/float64 as NumPy does.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def atan(x: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    atan(x, /, out=None, *, where=True, dtype=None)

    Elementwise arctan(x), as numpy.arctan. Integer inputs give float16/float32/float64 as NumPy does.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def atan2(x1: object, x2: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    atan2(x1, x2, /, out=None, *, where=True, dtype=None)

    Elementwise the angle of the point (x2, x1), in (-pi, pi], as numpy.arctan2. Integer inputs give float16/float32/float64 as NumPy does.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def atanh(x: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    atanh(x, /, out=None, *, where=True, dtype=None)

    Elementwise arctanh(x), as numpy.arctanh. Integer inputs give float16/float32/float64 as NumPy does.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def bitwise_not(x: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    bitwise_not(x, /, out=None, *, where=True, dtype=None)

    Elementwise ~x (bitwise not; logical not for bool), as numpy.invert. The result has the promoted input dtype.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def bitwise_invert(x: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    bitwise_invert(x, /, out=None, *, where=True, dtype=None)

    Elementwise ~x (bitwise not; logical not for bool), as numpy.invert. The result has the promoted input dtype.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def bitwise_left_shift(x1: object, x2: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    bitwise_left_shift(x1, x2, /, out=None, *, where=True, dtype=None)

    Elementwise x1 << x2 (0 for shifts of the width or more), as numpy.left_shift. The result has the promoted input dtype.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def bitwise_right_shift(x1: object, x2: object, out: object | None = None, *, where: object | None = True, dtype: object | None = None, casting: object = 'same_kind') -> object:
    """
    bitwise_right_shift(x1, x2, /, out=None, *, where=True, dtype=None)

    Elementwise x1 >> x2 (arithmetic for signed integers), as numpy.right_shift. The result has the promoted input dtype.
    Inputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= ('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the inputs to it and of the result to out.
    """

def round(a: object, decimals: object = 0, out: object | None = None) -> object:
    """
    round(a, decimals=0, out=None)

    Evenly round to `decimals` (negative: tens, hundreds, ...), halves to even, as numpy.round. Integers keep their dtype.
    """

def around(a: object, decimals: object = 0, out: object | None = None) -> object:
    """around(a, decimals=0, out=None): numpy.around, the same as round."""

def clip(a: object, min: object | None = None, max: object | None = None, out: object | None = None, *, a_min: object | None = None, a_max: object | None = None) -> object:
    """
    clip(a, min=None, max=None, out=None, *, a_min=None, a_max=None)

    min(max(a, min), max) elementwise, as numpy.clip; a_min= and a_max= (NumPy's keyword names) are the same bounds. Either bound may be None; with neither, a copy. NaN propagates.
    """

def where(condition: object, x: object | None = None, y: object | None = None) -> object:
    """
    where(condition, [x, y])

    Elements of x where condition is true, else of y, as numpy.where (condition cast to bool; x and y broadcast and promote); with condition alone, nonzero(condition).
    """

def copyto(dst: ndarray, src: object) -> None:
    """
    copyto(dst, src)

    Writes src, broadcast to dst's shape and cast to its dtype, into dst (any view), as numpy.copyto with casting='unsafe'.
    """

def real(val: object) -> ndarray:
    """
    numpy.real: the real parts (a view of a complex array's buffer; the array itself when real).
    """

def imag(val: object) -> ndarray:
    """
    numpy.imag: the imaginary parts (a view of a complex array's buffer; zeros when real).
    """

def angle(z: object, deg: bool = False) -> ndarray:
    """
    numpy.angle: arctan2(imag, real), the angle in (-pi, pi] (degrees with deg=True).
    """

def iscomplex(x: object) -> ndarray:
    """numpy.iscomplex: True where the imaginary part is nonzero."""

def isreal(x: object) -> ndarray:
    """numpy.isreal: True where the imaginary part is zero."""

def iscomplexobj(x: ndarray) -> bool:
    """numpy.iscomplexobj: whether the array's dtype is complex."""

def isrealobj(x: ndarray) -> bool:
    """numpy.isrealobj: whether the array's dtype is not complex."""

class finfo:
    """
    Machine limits of a floating-point dtype, as numpy.finfo and the Array API's finfo: loom.finfo(dtype or array). A complex dtype gives its parts' limits.
    """

    def __init__(self, type: object) -> None:
        """The limits of `type` (a dtype, or an array whose dtype to use)."""

    @property
    def bits(self) -> int:
        """Bits of one value."""

    @property
    def eps(self) -> float:
        """The gap between 1.0 and the next value."""

    @property
    def max(self) -> float:
        """The largest finite value."""

    @property
    def min(self) -> float:
        """The smallest (most negative) finite value."""

    @property
    def smallest_normal(self) -> float:
        """The smallest positive normal value."""

    @property
    def tiny(self) -> float:
        """NumPy's name of smallest_normal."""

    @property
    def precision(self) -> int:
        """Decimal digits of precision (NumPy's)."""

    @property
    def resolution(self) -> float:
        """10 ** -precision."""

    @property
    def dtype(self) -> object:
        """The real floating-point dtype these limits are of."""

    def __repr__(self) -> str: ...

class iinfo:
    """
    Range of an integer dtype, as numpy.iinfo and the Array API's iinfo: loom.iinfo(dtype or array).
    """

    def __init__(self, type: object) -> None:
        """The range of `type` (a dtype, or an array whose dtype to use)."""

    @property
    def bits(self) -> int:
        """Bits of one value."""

    @property
    def min(self) -> int:
        """The smallest value."""

    @property
    def max(self) -> int:
        """The largest value."""

    @property
    def dtype(self) -> object:
        """The integer dtype."""

    def __repr__(self) -> str: ...

def can_cast(from_: object, to: object, casting: object = 'safe') -> bool:
    """
    Whether values of dtype `from_` (a dtype or an array) can be cast to `to` under NumPy's `casting` rule: 'safe' (the default, the Array API's: promotion of the two gives `to`), 'same_kind', 'no', 'equiv' or 'unsafe'.
    """

def isdtype(dtype: object, kind: object) -> bool:
    """
    Whether `dtype` is of `kind`: a dtype, a kind name ('bool', 'signed integer', 'unsigned integer', 'integral', 'real floating', 'complex floating', 'numeric') or a tuple of them (any). float16 and bfloat16 are 'real floating'.
    """

def result_type(*args) -> object:
    """
    The dtype NumPy 2 promotes its arguments to: arrays and dtypes promote; Python bool, int, float and complex values are weak (NEP 50: int8 with 1 stays int8, float32 with 1j is complex64).
    """

def astype(x: object, dtype: object, *, copy: bool = True, device: object | None = None) -> object:
    """
    The Array API's astype: `x` converted to `dtype` (NumPy's cast results) on `device` (default: x's). With copy=False, `x` itself when neither the dtype nor the device changes; otherwise a new array.
    """

class _AtIndexed:
    """x.at[index]: call set, add, multiply, min or max."""

    def set(self, values: object) -> ndarray:
        """A copy of x with x[index] = values."""

    def add(self, values: object) -> ndarray:
        """
        A copy of x with values added at index; repeated indices accumulate (np.add.at).
        """

    def multiply(self, values: object) -> ndarray:
        """A copy of x multiplied by values at index (np.multiply.at)."""

    def min(self, values: object) -> ndarray:
        """A copy of x with the minimum of x[index] and values (np.minimum.at)."""

    def max(self, values: object) -> ndarray:
        """A copy of x with the maximum of x[index] and values (np.maximum.at)."""

class _AtHelper:
    """x.at: index it to get the functional update methods."""

    def __getitem__(self, key: object | None) -> _AtIndexed:
        """x.at[key]."""

class _ArrayIterator:
    """Iterator over the first axis of an array."""

    def __iter__(self) -> object:
        """The iterator itself."""

    def __next__(self) -> ndarray:
        """The next sub-array (a view)."""

def nonzero(a: object) -> tuple:
    """
    Indices of the nonzero elements: a tuple of int64 arrays, one per dimension (waits for the GPU).
    """

def flatnonzero(a: object) -> ndarray:
    """Indices of the nonzero elements of the flattened array."""

def argwhere(a: object) -> ndarray:
    """(count, ndim) int64 indices of the nonzero elements."""

def count_nonzero(a: object, axis: object | None = None, *, keepdims: bool = False) -> ndarray:
    """
    Number of nonzero elements over `axis` (None: all), as an int64 array (0-d for a full count, as loom's other reductions; NumPy returns a Python int there, int(...) reads it).
    """

def sum(a: object, axis: object | None = None, dtype: object | None = None, out: object | None = None, keepdims: bool = False) -> object:
    """
    sum(a, axis=None, dtype=None, out=None, keepdims=False)

    Sum of elements over the given axes. bool and signed integers give int64, unsigned uint64; float16/bfloat16 accumulate in float32; float32 is summed pairwise (NumPy's accuracy or better). A full reduction returns a 0-d array on the input's device (as CuPy does), not a
    NumPy scalar: use .item() or float() to read it on the host.
    """

def prod(a: object, axis: object | None = None, dtype: object | None = None, out: object | None = None, keepdims: bool = False) -> object:
    """
    prod(a, axis=None, dtype=None, out=None, keepdims=False)

    Product of elements over the given axes; dtype rules as sum. A full reduction returns a 0-d array on the input's device (as CuPy does), not a
    NumPy scalar: use .item() or float() to read it on the host.
    """

def mean(a: object, axis: object | None = None, dtype: object | None = None, out: object | None = None, keepdims: bool = False) -> object:
    """
    mean(a, axis=None, dtype=None, out=None, keepdims=False)

    Arithmetic mean; integers give float64, float16/bfloat16 accumulate in float32. An empty reduction gives nan and a RuntimeWarning. A full reduction returns a 0-d array on the input's device (as CuPy does), not a
    NumPy scalar: use .item() or float() to read it on the host.
    """

def var(a: object, axis: object | None = None, dtype: object | None = None, out: object | None = None, ddof: object | None = None, keepdims: bool = False, *, correction: object | None = None) -> object:
    """
    var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, correction=None)

    Variance with divisor N - ddof (correction= is the Array API's name of ddof), computed in two passes (mean, then squared deviations). A full reduction returns a 0-d array on the input's device (as CuPy does), not a
    NumPy scalar: use .item() or float() to read it on the host.
    """

def std(a: object, axis: object | None = None, dtype: object | None = None, out: object | None = None, ddof: object | None = None, keepdims: bool = False, *, correction: object | None = None) -> object:
    """
    std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, correction=None)

    Standard deviation: sqrt(var). A full reduction returns a 0-d array on the input's device (as CuPy does), not a
    NumPy scalar: use .item() or float() to read it on the host.
    """

def min(a: object, axis: object | None = None, out: object | None = None, keepdims: bool = False) -> object:
    """
    min(a, axis=None, out=None, keepdims=False)

    Minimum (NaN propagates); ValueError over an empty axis. A full reduction returns a 0-d array on the input's device (as CuPy does), not a
    NumPy scalar: use .item() or float() to read it on the host.
    """

def amin(a: object, axis: object | None = None, out: object | None = None, keepdims: bool = False) -> object:
    """
    min(a, axis=None, out=None, keepdims=False)

    Minimum (NaN propagates); ValueError over an empty axis. A full reduction returns a 0-d array on the input's device (as CuPy does), not a
    NumPy scalar: use .item() or float() to read it on the host.
    """

def max(a: object, axis: object | None = None, out: object | None = None, keepdims: bool = False) -> object:
    """
    max(a, axis=None, out=None, keepdims=False)

    Maximum (NaN propagates); ValueError over an empty axis. A full reduction returns a 0-d array on the input's device (as CuPy does), not a
    NumPy scalar: use .item() or float() to read it on the host.
    """

def amax(a: object, axis: object | None = None, out: object | None = None, keepdims: bool = False) -> object:
    """
    max(a, axis=None, out=None, keepdims=False)

    Maximum (NaN propagates); ValueError over an empty axis. A full reduction returns a 0-d array on the input's device (as CuPy does), not a
    NumPy scalar: use .item() or float() to read it on the host.
    """

def any(a: object, axis: object | None = None, out: object | None = None, keepdims: bool = False) -> object:
    """
    any(a, axis=None, out=None, keepdims=False)

    True where any element is nonzero. A full reduction returns a 0-d array on the input's device (as CuPy does), not a
    NumPy scalar: use .item() or float() to read it on the host.
    """

def all(a: object, axis: object | None = None, out: object | None = None, keepdims: bool = False) -> object:
    """
    all(a, axis=None, out=None, keepdims=False)

    True where every element is nonzero. A full reduction returns a 0-d array on the input's device (as CuPy does), not a
    NumPy scalar: use .item() or float() to read it on the host.
    """

def argmin(a: object, axis: object | None = None, out: object | None = None, *, keepdims: bool = False) -> object:
    """
    argmin(a, axis=None, out=None, *, keepdims=False)

    int64 index of the first minimum (the first NaN if any); axis=None gives the index into the flattened array. A full reduction returns a 0-d array on the input's device (as CuPy does), not a
    NumPy scalar: use .item() or float() to read it on the host.
    """

def argmax(a: object, axis: object | None = None, out: object | None = None, *, keepdims: bool = False) -> object:
    """
    argmax(a, axis=None, out=None, *, keepdims=False)

    int64 index of the first maximum (the first NaN if any); axis=None gives the index into the flattened array. A full reduction returns a 0-d array on the input's device (as CuPy does), not a
    NumPy scalar: use .item() or float() to read it on the host.
    """

def cumsum(a: object, axis: object | None = None, dtype: object | None = None, out: object | None = None) -> object:
    """
    cumsum(a, axis=None, dtype=None, out=None)

    Inclusive cumulative sum along axis (axis=None: over the flattened array). dtype rules as sum; float16/bfloat16 accumulate in float32.
    """

def cumprod(a: object, axis: object | None = None, dtype: object | None = None, out: object | None = None) -> object:
    """
    cumprod(a, axis=None, dtype=None, out=None)

    Inclusive cumulative product; as cumsum.
    """

def nancumsum(a: object, axis: object | None = None, dtype: object | None = None, out: object | None = None) -> object:
    """numpy.nancumsum: cumsum with NaNs as zero."""

def nancumprod(a: object, axis: object | None = None, dtype: object | None = None, out: object | None = None) -> object:
    """numpy.nancumprod: cumprod with NaNs as one."""

def tri(N: object, M: object | None = None, k: object = 0, dtype: object | None = None, *, device: object | None = None) -> ndarray:
    """
    numpy.tri: an N x M array with ones at and below diagonal k (float64 when dtype is None).
    """

def tril(m: object, k: int = 0) -> ndarray:
    """
    numpy.tril: a copy with the elements above diagonal k of the last two axes zeroed.
    """

def triu(m: object, k: int = 0) -> ndarray:
    """
    numpy.triu: a copy with the elements below diagonal k of the last two axes zeroed.
    """

def diag(v: object, k: int = 0) -> ndarray:
    """
    numpy.diag: the square matrix with 1-d v on diagonal k, or diagonal k of a 2-d v (a view).
    """

def diagflat(v: object, k: int = 0) -> ndarray:
    """numpy.diagflat: the square matrix with the flattened v on diagonal k."""

def take(a: object, indices: object, axis: object | None = None, out: object | None = None, mode: str = 'raise') -> object:
    """
    numpy.take: the elements of a at integer indices along axis (the flattened a when None); mode 'raise', 'wrap' or 'clip'.
    """

def take_along_axis(arr: object, indices: object, axis: object | None = -1) -> ndarray:
    """
    numpy.take_along_axis: arr[..., indices[..., j, ...], ...] along axis (indices with arr's ndim).
    """

def put_along_axis(arr: ndarray, indices: object, values: object, axis: object | None) -> None:
    """
    numpy.put_along_axis: writes values into arr at indices along axis, in place.
    """

def roll(a: object, shift: object, axis: object | None = None) -> ndarray:
    """
    numpy.roll: elements shifted cyclically by shift along axis (the flattened array when None).
    """

def isclose(a: object, b: object, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> ndarray:
    """numpy.isclose: |a - b| <= atol + rtol * |b| elementwise."""

def allclose(a: object, b: object, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> bool:
    """
    numpy.allclose: whether every element is close (a Python bool; waits for the device).
    """

def array_equal(a1: object, a2: object, equal_nan: bool = False) -> bool:
    """
    numpy.array_equal: same shape and elements (a Python bool; waits for the device).
    """

def array_equiv(a1: object, a2: object) -> bool:
    """numpy.array_equiv: broadcastable and equal (a Python bool)."""

def nansum(a: object, axis: object | None = None, dtype: object | None = None, out: object | None = None, keepdims: bool = False) -> object:
    """numpy.nansum: the sum with NaNs treated as zero."""

def nanprod(a: object, axis: object | None = None, dtype: object | None = None, out: object | None = None, keepdims: bool = False) -> object:
    """numpy.nanprod: the product with NaNs treated as one."""

def nanmean(a: object, axis: object | None = None, dtype: object | None = None, out: object | None = None, keepdims: bool = False) -> object:
    """numpy.nanmean: the mean of the non-NaN elements (NaN for none)."""

def nanvar(a: object, axis: object | None = None, dtype: object | None = None, out: object | None = None, ddof: float = 0.0, keepdims: bool = False) -> object:
    """numpy.nanvar: the variance of the non-NaN elements."""

def nanstd(a: object, axis: object | None = None, dtype: object | None = None, out: object | None = None, ddof: float = 0.0, keepdims: bool = False) -> object:
    """numpy.nanstd: the standard deviation of the non-NaN elements."""

def nanmax(a: object, axis: object | None = None, out: object | None = None, keepdims: bool = False) -> object:
    """numpy.nanmax: the maximum ignoring NaNs (NaN for a slice of NaNs)."""

def nanmin(a: object, axis: object | None = None, out: object | None = None, keepdims: bool = False) -> object:
    """numpy.nanmin: the minimum ignoring NaNs (NaN for a slice of NaNs)."""

def ptp(a: object, axis: object | None = None, out: object | None = None, keepdims: bool = False) -> object:
    """numpy.ptp: max - min along axis."""

def nanargmax(a: object, axis: object | None = None, out: object | None = None, *, keepdims: bool = False) -> object:
    """numpy.nanargmax: argmax ignoring NaNs."""

def nanargmin(a: object, axis: object | None = None, out: object | None = None, *, keepdims: bool = False) -> object:
    """numpy.nanargmin: argmin ignoring NaNs."""

def diff(a: object, n: int = 1, axis: int = -1, prepend: object | None = None, append: object | None = None) -> ndarray:
    """numpy.diff: the n-th discrete difference along axis."""

def average(a: object, axis: object | None = None, weights: object | None = None, returned: bool = False, *, keepdims: bool = False) -> object:
    """
    numpy.average: the (weighted) mean along axis; returned=True adds the sum of the weights.
    """

def meshgrid(*xi, copy: bool = True, sparse: bool = False, indexing: str = 'xy') -> tuple:
    """
    numpy.meshgrid: coordinate arrays from coordinate vectors ('xy' or 'ij' indexing), as a tuple.
    """

def indices(dimensions: object, dtype: object | None = None, sparse: bool = False, *, device: object | None = None) -> object:
    """numpy.indices: the index grids of an array of the given shape."""

def column_stack(tup: object) -> ndarray:
    """numpy.column_stack: 1-d arrays as columns, others joined along axis 1."""

def dstack(tup: object) -> ndarray:
    """
    numpy.dstack: joined along axis 2 after making each array at least 3-d.
    """

def hsplit(ary: object, indices_or_sections: object) -> object:
    """numpy.hsplit: split along axis 1 (axis 0 for 1-d)."""

def vsplit(ary: object, indices_or_sections: object) -> object:
    """numpy.vsplit: split along axis 0 (at least 2-d)."""

def dsplit(ary: object, indices_or_sections: object) -> object:
    """numpy.dsplit: split along axis 2 (at least 3-d)."""

def append(arr: object, values: object, axis: object | None = None) -> ndarray:
    """
    numpy.append: values joined to arr along axis (both flattened when None).
    """

def rot90(m: object, k: int = 1, axes: object | None = None) -> ndarray:
    """
    numpy.rot90: rotated by 90 degrees k times in the plane of axes (a view).
    """

def unstack(x: object, *, axis: int = 0) -> tuple:
    """The Array API's unstack: the views along axis, a tuple."""

def kron(a: object, b: object) -> ndarray:
    """numpy.kron: the Kronecker product."""

def concat(arrays: object, *, axis: object | None = 0) -> ndarray:
    """The Array API's concat (numpy.concatenate)."""

def permute_dims(x: object, axes: object) -> ndarray:
    """The Array API's permute_dims (numpy.transpose)."""

def matrix_transpose(x: object) -> ndarray:
    """The Array API's matrix_transpose: the last two axes swapped (a view)."""

def conv2d(x: ndarray, weight: ndarray, stride: Sequence[int] = [1, 1], padding: Sequence[int] = [0, 0], dilation: Sequence[int] = [1, 1], groups: int = 1) -> ndarray:
    """
    The 2-d convolution (cross-correlation, as PyTorch's) of x (N, C, H, W) with weight (O, C/groups, KH, KW), zero-padded: (N, O, OH, OW). cuDNN on a GPU, im2col and the BLAS on a CPU. Differentiable, batchable and traceable.
    """

def conv2d_input_grad(dy: ndarray, weight: ndarray, input_shape: object, stride: Sequence[int] = [1, 1], padding: Sequence[int] = [0, 0], dilation: Sequence[int] = [1, 1], groups: int = 1) -> ndarray:
    """
    The gradient of sum(conv2d(x, weight) * dy) with respect to x of shape input_shape (a transposed convolution).
    """

def conv2d_weight_grad(x: ndarray, dy: ndarray, weight_shape: object, stride: Sequence[int] = [1, 1], padding: Sequence[int] = [0, 0], dilation: Sequence[int] = [1, 1], groups: int = 1) -> ndarray:
    """
    The gradient of sum(conv2d(x, weight) * dy) with respect to a weight of weight_shape.
    """

def conv_backend(device: Device) -> str:
    """
    What computes convolutions and pooling on device: 'im2col+<blas>' on a CPU, 'cudnn 9.x.y' on a GPU, or '' when no convolution library could be loaded there (loom.nn then uses its GEMM path).
    """

def quantile(a: object, q: object, axis: object | None = None, out: object | None = None, overwrite_input: bool = False, method: str = 'linear', keepdims: bool = False) -> object:
    """
    numpy.quantile: the q-th quantiles along axis (methods linear, lower, higher, nearest, midpoint).
    """

def percentile(a: object, q: object, axis: object | None = None, out: object | None = None, overwrite_input: bool = False, method: str = 'linear', keepdims: bool = False) -> object:
    """numpy.percentile: the q-th percentiles along axis (q in [0, 100])."""

def nanquantile(a: object, q: object, axis: object | None = None, out: object | None = None, overwrite_input: bool = False, method: str = 'linear', keepdims: bool = False) -> object:
    """
    numpy.nanquantile: quantile ignoring NaNs (an all-NaN slice gives NaN).
    """

def nanpercentile(a: object, q: object, axis: object | None = None, out: object | None = None, overwrite_input: bool = False, method: str = 'linear', keepdims: bool = False) -> object:
    """
    numpy.nanpercentile: percentile ignoring NaNs (an all-NaN slice gives NaN).
    """

def median(a: object, axis: object | None = None, out: object | None = None, overwrite_input: bool = False, keepdims: bool = False) -> ndarray:
    """
    numpy.median: the middle value along axis (the mean of the middle two).
    """

def nanmedian(a: object, axis: object | None = None, out: object | None = None, overwrite_input: bool = False, keepdims: bool = False) -> ndarray:
    """
    numpy.nanmedian: the median ignoring NaNs (an all-NaN slice gives NaN).
    """

def max_pool2d(x: ndarray, kernel_size: Sequence[int], stride: Sequence[int], padding: Sequence[int] = [0, 0]) -> ndarray:
    """
    The maximum of each window of x (N, C, H, W); padding never wins, a NaN is a window's maximum.
    """

def max_pool2d_grad(x: ndarray, y: ndarray, dy: ndarray, kernel_size: Sequence[int], stride: Sequence[int], padding: Sequence[int] = [0, 0]) -> ndarray:
    """
    The gradient of sum(max_pool2d(x) * dy) with respect to x, y being max_pool2d(x): dy routed to each window's (first) maximum.
    """

def avg_pool2d(x: ndarray, kernel_size: Sequence[int], stride: Sequence[int], padding: Sequence[int] = [0, 0]) -> ndarray:
    """
    The mean of each window of x (N, C, H, W), padding counted as zeros (count_include_pad=True).
    """

def avg_pool2d_grad(dy: ndarray, input_shape: object, kernel_size: Sequence[int], stride: Sequence[int], padding: Sequence[int] = [0, 0]) -> ndarray:
    """The gradient of sum(avg_pool2d(x) * dy) with respect to x."""

def isin(element: object, test_elements: object, assume_unique: bool = False, invert: bool = False) -> ndarray:
    """numpy.isin: whether each element is in test_elements."""

def intersect1d(ar1: object, ar2: object, assume_unique: bool = False, return_indices: bool = False) -> object:
    """
    numpy.intersect1d: the sorted unique values in both arrays; with return_indices, also the index of each in the flattened ar1 and ar2 (their first occurrences).
    """

def union1d(ar1: object, ar2: object) -> ndarray:
    """numpy.union1d: the sorted unique values in either array."""

def setdiff1d(ar1: object, ar2: object, assume_unique: bool = False) -> ndarray:
    """numpy.setdiff1d: the sorted unique values of ar1 that are not in ar2."""

def setxor1d(ar1: object, ar2: object) -> ndarray:
    """numpy.setxor1d: the sorted unique values in exactly one of the arrays."""

def digitize(x: object, bins: object, right: bool = False) -> ndarray:
    """numpy.digitize: the bin index of each value."""

def bincount(x: object, weights: object | None = None, minlength: int = 0) -> ndarray:
    """
    numpy.bincount: occurrences (or summed weights) of each non-negative integer.
    """

def histogram(a: object, bins: object = 10, range: object | None = None, density: bool = False, weights: object | None = None) -> tuple:
    """
    numpy.histogram: (counts, edges) over equal bins, given edges, or an estimator's bins.
    """

def cov(m: object, y: object | None = None, rowvar: bool = True, bias: bool = False, ddof: object | None = None) -> ndarray:
    """numpy.cov: the covariance matrix of the variables (rows when rowvar)."""

def corrcoef(x: object, y: object | None = None, rowvar: bool = True) -> ndarray:
    """
    numpy.corrcoef: the correlation coefficients (cov normalised, clipped to [-1, 1]).
    """

def gradient(f: object, *varargs, axis: object | None = None, edge_order: int = 1) -> object:
    """
    numpy.gradient: central differences inside and one-sided ones at the edges, per axis (a tuple for several).
    """

def histogram_bin_edges(a: object, bins: object = 10, range: object | None = None, weights: object | None = None) -> ndarray:
    """
    numpy.histogram_bin_edges: the edges histogram would use (a count, edges or an estimator's name).
    """

def histogramdd(sample: object, bins: object = 10, range: object | None = None, density: bool = False, weights: object | None = None) -> object:
    """
    numpy.histogramdd: the histogram of D-dimensional samples: (hist, edges).
    """

def histogram2d(x: object, y: object, bins: object = 10, range: object | None = None, density: bool = False, weights: object | None = None) -> tuple:
    """
    numpy.histogram2d: the 2-d histogram of x and y: (hist, xedges, yedges).
    """

def deg2rad(x: object) -> ndarray:
    """numpy.deg2rad: degrees to radians."""

def radians(x: object) -> ndarray:
    """numpy.radians: degrees to radians."""

def rad2deg(x: object) -> ndarray:
    """numpy.rad2deg: radians to degrees."""

def degrees(x: object) -> ndarray:
    """numpy.degrees: radians to degrees."""

def sinc(x: object) -> ndarray:
    """numpy.sinc: sin(pi x) / (pi x), 1 at 0."""

def signbit(x: object) -> ndarray:
    """numpy.signbit: whether the sign bit is set."""

def heaviside(x1: object, x2: object) -> ndarray:
    """numpy.heaviside: 0 below 0, x2 at 0, 1 above."""

def logaddexp(x1: object, x2: object) -> ndarray:
    """numpy.logaddexp: log(exp(x1) + exp(x2)) without overflow."""

def logaddexp2(x1: object, x2: object) -> ndarray:
    """numpy.logaddexp2: log2(2**x1 + 2**x2) without overflow."""

def nan_to_num(x: object, copy: bool = True, nan: float = 0.0, posinf: object | None = None, neginf: object | None = None) -> ndarray:
    """numpy.nan_to_num: NaN and infinities replaced by finite numbers."""

def ediff1d(ary: object, to_end: object | None = None, to_begin: object | None = None) -> ndarray:
    """numpy.ediff1d: the differences of the flattened array."""

def trapezoid(y: object, x: object | None = None, dx: float = 1.0, axis: int = -1) -> ndarray:
    """numpy.trapezoid: the integral by the trapezoidal rule along axis."""

def cumulative_sum(x: object, *, axis: object | None = None, dtype: object | None = None, include_initial: bool = False) -> ndarray:
    """
    The Array API's cumulative_sum (include_initial prepends 0; dtype as cumsum's).
    """

def cumulative_prod(x: object, *, axis: object | None = None, dtype: object | None = None, include_initial: bool = False) -> ndarray:
    """
    The Array API's cumulative_prod (include_initial prepends 1; dtype as cumprod's).
    """

def logspace(start: float, stop: float, num: int = 50, endpoint: bool = True, base: float = 10.0, dtype: object | None = None, *, device: object | None = None) -> ndarray:
    """numpy.logspace: base ** linspace(start, stop, num)."""

def geomspace(start: float, stop: float, num: int = 50, endpoint: bool = True, dtype: object | None = None, *, device: object | None = None) -> ndarray:
    """
    numpy.geomspace: a geometric sequence from start to stop (real, one sign).
    """

def vander(x: object, N: object | None = None, increasing: bool = False) -> ndarray:
    """numpy.vander: the Vandermonde matrix of 1-d x."""

def select(condlist: object, choicelist: object, default: object = 0) -> ndarray:
    """
    numpy.select: the choice of the first true condition at each position, else default.
    """

def extract(condition: object, arr: object) -> ndarray:
    """numpy.extract: the elements of arr where condition is non-zero."""

def compress(condition: object, a: object, axis: object | None = None) -> ndarray:
    """numpy.compress: the slices of a along axis where condition holds."""

def i0(x: object) -> ndarray:
    """numpy.i0: the modified Bessel function of the first kind, order 0."""

def spacing(x: object) -> ndarray:
    """numpy.spacing: the distance to the next float away from zero."""

def bitwise_count(x: object) -> ndarray:
    """numpy.bitwise_count: the number of 1 bits of |x|, as uint8."""

def fix(x: object) -> ndarray:
    """numpy.fix: rounds toward zero."""

def isposinf(x: object) -> ndarray:
    """numpy.isposinf: whether x is +inf."""

def isneginf(x: object) -> ndarray:
    """numpy.isneginf: whether x is -inf."""

def frexp(x: object) -> tuple:
    """numpy.frexp: (mantissa, exponent) with x == mantissa * 2**exponent."""

def modf(x: object) -> tuple:
    """numpy.modf: (fractional part, integral part), each with x's sign."""

def divmod(x1: object, x2: object) -> tuple:
    """numpy.divmod: (x1 // x2, x1 % x2)."""

def ldexp(x1: object, x2: object) -> ndarray:
    """numpy.ldexp: x1 * 2**x2 for integer x2."""

def float_power(x1: object, x2: object) -> ndarray:
    """numpy.float_power: x1 ** x2 in float64 (complex128)."""

def may_share_memory(a: ndarray, b: ndarray, max_work: object | None = None) -> bool:
    """numpy.may_share_memory: whether the byte ranges of a and b overlap."""

def shares_memory(a: ndarray, b: ndarray, max_work: object | None = None) -> bool:
    """
    numpy.shares_memory: whether some element of a overlaps some element of b (exact).
    """

def isfortran(a: ndarray) -> bool:
    """numpy.isfortran: Fortran-contiguous and not C-contiguous."""

def ascontiguousarray(a: object, dtype: object | None = None, *, like: object | None = None) -> object:
    """
    numpy.ascontiguousarray: a C-contiguous array of at least one dimension (a itself when it is one).
    """

def asfortranarray(a: object, dtype: object | None = None, *, like: object | None = None) -> object:
    """
    numpy.asfortranarray: a Fortran-ordered array (a itself when it is one).
    """

def softmax_cross_entropy(logits: ndarray, labels: ndarray) -> ndarray:
    """
    Per row of logits (N, C) (float32/float64): logsumexp(logits[r]) - logits[r, labels[r]], one fused op with a fused gradient; NaN where a label is outside [0, C).
    """

def pad(array: object, pad_width: object, mode: object = 'constant', **kwargs) -> ndarray:
    """
    numpy.pad: modes constant, edge, linear_ramp, maximum, minimum, mean, median, reflect, symmetric, wrap, empty.
    """

def bartlett(M: int, *, device: object | None = None) -> ndarray:
    """numpy.bartlett: the M-point triangular window (float64)."""

def blackman(M: int, *, device: object | None = None) -> ndarray:
    """numpy.blackman: the M-point Blackman window (float64)."""

def hamming(M: int, *, device: object | None = None) -> ndarray:
    """numpy.hamming: the M-point Hamming window (float64)."""

def hanning(M: int, *, device: object | None = None) -> ndarray:
    """numpy.hanning: the M-point Hann window (float64)."""

def kaiser(M: int, beta: float, *, device: object | None = None) -> ndarray:
    """
    numpy.kaiser: the M-point Kaiser window with shape parameter beta (float64).
    """

def convolve(a: object, v: object, mode: str = 'full') -> ndarray:
    """
    numpy.convolve: the discrete linear convolution of two 1-d arrays (mode full, same or valid).
    """

def correlate(a: object, v: object, mode: str = 'valid') -> ndarray:
    """
    numpy.correlate: the cross-correlation of two 1-d arrays (mode valid, same or full).
    """

def unwrap(p: object, discont: object | None = None, axis: int = -1, *, period: float = 6.283185307179586) -> ndarray:
    """
    numpy.unwrap: removes jumps larger than discont along axis by their complement modulo period.
    """

def lexsort(keys: object, axis: int = -1) -> ndarray:
    """
    numpy.lexsort: indices sorting by the last key, then the ones before it.
    """

def partition(a: object, kth: object, axis: int = -1) -> ndarray:
    """
    numpy.partition: the kth elements in sorted position, smaller before and larger after (here: sorted).
    """

def argpartition(a: object, kth: object, axis: int = -1) -> ndarray:
    """numpy.argpartition: the indices of partition."""

def interp(x: object, xp: object, fp: object, left: object | None = None, right: object | None = None, period: object | None = None) -> ndarray:
    """
    numpy.interp: piecewise-linear interpolation (xp increasing; with period=, angles of that period).
    """

def packbits(a: object, axis: object | None = None, bitorder: str = 'big') -> ndarray:
    """
    numpy.packbits: truth values packed eight to a uint8 along axis (the flattened a when None).
    """

def unpackbits(a: object, axis: object | None = None, count: object | None = None, bitorder: str = 'big') -> ndarray:
    """
    numpy.unpackbits: the bits of a uint8 array along axis (the flattened a when None); count keeps that many (negative: drops that many from the end).
    """

def diag_indices(n: int, ndim: int = 2, *, device: object | None = None) -> tuple:
    """
    numpy.diag_indices: ndim copies of arange(n), the indices of the main diagonal.
    """

def diag_indices_from(arr: object) -> tuple:
    """
    numpy.diag_indices_from: diag_indices of an array with at least 2 equal dimensions.
    """

def tril_indices(n: int, k: int = 0, m: object | None = None, *, device: object | None = None) -> tuple:
    """
    numpy.tril_indices: (rows, cols) of the lower triangle of an n x m array at and below diagonal k.
    """

def tril_indices_from(arr: object, k: int = 0) -> tuple:
    """numpy.tril_indices_from: tril_indices of a 2-d array's shape."""

def triu_indices(n: int, k: int = 0, m: object | None = None, *, device: object | None = None) -> tuple:
    """
    numpy.triu_indices: (rows, cols) of the upper triangle of an n x m array at and above diagonal k.
    """

def triu_indices_from(arr: object, k: int = 0) -> tuple:
    """numpy.triu_indices_from: triu_indices of a 2-d array's shape."""

def ravel_multi_index(multi_index: object, dims: object, mode: object = 'raise', order: object | None = 'C') -> ndarray:
    """
    numpy.ravel_multi_index: flat indices of coordinate arrays into an array of shape dims; mode 'raise', 'wrap' or 'clip' (or one per dimension), order 'C' or 'F'.
    """

def unravel_index(indices: object, shape: object, order: object | None = 'C') -> tuple:
    """
    numpy.unravel_index: the coordinate arrays of flat indices into an array of shape; order 'C' or 'F'.
    """

def ix_(*args) -> tuple:
    """
    numpy.ix_: open-mesh index arrays, the k-th sequence shaped (1, ..., n, ..., 1); bool sequences stand for their nonzero positions.
    """

def fill_diagonal(a: ndarray, val: object, wrap: bool = False) -> None:
    """
    numpy.fill_diagonal: writes val (repeated cyclically) onto the main diagonal of a, in place; wrap restarts a tall matrix's diagonal after n + 1 rows.
    """

def place(arr: ndarray, mask: object, vals: object) -> None:
    """
    numpy.place: writes the first N values of vals (repeated cyclically) where mask is true, in place.
    """

def put(a: ndarray, ind: object, v: object, mode: str = 'raise') -> None:
    """
    numpy.put: a.flat[ind] = v (v repeated cyclically), in place; mode 'raise', 'wrap' or 'clip'.
    """

def putmask(a: ndarray, mask: object, values: object) -> None:
    """
    numpy.putmask: a.flat[i] = values.flat[i % len(values)] where mask.flat[i], in place.
    """

def insert(arr: object, obj: object, values: object, axis: object | None = None) -> ndarray:
    """
    numpy.insert: values inserted before the indices obj along axis (the flattened arr when None).
    """

def delete(arr: object, obj: object, axis: object | None = None) -> ndarray:
    """
    numpy.delete: arr without the sub-arrays at obj (integer, slice, indices or mask) along axis (the flattened arr when None).
    """

def resize(a: object, new_shape: object) -> ndarray:
    """
    numpy.resize: a new array of new_shape filled with a's elements repeated cyclically.
    """

def trim_zeros(filt: object, trim: str = 'fb', axis: object | None = None) -> ndarray:
    """
    numpy.trim_zeros: filt without its leading ('f') and/or trailing ('b') zeros along axis (every axis when None); waits for the device.
    """

def choose(a: object, choices: object, out: object | None = None, mode: str = 'raise') -> object:
    """
    numpy.choose: out[i] = choices[a[i]][i], all broadcast together; mode 'raise', 'wrap' or 'clip'.
    """

def rollaxis(a: object, axis: int, start: int = 0) -> ndarray:
    """numpy.rollaxis: axis moved to sit before position start (a view)."""

def row_stack(tup: object, *, dtype: object | None = None, casting: str = 'same_kind') -> ndarray:
    """numpy.row_stack: NumPy's deprecated alias of vstack."""

def sort(a: object, axis: object | None = -1, kind: object | None = None, order: object | None = None, *, stable: object | None = None, descending: object = False) -> ndarray:
    """
    Return a sorted copy of an array along `axis` (None: the flattened array).

    The sort is always stable (equal elements keep their order), whatever `kind` or
    `stable` say; NaNs sort to the end and -0.0 equals 0.0, as in NumPy. descending=True
    (the Array API's) sorts largest first, NaNs first.
    """

def argsort(a: object, axis: object | None = -1, kind: object | None = None, order: object | None = None, *, stable: object | None = None, descending: object = False) -> ndarray:
    """
    Return the int64 indices that sort an array along `axis` (None: flattened).

    Stable, as NumPy's kind='stable': equal elements keep their order (with descending=True,
    the Array API's, too: largest first); NaNs go last (first when descending).
    """

def unique(ar: object, return_index: bool = False, return_inverse: bool = False, return_counts: bool = False, axis: object | None = None, *, equal_nan: bool = True) -> object:
    """
    Find the sorted unique elements of an array (flattened), or with `axis` its
    unique slices along that axis (in lexicographic order).

    Optionally also returns the index of each value's first occurrence, the inverse
    (input's shape; values[inverse] rebuilds the input; one entry per slice with
    `axis`) and the counts, in that order, as a tuple. With equal_nan=True (NumPy 2's
    default) all NaNs count as one value; a slice holding a NaN is always its own. The
    GPU waits once for the number of unique values, as CuPy does.
    """

def unique_all(x: object) -> object:
    """
    The Array API's unique_all: (values, indices, inverse_indices, counts) of the flattened array, a named tuple. values are sorted; indices give each value's first occurrence; inverse_indices has x's shape; every NaN is a distinct value.
    """

def unique_counts(x: object) -> object:
    """
    The Array API's unique_counts: (values, counts), a named tuple (NaNs distinct).
    """

def unique_inverse(x: object) -> object:
    """
    The Array API's unique_inverse: (values, inverse_indices), a named tuple; inverse_indices has x's shape and values[inverse_indices] is x (NaNs distinct).
    """

def unique_values(x: object) -> ndarray:
    """
    The Array API's unique_values: the sorted unique values of the flattened array (NaNs distinct).
    """

def searchsorted(a: object, v: object, side: str = 'left', sorter: object | None = None) -> ndarray:
    """
    Find the int64 indices where the elements of `v` would be inserted into the sorted
    1-d array `a` to keep it sorted. side='left' gives the first suitable position,
    'right' the last. `sorter`: integer indices that sort `a` (e.g. argsort(a)); an
    out-of-range index raises ValueError (on the GPU that check waits for the GPU).
    a and v are compared in their promoted dtype; NaNs are ordered last.
    """

def matmul(x1: object, x2: object) -> ndarray:
    """
    Matrix product of two arrays (NumPy's matmul): 1-d operands act as a row (left) or a column (right) and the added axis is removed; leading batch dimensions broadcast. 0-d operands raise ValueError. Integers wrap around, bool gives or-of-ands, float16 and bfloat16 accumulate in float32. float32 is exact unless set_matmul_precision('tf32').
    """

def dot(a: object, b: object) -> ndarray:
    """
    Dot product (NumPy's dot): 0-d operands multiply, 1-d x 1-d is the inner product, 2-d x 2-d the matrix product, N-d x 1-d sums over the last axis, N-d x M-d sums over a's last and b's second-to-last axis.
    """

def vdot(a: object, b: object) -> ndarray:
    """
    Dot product of the flattened arrays (equal sizes required); a 0-d array.
    """

def inner(a: object, b: object) -> ndarray:
    """
    Inner product over the last axes: shape a.shape[:-1] + b.shape[:-1]; 0-d operands multiply.
    """

def outer(a: object, b: object) -> ndarray:
    """Outer product of the flattened arrays: shape (a.size, b.size)."""

def tensordot(a: object, b: object, axes: object = 2) -> ndarray:
    """
    Tensor dot product: axes=N sums a's last N axes with b's first N; axes=(axes_a, axes_b) sums the listed axes pairwise (each an int or a sequence of ints). The result has a's remaining axes, then b's.
    """

def vecdot(x1: object, x2: object, *, axis: int = -1) -> ndarray:
    """
    NumPy 2's and the Array API's vecdot: sum(conj(x1) * x2) over `axis` of each operand (equal sizes), the other axes broadcast; the promoted dtype.
    """

def matvec(x1: object, x2: object) -> ndarray:
    """
    NumPy 2.2's matvec: matrices x1 (..., m, n) times vectors x2 (..., n), giving (..., m); batch axes broadcast.
    """

def vecmat(x1: object, x2: object) -> ndarray:
    """
    NumPy 2.2's vecmat: conjugated vectors x1 (..., n) times matrices x2 (..., n, m), giving (..., m); batch axes broadcast.
    """

def einsum(subscripts: str, *operands) -> ndarray:
    """
    Einstein summation (NumPy's einsum, optimize=False): 'ij,jk->ik', implicit output ('ij,jk': indices seen once, in alphabetical order), '...' broadcasting, repeated indices within an operand (diagonals), and summation over indices absent from the output. Operands are contracted left to right with batched matrix products.
    """

def set_matmul_precision(precision: str) -> None:
    """
    float32 matrix products: 'float32' (or 'highest', the default) computes them exactly in float32; 'tf32' (or 'high') lets GPUs use TF32 tensor cores (inputs rounded to a 10-bit mantissa, float32 accumulation; much faster). CPU products are always exact.
    """

def get_matmul_precision() -> str:
    """The float32 matmul precision: 'float32' (exact, default) or 'tf32'."""

def trace(a: object, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype: object | None = None) -> ndarray:
    """
    Sums along the diagonal `offset` of the matrices spanned by axis1 and axis2 (NumPy's trace).
    """

def cross(a: object, b: object, axisa: int = -1, axisb: int = -1, axisc: int = -1, axis: object | None = None) -> ndarray:
    """
    Cross products of the 3-vectors along axisa/axisb, broadcast over the other axes and placed along axisc (axis sets all three), as NumPy's cross (2-vectors too, with NumPy 2's DeprecationWarning: their third component is 0; two of them give the z component alone).
    """

def reshape(a: object, shape: object, order: object | None = 'C', *, copy: object | None = None) -> ndarray:
    """
    Gives a new shape to an array without changing its data. One dimension may be -1 (inferred).
    Returns a view whenever the strides allow it, else a copy. order: 'C', 'F' or 'A'.
    copy=True always copies; copy=False raises ValueError when a copy would be needed.
    """

def ravel(a: object, order: object | None = 'C') -> ndarray:
    """
    The elements as a 1-d array: a view when the array is contiguous in `order`, else a copy.
    """

def transpose(a: object, axes: object | None = None) -> ndarray:
    """Permutes the axes (reverses them when axes is None). Returns a view."""

def swapaxes(a: object, axis1: object, axis2: object) -> ndarray:
    """Interchanges two axes. Returns a view."""

def diagonal(a: object, offset: int = 0, axis1: int = 0, axis2: int = 1) -> ndarray:
    """
    The diagonal `offset` of the matrices spanned by axis1 and axis2, as a last axis (NumPy's diagonal). A writable view, as torch.diagonal (NumPy's is read-only).
    """

def moveaxis(a: object, source: object, destination: object) -> ndarray:
    """
    Moves axes `source` (int or sequence) to positions `destination`; the other axes keep
    their order. Returns a view.
    """

def squeeze(a: object, axis: object | None = None) -> ndarray:
    """
    Removes length-1 axes (all, or those in `axis`, which must have length 1). Returns a view.
    """

def expand_dims(a: object, axis: object) -> ndarray:
    """
    Inserts length-1 axes at positions `axis` of the result. Returns a view.
    """

def broadcast_to(array: object, shape: object) -> ndarray:
    """
    A view of the array broadcast to `shape` (zero strides along broadcast axes). Writing to it
    writes shared elements, as with NumPy's writeable broadcast views: avoid it.
    """

def broadcast_arrays(*args) -> tuple:
    """Broadcasts arrays against each other; returns a tuple of views."""

def atleast_1d(*args) -> object:
    """Views with at least one axis (a tuple for several inputs)."""

def atleast_2d(*args) -> object:
    """Views with at least two axes (a tuple for several inputs)."""

def atleast_3d(*args) -> object:
    """
    Views with at least three axes: (N,) -> (1, N, 1), (M, N) -> (M, N, 1).
    """

def flip(m: object, axis: object | None = None) -> ndarray:
    """
    Reverses the order of elements along `axis` (all axes when None): a view with negative strides.
    """

def fliplr(m: object) -> ndarray:
    """Reverses the order of columns (axis 1): a view."""

def flipud(m: object) -> ndarray:
    """Reverses the order of rows (axis 0): a view."""

def split(ary: object, indices_or_sections: object, axis: object = 0) -> object:
    """
    Splits into equal sections (int) or at the given indices (sequence) along `axis`;
    returns a list of views. ValueError when an int does not divide the axis.
    """

def array_split(ary: object, indices_or_sections: object, axis: object = 0) -> object:
    """
    As split, but sections need not be equal: the first len % n parts are one longer.
    """

def concatenate(arrays: object, axis: object | None = 0, out: object | None = None, *, dtype: object | None = None, casting: str = 'same_kind') -> object:
    """
    Joins arrays along an existing axis (axis=None: of the raveled arrays). The result dtype is
    `dtype`, else the promotion of the inputs' dtypes; all arrays must be on one device.
    """

def stack(arrays: object, axis: object = 0, out: object | None = None, *, dtype: object | None = None, casting: str = 'same_kind') -> object:
    """Joins same-shaped arrays along a new axis `axis` of the result."""

def hstack(tup: object, *, dtype: object | None = None, casting: str = 'same_kind') -> ndarray:
    """Joins arrays column-wise (along axis 1; 1-d arrays along axis 0)."""

def vstack(tup: object, *, dtype: object | None = None, casting: str = 'same_kind') -> ndarray:
    """
    Joins arrays row-wise (along axis 0, after making 1-d arrays 2-d rows).
    """

def tile(A: object, reps: object) -> ndarray:
    """A copy of A repeated reps[i] times along each axis (NumPy's tile)."""

def repeat(a: object, repeats: object, axis: object | None = None) -> ndarray:
    """
    Repeats each element `repeats` times (an int, or one count per element along `axis`).
    axis=None repeats the elements of the raveled array. Returns a copy.
    """

class _HostArgument:
    """A host array copied around a kernel launch."""

    @property
    def array(self) -> object:
        """The host array."""

class In(_HostArgument):
    """
    Wraps a host (NumPy) array passed to a kernel: copied to the kernel's device before the launch (PyCUDA's In).
    """

    def __init__(self, array: object) -> None: ...

class Out(_HostArgument):
    """
    Wraps a host NumPy array a kernel writes: device memory of its shape and dtype is passed (not initialised) and copied back into it after the launch (PyCUDA's Out).
    """

    def __init__(self, array: object) -> None: ...

class InOut(_HostArgument):
    """
    Wraps a host NumPy array copied to the kernel's device before the launch and back after it (PyCUDA's InOut).
    """

    def __init__(self, array: object) -> None: ...

class RawKernel:
    """
    A CUDA C kernel compiled at run time by NVRTC for the exact architecture of each GPU it runs on, cached in memory and on disk. Launch it as k(grid, block, args, shared_mem=0, stream=None, debug=False), k(*args, grid=(1, 1), block=(x, y, z), shared=0, stream=None, debug=False) or k[grid, block](*args). block="auto" times candidate blocks on first use (grid then means the number of threads wanted per dimension). Arguments meet the parameters' C types (read from the source or the lowered name): Python numbers convert by NumPy's rules (2 for a float parameter is 2.0f; 2.5 for an int one is a TypeError), NumPy scalars by same_kind casting, arrays must have the pointer's element dtype (void*, char*, unsigned char* take any), and raw addresses pass only as loom.driver allocations or ctypes.c_void_p. debug=True (CPU kernel emulator only; it does nothing on a GPU) runs the launch in the emulator's debug mode, as LOOM_EMULATOR_DEBUG=1 does for every launch: threads run in a random order between barriers, shared memory starts as junk (NaN, -1) and an access outside a loom array through a pointer parameter raises IndexError naming the source line, the argument, the thread and the block.
    """

    def __call__(self, /, *args, **kwargs):
        """Call self as a function."""

    def __init__(self, code: str, name: str, options: object = ()) -> None:
        """
        Kernel `name` (an extern "C" function) of CUDA C++ `code`, compiled on first launch.
        """

    def __getitem__(self, config: object) -> object:
        """k[grid, block] or k[grid, block, stream, shared_mem] (Numba's form)."""

    def _launch_floor_us(self, grid: object, block: object, args: Sequence, calls: int, bare: bool = True) -> float:
        """
        Benchmarks only: microseconds per launch from a C++ loop, bare cuLaunchKernel or Kernel::launch.
        """

    def compile(self, arch: object | None = None) -> None:
        """
        Compiles now, for compute capability `arch` (e.g. 90; no GPU needed) or the default GPU.
        """

    def ptx(self, arch: object | None = None) -> str:
        """
        The module's PTX for compute_`arch` (default: the default GPU's; without one, the oldest architecture NVRTC knows, which every newer GPU runs). Compiled now by NVRTC, no GPU needed; for reading: launches use the CUBIN.
        """

    @property
    def name(self) -> str:
        """The kernel's name."""

    @property
    def code(self) -> str:
        """The CUDA C++ source."""

    @property
    def options(self) -> list[str]:
        """The NVRTC options."""

    def attributes(self, device: object | None = None) -> dict:
        """
        Compiled facts on `device` (default device; cpu(): the kernel emulator's): max_threads_per_block, num_regs, shared_size_bytes, max_dynamic_shared_size_bytes, local_size_bytes, const_size_bytes, ptx_version, binary_version, param_sizes.
        """

    @property
    def param_kinds(self) -> list[str]:
        """
        What loom read of each parameter's C type: 'pointer', 'scalar', 'view' or 'unknown' (a struct, typedef or macro); empty when the parameter list cannot be told.
        """

    @property
    def cooperative(self) -> bool:
        """
        Whether it launches cooperatively: its module names cooperative groups' this_grid, so every block is resident at once and grid.sync() can complete (on cpu(), every block runs at once).
        """

    def max_cooperative_blocks(self, block: object, shared_mem: int = 0, device: object | None = None) -> int:
        """
        The most blocks of shape `block` (with `shared_mem` bytes of dynamic shared memory) a cooperative launch may have on `device` (default: the default device): all resident at once. A GPU's occupancy per SM times its SMs; cpu(): the kernel emulator's limit (at most 256 blocks and 16384 threads). Numba's max_cooperative_grid_blocks.
        """

    @property
    def max_threads_per_block(self) -> int:
        """The most threads per block this kernel can run on the default device."""

class _ConfiguredKernel:
    """A kernel with its launch configuration: call it with the arguments."""

    def __call__(self, /, *args, **kwargs):
        """Call self as a function."""

class RawModule:
    """
    CUDA C++ source compiled at run time by NVRTC (cached in memory and on disk); get_function(name) returns its kernels. Templates are instantiated through name_expressions, e.g. ("scale<float>",).
    """

    def __init__(self, code: str, options: object = (), name_expressions: object = ()) -> None:
        """Compiles lazily; compile() or get_function() compile now."""

    def get_function(self, name: str) -> RawKernel:
        """
        The kernel `name`: an extern "C" name or one of the name expressions. The module is compiled now for the default device (NVRTC on a GPU, the host compiler for the CPU kernel emulator) and a missing name raises ValueError.
        """

    def compile(self, arch: object | None = None) -> list[str]:
        """
        Compiles now for compute capability `arch` (e.g. 90; no GPU needed) or the default GPU; raises CompileError with the log and the source around each error. Returns the lowered (mangled) names of the name expressions.
        """

    def ptx(self, arch: object | None = None) -> str:
        """
        The module's PTX for compute_`arch` (default: the default GPU's; without one, the oldest architecture NVRTC knows, which every newer GPU runs). Compiled now by NVRTC, no GPU needed; for reading: launches use the CUBIN.
        """

    def get_global(self, name: str, device: object | None = None) -> tuple:
        """
        (address, nbytes) of the module's __device__ or __constant__ variable `name` (at namespace scope, by its unmangled name) on `device` (default: the default device), loading the module there: PyCUDA's get_global. A GPU address, or on cpu() one in the CPU kernel emulator's library. Modules of the same source share their variables on a device.
        """

    @property
    def code(self) -> str:
        """The CUDA C++ source."""

    @property
    def options(self) -> list[str]:
        """The NVRTC options."""

    @property
    def name_expressions(self) -> list[str]:
        """The template instantiations it exports."""

class SourceModule(RawModule):
    """
    PyCUDA's name for a RawModule: the source is wrapped in extern "C" (unless no_extern_c=True) so kernels are found by their plain names.
    """

    def __init__(self, source: str, options: object | None = None, no_extern_c: bool = False, include_dirs: object | None = None) -> None:
        """Compiles `source` (lazily, like RawModule)."""

class _KernelDispatcher:
    """
    The launch fast path of a Python kernel: its compiled specializations (RawKernels) by argument-type signature. d[griddim, blockdim(, stream(, sharedmem))] gives a launcher; launcher(*args) launches the specialization of the arguments' signature, or returns on_miss(launcher, args) when there is none (or an argument is not of a kind signature() knows).
    """

    def __init__(self, name: str, on_miss: object) -> None: ...

    def __getitem__(self, key, /):
        """Return self[key]."""

    @property
    def name(self) -> str:
        """The name given (the Python function's)."""

    def signature(self, *args) -> object:
        """
        The type key of these arguments: per argument `float32[2C]` (a loom array: dtype, ndim, C when C-contiguous else A), bool, int64 (a Python int), float64 (a Python float) or a NumPy scalar's dtype, joined by ','; None when one is of another kind.
        """

    def add(self, key: str, kernel: object) -> None:
        """Registers the specialization of signature `key` (replacing one)."""

    def get(self, key: str) -> object:
        """The specialization of signature `key`, or None."""

    def keys(self) -> list[str]:
        """The signatures registered, in the order added."""

    def clear(self) -> None:
        """Forgets every specialization."""

    def __len__(self) -> int: ...

    def __repr__(self) -> str: ...

class _KernelLauncher:
    """
    A Python kernel with its launch configuration: call it with the arguments.
    """

    def __call__(self, /, *args, **kwargs):
        """Call self as a function."""

    @property
    def griddim(self) -> object: ...

    @property
    def blockdim(self) -> object: ...

    @property
    def stream(self) -> object:
        """The stream as given (0 when none was: Numba's default stream)."""

    @property
    def sharedmem(self) -> object:
        """Bytes of dynamic shared memory as given (0 when none was)."""

    @property
    def dispatcher(self) -> object: ...

    def _launch_kernel(self, kernel: object, *args) -> None:
        """
        Launches `kernel` (a specialization the signature table does not hold: one whose Python arguments, such as tuples, reach it flattened) with this configuration.
        """

def empty_mapped(shape: object, dtype: object | None = None, device: object | None = None) -> ndarray:
    """
    An uninitialised array on `device` (the default device when None) in mapped, page-locked host memory (cudaHostAllocMapped): kernels and ops on the GPU read and write the host memory directly, and `.host` is a NumPy view of it (no copy). Read `.host` after the GPU work that writes it has finished (loom.synchronize() or an event). On cpu() an ordinary array.
    """

class ElementwiseKernel:
    """
    ElementwiseKernel(in_params, out_params, operation, name='kernel', reduce_dims=True, preamble='',
                      no_return=False, return_tuple=False, options=())

    A kernel over elements from CUDA C++, as CuPy's: parameter lists like 'T x, raw T y,
    float32 z' (one-letter types are placeholders deduced from the arguments), and an
    operation such as 'z = x * y'. Call it with the inputs and optionally the outputs:
    k(*args, size=None, block=None, stream=None); block='auto' autotunes the block size.
    Inputs broadcast together; missing outputs are allocated. Non-raw parameters are
    the element at index i; raw ones are indexed by a flat index (x[i], x.size()).
    """

    def __init__(self, in_params: str, out_params: str, operation: str, name: str = 'kernel', reduce_dims: bool = True, preamble: str = '', no_return: bool = False, return_tuple: bool = False, options: Sequence[str] = []) -> None: ...

    def __call__(self, *args, size: object | None = None, block: object | None = None, stream: object | None = None) -> object:
        """
        Runs the kernel on the inputs (then optionally the outputs); returns the outputs.
        """

    def _source(self, *args, size: object | None = None) -> str:
        """The CUDA source a call with these arguments compiles (testing)."""

    def _compile(self, *args, size: object | None = None, arch: int = 90) -> None:
        """
        Compiles what a call with these arguments would, for compute capability `arch`, without a GPU (testing).
        """

    @property
    def name(self) -> str:
        """The kernel's name."""

    @property
    def in_params(self) -> tuple:
        """The input parameters, as written ('raw T x')."""

    @property
    def out_params(self) -> tuple:
        """The output parameters, as written."""

    @property
    def nin(self) -> int:
        """Number of inputs."""

    @property
    def nout(self) -> int:
        """Number of outputs."""

    @property
    def operation(self) -> str:
        """The operation's source."""

    def __repr__(self) -> str: ...

class ReductionKernel:
    """
    ReductionKernel(in_params, out_params, map_expr, reduce_expr, post_map_expr, identity,
                    name='reduce_kernel', reduce_type=None, reduce_dims=True, preamble='', options=())

    A reduction from CUDA C++ expressions, as CuPy's: map_expr reads the inputs by name
    (several inputs broadcast together), reduce_expr combines `a` and `b` of reduce_type
    (default: the first output's type), post_map_expr reads `a` and writes the outputs,
    identity is a C expression or None. Call k(*args, out=None, axis=None, keepdims=False,
    stream=None). Deterministic: no atomics; large reductions take two passes.
    """

    def __init__(self, in_params: str, out_params: str, map_expr: str, reduce_expr: str, post_map_expr: str, identity: str | None, name: str = 'reduce_kernel', reduce_type: str | None = None, reduce_dims: bool = True, preamble: str = '', options: Sequence[str] = []) -> None: ...

    def __call__(self, *args, out: object | None = None, axis: object | None = None, keepdims: bool = False, stream: object | None = None) -> object:
        """
        Reduces the inputs over `axis` (None: all); returns the output (a tuple for several).
        """

    def _source(self, *args, axis: object | None = None, keepdims: bool = False) -> str:
        """The CUDA source a call with these arguments compiles (testing)."""

    def _compile(self, *args, axis: object | None = None, keepdims: bool = False, arch: int = 90) -> None:
        """
        Compiles what a call with these arguments would, for compute capability `arch`, without a GPU (testing).
        """

    @property
    def name(self) -> str:
        """The kernel's name."""

    @property
    def in_params(self) -> tuple:
        """The input parameters, as written."""

    @property
    def out_params(self) -> tuple:
        """The output parameters, as written."""

    @property
    def map_expr(self) -> str:
        """The map expression, as written."""

    @property
    def reduce_expr(self) -> str:
        """The reduce expression (of `a` and `b`), as written."""

    @property
    def post_map_expr(self) -> str:
        """The post-map statement (of `a`), as written."""

    @property
    def identity(self) -> str | None:
        """The identity's C expression, or None."""

    @property
    def reduce_type(self) -> str | None:
        """
        The reduce type as given (a dtype name, a placeholder or a C type), or None: the first output's type.
        """

    @property
    def reduce_dims(self) -> bool:
        """Whether contiguous reduced axes are merged before launching."""

    @property
    def preamble(self) -> str:
        """Device code placed before the kernels."""

    @property
    def options(self) -> list[str]:
        """The NVRTC options."""

    @property
    def nin(self) -> int:
        """Number of inputs."""

    @property
    def nout(self) -> int:
        """Number of outputs."""

    def __repr__(self) -> str: ...

class _DispatchRecorder:
    """
    Records each op that reaches a backend through loom's dispatch point: start(), run ops, events() -> [(name, family, device, traceable)], stop().
    """

    def __init__(self) -> None: ...

    def start(self) -> None:
        """Registers the recorder as a dispatch hook."""

    def stop(self) -> None:
        """Unregisters it; the events stay."""

    def events(self) -> list[tuple[str, str, str, bool]]:
        """The ops recorded since start() or clear(), in order."""

    def clear(self) -> None:
        """Forgets the recorded ops."""

class _Jit:
    """
    loom::Jitted: a function of a list of arrays traced once per signature (loom.jit is the Python API).
    """

    def __init__(self, fn: object) -> None: ...

    def __call__(self, args: Sequence[ndarray], static_key: int = 0) -> tuple[list[ndarray], int]:
        """Runs the plan of these arguments' signature: (outputs, plan index)."""

    @property
    def num_traces(self) -> int:
        """How many signatures have been traced."""

    def ops(self, plan: int) -> list[str]:
        """The names of the ops plan `plan` recorded, in order."""

class _Pullback:
    """The cotangent map of one loom::vjp call (loom.vjp is the Python API)."""

    def __call__(self, cotangents: Sequence[ndarray | None], ready: object | None = None) -> list[ndarray]:
        """
        Cotangents of the outputs (None: zero) -> cotangents of the arguments. ready(i, ct), if given, is called with argument i's cotangent as soon as the backward pass has finished it.
        """

class _CudaGraph:
    """
    A CUDA graph being captured or replayed; use loom.cuda_graph, which drives it.
    """

    def __init__(self, device: Device) -> None: ...

    @property
    def device(self) -> Device: ...

    @property
    def stream(self) -> Stream:
        """The graph's capture stream (the warm-up call runs on it)."""

    def add_input(self, example: ndarray) -> ndarray:
        """A new buffer of the graph holding a copy of `example`."""

    def begin_capture(self) -> None: ...

    def end_capture(self, outputs: Sequence[ndarray]) -> None: ...

    def abort_capture(self) -> None: ...

    @property
    def captured(self) -> bool: ...

    def replay(self, args: Sequence[ndarray]) -> None:
        """
        Copies `args` into the graph's inputs and launches it on the current stream.
        """

    @property
    def inputs(self) -> list[ndarray]: ...

    @property
    def outputs(self) -> list[ndarray]: ...

class _DeviceGroup:
    def __init__(self, arg: list, /) -> None: ...

    @property
    def devices(self) -> list[Device]: ...

    @property
    def uses_nccl(self) -> bool: ...

    def all_reduce(self, arrays: Sequence[ndarray], op: str = 'sum') -> None: ...

    def broadcast(self, arrays: Sequence[ndarray], root: int = 0) -> None: ...
