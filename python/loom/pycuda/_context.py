"""pycuda.driver's devices and contexts over loom's devices.

loom has no CUDA contexts to manage: each array knows its device and loom activates it.
PyCUDA's context stack becomes a stack of *current devices*: making or pushing a context
makes its device loom's default device of this thread, as `with loom.device(...)` does (so
mem_alloc, to_gpu and launches go there), and popping it restores the previous default.
Like CUDA's, the stack belongs to the thread. Context.synchronize() waits for the current
device.
"""
import threading

import loom
from loom import _loom

from ._errors import LogicError

# The compute capability PyCUDA programs are told for cpu(): the CPU kernel emulator follows
# Volta's semantics (independent thread scheduling, __activemask, match_any_sync, 16-bit
# atomics) and runs doubles, so code that checks `compute_capability() >= (x, y)` for those
# takes the branch the emulator can run.
EMULATED_COMPUTE_CAPABILITY = (7, 0)

_initialised = False


def init(flags=0):
    """Checks `flags` (CUDA's cuInit takes only 0); loom initialises devices on first use."""
    global _initialised
    if flags != 0:
        raise LogicError(f"[init] flags must be 0, not {flags!r}")
    _initialised = True


def _devices():
    """The devices PyCUDA code sees: the GPUs, or cpu() alone when loom's default is the CPU."""
    stack = _stack()
    base = stack[0][1] if stack else loom.default_device()  # loom's default before any context
    if base.type == "cpu":
        return [loom.cpu()]
    return [loom.gpu(i) for i in range(loom.num_gpus())]


def _version_tuple(text):
    parts = [int(p) for p in text.split(".") if p.isdigit()]
    return tuple(parts + [0] * (3 - len(parts)))[:3]


def get_version():
    """The CUDA version loom's kernels are compiled for (NVRTC's), as PyCUDA's (major, minor, 0)."""
    info = loom.build_info()
    return _version_tuple(info.get("nvrtc") or info.get("cuda_runtime") or "0")


def get_driver_version():
    """The driver's CUDA version as an integer (12040 for 12.4); without a driver (cpu()), the
    CUDA version whose kernels the emulator runs (NVRTC's)."""
    info = loom.build_info()
    major, minor, _ = _version_tuple(info.get("driver") or info.get("nvrtc") or "0")
    return major * 1000 + minor * 10


class Device:
    """pycuda.driver.Device(i): GPU i, or cpu() on a machine where loom runs kernels there."""

    def __init__(self, number):
        if isinstance(number, loom.Device):
            self._device = number
            return
        devices = _devices()
        if isinstance(number, str):
            number = int(number.rsplit(":", 1)[-1]) if ":" in number else 0
        if not 0 <= int(number) < len(devices):
            raise LogicError(f"[Device] there is no device {number}: loom sees {len(devices)} ({devices})")
        self._device = devices[int(number)]

    @staticmethod
    def count():
        """How many devices PyCUDA code sees (1, cpu(), on a machine without a GPU)."""
        return len(_devices())

    @property
    def loom_device(self):
        """The loom Device it is."""
        return self._device

    def name(self):
        d = self._device
        return d.name if d.type == "cuda" else "loom cpu() (CPU kernel emulator)"

    def pci_bus_id(self):
        return f"loom:{self._device}"

    def compute_capability(self):
        d = self._device
        return tuple(d.compute_capability) if d.type == "cuda" else EMULATED_COMPUTE_CAPABILITY

    def total_memory(self):
        return int(self._device.total_memory)

    def get_attribute(self, attribute):
        """CUDA's device attribute `attribute` (a device_attribute member or its number)."""
        from ._attributes import cpu_attribute
        code = int(attribute)
        if self._device.type == "cuda":
            return self._device.attribute(code)
        return cpu_attribute(code, self._device)

    def get_attributes(self):
        """{device_attribute: value} for every attribute the device reports."""
        from ._attributes import device_attribute
        out = {}
        for a in device_attribute:
            try:
                out[a] = self.get_attribute(a)
            except (ValueError, LogicError):
                continue
        return out

    def __getattr__(self, name):
        # PyCUDA's dev.max_threads_per_block, dev.warp_size, ...: attributes by lower-case name.
        from ._attributes import device_attribute
        try:
            a = device_attribute[name.upper()]
        except KeyError:
            raise AttributeError(f"'Device' object has no attribute '{name}'") from None
        return self.get_attribute(a)

    def make_context(self, flags=0):
        """A new context of this device, pushed: the device becomes loom's default."""
        ctx = Context(self)
        ctx.push()
        return ctx

    def retain_primary_context(self):
        """The device's primary context, not yet current (push() makes it so)."""
        return Context(self)

    def __eq__(self, other):
        return isinstance(other, Device) and other._device == self._device

    def __hash__(self):
        return hash(str(self._device))

    def __int__(self):
        return self._device.index

    def __repr__(self):
        return f"<loom.pycuda Device {self._device}>"


_thread = threading.local()


def _stack():
    """This thread's contexts: [(context, the default device before it was pushed)]."""
    if not hasattr(_thread, "stack"):
        _thread.stack = []
    return _thread.stack


class Context:
    """A CUDA context of PyCUDA's API: a device made loom's default while it is current."""

    def __init__(self, device):
        self._device = device if isinstance(device, Device) else Device(device)
        self._detached = False

    # PyCUDA's class-level queries on the current context
    @staticmethod
    def get_current():
        stack = _stack()
        return stack[-1][0] if stack else None

    @staticmethod
    def get_device():
        stack = _stack()
        return stack[-1][0]._device if stack else Device(loom.default_device())

    @staticmethod
    def synchronize():
        """Waits for all work on the current device."""
        loom.synchronize(Context.get_device().loom_device)

    @staticmethod
    def pop():
        """Makes the previous context (and its device) current again."""
        stack = _stack()
        if not stack:
            raise LogicError("[Context.pop] no context is current")
        ctx, _ = stack.pop()
        # Ends the device scope push() began: a scope, not set_default_device(), so that a
        # `with loom.device(...)` around the context finds its own device again afterwards.
        ctx._device.loom_device.__exit__(None, None, None)
        return ctx

    def push(self):
        if self._detached:
            raise LogicError("[Context.push] the context was detached")
        _stack().append((self, loom.default_device()))
        self._device.loom_device.__enter__()

    def detach(self):
        """Pops it if current; loom's device state itself lives as long as the process."""
        if Context.get_current() is self:
            Context.pop()
        self._detached = True

    @staticmethod
    def get_api_version():
        major, minor, _ = get_version()
        return major * 1000 + minor * 10

    @staticmethod
    def set_limit(limit, value):
        raise LogicError("[Context.set_limit] loom sets the device's limits itself")

    @staticmethod
    def get_limit(limit):
        raise LogicError("[Context.get_limit] loom does not expose the device's limits")

    @staticmethod
    def set_cache_config(config):
        """Accepted: the driver chooses the L1/shared split per kernel on current GPUs."""

    @staticmethod
    def get_cache_config():
        from ._attributes import func_cache
        return func_cache.PREFER_NONE

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.detach()
        return False

    def __repr__(self):
        return f"<loom.pycuda Context of {self._device.loom_device}>"
