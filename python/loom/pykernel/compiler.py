"""A translated module: the prelude, the structs of tuple types, frozen constant arrays,
the device functions a kernel calls (each specialised on its argument types) and the
kernel itself, as one CUDA C++ program for loom.RawModule."""
import math
import os
import re

import numpy as np

from . import config
from . import types as T
from .errors import UnsupportedError
from .function import DeviceFunction
from .source import FunctionSource
from .translate import FunctionTranslator

_FILES = {}


def _read(name):
    """A .cuh file of this package, read once."""
    if name not in _FILES:
        with open(os.path.join(os.path.dirname(__file__), name)) as f:
            _FILES[name] = f.read()
    return _FILES[name]


def prelude():
    return _read("prelude.cuh")


# A line of a translated program that starts with this is a warning of its translation.
WARNING_MARK = "// loom-warning: "


class ModuleBuilder:
    def __init__(self):
        self.structs = {}       # tuple struct name -> C definition, in dependency order
        self.constants = []     # C definitions of frozen arrays
        self.const_names = {}   # (dtype, bytes, shape) -> name
        self.functions = []     # device function definitions, callees first
        self.device_cache = {}  # (dispatcher, argtypes) -> (C name, return type)
        self.stack = []         # device functions being translated (recursion check)
        self.in_progress = {}   # their keys -> (C name, declared signature or None)
        self.prototypes = {}    # C name -> declaration of a recursive device function
        self.dynamic_shared = False
        self.op_helpers = {}    # name -> definition of a function computing an op of loom's table
        self.plain_functions = {}  # Python function -> its DeviceFunction (plain_device_function)
        self.links = []         # CUDA C++ texts linked into the program (foreign.py), in order
        self.foreign = {}       # foreign function name -> its declaration and wrapper
        self.warnings = []      # what the translation warns of (WARNING_MARK lines of the source)

    def warn(self, text):
        """A warning of the translation: written into the source, so that cache.translation
        gives it each time the kernel is loaded, from the cache too."""
        if text not in self.warnings:
            self.warnings.append(text)

    def link(self, texts):
        for text in texts:
            if text not in self.links:
                self.links.append(text)

    def foreign_function(self, fn):
        self.link(fn.links)
        self.foreign.setdefault(fn.name, fn.definitions())

    def tuple_struct(self, t):
        if t.c in self.structs:  # by C name: a namedtuple and a tuple of the same items share it
            return
        for item in t.items:
            if isinstance(item, T.Tuple):
                self.tuple_struct(item)
        fields = " ".join(f"{i.c} f{k};" for k, i in enumerate(t.items))
        self.structs[t.c] = f"struct {t.c} {{ {fields} }};"

    def constant(self, arr, dtype):
        data = np.ascontiguousarray(arr)
        key = (dtype, data.tobytes(), data.shape)
        if key not in self.const_names:
            name = f"loom_const_{len(self.const_names)}"
            et = T.Scalar(dtype)
            flat = data.reshape(-1)
            values = ", ".join(_constant_c(v.item(), et) for v in flat)
            # aligned for any element type: a record array's bytes hold float64 fields
            self.constants.append(f"__constant__ __align__(16) {et.c} {name}[{max(flat.size, 1)}] = {{{values}}};")
            self.const_names[key] = name
        return self.const_names[key]

    def op_helper(self, name, text):
        self.op_helpers.setdefault(name, text)

    def device_function(self, disp, argtypes, caller, node, constants=None):
        """(C name, return type) of `disp` for `argtypes`; `constants` (argument index -> Value of
        a compile-time object or number) specialise it: one C function per distinct set."""
        constants = constants or {}
        key = (disp, argtypes, tuple((i, _identity(v.obj) if isinstance(v.type, T.Opaque) else repr(v.const))
                                     for i, v in sorted(constants.items())))
        if key in self.device_cache:
            return self.device_cache[key]
        if key in self.in_progress and self.in_progress[key][1] is not None:
            # A recursive call with the signature's types: its return type is declared.
            cname, declared = self.in_progress[key]
            ret = declared[0] if declared[0] is not None else T.NONE
            self.prototypes[cname] = (f"static __device__ __noinline__ {'void' if isinstance(ret, T.NoneType) else ret.c} "
                                      f"{cname}({', '.join(t.c for t in argtypes)});")
            return cname, ret
        if any(k[0] is disp for k in self.stack):
            if disp.declared_signature() is None:
                caller.unsupported(node, f"recursion: '{disp.__name__}' calls itself (directly or through other "
                                   "device functions); a recursive device function needs a declared signature "
                                   "(@cuda.jit('int64(int64)', device=True)), as in Numba")
            caller.unsupported(node, f"recursion: '{disp.__name__}' calls itself with other argument types than "
                               "its declared signature's")
        self.stack.append(key)
        self.link(getattr(disp, "links", ()))
        cname = f"loom_dev_{_c_name(disp.__name__)}_{len(self.device_cache) + len(self.stack)}"
        self.in_progress[key] = (cname, disp.declared_signature() if not constants else None)
        try:
            params = disp.source().params
            tr = FunctionTranslator(disp.source(), argtypes, self, "device", cname,
                                    {params[i]: v for i, v in constants.items()})
            text, ret = tr.translate()
        finally:
            self.stack.pop()
            del self.in_progress[key]
        if cname in self.prototypes:  # recursive: a real call (a GPU cannot inline it), declared up front
            text = text.replace("static __device__ __forceinline__", "static __device__ __noinline__", 1)
        self.functions.append(text)
        self.device_cache[key] = (cname, ret)
        return cname, ret

    def plain_device_function(self, func):
        """The device function of a plain Python function a kernel calls (one per function)."""
        if func not in self.plain_functions:
            self.plain_functions[func] = DeviceFunction(func)
        return self.plain_functions[func]

    def source(self, kernel_text, header=""):
        parts = [header] + [WARNING_MARK + w.replace("\n", " ") for w in self.warnings] + [prelude()]
        if self.op_helpers:  # the table's helpers, embedded for NVRTC and the emulator alike
            parts.append('#include "loom_math.cuh"')
            parts.extend(self.op_helpers.values())
        if self.dynamic_shared:
            parts.append("extern __shared__ __align__(16) unsigned char loom_dynamic_shared[];")
            parts.append(_DYNAMIC_BYTES)
        parts.extend(self.links)
        if self.links:  # the kernel's own lines again after the linked files' #line markers
            parts.append('#line 1 "<loom: translated kernel>"')
        parts.extend(self.foreign.values())
        parts.extend(self.structs.values())
        parts.extend(self.constants)
        parts.extend(self.prototypes.values())
        parts.extend(self.functions)
        parts.append(kernel_text)
        text = "\n".join(p for p in parts if p) + "\n"
        if "cooperative_groups::" in text:  # cuda.cg (cooperative.py); the emulator has its own
            text = "#include <cooperative_groups.h>\n" + text
        if "__half" in text:  # float16: NVRTC needs the toolkit's header (the emulator has its own)
            text = "#include <cuda_fp16.h>\n" + text
        if "bf16" in text or "bfloat16" in text:  # bfloat16: the header, and loom's conversions
            text = "#include <cuda_bf16.h>\n" + _read("bf16.cuh") + text
        if "loom_complex" in text:  # complex numbers: loom's own type and math, on both targets
            text = '#include "loom_complex.cuh"\n' + text
        return text


def _constant_c(value, t):
    """A number as a constant expression for a __constant__ array's initializer: infinities and
    NaN as divisions, which both compilers fold (literal_c's bit casts are function calls, which
    NVRTC refuses there: "dynamic initialization is not supported")."""
    if t.dtype in ("float32", "float64") and not math.isfinite(value):
        f = "f" if t.dtype == "float32" else ""
        num = "0.0" if math.isnan(value) else ("1.0" if value > 0 else "-1.0")
        return f"({num}{f} / 0.0{f})"
    return T.literal_c(value, t)


_DYNAMIC_BYTES = """#ifdef __CUDACC_RTC__
__device__ __forceinline__ long long loom_dynamic_shared_bytes() {
  unsigned int r;
  asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(r));
  return r;
}
#else
inline long long loom_dynamic_shared_bytes() { return 1LL << 40; }  // the emulator does not say
#endif"""


def _identity(obj):
    """A compile-time object as part of a key: itself where it hashes, else its id."""
    try:
        hash(obj)
        return obj
    except TypeError:
        return id(obj)


def _c_name(name):
    """A Python function's name as part of a C identifier ("<lambda>" -> "_lambda_")."""
    return re.sub(r"\W", "_", name)


def nvrtc_options(fastmath, lineinfo, debug):
    """The NVRTC options of a Python kernel's options (launches and ptx.py alike)."""
    opts = config.include_options()  # Numba's CUDA_NVRTC_EXTRA_SEARCH_PATHS, for linked sources' #includes
    if fastmath:
        opts.append("--use_fast_math")
    if lineinfo or debug:
        opts.append("--generate-line-info")
    return opts


def kernel_name(func):
    return "loom_pk_" + _c_name(func.__name__)


def launch_bounds(value, where):
    """Numba's launch_bounds= (max threads per block, then min blocks per SM and max blocks
    per cluster): a tuple of 1 to 3 positive ints, or None."""
    if value is None:
        return None
    bounds = tuple(value) if isinstance(value, (tuple, list)) else (value,)
    if len(bounds) > 3:
        raise ValueError(f"[{where}] Got {len(bounds)} launch bounds: {bounds}. A maximum of three are supported: "
                         "(max_threads_per_block, min_blocks_per_sm, max_blocks_per_cluster)")
    if not bounds or any(isinstance(b, bool) or not isinstance(b, int) or b <= 0 for b in bounds):
        raise ValueError(f"[{where}] launch_bounds are positive ints (max_threads_per_block, ...), not {value!r}")
    return bounds


def shared_memory_carveout(value, where):
    """Numba's shared_memory_carveout=: "MaxL1" (0), "MaxShared" (100), "default" (-1) or a
    percentage 0-100 of the unified L1/shared memory to prefer as shared (-1: the driver's
    choice). A preference the driver may round or ignore; loom checks it as Numba does and
    leaves the split to the driver."""
    if value is None:
        return None
    named = {"MaxL1": 0, "MaxShared": 100, "default": -1}
    if isinstance(value, str):
        if value not in named:
            raise ValueError(f"[{where}] Invalid carveout value: {value!r} (\"MaxL1\", \"MaxShared\", \"default\" or "
                             "an int from -1 to 100)")
        return named[value]
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"[{where}] Invalid carveout value: {value!r} (an int from -1 to 100 or a name)")
    if not -1 <= value <= 100:
        raise ValueError(f"[{where}] Carveout must be between -1 and 100, not {value}")
    return value


def translate_kernel(func, argtypes, src=None, debug=False, links=(), bounds=None):
    """(source, kernel name) of `func` as a kernel for `argtypes` (a tuple of types); `links`:
    CUDA C++ texts the kernel's link= names (foreign.py); `bounds`: launch_bounds() of it,
    written as __launch_bounds__ (NVRTC uses it; the emulator refuses a larger block)."""
    src = src or FunctionSource(func)
    mb = ModuleBuilder()
    mb.link(links)
    name = kernel_name(func)
    tr = FunctionTranslator(src, argtypes, mb, "kernel", name)
    tr.launch_bounds = bounds
    text, _ = tr.translate()
    # The CPU emulator's loop-fissioned form of a kernel with barriers (fission.py); NVRTC
    # skips it (#ifdef LOOM_EMU_WHOLE_BLOCK).
    others = "\n".join([*mb.functions, *mb.foreign.values(), *mb.links])
    whole_block = tr.whole_block_form(others)
    if whole_block:
        text += "\n" + whole_block
    header = "#define LOOM_PK_BOUNDSCHECK 1" if debug else ""
    return mb.source(text, header), name


def translate_device(func, argtypes, src=None):
    """(ModuleBuilder, C function name, return type) of `func` as a device function, for
    vectorize, guvectorize and cuda.reduce, which wrap it in a kernel of their own."""
    mb = ModuleBuilder()

    class _Caller:  # recursion errors raised before any kernel exists name the function itself
        def unsupported(self, node, message):
            raise UnsupportedError(f"[{func.__name__}] {message}")

    cname, ret = mb.device_function(DeviceFunction(func, src), tuple(argtypes), _Caller(), None)
    return mb, cname, ret
