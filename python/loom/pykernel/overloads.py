"""Numba's choice among declared signatures: each argument's conversion to its parameter is
exact, a promotion (the same kind, wider), safe (to another kind that holds every value) or
unsafe (anything else numeric; a complex to a real, or an array of another dtype or rank, is
no conversion at all). A signature's rating counts (unsafe, safe, promotions), compared in
that order; the lowest wins. The rules are Numba's casting table (numba.core.typeconv), which
differs from NumPy's 'safe' casting: int64 to float64 is unsafe (it loses integers), and an
integer to a float is safe only when the float's mantissa holds it."""
import numpy as np

from . import types as T

EXACT, PROMOTE, SAFE, UNSAFE = 0, 1, 2, 3


def _kind_bits(dtype):
    d = np.dtype(dtype) if dtype != "bfloat16" else None
    if d is None:
        return "f", 16
    return d.kind, d.itemsize * 8


def conversion(src, dst):
    """How a number of dtype `src` converts to dtype `dst` (EXACT...UNSAFE), or None."""
    if src == dst:
        return EXACT
    (sk, sb), (dk, db) = _kind_bits(src), _kind_bits(dst)
    if dk == "b":
        return None if sk == "c" else UNSAFE
    if sk == "b":
        return SAFE
    if sk == "c" and dk != "c":
        return None
    if sk == dk:
        return PROMOTE if db > sb else UNSAFE
    if sk == "u" and dk == "i":
        return SAFE if db > sb else UNSAFE
    if sk in "iu" and dk in "fc":
        mantissa = db // 2 if dk == "f" else db // 4  # a complex's parts are half its bits
        return SAFE if (sb if sk == "i" else 2 * sb) <= mantissa else UNSAFE
    if sk == "f" and dk == "c":
        return SAFE if sb <= db // 2 else UNSAFE
    return UNSAFE  # a float to an integer, a signed integer to an unsigned one


def _weak_conversion(weak, dst):
    """A Python literal (its kind: "bool", "int", "float", "complex") to dtype `dst`: its own
    kind is a promotion, a wider kind safe, a narrower one unsafe (a complex: none)."""
    rank = {"bool": 0, "int": 1, "float": 2, "complex": 3}
    dk = _kind_bits(dst)[0]
    dst_kind = {"b": "bool", "i": "int", "u": "int", "f": "float", "c": "complex"}[dk]
    if rank[dst_kind] == rank[weak]:
        return PROMOTE
    if rank[dst_kind] > rank[weak]:
        return SAFE
    return None if weak == "complex" else UNSAFE


def rating(params, args, weak=None):
    """The (unsafe, safe, promotions) counts of passing argument types `args` to `params`,
    or None when some argument does not convert. `weak`: per argument, a Python literal's kind
    or None."""
    if len(params) != len(args):
        return None
    counts = [0, 0, 0, 0]
    for k, (p, a) in enumerate(zip(params, args)):
        w = weak[k] if weak else None
        if isinstance(p, T.Array) or isinstance(a, T.Array):
            if not (isinstance(p, T.Array) and isinstance(a, T.Array) and (p.dtype, p.ndim) == (a.dtype, a.ndim)):
                return None
            if p.layout == "C" and a.layout != "C":
                return None  # an array not known to be C-contiguous for a C-contiguous parameter
            c = EXACT if p.layout == a.layout else SAFE
        elif isinstance(p, T.Pointer):  # a kernel's CPointer parameter takes an address: an integer
            if not (isinstance(a, T.Scalar) and a.is_int):
                return None
            c = EXACT
        elif isinstance(p, T.Tuple) or isinstance(a, T.Tuple):
            if not (isinstance(p, T.Tuple) and isinstance(a, T.Tuple)):
                return None
            inner = rating(p.items, a.items)
            if inner is None:
                return None
            counts[UNSAFE] += inner[0]
            counts[SAFE] += inner[1]
            counts[PROMOTE] += inner[2]
            continue
        elif isinstance(p, T.Scalar) and isinstance(a, T.Scalar):
            c = _weak_conversion(w, p.dtype) if w else conversion(a.dtype, p.dtype)
        else:
            return None
        if c is None:
            return None
        counts[c] += 1
    return counts[UNSAFE], counts[SAFE], counts[PROMOTE]


def best(candidates, args, weak=None):
    """The candidates (pairs (params, payload)) with the lowest rating for `args`, in their
    order; empty when none takes them."""
    rated = [(r, c) for c in candidates if (r := rating(c[0], args, weak)) is not None]
    if not rated:
        return []
    low = min(r for r, _ in rated)
    return [c for r, c in rated if r == low]


def numba_text(t):
    """A type as Numba's repr writes it in its overload messages:
    Array(float64, 1, 'C', False, aligned=True), float32, UniTuple(int64 x 2)."""
    if isinstance(t, T.Array):
        return f"Array({t.dtype}, {t.ndim}, '{t.layout}', {t.readonly}, aligned=True)"
    if isinstance(t, T.Tuple):
        items = [numba_text(i) for i in t.items]
        if items and len(set(items)) == 1:
            return f"UniTuple({items[0]} x {len(items)})"
        return f"Tuple({', '.join(items)})"
    return str(t)
