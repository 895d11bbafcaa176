"""pycuda.scan: InclusiveScanKernel and ExclusiveScanKernel, a prefix "sum" by any associative
scan_expr (of `a` and `b`) over a 1-D array, in place unless an output array is given.

Each block scans a contiguous chunk of ITEMS elements (every thread a run of K, then the
threads' totals across the block in shared memory), writing the chunk's total; the totals
are scanned the same way (recursively, inclusive), and a last launch combines each chunk
with the totals before it.
"""
import numpy as np

import loom

from ._function import Function
from ._kernel_args import BLOCK, complex_header, ctype, device
from .compiler import SourceModule

K = 8  # elements a thread scans in sequence
ITEMS = BLOCK * K


def _source(dtype, scan_expr, neutral, preamble):
    t = ctype(dtype)
    identity = neutral if neutral is not None else "0"  # used only by exclusive scans, which need one
    # A name of one word: C++ value-initialises `T()` only where T is one ("unsigned char()"
    # does not parse).
    return f"""{complex_header(dtype)}{preamble}
typedef {t} loom_scan_t;
__device__ {t} loom_scan_op({t} a, {t} b) {{ return ({scan_expr}); }}

__global__ void loom_scan_blocks(const {t} *in, {t} *out, {t} *totals, unsigned long long n, int exclusive)
{{
  __shared__ {t} val[{BLOCK}];
  __shared__ bool has[{BLOCK}];
  const unsigned tid = threadIdx.x;
  const unsigned long long base = (unsigned long long)blockIdx.x * {ITEMS} + (unsigned long long)tid * {K};
  {t} run = loom_scan_t();
  bool any = false;
  for (int k = 0; k < {K}; ++k) {{
    const unsigned long long idx = base + k;
    if (idx < n) {{ run = any ? loom_scan_op(run, in[idx]) : in[idx]; any = true; }}
  }}
  val[tid] = run;
  has[tid] = any;
  __syncthreads();
  // Hillis-Steele over the threads' totals: val[t] becomes the fold of threads 0..t.
  for (unsigned off = 1; off < {BLOCK}; off <<= 1) {{
    {t} v = val[tid];
    bool h = has[tid];
    if (tid >= off && has[tid - off]) {{ v = h ? loom_scan_op(val[tid - off], v) : val[tid - off]; h = true; }}
    __syncthreads();
    val[tid] = v;
    has[tid] = h;
    __syncthreads();
  }}
  bool have = tid > 0 && has[tid - 1];
  {t} acc = have ? val[tid - 1] : loom_scan_t();
  for (int k = 0; k < {K}; ++k) {{
    const unsigned long long idx = base + k;
    if (idx >= n) break;
    const {t} x = in[idx];
    if (exclusive) {{
      out[idx] = have ? acc : ({t})({identity});
      acc = have ? loom_scan_op(acc, x) : x;
    }} else {{
      acc = have ? loom_scan_op(acc, x) : x;
      out[idx] = acc;
    }}
    have = true;
  }}
  if (tid == {BLOCK} - 1 && totals) totals[blockIdx.x] = val[{BLOCK} - 1];
}}

__global__ void loom_scan_add({t} *out, const {t} *totals, unsigned long long n)
{{
  for (unsigned long long idx = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x + {ITEMS}; idx < n;
       idx += (unsigned long long)gridDim.x * blockDim.x)
    out[idx] = loom_scan_op(totals[idx / {ITEMS} - 1], out[idx]);
}}
"""


class _ScanKernel:
    exclusive = False

    def __init__(self, dtype, scan_expr, neutral=None, name_prefix="scan", options=None, preamble="",
                 devices=None):
        self.dtype = np.dtype(dtype)
        if self.exclusive and neutral is None:
            raise ValueError("[ExclusiveScanKernel] an exclusive scan needs `neutral`")
        self._module = SourceModule(_source(self.dtype, scan_expr, neutral, preamble), options=options)
        self._fns = None

    def _scan(self, src, dst, exclusive):
        blocks_fn, add_fn = self._fns
        n = src.size
        blocks = -(-n // ITEMS)
        totals = loom.empty(blocks, dtype=self.dtype, device=device()) if blocks > 1 else None
        blocks_fn(src, dst, 0 if totals is None else totals, np.uint64(n), np.int32(exclusive),
                  block=(BLOCK, 1, 1), grid=(max(blocks, 1), 1))
        if totals is not None:
            self._scan(totals, totals, False)
            add_fn(dst, totals, np.uint64(n), block=(BLOCK, 1, 1), grid=(min(-(-(n - ITEMS) // BLOCK), 8192), 1))

    def __call__(self, input_ary, output_ary=None, allocator=None, stream=None, queue=None):
        if self._fns is None:
            self._fns = tuple(Function(self._module.module.get_function(n))
                              for n in ("loom_scan_blocks", "loom_scan_add"))
        if input_ary.dtype != self.dtype:
            raise TypeError(f"[{type(self).__name__}] the array has dtype {input_ary.dtype}, the kernel {self.dtype}")
        if output_ary is None:
            output_ary = input_ary
        for a in (input_ary, output_ary):
            if not a.flags.c_contiguous:
                raise ValueError(f"[{type(self).__name__}] the arrays must be contiguous")
        if input_ary.size:
            self._scan(input_ary.ravel(), output_ary.ravel(), self.exclusive)
        return output_ary


class InclusiveScanKernel(_ScanKernel):
    """out[i] = in[0] op in[1] op ... op in[i]."""


class ExclusiveScanKernel(_ScanKernel):
    """out[i] = neutral op in[0] op ... op in[i-1] (out[0] = neutral)."""

    exclusive = True
