"""A loom.ReductionKernel as generic_filter's function (cupyx.scipy.ndimage's form).

CuPy runs such a kernel over each window, not over an axis: one thread per output element
reduces its window's values in sequence, with the kernel's names meaning what they mean in
that setting. loom generates that per-window reduction from the kernel's own expressions:
  - the input `x` is the window's value at step `_j` (type X: the input array's dtype when
    the parameter's type is a placeholder), `_raw_x` the whole window (`_raw_x[k]`);
  - `_in_ind.size()` is the window's size and `_in_ind.get()` the step;
  - the map expression's values combine with `reduce_expr` (`a`, `b`) from the identity (or
    from the first value when there is none), in `reduce_type` (default: the output's);
  - `post_map_expr` writes the output `y` (type Y: the output's dtype) from `a`, and the
    result is cast to the output array's dtype.
The module is a loom.RawKernel made once per (kernel, dtypes) and launched by _generic.py as
a RawKernel function is: NVRTC on a GPU, the CPU kernel emulator on cpu()."""
import numpy as np

import loom

# The C types of the dtypes generic_filter accepts (SciPy's ndimage refuses float16 and complex).
_C_TYPES = {"bool": "bool", "int8": "signed char", "uint8": "unsigned char", "int16": "short",
            "uint16": "unsigned short", "int32": "int", "uint32": "unsigned int", "int64": "long long",
            "uint64": "unsigned long long", "float32": "float", "float64": "double"}

_TEMPLATE = """
struct _loom_window_index {{
  long long n, j;
  __device__ long long size() const {{ return n; }}
  __device__ long long get() const {{ return j; }}
  __device__ void set(long long k) {{ j = k; }}
}};
{typedefs}
{preamble}
extern "C" __global__ void loom_generic_filter_reduce(const {in_type}* windows, long long size, {out_type}* out,
                                                      long long count) {{
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const {in_type}* _raw_{in_name} = windows + i * size;
  _loom_window_index _in_ind = {{size, 0}};
  _loom_window_index _out_ind = {{1, 0}};
  (void)_out_ind;
  #define REDUCE(a, b) ({reduce_expr})
  #define POST_MAP(a) ({post_map_expr})
  typedef {reduce_type} _type_reduce;
  _type_reduce _s = {init};
  for (long long _j = 0; _j < size; ++_j) {{
    _in_ind.set(_j);
    const {in_type}& {in_name} = _raw_{in_name}[_j];
    const _type_reduce _v = static_cast<_type_reduce>({map_expr});
    {accumulate}
  }}
  {out_type}& {out_name} = out[i];
  POST_MAP(_s);
  #undef REDUCE
  #undef POST_MAP
}}
"""
_modules = {}


def _param(text, who):
    """(type, name) of a parameter written as "T name"; raw parameters have no meaning here."""
    words = text.split()
    if len(words) != 2:
        raise TypeError(f"[{who}] a ReductionKernel's parameter must be written 'type name' here, got {text!r}")
    return words[0], words[1]


def _c_type(dtype, who):
    name = np.dtype(dtype).name
    if name not in _C_TYPES:
        raise TypeError(f"[{who}] a ReductionKernel cannot filter {name} values")
    return _C_TYPES[name]


def window_reduction(kernel, in_dtype, out_dtype, who="generic_filter"):
    """(the RawKernel `loom_generic_filter_reduce(windows, size, out, count)` reducing each row
    of a C-contiguous count x size array of in_dtype, the loom dtype it writes: the kernel's
    output type, out_dtype for a placeholder) for a ReductionKernel of one input and output."""
    if kernel.nin != 1 or kernel.nout != 1:
        raise TypeError(f"[{who}] a ReductionKernel as the function must have one input and one output, "
                        f"{kernel.name!r} has {kernel.nin} and {kernel.nout}")
    key = (id(kernel), np.dtype(in_dtype).name, np.dtype(out_dtype).name)
    if key in _modules:
        return _modules[key][:2]
    (in_t, in_name), (out_t, out_name) = _param(kernel.in_params[0], who), _param(kernel.out_params[0], who)
    by_c_type = {c: name for name, c in _C_TYPES.items()}
    typedefs, types, dtypes = {}, {}, {}
    # A placeholder takes the dtype of the array it stands for; the output's placeholder may
    # repeat the input's, as in 'X x' -> 'X y'. Concrete types are dtype names or C types.
    for t, dt in ((in_t, in_dtype), (out_t, out_dtype)):
        if t in _C_TYPES:
            types[t], dtypes[t] = _C_TYPES[t], np.dtype(t)
        elif t in by_c_type:
            types[t], dtypes[t] = t, np.dtype(by_c_type[t])
        elif t not in typedefs:
            typedefs[t], types[t], dtypes[t] = _c_type(dt, who), t, np.dtype(dt)
    reduce_t = kernel.reduce_type or out_t
    reduce_t = _C_TYPES.get(reduce_t, reduce_t)
    if kernel.identity is None:  # no identity: start from the first value, as CuPy's reductions do
        init, accumulate = "_type_reduce()", "_s = _j == 0 ? _v : _type_reduce(REDUCE(_s, _v));"
    else:
        init, accumulate = f"_type_reduce({kernel.identity})", "_s = _type_reduce(REDUCE(_s, _v));"
    source = _TEMPLATE.format(
        typedefs="\n".join(f"typedef {c} {t};" for t, c in typedefs.items()), preamble=kernel.preamble,
        in_type=types[in_t], out_type=types[out_t], in_name=in_name, out_name=out_name,
        reduce_expr=kernel.reduce_expr, post_map_expr=kernel.post_map_expr, reduce_type=reduce_t,
        map_expr=kernel.map_expr, init=init, accumulate=accumulate)
    # The kernel writes its output parameter's type; the caller casts it to the output's dtype,
    # as CuPy's cast<Y> does. The kernel object stays referenced, so its id keys nothing else.
    _modules[key] = (loom.RawKernel(source, "loom_generic_filter_reduce", options=tuple(kernel.options)),
                     getattr(loom, dtypes[out_t].name), kernel)
    return _modules[key][:2]
