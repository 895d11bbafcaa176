"""Records (NumPy structured dtypes) in Python kernels, as Numba has them: a structured array
or a record (`arr[0]`) passed to a kernel, its fields read and written (`r.a`, `r["a"]`,
`ary[i].b = v`), nested array fields indexed (`r.h[1]`, `r.j[2, 0]`) or copied whole, and
records copied (`ary[i] = ary[j]`).

loom arrays have no structured dtype, so a launch passes the bytes: a structured array of
shape S travels as a uint8 array of shape S + (itemsize,) and a record as one of shape
(itemsize,), copied to the device and back after the launch (dispatcher.py), as Numba does
for host arrays. In the kernel a record is a pointer to its first byte (`unsigned char*`),
and a field is an lvalue at its offset of its C type, so reads, writes and device-function
calls need nothing else; the field offsets are the dtype's own (aligned or packed)."""
import ast
import itertools

import numpy as np

from . import types as T
from .errors import TypingError
from .values import Value, cast, literal

# Nested array fields are copied element by element, unrolled: at most this many elements.
_MAX_UNROLLED_COPY = 256


def is_record_dtype(dtype):
    return isinstance(dtype, np.dtype) and dtype.fields is not None


def _plain(dtype):
    """The structured dtype as np.void's (a recarray's is numpy.record's): one type per layout."""
    names = dtype.names
    return np.dtype({"names": names, "formats": [dtype.fields[n][0] for n in names],
                     "offsets": [dtype.fields[n][1] for n in names], "itemsize": dtype.itemsize,
                     "aligned": dtype.isalignedstruct})


def record_type(dtype, where):
    """The kernel type of a structured dtype; fields of a type kernels lack are refused."""
    dtype = _plain(dtype)
    for name, (fdt, _off, *_) in dtype.fields.items():
        base = fdt.base if fdt.subdtype is not None else fdt
        if is_record_dtype(base):
            raise TypingError(f"[{where}] the record field '{name}' is itself a record: nested records are not "
                                "supported in kernels")
        if T.dtype_name(base) is None:
            raise TypingError(f"[{where}] the record field '{name}' has dtype {base}, which kernels do not support")
        off = dtype.fields[name][1]
        if off % base.alignment or dtype.itemsize % base.alignment:
            # A GPU reads a value only at an address that is a multiple of its size.
            raise TypingError(f"[{where}] the record field '{name}' at byte {off} of a {dtype.itemsize}-byte record: "
                              f"type {T.dtype_name(base)} is not aligned (make the dtype with align=True)")
    return T.Record(dtype)


def field(tr, node, rec, name):
    """`rec.name` / `rec["name"]`: a scalar field as an lvalue, a nested array as a view with a
    static shape (a LoomArray over the record's bytes)."""
    dtype = rec.type.dtype
    if name not in dtype.fields:
        tr.fail(node, f"the record has no field '{name}' (it has {', '.join(dtype.names)})")
    fdt, off = dtype.fields[name][:2]
    if fdt.subdtype is None:
        et = T.Scalar(T.dtype_name(fdt))
        if et.is_complex:  # NumPy aligns it to its parts, loom's C type to its size: byte copies
            addr = f"({rec.code} + {off})"
            return Value(f"loom_load_unaligned<{et.c}>({addr})", et, obj=("unaligned", addr))
        return Value(f"(*reinterpret_cast<{et.c}*>({rec.code} + {off}))", et)
    base, shape = fdt.subdtype
    et = T.Scalar(T.dtype_name(base))
    if et.is_complex and (off % base.itemsize or dtype.itemsize % base.itemsize):  # loom_complex's alignment
        tr.unsupported(node, f"the record's array field '{name}' of {et} at byte {off} of a {dtype.itemsize}-byte "
                             f"record: kernels read complex arrays at multiples of {base.itemsize} bytes")
    at = T.Array(et.dtype, len(shape), "C", "global", tuple(shape))
    strides = [int(np.prod(shape[k + 1:], dtype=np.int64)) for k in range(len(shape))]
    code = (f"{at.c}{{reinterpret_cast<{et.c}*>({rec.code} + {off}), "
            f"{{{', '.join(f'{s}LL' for s in shape)}}}, {{{', '.join(f'{s}LL' for s in strides)}}}}}")
    return Value(code, at)


def element(tr, node, arr, idx):
    """`ary[i, ...]` of a record array: the record (a pointer to its bytes)."""
    t = arr.type
    if len(idx) != t.ndim:
        tr.unsupported(node, f"a {t.ndim}-d record array indexed with {len(idx)} index(es): records are read one "
                             "at a time (views of record arrays are not supported in kernels)")
    data = Value(arr.code, T.Array("uint8", t.ndim + 1, "C"))
    return Value(f"(&{tr.element_ref_from(node, data, list(idx) + [literal(0)])})", t.record)


def array_attribute(tr, node, arr, attr):
    t = arr.type
    if attr in ("shape", "size", "ndim"):
        view = Value(arr.code, T.Array("uint8", t.ndim, "A"))  # its first ndim axes are the records'
        return tr.array_attribute(node, view, attr)
    tr.unsupported(node, f"the record array attribute '{attr}' is not supported in kernels (shape, size and "
                         "ndim are; fields are read record by record: a[i].x)")


def assign(tr, node, target_value, v):
    """`target = v` where the target is a record or a nested array field."""
    t = target_value.type
    if isinstance(t, T.Record):
        if not isinstance(v.type, T.Record) or v.type.dtype != t.dtype:
            tr.fail(node, f"a record of dtype {t.dtype} cannot be assigned a {v.type}")
        tr.emit(f"for (int q = 0; q < {t.dtype.itemsize}; ++q) ({target_value.code})[q] = ({v.code})[q];")
        return
    if isinstance(t, T.Array):  # a nested array field, from an array of its shape or a number
        size = int(np.prod(t.shape))
        if size > _MAX_UNROLLED_COPY:
            tr.unsupported(node, f"a nested array field of {size} elements is assigned whole; write its elements")
        if isinstance(v.type, T.Array):
            if v.type.ndim != t.ndim:
                tr.fail(node, f"a {v.type.ndim}-d array cannot be assigned to a {t.ndim}-d record field")
            if v.type.shape is not None and tuple(v.type.shape) != tuple(t.shape):
                tr.fail(node, f"an array of shape {tuple(v.type.shape)} cannot be assigned to a record field of "
                              f"shape {tuple(t.shape)}")
        elif not isinstance(v.type, T.Scalar):
            tr.fail(node, f"a record's array field cannot be assigned a {v.type}")
        dst, src = tr.temp(), tr.temp()
        tr.emit(f"{{ const auto {dst} = {target_value.code};")
        if isinstance(v.type, T.Array):
            tr.emit(f"  const auto& {src} = {v.code};")
            if v.type.shape is None:  # a run-time array: its shape must be the field's
                checks = " && ".join(f"{src}.shape[{k}] == {n}" for k, n in enumerate(t.shape))
                tr.emit(f'  LOOM_PK_ASSERT({checks}, "array assigned to a record field has another shape");')
        for index in itertools.product(*(range(n) for n in t.shape)):
            consts = [literal(i) for i in index]
            d = tr.element_ref_from(node, Value(dst, t), consts)
            if isinstance(v.type, T.Array):
                s = tr.element_ref_from(node, Value(src, v.type), consts)
                tr.emit(f"  {d} = {cast(Value(s, v.type.element), t.element)};")
            else:
                tr.emit(f"  {d} = {cast(v, t.element)};")
        tr.emit("}")
        return
    if isinstance(target_value.obj, tuple) and target_value.obj[0] == "unaligned":
        tr.emit(f"loom_store_unaligned<{t.c}>({target_value.obj[1]}, {cast(v, t)});")
        return
    tr.emit(f"{target_value.code} = {cast(v, t)};")


def item(tr, node, base):
    """`base[...]` of a record (a field by its name) or of a record array (a record)."""
    if isinstance(base.type, T.Record):
        name = constant_field_name(tr, node, node.slice)
        if name is None:  # r[0]: a field by its position, as NumPy's records allow
            k = tr.expr(node.slice)
            names = base.type.dtype.names
            if not isinstance(k.const, int) or isinstance(k.const, bool) or not -len(names) <= k.const < len(names):
                tr.fail(node, "a record is indexed by a field name or a constant field position "
                              f"(0 to {len(names) - 1})")
            name = names[k.const]
        return field(tr, node, base, name)
    return element(tr, node, base, tr.index_values(node, base, node.slice))


def constant_field_name(tr, node, index_node):
    """The field name of `r["name"]`, or None when the index is no string constant."""
    if isinstance(index_node, ast.Constant) and isinstance(index_node.value, str):
        return index_node.value
    return None
