"""The types of values inside Python kernels, and Numba's typing rules between them.

Scalars carry a NumPy dtype name. Python ints and floats held in variables are int64 and
float64 (as in Numba); literal numbers in an expression are weak (NEP 50, as in NumPy 2
and DESIGN.md §4): `x * 2.0` keeps a float32 `x` float32. Binary operations promote as
NumPy's result_type does; bools take part in arithmetic as int64 (Python's rule).
"""
import numpy as np

from .. import _loom
from .errors import TypingError

# dtype name -> C type, in the generated source.
C_TYPES = {
    "bool": "bool",
    "int8": "signed char",
    "int16": "short",
    "int32": "int",
    "int64": "long long",
    "uint8": "unsigned char",
    "uint16": "unsigned short",
    "uint32": "unsigned int",
    "uint64": "unsigned long long",
    "float16": "__half",
    "bfloat16": "__nv_bfloat16",  # arithmetic through cuda_bf16.h (the emulator's own); conversions in bf16.cuh
    "float32": "float",
    "float64": "double",
    "complex64": "loom_complex64",    # loom_complex<float> (common/loom_cast.cuh); math in loom_complex.cuh
    "complex128": "loom_complex128",
}
INTEGERS = {"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"}
FLOATS = {"float16", "bfloat16", "float32", "float64"}
COMPLEX = {"complex64", "complex128"}


class Type:
    """Base of every kernel type; types compare by value."""

    def key(self):
        raise NotImplementedError

    def __eq__(self, other):
        return type(self) is type(other) and self.key() == other.key()

    def __hash__(self):
        return hash((type(self).__name__, self.key()))

    def __repr__(self):
        return str(self)


class Scalar(Type):
    def __init__(self, dtype):
        self.dtype = dtype

    def key(self):
        return self.dtype

    def __str__(self):
        return self.dtype

    @property
    def c(self):
        return C_TYPES[self.dtype]

    @property
    def is_int(self):
        return self.dtype in INTEGERS

    @property
    def is_float(self):
        return self.dtype in FLOATS

    @property
    def is_complex(self):
        return self.dtype in COMPLEX

    @property
    def is_bool(self):
        return self.dtype == "bool"

    @property
    def is_signed(self):
        return self.dtype.startswith("int")


class Array(Type):
    """An array: a kernel argument (space "global"), or a local, shared or constant array.
    `layout` "C" when known C-contiguous, else "A"; `shape` a tuple of ints when static."""

    def __init__(self, dtype, ndim, layout="A", space="global", shape=None, readonly=False):
        self.dtype, self.ndim, self.layout, self.space = dtype, ndim, layout, space
        self.shape, self.readonly = shape, readonly

    def key(self):
        return (self.dtype, self.ndim, self.layout, self.space, self.shape, self.readonly)

    def __str__(self):
        s = f"array({self.dtype}, {self.ndim}d, {self.layout}"
        if self.space != "global":
            s += f", {self.space}"
        return s + ")"

    @property
    def element(self):
        return Scalar(self.dtype)

    @property
    def c(self):
        elem = C_TYPES[self.dtype]
        if self.readonly:
            elem = "const " + elem
        return f"LoomArray<{elem}, {self.ndim}, {'true' if self.layout == 'C' else 'false'}>"


class Tuple(Type):
    """A tuple; `names` are a namedtuple's fields (read as attributes), which leave its C struct
    as it is (the struct is positional)."""

    def __init__(self, items, names=None):
        self.items = tuple(items)
        self.names = tuple(names) if names else None

    def key(self):
        return (self.items, self.names)

    def __str__(self):
        if self.names:
            return "namedtuple(" + ", ".join(f"{n}={t}" for n, t in zip(self.names, self.items)) + ")"
        return "tuple(" + ", ".join(map(str, self.items)) + ")"

    @property
    def c(self):
        return "LoomTuple_" + "_".join(_mangle(t) for t in self.items) if self.items else "LoomTuple_"


class Pointer(Type):
    """A pointer to elements of `dtype`: what `ffi.from_buffer(array)` gives in a kernel, passed
    to a foreign device function's CPointer parameter (foreign.py); a kernel's CPointer
    parameter (an address passed as an int), indexed p[i] with no bounds known."""

    readonly = False

    def __init__(self, dtype):
        self.dtype = dtype

    @property
    def element(self):
        return Scalar(self.dtype)

    def key(self):
        return self.dtype

    def __str__(self):
        return f"CPointer({self.dtype})"

    @property
    def c(self):
        return C_TYPES[self.dtype] + "*"


class IntEnumMember(Scalar):
    """A member of an IntEnum class (enums.py): an int64 for everything but `is`, which also
    compares the class."""

    def __init__(self, cls):
        super().__init__("int64")
        self.cls = cls

    def key(self):
        return ("int64", self.cls)

    def __str__(self):
        return f"IntEnum({self.cls.__module__}.{self.cls.__qualname__})"


class EnumMember(Type):
    """A member of an Enum class (enums.py): its value in C, compared with ==, != and `is`."""

    def __init__(self, cls, value_type):
        self.cls, self.value_type = cls, value_type

    def key(self):
        return (self.cls, self.value_type)

    def __str__(self):
        return f"Enum({self.cls.__module__}.{self.cls.__qualname__}, {self.value_type})"

    @property
    def c(self):
        return self.value_type.c


class GridGroup(Type):
    """cuda.cg.this_grid()'s value: the grid, whose sync() waits for every thread of it (a
    cooperative launch: pykernel/cooperative.py). It holds nothing at run time."""

    def key(self):
        return "grid"

    def __str__(self):
        return "grid_group"

    c = "int"


class Record(Type):
    """A record of a NumPy structured dtype (records.py): in C a pointer to its first byte, its
    fields lvalues at their offsets."""

    def __init__(self, dtype):
        self.dtype = dtype

    def key(self):
        return self.dtype

    def __str__(self):
        return f"Record({self.dtype})"

    c = "unsigned char*"


class RecordArray(Type):
    """An array of records: in C the bytes, a LoomArray<unsigned char> with one axis more
    (the record's bytes, contiguous)."""

    def __init__(self, record, ndim):
        self.record, self.ndim = record, ndim

    def key(self):
        return (self.record, self.ndim)

    def __str__(self):
        return f"array({self.record}, {self.ndim}d, C)"

    @property
    def c(self):
        return f"LoomArray<unsigned char, {self.ndim + 1}, true>"


class NoneType(Type):
    def key(self):
        return None

    def __str__(self):
        return "none"

    c = "void"


class Opaque(Type):
    """A compile-time object: a module, an intrinsic, a device function, a dtype, a range."""

    def __init__(self, kind, obj=None):
        self.kind, self.obj = kind, obj

    def key(self):
        return (self.kind, id(self.obj))

    def __str__(self):
        return f"<{self.kind}>"


def _mangle(t):
    if isinstance(t, Scalar):
        return t.dtype
    if isinstance(t, Array):
        return f"a{t.dtype}{t.ndim}{t.layout}{'r' if t.readonly else ''}"
    if isinstance(t, Tuple):
        return "t" + str(len(t.items)) + "_" + "_".join(_mangle(i) for i in t.items) + "_e"
    return "x"


NONE = NoneType()
BOOL, INT32, INT64, UINT32, UINT64 = (Scalar(n) for n in ("bool", "int32", "int64", "uint32", "uint64"))
FLOAT32, FLOAT64 = Scalar("float32"), Scalar("float64")
COMPLEX64, COMPLEX128 = Scalar("complex64"), Scalar("complex128")


def dtype_name(obj):
    """The dtype name a Python object stands for (np.float32, loom.float32, numba's float32,
    'float32', np.dtype), or None."""
    if isinstance(obj, str):
        name = obj
    else:
        try:
            name = np.dtype(obj).name
        except TypeError:
            name = str(obj)
    aliases = {"float": "float64", "int": "int64", "boolean": "bool", "bool_": "bool", "f4": "float32",
               "f8": "float64", "i4": "int32", "i8": "int64", "intp": "int64", "uintp": "uint64",
               "double": "float64", "single": "float32", "b1": "bool", "u4": "uint32", "u8": "uint64",
               "half": "float16", "f2": "float16", "c8": "complex64", "c16": "complex128",
               "complex": "complex128", "csingle": "complex64", "cdouble": "complex128"}
    name = aliases.get(name, name)
    return name if name in C_TYPES else None


def _weak_stand_in(t):
    return {"bool": False, "int": 0, "float": 0.0, "complex": 0j}[t]


def promote(a, b, a_weak=None, b_weak=None):
    """NumPy's result dtype of two scalar types; `*_weak` names a Python literal's kind
    ("int", "float", "bool") for a weak operand."""
    if a_weak and b_weak:
        order = ["bool", "int", "float", "complex"]
        k = order[max(order.index(a_weak), order.index(b_weak))]
        return Scalar({"bool": "bool", "int": "int64", "float": "float64", "complex": "complex128"}[k])
    if "bfloat16" in (a.dtype, b.dtype):
        return _promote_bfloat16(a, b, a_weak, b_weak)
    x = _weak_stand_in(a_weak) if a_weak else np.dtype(a.dtype)
    y = _weak_stand_in(b_weak) if b_weak else np.dtype(b.dtype)
    return Scalar(np.result_type(x, y).name)


def _promote_bfloat16(a, b, a_weak, b_weak):
    """bfloat16 promotes as float16 does (NumPy's rules), and with float16 to float32, as in
    ml_dtypes and JAX."""
    if {a.dtype, b.dtype} == {"bfloat16", "float16"} and not (a_weak or b_weak):
        return FLOAT32
    stand_in = [Scalar("float16") if t.dtype == "bfloat16" else t for t in (a, b)]
    r = promote(stand_in[0], stand_in[1], a_weak, b_weak)
    return Scalar("bfloat16") if r.dtype == "float16" else r


def unify(a, b):
    """The type a variable assigned both `a` and `b` takes (Numba's unification), or None."""
    if a is None:
        return b
    if b is None or a == b:
        return a
    if isinstance(a, Scalar) and isinstance(b, Scalar):
        if a.is_bool != b.is_bool:  # bool with a number: the number's kind, at least int64
            other = b if a.is_bool else a
            return promote(other, INT64)
        return promote(a, b)
    if isinstance(a, Array) and isinstance(b, Array):
        if a.dtype != b.dtype or a.ndim != b.ndim or a.space != b.space:
            return None
        layout = a.layout if a.layout == b.layout else "A"
        return Array(a.dtype, a.ndim, layout, a.space, a.shape if a.shape == b.shape else None,
                     a.readonly or b.readonly)
    if isinstance(a, Tuple) and isinstance(b, Tuple) and len(a.items) == len(b.items):
        items = [unify(x, y) for x, y in zip(a.items, b.items)]
        return None if any(i is None for i in items) else Tuple(items, a.names if a.names == b.names else None)
    return None


def real_part_type(t):
    """The float type of a complex type's parts (complex64 -> float32)."""
    return FLOAT32 if t.dtype == "complex64" else FLOAT64


def literal_c(value, t):
    """A Python number as a C literal of scalar type `t`."""
    d = t.dtype
    if d in COMPLEX:
        part = real_part_type(t)
        z = complex(value)
        return f"{t.c}({literal_c(z.real, part)}, {literal_c(z.imag, part)})"
    if isinstance(value, complex):
        raise TypingError(f"a complex value ({value!r}) does not convert to {d} (take .real or abs())")
    if d == "bool":
        return "true" if value else "false"
    if d in FLOATS:
        v = float(value)
        if v != v:
            return f"(({t.c})__longlong_as_double(0x7ff8000000000000LL))"
        if v in (float("inf"), float("-inf")):
            s = "" if v > 0 else "-"
            return f"(({t.c}){s}__longlong_as_double(0x7ff0000000000000LL))"
        text = repr(v)
        if "e" not in text and "." not in text:
            text += ".0"
        if d == "float32":
            return text + "f"
        if d == "float16":
            return f"__half({text}f)"
        if d == "bfloat16":
            return f"__ushort_as_bfloat16((unsigned short){bfloat16_bits(v):#06x}u)"
        return text
    v = int(value)
    if d == "int64":
        return f"{v}LL" if v != -(2**63) else "(-9223372036854775807LL - 1)"
    if d == "uint64":
        return f"{v}ULL"
    if d == "uint32":
        return f"{v}u"
    if d == "int32":
        return str(v) if v != -(2**31) else "(-2147483647 - 1)"
    return f"(({t.c}){v})"


def bfloat16_bits(v):
    """The bits of bfloat16 nearest to the Python float `v` (ties to even), rounded once."""
    import fractions
    import math
    if v != v:
        return 0x7FC0
    sign = 0x8000 if math.copysign(1.0, v) < 0 else 0
    a = abs(v)
    if a == float("inf"):
        return sign | 0x7F80
    if a == 0:
        return sign
    exp = max(math.frexp(a)[1] - 1, -126)  # the binade's exponent; subnormals share -126's quantum
    quantum = fractions.Fraction(2) ** (exp - 7)
    n = round(fractions.Fraction(a) / quantum)  # Fraction rounds half to even
    value = n * quantum
    if value >= 2 ** 128:
        return sign | 0x7F80
    bits = int(np.array(float(value), dtype=np.float32).view(np.uint32)) >> 16
    return sign | bits


def signature_key(argtypes):
    """The dispatcher's key of a list of argument types ("float32[2C],int64"): the text the
    launch path (C++, python/src/kernel_signature.h, which owns the format) builds for
    arguments of these types."""
    return _loom._kernel_key([(t.dtype, t.ndim, t.layout) if isinstance(t, Array) else (t.dtype, None, None)
                              for t in argtypes])


def parse_key(key):
    """The argument types of a dispatcher key, as a tuple (signature_key's inverse)."""
    return tuple(Scalar(dtype) if ndim is None else Array(dtype, ndim, layout)
                 for dtype, ndim, layout in _loom._parse_kernel_key(key))
