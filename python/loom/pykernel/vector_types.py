"""CUDA's built-in vector types in kernels, as Numba has them: `cuda.float32x3(a, b, c)`,
`cuda.short2(x, y)` (C's names are aliases), read as `.x .y .z .w`. A constructor takes numbers
and smaller vectors of its base type, whose components it flattens in order
(`float32x4(v2, 1.0, v1)`), as many components as the type has.

In a kernel a vector is a tuple with field names (a namedtuple's translation: a C struct, or
its items one by one), so it is passed to and returned from device functions as tuples are.
`vector_types` maps each name to its VectorType (Numba's `numba.cuda.vector_types`)."""
import numpy as np

from . import numba_types
from . import types as T
from .stubs import Intrinsic
from .values import Value, cast, tuple_items

_FIELDS = ("x", "y", "z", "w")
_BASES = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64")
# C's names of the base types (LP64, as NumPy's itemsizes give them here).
_C_NAMES = {"char": np.byte, "short": np.short, "int": np.intc, "long": np.int_, "longlong": np.longlong,
            "uchar": np.ubyte, "ushort": np.ushort, "uint": np.uintc, "ulong": np.uint, "ulonglong": np.ulonglong,
            "float": np.single, "double": np.double}


class VectorTypeStub(Intrinsic):
    """What `cuda.float32x3` is: the constructor, called inside kernels."""

    def __init__(self, base, n):
        super().__init__(f"{base}x{n}", f"CUDA's {base}x{n} vector: {n} {base} components {', '.join(_FIELDS[:n])}.")
        self.base, self.n = base, n
        self.aliases = []  # C's names of it (double3 for float64x3)


class VectorType:
    """Numba's description of a vector type: its name, base type, components and constructor."""

    def __init__(self, stub):
        self.name = stub.name
        self.base_type = getattr(numba_types, stub.base)
        self.attr_names = _FIELDS[:stub.n]
        self.num_elements = stub.n
        self.user_facing_object = stub

    def __repr__(self):
        return self.name


STUBS = {f"{b}x{n}": VectorTypeStub(b, n) for b in _BASES for n in range(1, 5)}
ALIASES = {}
for _c, _np in _C_NAMES.items():
    for _n in range(1, 5):
        _stub = STUBS[f"{np.dtype(_np).name}x{_n}"]
        _stub.aliases.append(f"{_c}{_n}")
        ALIASES[f"{_c}{_n}"] = _stub
vector_types = {name: VectorType(stub) for name, stub in STUBS.items()}


def vector_value(stub, items):
    """A vector of `stub`'s type from its component Values (already of the base type)."""
    return Value(None, T.Tuple([T.Scalar(stub.base)] * stub.n, _FIELDS[:stub.n]), items=items)


def is_vector(t, base=None):
    names = getattr(t, "names", None)
    return (isinstance(t, T.Tuple) and names is not None and names == _FIELDS[:len(t.items)]
            and all(isinstance(i, T.Scalar) for i in t.items) and (base is None or t.items[0].dtype == base))


def _constructor(stub):
    def h(tr, node, args, kwargs):
        if kwargs:
            tr.fail(node, f"cuda.{stub.name}() takes its components positionally")
        base = T.Scalar(stub.base)
        items = []
        for a in args:
            if is_vector(a.type, stub.base):
                items.extend(tuple_items(a))
            elif isinstance(a.type, T.Scalar) and not a.type.is_complex:
                items.append(Value(cast(a, base), base))
            else:
                tr.fail(node, f"cuda.{stub.name}() takes {stub.base} numbers and {stub.base} vectors, not {a.type}")
        if len(items) != stub.n:
            tr.fail(node, f"cuda.{stub.name}() takes {stub.n} components in all, not {len(items)}")
        return vector_value(stub, items)
    return h


def register(handlers):
    """Puts each constructor into the translator's table of intrinsics."""
    for stub in STUBS.values():
        handlers[stub] = _constructor(stub)
