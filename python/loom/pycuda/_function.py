"""pycuda.driver.Function: a loom kernel called with PyCUDA's conventions.

PyCUDA packs each argument by its own type and passes device pointers as integers
(`np.intp(alloc) + 4`, `int(alloc)`, a GPUArray's `gpudata`); loom's kernels check each
argument against the parameter's C type. The wrapper turns what PyCUDA means by an address
into one loom takes (ctypes.c_void_p): integers at pointer parameters (RawKernel.param_kinds
tells which), pointer holders, and arrays (their data address, whatever the pointer's element
type, as PyCUDA passes them; they must live on the current context's device). Numbers keep
loom's conversion rules. `prepare(format)` / `prepared_call` convert each argument by the
format's type code first.
"""
import ctypes
import re
import time

import numpy as np

import loom
from loom import _loom
from loom.pykernel.host_api import data_address

from ._attributes import function_attribute
from ._errors import LogicError
from ._memory import DeviceAllocation, address_of, mem_alloc, memcpy_dtoh, to_device

_PASS_THROUGH = (loom.ndarray, DeviceAllocation, _loom.In, _loom.Out, _loom.InOut, ctypes.c_void_p)
_TEXTURES_GONE = "texture and surface references were removed in CUDA 12; use texture objects"


def _struct_bytes(arg):
    """A NumPy structured or vector value (PyCUDA's make_float3) as the bytes it packs."""
    return np.frombuffer(np.ascontiguousarray(arg).tobytes(), dtype=np.dtype((np.void, arg.nbytes)))[0]


def convert(arg, kind, code=None):
    """`arg` as loom's kernels take it, for a parameter of `kind` ('pointer', 'scalar', 'view',
    'unknown' or None) and PyCUDA format `code` ('P', 'i', 'f', '12s', ... or None)."""
    if code == "P" and not isinstance(arg, _PASS_THROUGH):
        return ctypes.c_void_p(address_of(arg, "prepared_call"))
    if code is not None and code.endswith("s"):
        return _struct_bytes(np.asarray(arg))
    if code is not None and code != "P" and not isinstance(arg, _PASS_THROUGH):
        arg = np.dtype(code).type(arg)
    if isinstance(arg, loom.ndarray) and kind != "view":
        # PyCUDA passes an array as its data address, whatever the pointer's element type
        # (programs reinterpret memory that way); the launch's device is the context's.
        if arg.device != loom.default_device():
            raise loom.DeviceMismatchError(f"a kernel argument lives on {arg.device} but the current "
                                           f"context's device is {loom.default_device()}")
        return ctypes.c_void_p(data_address(arg) if arg.size else None)
    if isinstance(arg, _PASS_THROUGH):
        return arg
    if isinstance(arg, np.ndarray) and arg.dtype.kind == "V":
        return _struct_bytes(arg)
    if isinstance(arg, (int, np.integer)) and not isinstance(arg, (bool, np.bool_)):
        return ctypes.c_void_p(int(arg)) if kind == "pointer" else arg
    if isinstance(arg, (float, complex, bool, np.generic, np.ndarray)):
        return arg
    cai = getattr(arg, "__cuda_array_interface__", None)
    if cai is not None:
        return ctypes.c_void_p(int(cai["data"][0]))
    gpudata = getattr(arg, "gpudata", None)
    if gpudata is not None and gpudata is not arg:
        return convert(gpudata, kind)
    if hasattr(arg, "__index__") or hasattr(arg, "__int__"):
        return ctypes.c_void_p(int(arg))
    return arg  # loom names the kind it cannot take


def _host_handlers(args):
    """In/Out/InOut of host arrays whose dtype loom's arrays lack (structured, vector types):
    copied through a raw allocation here, as PyCUDA does; the others stay loom's."""
    out, copies_back = [], []
    for a in args:
        host = getattr(a, "array", None) if isinstance(a, (_loom.In, _loom.Out, _loom.InOut)) else None
        if host is None or host.dtype.kind != "V":
            out.append(a)
            continue
        alloc = mem_alloc(host.nbytes) if isinstance(a, _loom.Out) else to_device(host)
        if not isinstance(a, _loom.In):
            copies_back.append((host, alloc))
        out.append(alloc)
    return out, copies_back


def parse_format(fmt):
    """PyCUDA's struct-style format ("PiP", "f12sP") as one code per argument."""
    codes = re.findall(r"(\d*)([a-zA-Z?])", fmt.replace(" ", ""))
    return [f"{n}s" if c == "s" else c for n, c in codes if c not in "x"]


def _format_of(arg_types):
    if isinstance(arg_types, str):
        return arg_types
    out = ""
    for t in arg_types:
        if isinstance(t, type) and issubclass(t, np.number):
            out += np.dtype(t).char
        elif isinstance(t, np.dtype):
            out += f"{t.itemsize}s" if t.char == "V" else t.char
        elif isinstance(t, str):
            out += t
        else:
            out += "P"
    return out


class Function:
    """A kernel of a SourceModule, called as PyCUDA calls it."""

    def __init__(self, kernel):
        self._kernel = kernel
        self._kinds = None
        self.arg_format = None
        self.texrefs = []

    @property
    def kernel(self):
        """The loom RawKernel it calls."""
        return self._kernel

    def _param_kinds(self, n):
        if self._kinds is None:
            self._kinds = list(self._kernel.param_kinds)
        return self._kinds if len(self._kinds) == n else [None] * n

    def _launch(self, args, codes, grid, block, shared, stream):
        kinds = self._param_kinds(len(args))
        args, copies_back = _host_handlers(args)
        converted = [convert(a, k, c) for a, k, c in zip(args, kinds, codes)]
        kw = {"grid": tuple(grid), "block": tuple(block), "shared": int(shared or 0)}
        if stream is not None:
            kw["stream"] = stream
        self._kernel(*converted, **kw)
        for host, alloc in copies_back:
            memcpy_dtoh(host, alloc)

    def __call__(self, *args, grid=(1, 1), block=None, stream=None, shared=0, texrefs=(), time_kernel=False):
        if block is None:
            raise ValueError(f"[{self._kernel.name}] must specify block size (block=(x, y, z))")
        if texrefs:
            raise LogicError(f"[{self._kernel.name}] {_TEXTURES_GONE}")
        if time_kernel:
            if stream is not None:
                raise LogicError(f"[{self._kernel.name}] can't time the kernel on an asynchronous invocation")
            loom.synchronize(loom.default_device())
            start = time.perf_counter()
        self._launch(args, [None] * len(args), grid, block, shared, stream)
        if time_kernel:
            loom.synchronize(loom.default_device())
            return time.perf_counter() - start
        return None

    # ---- prepared invocation -------------------------------------------------------
    def prepare(self, arg_types, texrefs=None, block=None, shared=None):
        """Records the argument types (a format string such as "PiP", or a list of dtypes)."""
        if texrefs:
            raise LogicError(f"[{self._kernel.name}.prepare] {_TEXTURES_GONE}")
        self.arg_format = _format_of(arg_types)
        self._codes = parse_format(self.arg_format)
        return self

    def _prepared_codes(self, args, op):
        if self.arg_format is None:
            raise LogicError(f"[{self._kernel.name}.{op}] call prepare() first")
        if len(args) != len(self._codes):
            raise TypeError(f"[{self._kernel.name}.{op}] prepared for {len(self._codes)} arguments "
                            f"({self.arg_format!r}), got {len(args)}")
        return self._codes

    def prepared_call(self, grid, block, *args, shared_size=0):
        self._launch(args, self._prepared_codes(args, "prepared_call"), grid, block, shared_size, None)

    def prepared_async_call(self, grid, block, stream, *args, shared_size=0):
        self._launch(args, self._prepared_codes(args, "prepared_async_call"), grid, block, shared_size, stream)

    def prepared_timed_call(self, grid, block, *args, shared_size=0):
        """Launches; returns a function that waits and gives the kernel's time in seconds."""
        codes = self._prepared_codes(args, "prepared_timed_call")
        from ._streams import Event
        start, end = Event(), Event()
        start.record()
        self._launch(args, codes, grid, block, shared_size, None)
        end.record()

        def get_call_time():
            end.synchronize()
            return end.time_since(start) * 1e-3
        return get_call_time

    # ---- attributes ----------------------------------------------------------------
    def get_attribute(self, attribute):
        a = self._kernel.attributes(loom.default_device())
        names = {function_attribute.MAX_THREADS_PER_BLOCK: "max_threads_per_block",
                 function_attribute.SHARED_SIZE_BYTES: "shared_size_bytes",
                 function_attribute.CONST_SIZE_BYTES: "const_size_bytes",
                 function_attribute.LOCAL_SIZE_BYTES: "local_size_bytes",
                 function_attribute.NUM_REGS: "num_regs",
                 function_attribute.PTX_VERSION: "ptx_version",
                 function_attribute.BINARY_VERSION: "binary_version",
                 function_attribute.MAX_DYNAMIC_SHARED_SIZE_BYTES: "max_dynamic_shared_size_bytes"}
        key = names.get(function_attribute(int(attribute)))
        if key is None:
            raise ValueError(f"[{self._kernel.name}.get_attribute] loom does not report {attribute!r}")
        return int(a[key])

    def __getattr__(self, name):
        try:
            attribute = function_attribute[name.upper()]
        except KeyError:
            raise AttributeError(f"'Function' object has no attribute '{name}'") from None
        return self.get_attribute(attribute)

    def set_cache_config(self, config):
        """Accepted: current GPUs choose the L1/shared split per launch."""

    def set_shared_config(self, config):
        """Accepted: shared-memory bank size is fixed on current GPUs."""

    def param_set_texref(self, texref):
        raise LogicError(f"[{self._kernel.name}] {_TEXTURES_GONE}")

    def __repr__(self):
        return f"<loom.pycuda Function {self._kernel.name}>"
