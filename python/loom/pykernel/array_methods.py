"""Array views Numba's kernels make without copying: `a.real` and `a.imag` of a complex array,
`a.view(dtype)` (the same bytes read as another dtype), `a.reshape(shape)` of a C-contiguous
array, and `carray(ptr, shape)` / `farray(ptr, shape)` over a CPointer. Each is a LoomArray
over the same memory (strides in elements), built in an immediately called lambda as
translate_expr.view builds a slice."""
import numpy as np

from . import types as T
from .values import Value, tuple_items


def _itemsize(dtype):
    return np.dtype(dtype).itemsize


def _elem_c(dtype, readonly):
    return ("const " if readonly else "") + T.C_TYPES[dtype]


def real_imag(tr, node, arr, attr):
    """a.real / a.imag of a complex array: its float parts, every other float of its memory."""
    t = arr.type
    if not T.Scalar(t.dtype).is_complex:
        tr.unsupported(node, f"'{attr}' of a {t} in a kernel: only complex arrays have float parts to view "
                       "(a real array is its own .real)")
    part = "float32" if t.dtype == "complex64" else "float64"
    vt = T.Array(part, t.ndim, "A", t.space, None, t.readonly)
    src = tr.temp()
    dims = " ".join(f"v.shape[{k}] = {src}.shape[{k}]; v.strides[{k}] = 2 * {src}.strides[{k}];"
                    for k in range(t.ndim))
    code = (f"([&]() {{ const auto& {src} = {arr.code}; {vt.c} v; "
            f"v.data = reinterpret_cast<{_elem_c(part, t.readonly)}*>({src}.data) + {1 if attr == 'imag' else 0}; "
            f"{dims} return v; }}())")
    return Value(code, vt)


def _contiguous_strides(n, order):
    """C lines giving view `v` (n dimensions, its shape set) the strides of a contiguous
    array in C or Fortran order."""
    axes = range(n - 1, -1, -1) if order == "C" else range(n)
    return ["long long s = 1;"] + [f"v.strides[{k}] = s; s *= v.shape[{k}];" for k in axes]


def _dtype_arg(tr, node, args, kwargs, name):
    if len(args) + len(kwargs) != 1 or (kwargs and "dtype" not in kwargs):
        tr.fail(node, f"{name}() takes one argument, the dtype")
    d = args[0] if args else kwargs["dtype"]
    if not (isinstance(d.type, T.Opaque) and d.type.kind == "dtype"):
        tr.fail(node, f"{name}() takes a dtype such as np.int32, not {d.type}")
    return d.obj


def view(tr, node, arr, args, kwargs):
    """a.view(dtype): the same memory as `dtype`. A different item size rescales the last
    axis, which must then be contiguous (checked in debug mode for an array not known to be C
    contiguous; NumPy's and Numba's rule), and the other axes' strides must divide. A wider
    dtype must find its data aligned (a GPU faults otherwise, as in Numba; checked in debug
    mode)."""
    t = arr.type
    if t.ndim == 0:
        tr.fail(node, "view() of a 0-d array is not supported in kernels")
    new = _dtype_arg(tr, node, args, kwargs, "view")
    old_size, new_size = _itemsize(t.dtype), _itemsize(new)
    vt = T.Array(new, t.ndim, t.layout if old_size == new_size or t.layout == "C" else "A", t.space, None,
                 t.readonly)
    src = tr.temp()
    lines = [f"const auto& {src} = {arr.code};", f"{vt.c} v;",
             f"v.data = reinterpret_cast<{_elem_c(new, t.readonly)}*>({src}.data);"]
    if new_size > old_size:  # a GPU faults on a misaligned read (checked in debug mode)
        lines.append(f"LOOM_PK_ASSERT(((unsigned long long)(size_t)v.data) % {new_size}ULL == 0, "
                     f"\"view(): the data is not aligned for the new dtype\");")
    last = t.ndim - 1
    for k in range(t.ndim):
        if old_size == new_size:
            lines.append(f"v.shape[{k}] = {src}.shape[{k}]; v.strides[{k}] = {src}.strides[{k}];")
        elif k == last:
            if t.layout != "C":
                lines.append(f"LOOM_PK_ASSERT({src}.strides[{k}] == 1 || {src}.shape[{k}] < 2, "
                             f"\"view(): to change to a dtype of a different size, the last axis must be "
                             f"contiguous\");")
            lines.append(f"LOOM_PK_ASSERT(({src}.shape[{k}] * {old_size}LL) % {new_size}LL == 0, "
                         f"\"view(): the last axis's size in bytes is not a multiple of the new item size\");")
            lines.append(f"v.shape[{k}] = {src}.shape[{k}] * {old_size}LL / {new_size}LL; v.strides[{k}] = 1;")
        else:
            lines.append(f"LOOM_PK_ASSERT(({src}.strides[{k}] * {old_size}LL) % {new_size}LL == 0, "
                         f"\"view(): a stride in bytes is not a multiple of the new item size\");")
            lines.append(f"v.shape[{k}] = {src}.shape[{k}]; "
                         f"v.strides[{k}] = {src}.strides[{k}] * {old_size}LL / {new_size}LL;")
    lines.append("return v;")
    return Value("([&]() { " + " ".join(lines) + " }())", vt)


def reshape(tr, node, arr, args, kwargs):
    """a.reshape(shape) or a.reshape(d0, d1, ...) of a C-contiguous array: a C-contiguous view
    of the new shape; one dimension may be -1 (inferred). The rank is the number of
    dimensions given; their values may be known only at run time (the sizes are checked in
    debug mode)."""
    t = arr.type
    if kwargs:
        tr.fail(node, "reshape() takes the new shape, no keywords, in kernels")
    if len(args) == 1 and isinstance(args[0].type, T.Tuple):
        dims = tuple_items(args[0])
    else:
        dims = list(args)
    if not dims:
        tr.fail(node, "reshape() needs the new shape")
    for d in dims:
        if not (isinstance(d.type, T.Scalar) and d.type.is_int):
            tr.fail(node, f"reshape()'s dimensions are integers, not {d.type}")
    if t.layout != "C":
        tr.unsupported(node, f"reshape() in a kernel takes a C-contiguous array (array({t.dtype}, {t.ndim}d, C)); "
                       f"this one is {t}, whose strides are known only at run time")
    n = len(dims)
    vt = T.Array(t.dtype, n, "C", t.space, None, t.readonly)
    src = tr.temp()
    size = " * ".join(f"{src}.shape[{k}]" for k in range(t.ndim)) or "1LL"
    lines = [f"const auto& {src} = {arr.code};", f"{vt.c} v; v.data = {src}.data;",
             f"const long long size = {size}; long long known = 1; int unknown = -1;"]
    for k, d in enumerate(dims):
        lines.append(f"v.shape[{k}] = (long long)({d.code}); "
                     f"if (v.shape[{k}] < 0) unknown = {k}; else known *= v.shape[{k}];")
    lines.append("if (unknown >= 0) v.shape[unknown] = known == 0 ? 0 : size / known;")
    lines.append("LOOM_PK_ASSERT(unknown >= 0 ? (known == 0 ? size == 0 : size % known == 0) : known == size, "
                 "\"reshape(): the new shape does not hold the array's size\");")
    lines += _contiguous_strides(n, "C")
    lines.append("return v;")
    consts = [d.const for d in dims]
    if all(c is not None for c in consts) and any(c < -1 for c in consts):
        tr.fail(node, f"reshape(): a dimension is negative: {tuple(consts)}")
    if sum(1 for c in consts if c == -1) > 1:
        tr.fail(node, "reshape(): only one dimension can be -1")
    return Value("([&]() { " + " ".join(lines) + " }())", vt)


def from_pointer(tr, node, args, kwargs, order):
    """carray(ptr, shape, dtype=None) / farray(...): an array over the memory a CPointer
    points at, C- or Fortran-ordered; `dtype`, if given, must be the pointer's (Numba's rule
    for typed pointers). Its dimensions may be known only at run time; no bounds are known
    beyond them."""
    name = "carray" if order == "C" else "farray"
    unknown = set(kwargs) - {"shape", "dtype"}
    if unknown or not 1 <= len(args) <= 3:
        tr.fail(node, f"{name}() takes (ptr, shape, dtype=None)")
    ptr = args[0]
    shape = args[1] if len(args) > 1 else kwargs.get("shape")
    dtype = args[2] if len(args) > 2 else kwargs.get("dtype")
    if not isinstance(ptr.type, T.Pointer):
        tr.fail(node, f"{name}() takes a CPointer (a kernel's CPointer parameter, ffi.from_buffer()), not {ptr.type}")
    if shape is None:
        tr.fail(node, f"{name}() needs the shape")
    if dtype is not None:
        dt = dtype.obj if isinstance(dtype.type, T.Opaque) and dtype.type.kind == "dtype" else None
        if dt != ptr.type.dtype:
            tr.fail(node, f"{name}(): the dtype {dt or dtype.type} differs from the pointer's ({ptr.type.dtype})")
    dims = tuple_items(shape) if isinstance(shape.type, T.Tuple) else [shape]
    for d in dims:
        if not (isinstance(d.type, T.Scalar) and d.type.is_int):
            tr.fail(node, f"{name}()'s dimensions are integers, not {d.type}")
    n = len(dims)
    vt = T.Array(ptr.type.dtype, n, "C" if order == "C" or n == 1 else "A")
    lines = [f"{vt.c} v; v.data = {ptr.code};"]
    lines += [f"v.shape[{k}] = (long long)({d.code});" for k, d in enumerate(dims)]
    lines += _contiguous_strides(n, order)
    lines.append("return v;")
    return Value("([&]() { " + " ".join(lines) + " }())", vt)
