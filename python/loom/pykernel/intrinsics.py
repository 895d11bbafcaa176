"""The cuda.* intrinsics inside kernels: indices, barriers, warp functions, local, shared and
constant arrays, atomics (Numba's CUDA API, translated to the CUDA C functions of the same
meaning, which NVRTC and the CPU kernel emulator both provide)."""
import math

import numpy as np

from .. import _loom
from . import array_methods, host_api, records, stubs, vector_types
from . import types as T
from .numba_types import layout_of
from .ufuncs import check_numbers, float_type, math_handler
from .values import Value, cast, literal, tuple_items

HANDLERS = {}  # the stub object -> handler(tr, node, args, kwargs) -> Value


def handler(*objs):
    def register(fn):
        for o in objs:
            HANDLERS[o] = fn
        return fn
    return register


def dim3_attribute(tr, node, obj, attr):
    if attr not in ("x", "y", "z"):
        tr.fail(node, f"cuda.{obj.name} has .x, .y and .z, not .{attr}")
    return Value(f"((int){obj.name}.{attr})", T.INT32, nonneg=True)


def value_of(tr, node, obj):
    """cuda.laneid and cuda.warpsize are values, not calls."""
    if obj is stubs.laneid:
        return Value("((int)((threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) & 31u))",
                     T.INT32, nonneg=True)
    if obj is stubs.warpsize:
        return Value("32", T.INT32, const=32, nonneg=True)
    return None


def _const_int(tr, node, v, what):
    if v is None or v.const is None or isinstance(v.const, (bool, float)) or not isinstance(v.const, int):
        tr.fail(node, f"RequireLiteralValue: {what} must be a constant integer")  # Numba's error class named
    return v.const


def _ndim_arg(tr, node, args, name):
    if len(args) != 1:
        tr.fail(node, f"cuda.{name}() takes one argument, the number of dimensions")
    n = _const_int(tr, node, args[0], f"the argument of cuda.{name}()")
    if n not in (1, 2, 3):
        tr.fail(node, f"cuda.{name}({n}): the number of dimensions is 1, 2 or 3")
    return n


@handler(stubs.grid)
def _grid(tr, node, args, kwargs):
    n = _ndim_arg(tr, node, args, "grid")
    items = [Value(f"((long long)blockIdx.{d} * blockDim.{d} + threadIdx.{d})", T.INT64, nonneg=True)
             for d in "xyz"[:n]]
    return items[0] if n == 1 else Value(None, T.Tuple([T.INT64] * n), items=items)


@handler(stubs.gridsize)
def _gridsize(tr, node, args, kwargs):
    n = _ndim_arg(tr, node, args, "gridsize")
    items = [Value(f"((long long)blockDim.{d} * gridDim.{d})", T.INT64, nonneg=True) for d in "xyz"[:n]]
    return items[0] if n == 1 else Value(None, T.Tuple([T.INT64] * n), items=items)


def _no_args(tr, node, args, name):
    if args:
        tr.fail(node, f"cuda.{name}() takes no arguments")


@handler(stubs.syncthreads)
def _syncthreads(tr, node, args, kwargs):
    _no_args(tr, node, args, "syncthreads")
    return Value("__syncthreads()", T.NONE)


def _pred(tr, node, args, name, n=1):
    check_numbers(tr, node, args, n, f"cuda.{name}")


def _sync_pred(cname):
    def h(tr, node, args, kwargs):
        _pred(tr, node, args, cname)
        return Value(f"{cname}((int)({args[0].code} != 0))", T.INT32, nonneg=True)
    return h


handler(stubs.syncthreads_count)(_sync_pred("__syncthreads_count"))
handler(stubs.syncthreads_and)(_sync_pred("__syncthreads_and"))
handler(stubs.syncthreads_or)(_sync_pred("__syncthreads_or"))


def _mask(v):
    return cast(v, T.UINT32)


@handler(stubs.syncwarp)
def _syncwarp(tr, node, args, kwargs):
    mask = args[0] if args else kwargs.get("mask")
    return Value(f"__syncwarp({_mask(mask) if mask is not None else '0xffffffffu'})", T.NONE)


_SHFL_TYPES = {"int32", "int64", "uint32", "uint64", "float32", "float64"}


def _shfl(cname):
    def h(tr, node, args, kwargs):
        if len(args) != 3:
            tr.fail(node, f"{cname[2:]}() takes (mask, value, lane or delta)")
        mask, value, lane = args
        if not isinstance(value.type, T.Scalar):
            tr.fail(node, f"{cname[2:]}() shuffles numbers, not {value.type}")
        t = value.type
        if t.is_bool or value.weak:
            t = T.INT64 if value.weak == "int" or t.is_bool else T.FLOAT64
        if t.dtype not in _SHFL_TYPES:
            t = T.INT32 if t.is_int else T.FLOAT32
        return Value(f"{cname}({_mask(mask)}, {cast(value, t)}, {cast(lane, T.INT32)})", t)
    return h


for _o, _c in ((stubs.shfl_sync, "__shfl_sync"), (stubs.shfl_up_sync, "__shfl_up_sync"),
               (stubs.shfl_down_sync, "__shfl_down_sync"), (stubs.shfl_xor_sync, "__shfl_xor_sync")):
    handler(_o)(_shfl(_c))


def _check_mask(tr, node, v):
    if not v.type.is_int:  # Numba's words
        tr.fail(node, f"Mask type must be an integer, not {v.type}")


def _vote(cname, result, name):
    def h(tr, node, args, kwargs):
        _pred(tr, node, args, name, 2)
        _check_mask(tr, node, args[0])
        if not (args[1].type.is_int or args[1].type.is_bool):
            tr.fail(node, f"Predicate must be an integer or boolean, not {args[1].type}")
        return Value(f"(({result.c}){cname}({_mask(args[0])}, (int)({args[1].code} != 0)))", result)
    return h


handler(stubs.ballot_sync)(_vote("__ballot_sync", T.UINT32, "ballot_sync"))
handler(stubs.all_sync)(_vote("__all_sync", T.INT32, "all_sync"))
handler(stubs.any_sync)(_vote("__any_sync", T.INT32, "any_sync"))
# vote.uni: CUDA C's __uni_sync.
handler(stubs.eq_sync)(_vote("__uni_sync", T.INT32, "eq_sync"))

# match.sync compares 32- and 64-bit values bit for bit; CUDA C overloads it for these.
_MATCH_TYPES = {"int32", "uint32", "int64", "uint64", "float32", "float64"}


def _match_args(tr, node, args, name):
    _pred(tr, node, args, name, 2)
    _check_mask(tr, node, args[0])
    v = args[1]
    if v.type.dtype not in _MATCH_TYPES and not v.weak:
        tr.fail(node, f"cuda.{name}() matches 32- or 64-bit integers and floats, not {v.type}")
    t = (T.FLOAT64 if v.weak == "float" else T.INT64) if v.weak else v.type
    return _mask(args[0]), cast(v, t)


@handler(stubs.match_any_sync)
def _match_any(tr, node, args, kwargs):
    mask, value = _match_args(tr, node, args, "match_any_sync")
    return Value(f"((unsigned int)__match_any_sync({mask}, {value}))", T.UINT32)


@handler(stubs.match_all_sync)
def _match_all(tr, node, args, kwargs):
    """Numba's (mask, predicate) pair from CUDA C's __match_all_sync(mask, value, &pred)."""
    mask, value = _match_args(tr, node, args, "match_all_sync")
    t = T.Tuple([T.UINT32, T.BOOL])
    tr.module.tuple_struct(t)
    code = (f"([&]() {{ int p; const unsigned int m = __match_all_sync({mask}, {value}, &p); "
            f"return {t.c}{{m, p != 0}}; }}())")
    return Value(code, t)


@handler(stubs.lanemask_lt)
def _lanemask_lt(tr, node, args, kwargs):
    """PTX's %lanemask_lt, computed from the lane (the linear thread index modulo 32, as
    cuda.laneid) so the emulator needs nothing more."""
    _no_args(tr, node, args, "lanemask_lt")
    lane = value_of(tr, node, stubs.laneid).code
    return Value(f"((1u << (unsigned int){lane}) - 1u)", T.UINT32, nonneg=True)


@handler(stubs.activemask)
def _activemask(tr, node, args, kwargs):
    _no_args(tr, node, args, "activemask")
    return Value("__activemask()", T.UINT32)


def _fence(cname):
    def h(tr, node, args, kwargs):
        _no_args(tr, node, args, cname[2:])
        return Value(f"{cname}()", T.NONE)
    return h


handler(stubs.threadfence)(_fence("__threadfence"))
handler(stubs.threadfence_block)(_fence("__threadfence_block"))
handler(stubs.threadfence_system)(_fence("__threadfence_system"))


def _bits(c32, c64, same_type):
    def h(tr, node, args, kwargs):
        _pred(tr, node, args, c32[2:])
        v = args[0]
        if not (v.type.is_int or v.weak == "int"):
            tr.fail(node, f"{c32[2:]}() takes an integer, not {v.type}")
        wide = v.type.dtype in ("int64", "uint64") or v.weak
        t = (T.UINT64 if wide else T.UINT32)
        fn = c64 if wide else c32
        rt = v.type if same_type and not v.weak else (T.INT64 if same_type else T.INT32)
        return Value(f"(({rt.c}){fn}({cast(v, t)}))", rt, nonneg=not same_type)
    return h


def bit_count(tr, node, v):
    """n.bit_count() of an integer (Python's and NumPy's: the ones of |n|), an int64."""
    if not (v.type.is_int or v.type.is_bool):
        tr.fail(node, f"bit_count() is a method of integers, not of {v.type}")
    if v.type.is_signed:
        u = f"({v.code} < 0 ? 0ULL - (unsigned long long)({v.code}) : (unsigned long long)({v.code}))"
    else:
        u = f"(unsigned long long)({v.code})"
    return Value(f"((long long)__popcll({u}))", T.INT64, nonneg=True)


handler(stubs.popc)(_bits("__popc", "__popcll", False))
handler(stubs.brev)(_bits("__brev", "__brevll", True))
handler(stubs.clz)(_bits("__clz", "__clzll", False))
handler(stubs.ffs)(_bits("__ffs", "__ffsll", False))


@handler(stubs.selp)
def _selp(tr, node, args, kwargs):
    _pred(tr, node, args, "selp", 3)
    c, a, b = args
    t = T.promote(a.type, b.type, a.weak, b.weak)
    return Value(f"(({c.code}) ? {cast(a, t)} : {cast(b, t)})", t)


# ---------------------------------------------------------------- arrays
def _shape_and_dtype(tr, node, args, kwargs, name):
    shape = args[0] if args else kwargs.get("shape")
    dtype = args[1] if len(args) > 1 else kwargs.get("dtype")
    if shape is None or dtype is None:
        tr.fail(node, f"cuda.{name}(shape, dtype) needs both arguments")
    if shape.const is None:  # Numba's words first
        dt_text = f"class({dtype.obj})" if isinstance(dtype.type, T.Opaque) else str(dtype.type)
        tr.fail(node, f"No implementation of function Function(<function {name}>) found for signature:\n \n "
                f">>> array(shape={_numba_text(shape)}, dtype={dt_text})\n"
                f"the shape is known only at run time: the shape of cuda.{name}() must be a constant integer or "
                "tuple of integers (a literal, or a global or closure variable)")
    dims = shape.const if isinstance(shape.const, tuple) else (shape.const,)
    if not dims or any(isinstance(d, bool) or not isinstance(d, int) or d < 0 for d in dims):
        tr.fail(node, f"the shape of cuda.{name}() must hold non-negative integers, not {shape.const!r}")
    if isinstance(dtype.type, T.Opaque) and dtype.type.kind == "str":  # a dtype's name, as NumPy reads it
        try:
            named = T.dtype_name(np.dtype(dtype.obj))
        except TypeError:
            named = None
        if named is None:
            tr.fail(node, f"Invalid NumPy dtype specified: {dtype.obj!r} (cuda.{name}() takes a NumPy dtype "
                    "name such as 'float32')")
        dtype = Value(None, T.Opaque("dtype", named), obj=named)
    dt = dtype.obj if isinstance(dtype.type, T.Opaque) and dtype.type.kind == "dtype" else None
    if dt is None:
        tr.fail(node, f"the dtype of cuda.{name}() must be a dtype such as np.float32, not {dtype.type}")
    return tuple(int(d) for d in dims), dt


def _numba_text(v):
    """How Numba's typing names a value in its "found for signature" messages: Literal[int](1),
    int32, array(float32, 1d, A), Tuple(...), UniTuple(int64 x 2)."""
    if v.items is not None:
        items = [_numba_text(i) for i in v.items]
        if len(set(items)) == 1 and len(items) > 1:
            return f"UniTuple({items[0]} x {len(items)})"
        return f"Tuple({', '.join(items)})"
    if v.weak == "int" and v.const is not None:
        return f"Literal[int]({v.const})"
    t = v.type
    if isinstance(t, T.Array):
        return f"array({t.dtype}, {t.ndim}d, {t.layout})"
    return str(t)


def _view(arr_type, data, shape):
    if not shape:  # a 0-d LoomArray is its pointer alone
        return f"{arr_type.c}{{{data}}}"
    strides, s = [], 1
    for d in reversed(shape):
        strides.append(s)
        s *= d
    strides.reverse()
    sh = ", ".join(f"{d}LL" for d in shape)
    st = ", ".join(f"{d}LL" for d in strides)
    return f"{arr_type.c}{{{data}, {{{sh}}}, {{{st}}}}}"


def _alignment(tr, node, kwargs, name):
    """The `alignment=` of cuda.local/shared.array (Numba's): None, or a power of two that
    the array's address is a multiple of; `__align__(n) ` to declare it with."""
    unknown = set(kwargs) - {"shape", "dtype", "alignment"}
    if unknown:
        tr.fail(node, f"cuda.{name}() takes shape, dtype and alignment, not {', '.join(sorted(unknown))}")
    a = kwargs.get("alignment")
    if a is None:
        return ""
    obj = a.obj if isinstance(a.type, T.Opaque) and a.type.kind == "object" else a.const
    if obj is None and isinstance(a.type, T.Opaque):
        return ""
    if isinstance(obj, bool) or not isinstance(obj, (int, np.integer)):
        given = "a value known only at run time" if obj is None else repr(obj)
        tr.fail(node, f"RequireLiteralValue: alignment must be a constant integer (cuda.{name}() was given {given})")
    obj = int(obj)
    if obj <= 0 or obj & (obj - 1):
        tr.fail(node, f"Alignment must be a power of 2 greater than 0, not {obj} (cuda.{name}())", ValueError)
    return f"__align__({obj}) "


@handler(stubs.local.array)
def _local_array(tr, node, args, kwargs):
    align = _alignment(tr, node, kwargs, "local.array")
    shape, dt = _shape_and_dtype(tr, node, args, kwargs, "local.array")
    size = math.prod(shape)
    if size == 0:
        tr.fail(node, "a local array cannot be empty")
    name = tr.buffer(node, "loom_local", lambda n: f"{align}{T.C_TYPES[dt]} {n}[{size}];")
    t = T.Array(dt, len(shape), "C", "local", shape)
    return Value(_view(t, name, shape), t)


@handler(stubs.shared.array)
def _shared_array(tr, node, args, kwargs):
    align = _alignment(tr, node, kwargs, "shared.array")
    shape, dt = _shape_and_dtype(tr, node, args, kwargs, "shared.array")
    size = math.prod(shape)
    if size == 0:
        if len(shape) != 1:
            tr.fail(node, "a dynamic shared array (size 0) is 1-dimensional")
        tr.module.dynamic_shared = True
        t = T.Array(dt, 1, "C", "shared")
        data = f"(({T.C_TYPES[dt]}*)((unsigned char*)loom_dynamic_shared))"
        return Value(f"{t.c}{{{data}, {{loom_dynamic_shared_bytes() / {np.dtype(dt).itemsize}LL}}, {{1LL}}}}", t)
    name = tr.buffer(node, "loom_shared", lambda n: f"{align}__shared__ {T.C_TYPES[dt]} {n}[{size}];")
    t = T.Array(dt, len(shape), "C", "shared", shape)
    return Value(_view(t, name, shape), t)


@handler(stubs.carray)
def _carray(tr, node, args, kwargs):
    return array_methods.from_pointer(tr, node, args, kwargs, "C")


@handler(stubs.farray)
def _farray(tr, node, args, kwargs):
    return array_methods.from_pointer(tr, node, args, kwargs, "F")


@handler(stubs.const.array_like)
def _const_array_like(tr, node, args, kwargs):
    if len(args) != 1 or args[0].obj is None or not isinstance(args[0].obj, np.ndarray):
        tr.fail(node, "cuda.const.array_like() takes a NumPy array global or closure variable")
    return args[0]


def constant_array(tr, node, arr):
    """A NumPy array a kernel names (a global, or cuda.const.array_like): frozen into the
    module as __constant__ data at compile time, as Numba does. A structured array is frozen
    as its bytes and read as records (records.py)."""
    if records.is_record_dtype(arr.dtype) and arr.ndim:
        rt = T.RecordArray(records.record_type(arr.dtype, tr.src.name), arr.ndim)
        raw = np.ascontiguousarray(arr).reshape(-1).view(np.uint8).reshape(arr.shape + (arr.dtype.itemsize,))
        name = tr.module.constant(raw, "uint8")
        return Value(_view(rt, f"(unsigned char*){name}", raw.shape), rt, obj=arr)
    dt = T.dtype_name(arr.dtype)
    if dt is None:
        tr.fail(node, f"a global NumPy array of dtype {arr.dtype} cannot be used in a kernel")
    if arr.nbytes > 60 * 1024:
        tr.fail(node, f"a global NumPy array of {arr.nbytes} bytes is too large to freeze into constant memory "
                "(64 KiB); pass it as an argument")
    name = tr.module.constant(arr, dt)
    t = T.Array(dt, arr.ndim, "C", "const", tuple(int(d) for d in arr.shape), readonly=True)
    return Value(_view(t, name, arr.shape), t, obj=arr)


def device_array_global(tr, node, arr):
    """A device array a kernel names as a global or closure variable: passed by pointer, as
    Numba does (the kernel sees later writes to it; its address is part of the translation,
    and the dispatcher keeps the array alive with the kernel)."""
    dt = T.dtype_name(str(arr.dtype))
    if dt is None:
        tr.fail(node, f"a global device array of dtype {arr.dtype} cannot be used in a kernel")
    here = _loom.default_device()
    if arr.device != here:
        tr.fail(node, f"the global device array is on {arr.device} but the kernel is compiled for {here}; "
                "pass it as an argument, or use one on that device")
    ptr, strides = host_api.data_address(arr), tuple(int(s) for s in arr.strides)
    item = np.dtype(dt).itemsize
    if any(s % item for s in strides):
        tr.fail(node, "a global device array's strides must be whole elements")
    t = T.Array(dt, arr.ndim, "C" if layout_of(tuple(arr.shape), strides, item) == "C" else "A")
    sh = ", ".join(f"{int(d)}LL" for d in arr.shape)
    st = ", ".join(f"{s // item}LL" for s in strides)
    dims = f", {{{sh}}}, {{{st}}}" if arr.ndim else ""  # a 0-d LoomArray is its pointer alone
    return Value(f"({t.c}{{(({T.C_TYPES[dt]}*){ptr}ULL){dims}}})", t, obj=arr)  # () for macros


# ---------------------------------------------------------------- atomics
_INTS = {"int32", "uint32", "int64", "uint64"}
_ATOMIC_TYPES = {
    "add": _INTS | {"float32", "float64"}, "sub": _INTS | {"float32", "float64"},
    "min": _INTS | {"float32", "float64"}, "max": _INTS | {"float32", "float64"},
    "nanmin": {"float32", "float64"} | _INTS, "nanmax": {"float32", "float64"} | _INTS,
    "exch": _INTS | {"float32", "float64"}, "and_": _INTS, "or_": _INTS, "xor": _INTS,
    "inc": {"uint32", "uint64"}, "dec": {"uint32", "uint64"}, "cas": _INTS, "compare_and_swap": _INTS,
}
_ATOMIC_C = {"add": "loom_atomic_add", "sub": "loom_atomic_sub", "min": "loom_atomic_min",
             "max": "loom_atomic_max", "nanmin": "loom_atomic_nanmin", "nanmax": "loom_atomic_nanmax",
             "exch": "loom_atomic_exch", "and_": "loom_atomic_and", "or_": "loom_atomic_or",
             "xor": "loom_atomic_xor", "inc": "loom_atomic_inc", "dec": "loom_atomic_dec"}


def _atomic(op):
    def h(tr, node, args, kwargs):
        if op == "compare_and_swap":
            if len(args) != 3:
                tr.fail(node, "cuda.atomic.compare_and_swap(ary, old, val) takes 3 arguments")
            arr, rest = args[0], args[1:]
            idx_node = None
            idx = [literal(0)]
        else:
            n = 4 if op == "cas" else 3
            if len(args) != n:
                tr.fail(node, f"cuda.atomic.{op}(ary, idx, {'old, ' if op == 'cas' else ''}val) takes {n} arguments")
            arr, idx_v, rest = args[0], args[1], args[2:]
            if isinstance(idx_v.type, T.Tuple):  # a tuple display, or a tuple variable's fields
                idx = tuple_items(idx_v)
            else:
                idx = [idx_v]
        if not isinstance(arr.type, T.Array) or arr.type.readonly:
            tr.fail(node, f"cuda.atomic.{op}() works on a writable array, not {arr.type}")
        dt = arr.type.dtype
        if dt not in _ATOMIC_TYPES[op]:
            tr.fail(node, f"cuda.atomic.{op}() is not available for {dt} arrays "
                    f"(it is for {', '.join(sorted(_ATOMIC_TYPES[op]))})")
        for v in rest:
            if not isinstance(v.type, T.Scalar):
                tr.fail(node, f"cuda.atomic.{op}() takes a number, not {v.type}")
        ref = tr.element_ref_from(node, arr, idx)
        et = arr.type.element
        vals = ", ".join(cast(v, et) for v in rest)
        fn = "loom_atomic_cas" if op in ("cas", "compare_and_swap") else _ATOMIC_C[op]
        return Value(f"{fn}(&{ref}, {vals})", et)
    return h


for _op in _ATOMIC_TYPES:
    handler(getattr(stubs.atomic, _op))(_atomic(_op))


@handler(stubs.fma)
def _fma(tr, node, args, kwargs):
    _pred(tr, node, args, "fma", 3)
    t = float_type(args[0])
    for a in args[1:]:
        t = T.promote(t, float_type(a))
    fn = "fmaf" if t.dtype == "float32" else "fma"
    return Value(f"{fn}({', '.join(cast(a, t) for a in args)})", t)


@handler(stubs.cbrt)
def _cbrt(tr, node, args, kwargs):
    return math_handler("cbrt")(tr, node, args, kwargs)


vector_types.register(HANDLERS)  # cuda.float32x3(...) and the other vector constructors
