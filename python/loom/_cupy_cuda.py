"""cupy.cuda's streams, events and devices in loom.cuda, beside Numba's names (loom/cuda.py).

    s = loom.cuda.Stream(non_blocking=True)   # a loom.Stream
    s.use()                                   # current on its device until another is used
    with loom.cuda.Stream() as t: ...         # current inside the block only
    with loom.cuda.Device(1): ...             # gpu(1) current inside the block
    e = loom.cuda.Event(); e.record(); e.synchronize(); e.done

Streams and events are loom's own objects (loom.Stream, loom.Event), so Numba's
`cuda.stream()` and CuPy's `cuda.Stream()` give the same kind; `loom.cuda.Stream` and
`loom.cuda.Event` are classes with CuPy's constructors whose isinstance answers for them.
`loom.cuda.Device` is CuPy's Device (compute_capability '90', id, use()); Numba's device
objects (`cuda.gpus[i]`, `cuda.get_current_device()`) stay loom.Device.

`use()` and `with`: loom's core keeps one stack of scopes per thread for the current stream
of each device and one for the current device; `with` pushes a scope and pops it, and
`use()` pushes one that lasts until the enclosing `with` ends (at top level: until replaced).
A level holds at most one use() scope per device, so calling use() in a loop does not grow.
"""
import threading

from . import _loom
from ._numpy import memptr as _memptr

__all__ = ["Stream", "Event", "Device", "get_current_stream", "get_elapsed_time", "ExternalStream"]


class _Scopes:
    """The per-thread levels of `with` blocks over one native scope stack (entered/exited by
    the bound __enter__/__exit__), and the use() scopes of each level, by key."""

    def __init__(self, native_enter, native_exit):
        self.enter_native, self.exit_native = native_enter, native_exit
        self.local = threading.local()

    def levels(self):
        levels = getattr(self.local, "levels", None)
        if levels is None:
            levels = self.local.levels = [{}]
        return levels

    def _pop_uses(self, obj, uses):
        for _ in range(len(uses)):
            self.exit_native(obj, None, None, None)

    def enter(self, obj):
        self.enter_native(obj)
        self.levels().append({})
        return obj

    def exit(self, obj):
        levels = self.levels()
        uses = levels.pop() if len(levels) > 1 else {}
        self._pop_uses(obj, uses)  # what use() made current inside the block ends with it
        self.exit_native(obj, None, None, None)
        return False

    def use(self, obj, key):
        uses = self.levels()[-1]
        self._pop_uses(obj, uses)
        uses.pop(key, None)
        uses[key] = obj
        for o in uses.values():
            self.enter_native(o)
        return obj


_stream_scopes = _Scopes(_loom.Stream.__enter__, _loom.Stream.__exit__)
_device_scopes = _Scopes(_loom.Device.__enter__, _loom.Device.__exit__)


def _stream_enter(self):
    """Makes this stream current on its device until the with-block ends."""
    return _stream_scopes.enter(self)


def _stream_exit(self, exc_type=None, exc_value=None, traceback=None):
    """Restores the stream current before the with-block (use() calls inside it end too)."""
    return _stream_scopes.exit(self)


def _stream_use(self):
    """CuPy's Stream.use(): makes this stream the current one of its device in this thread until
    another is used, or until the enclosing with-block ends. Returns the stream."""
    return _stream_scopes.use(self, self.device)


def _stream_add_callback(self, callback, arg):
    """CuPy's Stream.add_callback: callback(stream, error, arg) once the work queued so far is
    done. loom waits for the stream and calls it on this thread (error is 0)."""
    self.synchronize()
    callback(self, 0, arg)


def _stream_launch_host_func(self, callback, arg):
    """CuPy's Stream.launch_host_func: callback(arg) once the work queued so far is done (loom
    waits for the stream and calls it on this thread)."""
    self.synchronize()
    callback(arg)


class DoneAttribute:
    """s.done and e.done (CuPy's): query(), True once the queued or recorded work has finished.
    A descriptor class rather than a property, which the stub generator cannot write."""

    def __get__(self, obj, cls=None):
        return self if obj is None else obj.query()


class DeviceIdAttribute:
    """s.device_id (CuPy's): the stream's device number, -1 for cpu()."""

    def __get__(self, obj, cls=None):
        return self if obj is None else _memptr.device_id(obj.device)


_loom.Stream.__enter__ = _stream_enter
_loom.Stream.__exit__ = _stream_exit
_loom.Stream.use = _stream_use
_loom.Stream.done = _loom.Event.done = DoneAttribute()
_loom.Stream.add_callback = _stream_add_callback
_loom.Stream.launch_host_func = _stream_launch_host_func
_loom.Stream.device_id = DeviceIdAttribute()


def _device_enter(self):
    """Makes this device the default of this thread until the with-block ends."""
    return _device_scopes.enter(self)


def _device_exit(self, exc_type=None, exc_value=None, traceback=None):
    """Restores the previous default device (a Device.use() inside the block ends too)."""
    return _device_scopes.exit(self)


_loom.Device.__enter__ = _device_enter
_loom.Device.__exit__ = _device_exit


def _to_device(spec, op):
    """A loom Device from CuPy's device number (-1: cpu()), a loom Device or cuda.Device, or None
    (the current device)."""
    if spec is None:
        return _loom.default_device()
    if isinstance(spec, Device):
        return spec.device
    if isinstance(spec, _loom.Device):
        return spec
    if isinstance(spec, bool) or not isinstance(spec, int):
        raise TypeError(f"[{op}] a device is a GPU number (-1: cpu()), a loom.Device or None, "
                        f"not {type(spec).__name__}")
    if spec == -1:
        return _loom.cpu()
    n = _loom.num_gpus()
    if not 0 <= spec < n:
        raise ValueError(f"[{op}] there is no GPU {spec} ({n} present; -1 is cpu())")
    return _loom.gpu(spec)


class _LoomClass(type):
    """A CuPy constructor for one of loom's classes: isinstance answers for that class."""

    def __instancecheck__(cls, obj):
        return isinstance(obj, cls._loom_type)

    def __subclasscheck__(cls, sub):
        return sub is cls or (isinstance(sub, type) and issubclass(sub, cls._loom_type))


class _StreamClass(_LoomClass):
    @property
    def null(cls):
        """The current device's null (default) stream: Stream.null."""
        return _loom.default_stream()

    @property
    def ptds(cls):
        """The current device's per-thread default stream: Stream.ptds."""
        return _loom.per_thread_default_stream()


class Stream(metaclass=_StreamClass):
    """cupy.cuda.Stream(null=False, non_blocking=False, ptds=False): a new loom.Stream on the
    current device; null=True gives the device's null stream, ptds=True its per-thread default
    stream. Use it with `with s:` or `s.use()`. device= (loom's) picks another device."""
    _loom_type = _loom.Stream

    def __new__(cls, null=False, non_blocking=False, ptds=False, *, device=None):
        if null and ptds:
            raise ValueError("[cuda.Stream] null and ptds cannot both be True")
        dev = _to_device(device, "cuda.Stream")
        if null:
            return _loom.default_stream(dev)
        if ptds:
            return _loom.per_thread_default_stream(dev)
        return _loom.Stream(dev, bool(non_blocking))


def ExternalStream(ptr, device_id=None):
    """cupy.cuda.ExternalStream(ptr, device_id=None): a stream made by other code, never
    destroyed by loom (Numba's cuda.external_stream)."""
    return _loom.external_stream(ptr, _to_device(device_id, "cuda.ExternalStream"))


class Event(metaclass=_LoomClass):
    """cupy.cuda.Event(block=False, disable_timing=False, interprocess=False): a new loom.Event
    on the current device (record, synchronize, query, done, elapsed_time). block=True is
    accepted: the host waits in synchronize() either way."""
    _loom_type = _loom.Event

    def __new__(cls, block=False, disable_timing=False, interprocess=False, *, device=None):
        if interprocess:
            raise NotImplementedError("[cuda.Event] interprocess events are not supported by loom")
        return _loom.Event(_to_device(device, "cuda.Event"), not disable_timing)


def get_current_stream(device_id=None):
    """The current stream of device `device_id` (the current device when None) in this thread."""
    return _loom.current_stream(_to_device(device_id, "get_current_stream"))


def get_elapsed_time(start_event, end_event):
    """Milliseconds between two recorded events (CuPy's cupy.cuda.get_elapsed_time)."""
    return start_event.elapsed_time(end_event)


class Device:
    """cupy.cuda.Device(device=None): a GPU by number (-1: cpu(), CUDA's cudaCpuDeviceId), a loom
    Device, or the current device when None. `use()` makes it current in this thread; `with` for
    a block. `id`, `compute_capability` (CuPy's string, '90'), `mem_info`, `synchronize()`;
    `device` is the loom Device."""

    def __init__(self, device=None):
        self.device = _to_device(device, "cuda.Device")

    @property
    def id(self):
        return _memptr.device_id(self.device)

    def __int__(self):
        return self.id

    __index__ = __int__

    @property
    def compute_capability(self):
        """'90' for compute capability 9.0 (CuPy's form; loom.Device's and Numba's is (9, 0));
        '00' for cpu()."""
        major, minor = self.device.compute_capability
        return f"{major}{minor}"

    @property
    def mem_info(self):
        """(free, total) bytes."""
        return (self.device.free_memory, self.device.total_memory)

    @property
    def attributes(self):
        """The device's properties under CuPy's runtime names (runtime.getDeviceProperties)."""
        from . import _cupy_runtime  # lazy: _cupy_runtime imports this module
        return _cupy_runtime.properties(self.device, "cuda.Device.attributes")

    def use(self):
        """Makes this device the current one of this thread until another is used, or until the
        enclosing with-block ends."""
        _device_scopes.use(self.device, None)
        return self

    def synchronize(self):
        """Waits for all work queued on this device."""
        self.device.synchronize()

    def __enter__(self):
        self.device.__enter__()
        return self

    def __exit__(self, *exc):
        return self.device.__exit__(*exc)

    def __eq__(self, other):
        if isinstance(other, Device):
            return self.device == other.device
        if isinstance(other, _loom.Device):
            return self.device == other
        return NotImplemented

    def __hash__(self):
        return hash(self.device)

    def __repr__(self):
        return f"<CUDA Device {self.id}>" if self.id >= 0 else "<loom.cuda.Device cpu()>"
