"""Numba's cuda.fp16 inside kernels: each function takes float16 values (other numbers are
converted, as Numba's typing does), computes in float32 and rounds back to float16, which is
what CUDA's half intrinsics compute; comparisons give a bool. Written with casts and the
float functions NVRTC and the CPU kernel emulator both have, so cuda_fp16.h's intrinsics
(absent from the emulator) are not needed."""
from . import halfops, stubs
from . import types as T
from .intrinsics import handler
from .values import Value, cast

F16 = T.Scalar("float16")


def _floats(tr, node, args, name, n):
    if len(args) != n:
        tr.fail(node, f"cuda.fp16.{name}() takes {n} argument(s), got {len(args)}")
    for a in args:
        if not isinstance(a.type, T.Scalar):
            tr.fail(node, f"cuda.fp16.{name}() takes numbers, not {a.type}")
    return [f"((float)({cast(a, F16)}))" for a in args]


def _half(expr):
    return Value(f"((__half)({expr}))", F16)


for _n, _op in stubs.FP16_ARITHMETIC.items():
    handler(getattr(stubs.fp16, _n))(halfops.binary(_floats, _half, _n, _op))
for _n, _op in stubs.FP16_COMPARISONS.items():
    handler(getattr(stubs.fp16, _n))(halfops.compare(_floats, _n, _op))
for _n, _t in stubs.FP16_MATH.items():
    handler(getattr(stubs.fp16, _n))(halfops.unary(_floats, _half, _n, _t))


@handler(stubs.fp16.hfma)
def _hfma(tr, node, args, kwargs):
    a, b, c = _floats(tr, node, args, "hfma", 3)
    return _half(f"fmaf({a}, {b}, {c})")


@handler(stubs.fp16.hmax)
def _hmax(tr, node, args, kwargs):  # CUDA's __hmax: a NaN input gives the other one
    a, b = _floats(tr, node, args, "hmax", 2)
    return _half(f"fmaxf({a}, {b})")


@handler(stubs.fp16.hmin)
def _hmin(tr, node, args, kwargs):
    a, b = _floats(tr, node, args, "hmin", 2)
    return _half(f"fminf({a}, {b})")
