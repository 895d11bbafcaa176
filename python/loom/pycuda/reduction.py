"""pycuda.reduction.ReductionKernel: reduce_expr (of `a` and `b`) over map_expr (of index i,
default "in[i]") of the arguments, starting from `neutral`, into a 0-d array of dtype_out.

Two launches of one generated kernel: blocks of BLOCK threads each fold a grid-stride
share of the indices and combine in shared memory (a tree), writing one partial result per
block; a single block then reduces the partials into the output. reduce_expr must be
associative (as in PyCUDA); the order of combination differs from a sequential loop.
"""
import numpy as np

import loom

from ._function import Function
from ._kernel_args import (BLOCK, complex_header, ctype, declarations, device, first_array, index_range,
                           parse_arguments, values_for)
from .compiler import SourceModule
from .gpuarray import GPUArray

_MAX_BLOCKS = 1024  # partial results of the first launch; the second folds them in one block


def _source(args, out_dtype, neutral, reduce_expr, map_expr, name, preamble):
    out_t = ctype(out_dtype)
    params = declarations(args)
    fold = f"""  __shared__ {out_t} loom_partial[{BLOCK}];
  loom_partial[threadIdx.x] = acc;
  __syncthreads();
  for (unsigned s = {BLOCK // 2}; s > 0; s >>= 1) {{
    if (threadIdx.x < s) loom_partial[threadIdx.x] = {name}_op(loom_partial[threadIdx.x], loom_partial[threadIdx.x + s]);
    __syncthreads();
  }}
  if (threadIdx.x == 0) out[blockIdx.x] = loom_partial[0];"""
    return f"""{complex_header(out_dtype, *(a.dtype for a in args))}{preamble}
__device__ {out_t} {name}_op({out_t} a, {out_t} b) {{ return ({reduce_expr}); }}

__global__ void {name}_stage1({params}{', ' if params else ''}{out_t} *out, long long loom_start,
                               long long loom_stop, long long loom_step, unsigned long long n)
{{
  {out_t} acc = {neutral};
  for (long long i = loom_start + ((long long)blockIdx.x * {BLOCK} + threadIdx.x) * loom_step;
       loom_step > 0 ? i < loom_stop : i > loom_stop; i += (long long)gridDim.x * {BLOCK} * loom_step)
    acc = {name}_op(acc, ({map_expr}));
{fold}
}}

__global__ void {name}_stage2(const {out_t} *partials, {out_t} *out, unsigned long long n)
{{
  {out_t} acc = {neutral};
  for (unsigned long long i = threadIdx.x; i < n; i += {BLOCK}) acc = {name}_op(acc, partials[i]);
{fold}
}}
"""


class ReductionKernel:
    def __init__(self, dtype_out, neutral, reduce_expr, map_expr=None, arguments=None, name="reduce_kernel",
                 keep=False, options=None, preamble="", allocator=None):
        self.dtype_out = np.dtype(dtype_out)
        if self.dtype_out.kind == "V":
            raise NotImplementedError(f"[ReductionKernel {name}] a structured result dtype ({self.dtype_out}): "
                                      "loom arrays have no structured dtypes")
        self.args = parse_arguments(arguments or "")
        self.name = name
        self.allocator = allocator
        source = _source(self.args, self.dtype_out, neutral, reduce_expr, map_expr or "in[i]", name, preamble)
        self._module = SourceModule(source, options=options)
        self._stages = None

    def __call__(self, *args, stream=None, out=None, allocator=None, range=None, slice=None):  # noqa: A002
        if self._stages is None:
            self._stages = tuple(Function(self._module.module.get_function(f"{self.name}_stage{s}")) for s in (1, 2))
        values = values_for(self.args, args, self.name)
        n = first_array(self.args, args, self.name).size if self.args else 0
        start, stop, step, count = index_range(n, range, slice)
        blocks = max(1, min(-(-count // BLOCK), _MAX_BLOCKS))
        partials = loom.empty(blocks, dtype=self.dtype_out, device=device())
        self._stages[0](*values, partials, np.int64(start), np.int64(stop), np.int64(step), np.uint64(n),
                        block=(BLOCK, 1, 1), grid=(blocks, 1), stream=stream)
        if out is None:
            allocator = allocator or self.allocator
            out = GPUArray((), self.dtype_out, allocator=allocator) if allocator else \
                loom.empty((), dtype=self.dtype_out, device=device())
        elif out.dtype != self.dtype_out or out.size != 1:
            raise ValueError(f"[ReductionKernel {self.name}] out must be one element of {self.dtype_out}")
        self._stages[1](partials, out, np.uint64(blocks), block=(BLOCK, 1, 1), grid=(1, 1), stream=stream)
        return out


def get_sum_kernel(dtype_out, dtype_in):
    return ReductionKernel(dtype_out, "0", "a+b", arguments=f"const {ctype(dtype_in)} *in")
