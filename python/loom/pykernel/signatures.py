"""Numba-style signature strings: "void(float32[:], int32)", "float32(float32, float32)",
"void(float64[:, ::1])" ([::1] in the last place: C-contiguous), tuples as UniTuple(int64, 3)
and Tuple(int64, float32[:]). Several in a list. Numba's
type objects (numba_types.py: void(float32[:], int32)) are read as the text they print as."""
import re

from . import types as T
from . import numba_types
from .numba_types import Signature, Type
from .errors import TypingError

_ARRAY = re.compile(r"^(\w+)\s*\[(.*)\]$")
_TUPLE = re.compile(r"^(UniTuple|Tuple)\s*\((.*)\)$")
_POINTER = re.compile(r"^CPointer\s*\(\s*(\w+)\s*\)$|^(\w+)\s*\*$")


def parse_type(text, where):
    text = text.strip()
    m = _TUPLE.match(text)
    if m:  # UniTuple(int64, 3) or UniTuple(int64 x 3); Tuple(int64, float32[:])
        parts = [p.strip() for p in _split_args(m.group(2))]
        if m.group(1) == "UniTuple":
            if len(parts) == 1 and " x " in parts[0]:
                parts = [p.strip() for p in parts[0].rsplit(" x ", 1)]
            if len(parts) != 2 or not parts[1].isdigit():
                raise TypingError(f"[{where}] cannot read the tuple type '{text}' (e.g. UniTuple(int64, 3))")
            return T.Tuple([parse_type(parts[0], where)] * int(parts[1]))
        return T.Tuple([parse_type(p, where) for p in parts])
    m = _POINTER.match(text)
    if m:  # CPointer(float32) or float32*: a foreign device function's pointer parameter
        dt = T.dtype_name(m.group(1) or m.group(2))
        if dt is None:
            raise TypingError(f"[{where}] cannot read the pointer type '{text}'")
        return T.Pointer(dt)
    m = _ARRAY.match(text)
    if m:
        dt = T.dtype_name(m.group(1))
        dims = [d.strip() for d in m.group(2).split(",")]
        if dt is None or not dims or any(d not in (":", "::1") for d in dims):
            raise TypingError(f"[{where}] cannot read the array type '{text}' (e.g. float32[:], float64[:, ::1])")
        layout = "C" if dims[-1] == "::1" and all(d == ":" for d in dims[:-1]) else "A"
        return T.Array(dt, len(dims), layout)
    dt = T.dtype_name(text)
    if dt is None:
        raise TypingError(f"[{where}] unknown type '{text}' in a signature")
    return T.Scalar(dt)


def split_top_level(text, opens="[(", closes="])"):
    """`text` split at the commas outside brackets ("float32[:, ::1], int32" -> two parts);
    the parts as written, blank ones kept out."""
    depth, cur, out = 0, "", []
    for ch in text:
        if ch in opens:
            depth += 1
        elif ch in closes:
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur)
    return out


def _split_args(text):
    return split_top_level(text)


def _type_object(t, where):
    """A Numba type object as a kernel type: records (which print as no parseable text) by
    their dtype, the others by their text."""
    from . import records
    if isinstance(t, numba_types.Record):
        return records.record_type(t.dtype, where)
    if isinstance(t, numba_types.Array) and isinstance(t.dtype, numba_types.Record):
        return T.RecordArray(records.record_type(t.dtype.dtype, where), t.ndim)
    return parse_type(str(t), where)


def parse_signature(sig, where):
    """(return type or None for void/absent, [argument types])."""
    if isinstance(sig, tuple):  # Numba's argument types alone: (float32[:], int32) returns void
        return None, [_type_object(a, where) for a in sig]
    if isinstance(sig, Signature) and any(isinstance(getattr(a, "dtype", a), numba_types.Record) for a in sig.args):
        ret = sig.return_type
        return (None if str(ret) in ("void", "none") else _type_object(ret, where)), \
            [_type_object(a, where) for a in sig.args]
    if isinstance(sig, (Type, Signature)):  # Numba's type objects: void(float32[:], int32)
        sig = str(sig)
    if not isinstance(sig, str):
        raise TypingError(f"[{where}] signatures are strings such as 'void(float32[:], int32)', not {type(sig).__name__}")
    s = sig.strip()
    open_at = _args_group(s)  # the last top-level (...): a return type may have its own, CPointer(int32)
    if open_at is None or not re.match(r"^[\w\[\]:, ()]*$", s[:open_at]):
        raise TypingError(f"[{where}] cannot read the signature '{sig}'")
    ret_text, args_text = s[:open_at].strip(), s[open_at + 1:-1]
    ret = None if ret_text in ("", "void", "none") else parse_type(ret_text, where)
    return ret, [parse_type(a, where) for a in _split_args(args_text)]


def _args_group(s):
    """Where the argument list's "(" is in a signature ending with its ")", or None."""
    if not s.endswith(")"):
        return None
    depth = 0
    for i in range(len(s) - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(s[i], 0)
        if depth == 0:
            return i
    return None


def accepts(param, arg):
    """Whether an argument of type `arg` (from a launch) may go to parameter type `param`."""
    if isinstance(param, T.Array):
        return (isinstance(arg, T.Array) and arg.dtype == param.dtype and arg.ndim == param.ndim
                and (param.layout == "A" or arg.layout == "C"))
    if isinstance(param, T.Tuple):
        return (isinstance(arg, T.Tuple) and len(arg.items) == len(param.items)
                and all(accepts(p, a) for p, a in zip(param.items, arg.items)))
    if isinstance(param, T.Scalar) and isinstance(arg, T.Scalar):
        # converted at the launch (overflow and kind checked there); a complex only to a complex
        return param.is_complex or not arg.is_complex
    return False
