"""The translation's key, so a fresh process launches a known kernel without parsing
Python source: the generated source is kept in the one compile cache (kind "pykernel"), with
its entry format, its checksum over the key and its owner and permission checks
(docs/ARCHITECTURE.md, "Files loom writes"); this module writes no file itself.

The key hashes the function's code object (bytecode, constants, names, file and first
line), the values of the globals and closure variables it names (numbers, tuples,
NumPy arrays by content, modules by name, device functions by their own key,
recursively), the argument types, the options, the translator's prelude, the elementwise
op table's expressions (ufuncs.py) and loom's version. The compile cache then finds the compiled code under a key of its own.
"""
import enum
import hashlib
import types as pytypes
import warnings

import numpy as np

from .. import _loom
from .foreign import ForeignFunction
from .function import KernelFunction
from .host_api import data_address
from .ufuncs import OPS

# The op table's expressions and loops, which translations copy: a change of the table is a new key.
_OPS_BYTES = repr(sorted(OPS.items())).encode()

# Changes whenever what a translation produces changes in a way the key does not see.
_KEY_VERSION = b"loom-pykernel-13\n"  # 13: kernels with barriers carry their loop-fissioned form for the emulator; 12: locals assigned one integer once are constants, UniTuples indexed at run time (11: records, enums, bfloat16; 10: fmax/fmin for float max/min; 9: bytecode, foreign functions, complex, views, reductions, literal_unroll, inf/nan constants)


def _code_bytes(code, h):
    h.update(code.co_code)
    h.update(repr((code.co_filename, code.co_firstlineno, code.co_names, code.co_varnames,
                   code.co_freevars, code.co_argcount)).encode())
    for c in code.co_consts:
        if isinstance(c, pytypes.CodeType):
            _code_bytes(c, h)
        else:
            h.update(repr(c).encode())


def _value_bytes(v, h, seen):
    if isinstance(v, enum.Enum):  # a member: its class, name and value (enums.py)
        h.update(f"enum:{type(v).__module__}.{type(v).__qualname__}:{v.name}={v.value!r}".encode())
    elif isinstance(v, type) and issubclass(v, enum.Enum):  # Color.red in a kernel reads the values
        h.update(f"enumclass:{v.__module__}.{v.__qualname__}:{[(m.name, m.value) for m in v]!r}".encode())
    elif isinstance(v, (bool, int, float, str, np.generic)) or v is None:
        h.update(f"{type(v).__name__}:{v!r}".encode())
    elif isinstance(v, tuple):
        h.update(b"(")
        for x in v:
            _value_bytes(x, h, seen)
        h.update(b")")
    elif isinstance(v, _loom.ndarray):  # a device array global: its address is in the translation
        h.update(f"dev:{v.device}:{data_address(v)}:{v.dtype}:{tuple(v.shape)}:{tuple(v.strides)}".encode())
    elif isinstance(v, np.ndarray):
        h.update(f"nd:{v.dtype}:{v.shape}".encode())
        h.update(np.ascontiguousarray(v).tobytes())
    elif isinstance(v, pytypes.ModuleType):
        h.update(f"mod:{v.__name__}".encode())
    elif isinstance(v, ForeignFunction):  # cuda.declare_device: its signature and linked texts
        h.update(b"ffi:" + v.key_bytes())
    elif isinstance(v, KernelFunction):
        h.update(f"disp:{v.device}:{v.declared_argtypes()}".encode())
        function_key(v.py_func, h, seen)
    elif isinstance(v, pytypes.FunctionType):  # a plain def a kernel calls: translated with it
        h.update(b"pyfunc:")
        function_key(v, h, seen)
    elif isinstance(v, type):
        h.update(f"type:{v.__module__}.{v.__qualname__}".encode())
    else:
        # Intrinsic markers, math and NumPy functions, dtypes: stable by module and name.
        h.update(f"obj:{type(v).__module__}.{type(v).__qualname__}:{getattr(v, '__name__', '')}:"
                 f"{getattr(v, 'name', '')}:{str(v) if hasattr(v, 'dtype') or type(v).__module__.startswith('numba') else ''}".encode())


def function_key(func, h, seen=None):
    """Feeds what translating `func` reads into hash `h`."""
    seen = seen if seen is not None else set()
    if id(func) in seen:
        return
    seen.add(id(func))
    code = func.__code__
    _code_bytes(code, h)
    g = func.__globals__
    for name in code.co_names:
        if name in g:
            h.update(name.encode())
            _value_bytes(g[name], h, seen)
    for name, cell in zip(code.co_freevars, func.__closure__ or ()):
        h.update(name.encode())
        try:
            _value_bytes(cell.cell_contents, h, seen)
        except ValueError:
            h.update(b"<empty>")


def device_arrays_read(func, seen=None):
    """The loom arrays `func` (and the functions it calls) names as globals or closure
    variables: a kernel that bakes their addresses in keeps them alive."""
    seen = seen if seen is not None else set()
    if id(func) in seen:
        return []
    seen.add(id(func))
    code, g = func.__code__, func.__globals__
    values = [g[n] for n in code.co_names if n in g]
    for cell in func.__closure__ or ():
        try:
            values.append(cell.cell_contents)
        except ValueError:
            pass
    found = []
    for v in values:
        if isinstance(v, _loom.ndarray):
            found.append(v)
        elif isinstance(v, KernelFunction):
            found += device_arrays_read(v.py_func, seen)
        elif isinstance(v, pytypes.FunctionType):
            found += device_arrays_read(v, seen)
    return found


def key(func, argtypes, extra):
    """The translation's key (bytes): everything `translate_kernel` reads."""
    h = hashlib.blake2b(digest_size=32)
    h.update(_KEY_VERSION)
    h.update(_loom.__version__.encode())
    from .compiler import prelude
    h.update(prelude().encode())
    h.update(_OPS_BYTES)
    function_key(func, h)
    h.update(repr((tuple(argtypes), extra)).encode())
    return h.digest()


def _decodes(payload):
    try:
        name, sep, _ = payload.decode().partition("\n")
    except UnicodeDecodeError:
        return False
    return bool(sep) and name.isidentifier()


def translation(k, translate):
    """(source, kernel name) for key `k`: from the compile cache, else `translate()`."""
    def compile():
        source, name = translate()
        return (name + "\n" + source).encode()
    payload = _loom._compile_cache_get_or_compile("pykernel", k, compile, _decodes)
    name, _, source = payload.decode().partition("\n")
    from .compiler import WARNING_MARK
    for line in source.splitlines():  # the translation's warnings, each time it is loaded
        if line.startswith(WARNING_MARK):
            warnings.warn(line[len(WARNING_MARK):], UserWarning, stacklevel=4)
        elif line and not line.startswith(("//", "#")):  # they come before the first line of code
            break
    return source, name
