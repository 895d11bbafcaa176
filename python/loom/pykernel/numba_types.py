"""Numba's type objects, as `numba.cuda` and `numba.types` spell them (`loom.cuda.types`, and
the scalar names in `loom.cuda`): a program written for Numba builds its signatures from them
and they work unchanged.

    from loom.cuda import float32, int32, void        # or: from loom.cuda import types
    @cuda.jit(void(float32[:, ::1], int32))
    def k(a, n): ...
    x = float32(1.5)                                     # a NumPy float32, inside kernels a cast

Each object stands for the text of loom's signature strings (signatures.py reads both):
`float32[:, ::1]` is the C-contiguous 2-d array type "float32[:, ::1]", `void(float32[:],
int32)` the signature "void(float32[:], int32)". A scalar type called on values converts them
(NumPy's scalar outside a kernel, a cast inside one: the translator reads these objects as
the dtype they name). What loom has no kernel type for (complex numbers, records)
is refused where a signature is read, with the type named.
"""
import numpy as np

__all__ = ["Type", "Number", "Boolean", "Integer", "Float", "Complex", "Array", "CPointer", "BaseTuple", "UniTuple", "Tuple", "Signature", "void", "none", "boolean", "bool_", "b1", "int8", "int16",
           "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32", "float64", "complex64",
           "complex128", "intp", "uintp", "intc", "uintc", "int_", "uint", "float_", "double", "half", "byte",
           "uchar", "short", "ushort", "longlong", "ulonglong", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f2",
           "f4", "f8", "c8", "c16", "from_dtype", "as_dtype", "typeof", "signature", "signed_domain", "unsigned_domain",
           "integer_domain", "real_domain", "complex_domain", "number_domain"]


class Type:
    """A Numba type object: compares, hashes and prints as loom's signature text for it."""

    def __init__(self, name):
        # A type a program defines (Numba's extension API: class T(types.Type) with
        # super().__init__(name="T")): it prints as its name; kernels cannot take it.
        self.name = self.text = name

    def __str__(self):
        return self.text

    def __repr__(self):
        return self.text

    def __eq__(self, other):
        return isinstance(other, Type) and self.text == other.text

    def __hash__(self):
        return hash(("numba type", self.text))

    def __call__(self, *args):
        """A signature with this return type: `float32(float32, float32)`, `void(int32[:])`."""
        return Signature(self, args)


def _dims_text(index):
    dims = index if isinstance(index, tuple) else (index,)
    steps = []
    for d in dims:
        if not isinstance(d, slice) or d.start is not None or d.stop is not None or d.step not in (None, 1):
            raise TypeError(f"an array type takes ':' or '::1' per dimension (float32[:, ::1]), not {index!r}")
        steps.append(d.step)
    return steps


class Scalar(Type):
    """A scalar type: `float32`. Indexed with slices it is an array type (`float32[:, ::1]`);
    called on values it converts them (`float32(1.5)`), on types it makes a signature. Its
    class is Numba's: Boolean, or a Number (Integer, Float, Complex), so that isinstance
    checks of Numba code hold."""

    def __init__(self, name):
        self.name = self.text = name

    @property
    def dtype(self):  # np.dtype(float32) works, as for NumPy's scalar types
        return np.dtype(self.name)

    def __getitem__(self, index):
        steps = _dims_text(index)
        n = len(steps)
        if n > 1 and steps[0] == 1 and all(s is None for s in steps[1:]):
            layout = "F"
        elif steps[-1] == 1 and all(s is None for s in steps[:-1]):
            layout = "C"
        elif all(s is None for s in steps):
            layout = "A"
        else:
            raise TypeError(f"{self.name}[{index!r}]: '::1' goes on the last axis (C order) or the first (Fortran)")
        return Array(self, n, layout)

    def __call__(self, *args):
        if not args or all(isinstance(a, Type) for a in args):
            return Signature(self, args)
        return np.dtype(self.name).type(*args)


class Number(Scalar):
    """Numba's numeric types."""


class Boolean(Scalar):
    bitwidth = 8


class Integer(Number):
    @property
    def signed(self):
        return self.name.startswith("int")

    @property
    def bitwidth(self):
        return np.dtype(self.name).itemsize * 8


class Float(Number):
    @property
    def bitwidth(self):
        return np.dtype(self.name).itemsize * 8


class Complex(Number):
    @property
    def underlying_float(self):
        return _BY_DTYPE["float32" if self.name == "complex64" else "float64"]

    @property
    def bitwidth(self):
        return np.dtype(self.name).itemsize * 8


def _scalar(name):
    if name == "bfloat16":  # ml_dtypes' dtype, of kind "V"
        return Float(name)
    kind = np.dtype(name).kind
    return {"b": Boolean, "i": Integer, "u": Integer, "f": Float, "c": Complex}[kind](name)


class Record(Type):
    """Numba's type of a record of a NumPy structured dtype (`from_dtype(dt)`); `rec[:]` is the
    type of an array of them."""

    def __init__(self, dtype):
        self.dtype = np.dtype(dtype)
        super().__init__(f"Record({self.dtype})")

    def __getitem__(self, index):
        return Scalar.__getitem__(self, index)

    def __eq__(self, other):
        return isinstance(other, Record) and other.dtype == self.dtype

    def __hash__(self):
        return hash(("Record", self.dtype))


class Array(Type):
    """Numba's array type: `types.Array(float32, 2, "C")` is `float32[:, ::1]`."""

    def __init__(self, dtype, ndim, layout="A", readonly=False):
        if not isinstance(dtype, (Scalar, Record)):
            dtype = from_dtype(dtype)
        if layout not in ("C", "F", "A"):
            raise ValueError(f"an array type's layout is 'C', 'F' or 'A', not {layout!r}")
        self.dtype, self.ndim, self.layout, self.readonly = dtype, int(ndim), layout, readonly
        dims = [":"] * self.ndim
        if self.ndim and layout == "C":
            dims[-1] = "::1"
        elif self.ndim and layout == "F":
            dims[0] = "::1"
        self.text = f"{dtype.name}[{', '.join(dims)}]"

    def copy(self, dtype=None, ndim=None, layout=None, readonly=None):
        return Array(dtype or self.dtype, self.ndim if ndim is None else ndim, layout or self.layout,
                     self.readonly if readonly is None else readonly)


class CPointer(Type):
    """Numba's pointer type: `types.CPointer(float32)`, a parameter of a foreign device function
    (cuda.declare_device) that a kernel passes `ffi.from_buffer(array)` to."""

    def __init__(self, dtype, addrspace=None):
        if not isinstance(dtype, Scalar):
            dtype = from_dtype(dtype)
        self.dtype = dtype
        self.name = self.text = f"CPointer({dtype.name})"


class BaseTuple(Type):
    """Numba's tuple types: `types.UniTuple(int64, 3)` (prints as UniTuple(int64 x 3)) and
    `types.Tuple((int64, float32[:]))`, as kernel arguments (passed Python tuples)."""

    def __iter__(self):
        return iter(self.types)

    def __len__(self):
        return len(self.types)

    def __getitem__(self, i):
        return self.types[i]


class UniTuple(BaseTuple):
    def __init__(self, dtype, count):
        self.dtype, self.count = dtype, int(count)
        self.types = (dtype,) * self.count
        self.name = self.text = f"UniTuple({dtype} x {self.count})"


class Tuple(BaseTuple):
    def __new__(cls, types):
        types = tuple(types)
        if types and all(t == types[0] for t in types):  # as Numba: Tuple of one type is a UniTuple
            return UniTuple(types[0], len(types))
        return super().__new__(cls)

    def __init__(self, types):
        self.types = tuple(types)
        self.name = self.text = f"Tuple({', '.join(str(t) for t in self.types)})"


class Signature:
    """`float32(float32, float32)`: a return type and argument types (loom's signature text).
    Not a Type, as in Numba (code tells the two apart with isinstance)."""

    def __init__(self, return_type, args):
        self.return_type = return_type
        self.args = tuple(args)
        self.text = f"{return_type}({', '.join(str(a) for a in self.args)})"

    __str__ = Type.__str__
    __repr__ = Type.__repr__

    def __eq__(self, other):
        return isinstance(other, Signature) and self.text == other.text

    def __hash__(self):
        return hash(("numba signature", self.text))


void = none = Type("void")  # the return type of a kernel
_SCALARS = {
    "boolean": "bool", "bool_": "bool", "b1": "bool", "int8": "int8", "int16": "int16", "int32": "int32",
    "int64": "int64", "uint8": "uint8", "uint16": "uint16", "uint32": "uint32", "uint64": "uint64",
    "float16": "float16", "float32": "float32", "float64": "float64", "complex64": "complex64",
    "complex128": "complex128", "intp": "int64", "uintp": "uint64", "intc": "int32", "uintc": "uint32",
    "int_": "int64", "uint": "uint64", "float_": "float64", "double": "float64", "half": "float16",
    "byte": "uint8", "uchar": "uint8", "short": "int16", "ushort": "uint16", "longlong": "int64",
    "ulonglong": "uint64", "i1": "int8", "i2": "int16", "i4": "int32", "i8": "int64", "u1": "uint8",
    "u2": "uint16", "u4": "uint32", "u8": "uint64", "f2": "float16", "f4": "float32", "f8": "float64",
    "c8": "complex64", "c16": "complex128", "bfloat16": "bfloat16",
}
# The names `from numba.cuda import ...` gives as well as numba.cuda.types: void and the scalars.
TOP_LEVEL = ["void", "none"] + list(_SCALARS)
_BY_DTYPE = {}
for _alias, _name in _SCALARS.items():
    _BY_DTYPE.setdefault(_name, _scalar(_name))
    globals()[_alias] = _BY_DTYPE[_name]

# Numba's sets of types, which programs loop over.
signed_domain = frozenset(_BY_DTYPE[n] for n in ("int8", "int16", "int32", "int64"))
unsigned_domain = frozenset(_BY_DTYPE[n] for n in ("uint8", "uint16", "uint32", "uint64"))
integer_domain = signed_domain | unsigned_domain
real_domain = frozenset(_BY_DTYPE[n] for n in ("float32", "float64"))
complex_domain = frozenset(_BY_DTYPE[n] for n in ("complex64", "complex128"))
number_domain = real_domain | integer_domain | complex_domain


def from_dtype(dtype):
    """Numba's numpy_support.from_dtype: the scalar type of a NumPy (or loom) dtype."""
    try:
        if np.dtype(dtype).fields is not None:  # a structured dtype: its record type
            return Record(dtype)
        name = np.dtype(dtype).name
    except TypeError:  # loom's dtype objects print as NumPy's names
        name = np.dtype(str(dtype)).name
    if name not in _BY_DTYPE:
        raise TypeError(f"no kernel type for the dtype {name}")
    return _BY_DTYPE[name]


def as_dtype(t):
    """Numba's numpy_support.as_dtype: the NumPy dtype of a scalar type."""
    if not isinstance(t, Scalar):
        raise TypeError(f"as_dtype takes a scalar type (float32, int64, ...), not {t}")
    return np.dtype(t.name)


def signature(return_type, *args):
    """Numba's typing.signature: `signature(float32, float32, int32)` is float32(float32, int32)."""
    return Signature(return_type, args)


def typeof(value):
    """Numba's typeof: the type of a Python value as a kernel argument (a NumPy or loom array,
    or a number)."""
    if isinstance(value, (bool, np.bool_)):
        return boolean
    if isinstance(value, int):
        return int64
    if isinstance(value, float):
        return float64
    if isinstance(value, complex):
        return complex128
    if isinstance(value, np.generic):
        return from_dtype(value.dtype)
    shape, dtype = getattr(value, "shape", None), getattr(value, "dtype", None)
    if shape is None or dtype is None:
        raise TypeError(f"typeof: no kernel type for a {type(value).__name__}")
    kind = from_dtype(dtype)
    strides = tuple(getattr(value, "strides", ()) or ())
    return Array(kind, len(shape), layout_of(tuple(shape), strides, kind.dtype.itemsize))


def layout_of(shape, strides, itemsize):
    """'C', 'F' or 'A' from a shape and byte strides (axes of length 1 take any stride)."""
    if not strides or 0 in shape:
        return "C"

    def dense(order):
        step = itemsize
        for n, s in (zip(shape[::-1], strides[::-1]) if order == "C" else zip(shape, strides)):
            if n != 1 and s != step:
                return False
            step *= n
        return True
    return "C" if dense("C") else "F" if dense("F") else "A"


def from_kernel_type(t):
    """One translator type as a Numba type object; a type Numba's objects here do not model (a
    tuple, a device function) as a Type printing as loom's name for it."""
    try:
        return from_kernel_types((t,))[0]
    except (AttributeError, TypeError, ValueError):
        return Type(str(t))


def from_kernel_types(argtypes):
    """The translator's argument types (pykernel/types.py) as Numba's type objects (the keys of a
    dispatcher's overloads, which Numba writes `sig.args`)."""
    out = []
    for t in argtypes:
        if type(t).__name__ == "Tuple":
            out.append(Tuple(from_kernel_types(t.items)))
            continue
        record = getattr(t, "record", None) if type(t).__name__ == "RecordArray" else None
        if record is not None or type(t).__name__ == "Record":
            rec = Record((record or t).dtype)
            out.append(rec if record is None else Array(rec, t.ndim, "C"))
            continue
        ndim = getattr(t, "ndim", None)
        out.append(Array(from_dtype(t.dtype), ndim, t.layout) if ndim is not None else from_dtype(t.dtype))
    return tuple(out)
