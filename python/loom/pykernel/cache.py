"""The translation cache: generated source on disk, keyed by what the translation reads,
so a fresh process launches a known kernel without parsing Python source.

The key hashes the function's code object (bytecode, constants, names, file and first
line), the values of the globals and closure variables it names (numbers, tuples,
NumPy arrays by content, modules by name, device functions by their own key,
recursively), the argument types, the options and loom's version. Entries live beside the
compile cache ($LOOM_CACHE_DIR/pykernel), one file each, written to a temporary file and
renamed; an unreadable entry is a miss. The compile cache then finds the compiled code.
"""
import hashlib
import os
import threading
import types as pytypes

import numpy as np

from .. import _loom

_MAGIC = b"loom-pykernel-1\n"


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
    from .dispatcher import CUDADispatcher
    if isinstance(v, (bool, int, float, str, np.generic)) or v is None:
        h.update(f"{type(v).__name__}:{v!r}".encode())
    elif isinstance(v, tuple):
        h.update(b"(")
        for x in v:
            _value_bytes(x, h, seen)
        h.update(b")")
    elif isinstance(v, np.ndarray):
        h.update(f"nd:{v.dtype}:{v.shape}".encode())
        h.update(np.ascontiguousarray(v).tobytes())
    elif isinstance(v, pytypes.ModuleType):
        h.update(f"mod:{v.__name__}".encode())
    elif isinstance(v, CUDADispatcher):
        h.update(f"disp:{v.device}:{v.declared_argtypes()}".encode())
        function_key(v.py_func, h, seen)
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


def key(func, argtypes, extra):
    h = hashlib.blake2b(digest_size=20)
    h.update(_MAGIC)
    h.update(_loom.__version__.encode())
    from .compiler import prelude
    h.update(prelude().encode())
    function_key(func, h)
    h.update(repr((tuple(argtypes), extra)).encode())
    return h.hexdigest()


def _directory():
    return os.path.join(_loom._compile_cache_dir(), "pykernel")


def load(k):
    try:
        with open(os.path.join(_directory(), k), "rb") as f:
            data = f.read()
    except OSError:
        return None
    if not data.startswith(_MAGIC):
        return None
    body = data[len(_MAGIC):]
    digest, _, text = body.partition(b"\n")
    if hashlib.blake2b(text, digest_size=16).hexdigest().encode() != digest:
        return None
    try:
        name, _, source = text.decode().partition("\n")
    except UnicodeDecodeError:
        return None
    return source, name


def store(k, source, name):
    d = _directory()
    try:
        os.makedirs(d, exist_ok=True)
        text = (name + "\n" + source).encode()
        tmp = os.path.join(d, f".{k}.{os.getpid()}.{threading.get_ident()}.tmp")
        with open(tmp, "wb") as f:
            f.write(_MAGIC + hashlib.blake2b(text, digest_size=16).hexdigest().encode() + b"\n" + text)
        os.replace(tmp, os.path.join(d, k))
    except OSError:
        pass  # a read-only or full disk only costs a translation next time

