"""The argument lists of PyCUDA's generated kernels (ElementwiseKernel, ReductionKernel):
"float a, float *x" (or a list of VectorArg/ScalarArg) as declarations and as the values a
launch passes, and the launch shape of a grid-stride loop over `n` items."""
import numpy as np

import loom

from ._cparse import split_arg_list
from ._context import Context
from .tools import ScalarArg, VectorArg, dtype_to_ctype, parse_c_arg

BLOCK = 256  # threads a block: every GPU and the emulator run it


def parse_arguments(arguments):
    if isinstance(arguments, str):
        return [parse_c_arg(a) for a in split_arg_list(arguments)]
    return list(arguments)


def complex_header(*dtypes):
    """PyCUDA's complex header line when any dtype is complex (loom.pycuda.compiler answers it)."""
    return "#include <pycuda-complex.hpp>\n" if any(np.dtype(d).kind == "c" for d in dtypes) else ""


def declarations(args):
    return ", ".join(a.declarator() for a in args)


def first_array(args, values, op):
    for a, v in zip(args, values):
        if isinstance(a, VectorArg):
            return v
    raise TypeError(f"[{op}] the kernel has no array argument to take its size from")


def values_for(args, values, op):
    """The launch values: arrays as they are (Function passes their addresses), scalars as the
    declared dtype (PyCUDA's packing)."""
    if len(values) != len(args):
        raise TypeError(f"[{op}] takes {len(args)} arguments ({declarations(args)}), got {len(values)}")
    out = []
    for a, v in zip(args, values):
        if isinstance(a, ScalarArg):
            out.append(a.dtype.type(v))
        else:
            if isinstance(v, loom.ndarray) and v.size and not (v.flags.c_contiguous or v.ndim <= 1 and v.size == 1):
                raise ValueError(f"[{op}] argument '{a.name}' must be contiguous (PyCUDA's kernels index it flat)")
            out.append(v)
    return out


def index_range(n, range_=None, slice_=None):
    """(start, stop, step, count) of the indices a call visits."""
    if range_ is not None and slice_ is not None:
        raise TypeError("may not specify both range and slice")
    if slice_ is not None:
        range_ = range(*slice_.indices(n))
    if range_ is None:
        return 0, n, 1, n
    return range_.start, range_.stop, range_.step, len(range_)


def grid_for(count, limit=8192):
    """Blocks of BLOCK threads for a grid-stride loop over `count` items."""
    return (max(1, min(-(-count // BLOCK), limit)), 1)


def ctype(dtype):
    return dtype_to_ctype(np.dtype(dtype))


def device():
    return Context.get_device().loom_device
