"""What the translator knows of an expression: its C code, its type, and what is known at
compile time (a literal's value and whether it is a weak Python literal, the items of a
tuple, that an integer is never negative, the Python object a name stands for)."""
import numpy as np

from . import types as T
from .errors import TypingError


class Value:
    __slots__ = ("code", "type", "weak", "const", "nonneg", "items", "obj")

    def __init__(self, code, type, weak=None, const=None, nonneg=False, items=None, obj=None):
        self.code = code        # C expression (None for compile-time objects)
        self.type = type        # a types.Type
        self.weak = weak        # "bool" | "int" | "float" for a Python literal, else None
        self.const = const      # its value when known at compile time
        self.nonneg = nonneg    # an integer known to be >= 0 (indices need no wrap-around)
        self.items = items      # a tuple's item Values, when known one by one
        self.obj = obj          # the Python object of an Opaque value

    def __repr__(self):
        return f"Value({self.code!r}, {self.type}, weak={self.weak}, const={self.const!r})"


def literal(v):
    """A Python bool, int or float as a weak literal; a NumPy scalar as a typed constant."""
    if isinstance(v, (bool, np.bool_)):
        return Value(T.literal_c(bool(v), T.BOOL), T.BOOL, "bool" if isinstance(v, bool) else None, bool(v),
                     nonneg=True)
    if isinstance(v, np.generic):
        t = T.Scalar(T.dtype_name(v.dtype))
        pv = v.item()
        return Value(T.literal_c(pv, t), t, None, pv, nonneg=t.is_int and pv >= 0)
    if isinstance(v, int):
        if not -(2**63) <= v < 2**64:
            return None
        t = T.INT64 if v < 2**63 else T.UINT64
        return Value(T.literal_c(v, t), t, "int", v, nonneg=v >= 0)
    if isinstance(v, float):
        return Value(T.literal_c(v, T.FLOAT64), T.FLOAT64, "float", v)
    if isinstance(v, complex):
        return Value(T.literal_c(v, T.COMPLEX128), T.COMPLEX128, "complex", v)
    return None


def cast(v, t):
    """`v` as C code of scalar type `t`. A complex value converts only to a complex type (as in
    Python and Numba); the TypingError says so."""
    if v.type == t and v.code is not None:
        return v.code
    if v.const is not None and isinstance(v.const, (bool, int, float, complex)):
        return T.literal_c(v.const, t)
    if isinstance(v.type, T.Scalar) and v.type.is_complex and not t.is_complex:
        raise TypingError(f"a {v.type} does not convert to {t} (take .real, .imag or abs())")
    if t.dtype == "bfloat16" or getattr(v.type, "dtype", None) == "bfloat16":
        return _cast_bfloat16(v, t)
    return f"(({t.c})({v.code}))"


def _cast_bfloat16(v, t):
    """Conversions to and from bfloat16, rounded once to nearest even (bf16.cuh): the
    emulator's bfloat16 converts only from float, and C's double -> float -> bfloat16 would
    round twice."""
    src = v.type.dtype
    if t.dtype != "bfloat16":  # bfloat16 -> float is exact; on from there
        return f"(({t.c})(__bfloat162float({v.code})))"
    if src == "float64":
        return f"loom_f64_to_bf16({v.code}, 0)"
    if src in ("float16", "float32", "bool"):
        return f"loom_f32_to_bf16((float)({v.code}), 0)"
    if src.startswith("uint"):
        return f"loom_u64_to_bf16((unsigned long long)({v.code}), 0)"
    if src.startswith("int"):
        return f"loom_i64_to_bf16((long long)({v.code}), 0)"
    raise TypingError(f"a {v.type} does not convert to bfloat16")


def tuple_items(tv):
    """The item Values of a tuple Value: those known one by one, else its struct's fields."""
    if tv.items is not None:
        return list(tv.items)
    return [Value(f"({tv.code}).f{i}", t) for i, t in enumerate(tv.type.items)]


def tuple_code(module, tv):
    """C code of a tuple Value as its struct."""
    if tv.items is None:
        return tv.code
    module.tuple_struct(tv.type)
    inner = ", ".join(cast(i, t) if isinstance(t, T.Scalar) else tuple_code(module, i) if isinstance(t, T.Tuple)
                      else i.code for i, t in zip(tv.items, tv.type.items))
    return f"{tv.type.c}{{{inner}}}"
