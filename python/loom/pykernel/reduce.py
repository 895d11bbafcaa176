"""cuda.reduce (Numba's): a binary Python function made into a reduction over a 1-D array.

The function is translated as a device function for the array's dtype and used by one
generated kernel, run twice: every block folds its share of the array (a grid-stride
loop, then a tree in shared memory) into one partial, then one block folds the partials.
No identity is needed: a thread or slot that holds nothing yet takes the other value as
it is. The `init` value is folded in last, on the host, with the Python function itself.
"""
import functools

import numpy as np

from .. import _loom
from . import types as T
from .compiler import translate_device
from .errors import TypingError
from .source import FunctionSource

_BLOCK = 256
_MAX_BLOCKS = 1024

_KERNEL = """
extern "C" __global__ void loom_reduce(LoomArray<const {t}, 1, false> x, LoomArray<{t}, 1, true> out) {{
  __shared__ {t} buf[{block}];
  __shared__ bool have_slot[{block}];
  const int t = threadIdx.x;
  const long long n = x.shape[0];
  {t} acc{{}};
  bool have = false;
  for (long long k = (long long)blockIdx.x * blockDim.x + t; k < n; k += (long long)gridDim.x * blockDim.x) {{
    const {t} v = x.data[k * x.strides[0]];
    acc = have ? ({t}){f}(acc, v) : v;
    have = true;
  }}
  buf[t] = acc;
  have_slot[t] = have;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {{
    if (t < s && have_slot[t + s]) {{
      buf[t] = have_slot[t] ? ({t}){f}(buf[t], buf[t + s]) : buf[t + s];
      have_slot[t] = true;
    }}
    __syncthreads();
  }}
  if (t == 0 && have_slot[0]) out.data[blockIdx.x] = buf[0];
}}
"""


class Reduce:
    """What cuda.reduce returns: r(arr, size=None, res=None, init=0, stream=0)."""

    def __init__(self, func):
        functools.update_wrapper(self, func)
        self.py_func = func
        self._src = FunctionSource(func)
        if len(self._src.params) != 2:
            raise TypingError(f"[{func.__name__}] cuda.reduce takes a function of two arguments")
        self._kernels = {}

    def _kernel(self, dtype):
        if dtype not in self._kernels:
            t = T.Scalar(dtype)
            mb, cname, _ = translate_device(self.py_func, (t, t), self._src)
            src = mb.source(_KERNEL.format(t=t.c, f=cname, block=_BLOCK))
            self._kernels[dtype] = _loom.RawModule(src).get_function("loom_reduce")
        return self._kernels[dtype]

    def __call__(self, arr, size=None, res=None, init=0, stream=0):
        host = not isinstance(arr, _loom.ndarray)
        a = _loom.asarray(np.asarray(arr)) if host else arr
        if a.ndim != 1:
            raise ValueError(f"[{self.__name__}] cuda.reduce works on 1-D arrays, not {a.ndim}-D")
        if size is not None:
            a = a[:size]
        dtype = str(a.dtype)
        n = a.shape[0]
        if n == 0:
            value = np.array(init, dtype=dtype)[()]
        else:
            k = self._kernel(dtype)
            blocks = min(_MAX_BLOCKS, (n + _BLOCK - 1) // _BLOCK)
            partial = _loom.empty((blocks,), dtype=dtype, device=a.device)
            k((blocks,), (_BLOCK,), (a, partial))
            total = _loom.empty((1,), dtype=dtype, device=a.device)
            k((1,), (_BLOCK,), (partial, total))
            value = np.array(self.py_func(np.array(init, dtype=dtype)[()], total.numpy()[0]), dtype=dtype)[()]
        if res is not None:
            res[0] = value
            return None
        return value

    def __repr__(self):
        return f"<loom.cuda.reduce {self.__name__}>"


def reduce(func):
    """@cuda.reduce: a reduction over 1-D arrays with a binary device function."""
    return Reduce(func)
