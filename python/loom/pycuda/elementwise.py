"""pycuda.elementwise.ElementwiseKernel: a C statement over index i of arrays, as PyCUDA has it
("float a, float *x, float *y", "y[i] = a * x[i]"), generated into a grid-stride loop and
compiled by loom (NVRTC on a GPU, the emulator on cpu()). `range=` or `slice=` visit a
subset of the indices; `n` is the first array's size. (loom.ElementwiseKernel is CuPy's
form, typed parameters without [i].)"""
import numpy as np

from ._function import Function
from ._kernel_args import (BLOCK, complex_header, declarations, first_array, grid_for, index_range,
                           parse_arguments, values_for)
from .compiler import SourceModule


def _source(args, operation, name, preamble, loop_prep, after_loop):
    params = declarations(args)
    return f"""{complex_header(*(a.dtype for a in args))}{preamble}
__global__ void {name}({params}{', ' if params else ''}long long loom_start, long long loom_stop,
                       long long loom_step, unsigned long long n)
{{
  const unsigned tid = threadIdx.x;
  const unsigned total_threads = gridDim.x * blockDim.x;
  const unsigned cta_start = blockDim.x * blockIdx.x;
  long long i;
  {loop_prep};
  for (i = loom_start + ((long long)cta_start + tid) * loom_step;
       loom_step > 0 ? i < loom_stop : i > loom_stop;
       i += (long long)total_threads * loom_step)
  {{
    {operation};
  }}
  {after_loop};
}}
"""


class ElementwiseKernel:
    def __init__(self, arguments, operation, name="kernel", keep=False, options=None, preamble="",
                 loop_prep="", after_loop=""):
        self.args = parse_arguments(arguments)
        self.name = name
        self._module = SourceModule(_source(self.args, operation, name, preamble, loop_prep, after_loop),
                                    options=options)
        self._function = None

    def get_texref(self, name):
        return self._module.get_texref(name)

    def __call__(self, *args, range=None, slice=None, stream=None):  # noqa: A002 - PyCUDA's names
        values = values_for(self.args, args, self.name)
        n = first_array(self.args, args, self.name).size
        start, stop, step, count = index_range(n, range, slice)
        if self._function is None:
            self._function = Function(self._module.module.get_function(self.name))
        self._function(*values, np.int64(start), np.int64(stop), np.int64(step), np.uint64(n),
                       block=(BLOCK, 1, 1), grid=grid_for(count), stream=stream)


def get_elwise_kernel(arguments, operation, name="kernel", **kwargs):
    return ElementwiseKernel(arguments, operation, name, **kwargs)
