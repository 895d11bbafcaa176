"""Numba's numba.cuda.bf16 inside kernels: the bfloat16 type and CUDA's bfloat16 intrinsics
(__hadd, __hfma_relu, __bfloat162int_rd, __float2bfloat16_rz, ...) under Numba's names.

Arithmetic computes in float32 and rounds once to bfloat16, as CUDA's intrinsics do;
`_sat` variants clamp to [0, 1] (NaN gives +0) and `hfma_relu` to >= 0 (NaN stays NaN), as
CUDA's do.
Conversions with a rounding mode (rn, rz, rd, ru) are bf16.cuh's, on the bits, so NVRTC and
the CPU kernel emulator agree. Comparisons give a bool; `hisinf` an int (-1, 0, 1)."""
from . import halfops, stubs
from . import types as T
from .intrinsics import HANDLERS
from .values import Value, cast

BF16 = T.Scalar("bfloat16")
_MODES = {"rn": 0, "rz": 1, "rd": 2, "ru": 3}
_INTS = ("int16", "uint16", "int32", "uint32", "int64", "uint64")

ARITHMETIC = {"hadd": "+", "hsub": "-", "hmul": "*", "hdiv": "/", "hadd_rn": "+", "hsub_rn": "-", "hmul_rn": "*"}
SATURATING = {"hadd_sat": "+", "hsub_sat": "-", "hmul_sat": "*"}
COMPARISONS = {"heq": "==", "hne": "!=", "hge": ">=", "hgt": ">", "hle": "<=", "hlt": "<"}
MATH = {**stubs.FP16_MATH, "htanh": "tanhf({})"}  # cuda.fp16's functions, and tanh
OTHERS = ["hfma", "hfma_sat", "hfma_relu", "hmax", "hmin", "hmax_nan", "hmin_nan", "hisnan", "hisinf",
          "bfloat16_as_int16", "int16_as_bfloat16", "bfloat16_as_uint16", "uint16_as_bfloat16",
          "bfloat16_to_float32", "float32_to_bfloat16", "float64_to_bfloat16", "bfloat16_to_int8_rz",
          "bfloat16_to_uint8_rz"]
CONVERSIONS = ([f"float32_to_bfloat16_{m}" for m in _MODES]
               + [f"{i}_to_bfloat16_{m}" for i in _INTS for m in _MODES]
               + [f"bfloat16_to_{i}_{m}" for i in _INTS for m in _MODES])
NAMES = list(ARITHMETIC) + list(SATURATING) + list(COMPARISONS) + list(MATH) + OTHERS + CONVERSIONS

intrinsics = stubs.Namespace("bf16", NAMES)


def _register(name):
    def deco(fn):
        HANDLERS[getattr(intrinsics, name)] = fn
        return fn
    return deco


def _check(tr, node, args, name, n):
    if len(args) != n:
        tr.fail(node, f"bf16.{name}() takes {n} argument(s), got {len(args)}")
    for a in args:
        if not isinstance(a.type, T.Scalar) or a.type.is_complex:
            tr.fail(node, f"bf16.{name}() takes real numbers, not {a.type}")


def _floats(tr, node, args, name, n):
    """The arguments as bfloat16 (converted as Numba's typing does), then widened to float."""
    _check(tr, node, args, name, n)
    return [f"__bfloat162float({cast(a, BF16)})" for a in args]


def _bf16(expr):
    return Value(f"loom_f32_to_bf16({expr}, 0)", BF16)


def _clamp01(expr):  # CUDA's _sat intrinsics: clamped to [0, 1], a NaN flushed to +0
    return f"([](float v) {{ return v != v ? 0.0f : (v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v)); }}({expr}))"


def _bf16_sat(expr):
    return _bf16(_clamp01(expr))


for _n, _op in ARITHMETIC.items():
    _register(_n)(halfops.binary(_floats, _bf16, _n, _op))
for _n, _op in SATURATING.items():
    _register(_n)(halfops.binary(_floats, _bf16_sat, _n, _op))
for _n, _op in COMPARISONS.items():
    _register(_n)(halfops.compare(_floats, _n, _op))
for _n, _t in MATH.items():
    _register(_n)(halfops.unary(_floats, _bf16, _n, _t))


def _fma(name, finish):
    def h(tr, node, args, kwargs):
        a, b, c = _floats(tr, node, args, name, 3)
        return _bf16(finish(f"fmaf({a}, {b}, {c})"))
    return h


_register("hfma")(_fma("hfma", lambda e: e))
_register("hfma_sat")(_fma("hfma_sat", _clamp01))
_register("hfma_relu")(_fma("hfma_relu", lambda e: f"([](float v) {{ return v < 0.0f ? 0.0f : v; }}({e}))"))


def _minmax(name, fn, nan_propagates):
    def h(tr, node, args, kwargs):
        a, b = _floats(tr, node, args, name, 2)
        if nan_propagates:  # __hmax_nan: a NaN input gives NaN
            return _bf16(f"([](float x, float y) {{ return (x != x || y != y) ? x + y : {fn}(x, y); }}({a}, {b}))")
        return _bf16(f"{fn}({a}, {b})")  # __hmax: a NaN input gives the other one
    return h


_register("hmax")(_minmax("hmax", "fmaxf", False))
_register("hmin")(_minmax("hmin", "fminf", False))
_register("hmax_nan")(_minmax("hmax_nan", "fmaxf", True))
_register("hmin_nan")(_minmax("hmin_nan", "fminf", True))


@_register("hisnan")
def _hisnan(tr, node, args, kwargs):
    (a,) = _floats(tr, node, args, "hisnan", 1)
    return Value(f"([](float v) {{ return v != v; }}({a}))", T.BOOL)


@_register("hisinf")
def _hisinf(tr, node, args, kwargs):
    (a,) = _floats(tr, node, args, "hisinf", 1)
    return Value(f"([](float v) {{ return isinf(v) ? (v > 0.0f ? 1 : -1) : 0; }}({a}))", T.INT32)


def _bitcast(name, src, dst):
    def h(tr, node, args, kwargs):
        _check(tr, node, args, name, 1)
        (a,) = args
        if dst == "bfloat16":
            return Value(f"__ushort_as_bfloat16((unsigned short)({cast(a, T.Scalar(src))}))", BF16)
        return Value(f"(({T.C_TYPES[dst]})__bfloat16_as_ushort({cast(a, BF16)}))", T.Scalar(dst))
    return h


for _i in ("int16", "uint16"):
    _register(f"bfloat16_as_{_i}")(_bitcast(f"bfloat16_as_{_i}", "bfloat16", _i))
    _register(f"{_i}_as_bfloat16")(_bitcast(f"{_i}_as_bfloat16", _i, "bfloat16"))


def _to_bf16(name, src, mode):
    def h(tr, node, args, kwargs):
        _check(tr, node, args, name, 1)
        v = cast(args[0], T.Scalar(src))
        if src == "float64":
            return Value(f"loom_f64_to_bf16({v}, {mode})", BF16)
        if src == "float32":
            return Value(f"loom_f32_to_bf16({v}, {mode})", BF16)
        fn = "loom_u64_to_bf16((unsigned long long)" if src.startswith("u") else "loom_i64_to_bf16((long long)"
        return Value(f"{fn}({v}), {mode})", BF16)
    return h


def _from_bf16(name, dst, mode):
    bits = int(dst.lstrip("uint"))
    fn = "loom_bf16_to_uint" if dst.startswith("u") else "loom_bf16_to_sint"

    def h(tr, node, args, kwargs):
        _check(tr, node, args, name, 1)
        return Value(f"(({T.C_TYPES[dst]}){fn}({cast(args[0], BF16)}, {mode}, {bits}))", T.Scalar(dst))
    return h


for _m, _k in _MODES.items():
    _register(f"float32_to_bfloat16_{_m}")(_to_bf16(f"float32_to_bfloat16_{_m}", "float32", _k))
    for _i in _INTS:
        _register(f"{_i}_to_bfloat16_{_m}")(_to_bf16(f"{_i}_to_bfloat16_{_m}", _i, _k))
        _register(f"bfloat16_to_{_i}_{_m}")(_from_bf16(f"bfloat16_to_{_i}_{_m}", _i, _k))
_register("float32_to_bfloat16")(_to_bf16("float32_to_bfloat16", "float32", 0))
_register("float64_to_bfloat16")(_to_bf16("float64_to_bfloat16", "float64", 0))
_register("bfloat16_to_int8_rz")(_from_bf16("bfloat16_to_int8_rz", "int8", 1))
_register("bfloat16_to_uint8_rz")(_from_bf16("bfloat16_to_uint8_rz", "uint8", 1))


@_register("bfloat16_to_float32")
def _to_float32(tr, node, args, kwargs):
    _check(tr, node, args, "bfloat16_to_float32", 1)
    return Value(f"__bfloat162float({cast(args[0], BF16)})", T.FLOAT32)

