"""numpy.einsum's full call over the bound einsum (which takes a subscripts string and the
operands): the interleaved form `einsum(a, [0, 1], b, [1, 2], [0, 2])`, and the keywords
out=, dtype=, order=, casting= and optimize=.

optimize= only chooses the order in which NumPy contracts the operands pairwise; NumPy's
result does not depend on it, so it is checked and the bound einsum contracts as it always
does. dtype= casts the operands as NumPy does (each by the casting rule, 'safe' by default)
and computes in that dtype; out= receives the result by the same rule. A call without these
keywords goes straight to the bound function.
"""
import operator as _operator

import numpy as _np

from .. import _loom

__all__ = ["einsum"]

_ORDERS = ("K", "A", "C", "F")
_CASTINGS = ("no", "equiv", "safe", "same_kind", "unsafe")


def einsum(*operands, out=None, dtype=None, order="K", casting="safe", optimize=False):
    """numpy.einsum: the Einstein summation of the operands, given by a subscripts string
    ("ij,jk->ik") or interleaved (a, [0, 1], b, [1, 2], [0, 2]). optimize= is accepted and
    does not change the result; dtype= casts the operands (by `casting`) and computes in it;
    out= receives the result (cast by `casting`); order= lays the result out."""
    if not operands:
        raise ValueError("[einsum] must specify the einstein sum subscripts string and at least one operand")
    subscripts, ops = (operands[0], operands[1:]) if isinstance(operands[0], str) else _interleaved(operands)
    if out is None and dtype is None and order == "K" and casting == "safe" and optimize is False:
        return _loom.einsum(subscripts, *ops)
    _check_optimize(optimize)
    if order not in _ORDERS:
        raise ValueError(f"[einsum] order must be one of 'C', 'F', 'A' or 'K', not {order!r}")
    if casting not in _CASTINGS:
        raise ValueError(f"[einsum] casting must be one of {', '.join(map(repr, _CASTINGS))}, not {casting!r}")
    if dtype is not None and not (out is None and len(ops) == 1 and _is_view(subscripts)):
        # NumPy returns a lone operand's view (a transpose, a diagonal) as it is, whatever dtype says.
        ops = _cast_operands(ops, _as_dtype(dtype), casting)
    result = _loom.einsum(subscripts, *ops)
    if out is not None:
        return _into(out, result, casting)
    if order == "C" and not result.flags.c_contiguous:
        result = _loom.ascontiguousarray(result)
    elif order == "F" and not result.flags.f_contiguous:
        result = _loom.asfortranarray(result)
    return result


def _interleaved(args):
    """(subscripts, operands) of einsum(op0, sublist0, op1, sublist1, ..., [sublist_out])."""
    pairs = len(args) // 2
    ops = args[0:2 * pairs:2]
    text = ",".join(_sublist(s) for s in args[1:2 * pairs:2])
    if len(args) % 2:
        text += "->" + _sublist(args[-1])
    return text, ops


def _sublist(sub):
    """A sublist ([0, 1, Ellipsis]) as subscript letters: 0-25 are A-Z, 26-51 a-z (NumPy's)."""
    if not isinstance(sub, (list, tuple, _np.ndarray)):
        raise TypeError("[einsum] the subscripts for each operand must be a list or a tuple")
    letters, ellipsis = [], False
    for s in sub:
        if s is Ellipsis:
            if ellipsis:
                raise ValueError("[einsum] each subscripts list may have only one ellipsis")
            ellipsis = True
            letters.append("...")
            continue
        try:
            i = _operator.index(s)
        except TypeError:
            raise TypeError("[einsum] each subscript must be either an integer or an ellipsis") from None
        if not 0 <= i < 52:
            raise ValueError("[einsum] subscript is not within the valid range [0, 52)")
        letters.append(chr(ord("A") + i) if i < 26 else chr(ord("a") + i - 26))
    return "".join(letters)


def _check_optimize(optimize):
    """NumPy's forms: a bool, 'greedy' or 'optimal', (name, memory_limit), or an explicit path
    ['einsum_path', (0, 1), ...]."""
    if isinstance(optimize, (bool, _np.bool_)) or optimize in ("greedy", "optimal"):
        return
    if isinstance(optimize, (list, tuple)) and optimize:
        if optimize[0] == "einsum_path" or (len(optimize) == 2 and optimize[0] in ("greedy", "optimal")):
            return
    raise TypeError(f"[einsum] did not understand the path (optimize=): {optimize!r}")


def _is_view(subscripts):
    """True when one operand's result is a view of it: every input label is an output label
    (nothing summed), so NumPy makes no computation and ignores dtype=."""
    spec = subscripts.replace(" ", "")
    if "," in spec:
        return False
    inputs, arrow, output = spec.partition("->")
    labels = set(inputs) - {"."}
    if not arrow:
        return all(inputs.count(c) == 1 for c in labels)
    return labels <= set(output)


def _as_dtype(dtype):
    return dtype if isinstance(dtype, _loom.dtype) else _loom.dtype(_np.dtype(dtype).name)


def _dtype_of(x):
    """A loom dtype of an operand: a loom array's, else NumPy's for the value (a Python int is int64)."""
    return x.dtype if isinstance(x, _loom.ndarray) else _loom.dtype(_np.asarray(x).dtype.name)


def _cast_operands(ops, dtype, casting):
    device = next((x.device for x in ops if isinstance(x, _loom.ndarray)), None)
    cast = []
    for i, x in enumerate(ops):
        have = _dtype_of(x)
        if not _loom.can_cast(have, dtype, casting=casting):
            raise TypeError(f"[einsum] operand {i} dtype could not be cast from {have} to {dtype} "
                            f"according to the rule {casting!r}")
        if isinstance(x, _loom.ndarray):
            cast.append(x if x.dtype == dtype else x.astype(dtype))
        else:
            cast.append(_loom.asarray(_np.asarray(x), dtype=dtype, device=device))
    return cast


def _into(out, result, casting):
    """result written into out (NumPy's out=: its shape exactly, the dtype cast by `casting`)."""
    if not isinstance(out, _loom.ndarray):
        raise TypeError(f"[einsum] out must be a loom array, not {type(out).__name__}")
    if tuple(out.shape) != tuple(result.shape):
        raise ValueError(f"[einsum] out has shape {tuple(out.shape)}; the result has {tuple(result.shape)}")
    if not _loom.can_cast(result.dtype, out.dtype, casting=casting):
        raise TypeError(f"[einsum] the result could not be cast from {result.dtype} to {out.dtype} "
                        f"according to the rule {casting!r}")
    out[...] = result
    return out
