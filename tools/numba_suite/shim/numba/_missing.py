"""How the shim reports a Numba name that loom has no equivalent of: an ImportError that
names it (raised on `from numba.x import name` and on `numba.x.name`)."""
import importlib
import types

# Numba's type objects. loom.cuda.types has the scalar and array types and signatures; the
# others are named as missing.
TYPE_NAMES = {
    "void", "none", "boolean", "bool_", "b1", "byte", "char", "uchar", "short", "ushort", "intc", "uintc",
    "int_", "uint", "long_", "ulong", "longlong", "ulonglong", "intp", "uintp", "float_", "double", "half",
    "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32", "float64",
    "bfloat16", "complex64", "complex128", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f2", "f4", "f8",
    "c8", "c16", "CPointer", "Array", "UniTuple", "Tuple", "Record", "NPDatetime", "NPTimedelta", "Optional",
    "Literal", "literal", "Integer", "Float", "Complex", "Boolean", "Number", "Dummy", "Type", "Opaque",
    "voidptr", "pyobject", "unicode_type", "string", "char_seq", "slice2_type", "slice3_type", "range_type",
    "deferred_type", "Omitted", "ffi_forced_object", "ffi", "dim3", "FunctionType", "NamedUniTuple",
    "NamedTuple", "StarArgTuple", "BaseTuple", "EnumMember", "IntEnumMember", "Buffer", "Bytes", "NumberClass",
}
TYPE_HINT = "a Numba type object loom.cuda.types does not have"


class LoomHasNo(ImportError):
    """A Numba name loom has no equivalent of."""


def missing(qualname, hint=None):
    return LoomHasNo(f"{qualname}: loom has no equivalent" + (f" ({hint})" if hint else ""), name=qualname)


class MissingModule(types.ModuleType):
    """A Numba module loom has no equivalent of, given where a test file imports it at its top,
    so that the file's other tests run: any use of it raises LoomHasNo naming it."""

    def __init__(self, qualname, hint=None):
        super().__init__(qualname)
        self.__hint = hint

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        raise missing(f"{self.__name__}.{name}", self.__hint)


def module_getattr(modname, submodules=(), hints=None, type_names=False, missing_modules=()):
    """A module-level __getattr__: the shim's own submodules are imported; every other public
    name raises LoomHasNo naming it (private and dunder names raise AttributeError)."""
    hints = hints or {}

    def __getattr__(name):
        if name in submodules:
            return importlib.import_module(f"{modname}.{name}")
        if name in missing_modules:
            return MissingModule(f"{modname}.{name}", hints.get(name))
        if name.startswith("_"):
            raise AttributeError(f"module {modname!r} has no attribute {name!r}")
        if type_names:
            from loom.cuda import types
            if name in types.__all__:
                return getattr(types, name)
        hint = hints.get(name) or (TYPE_HINT if type_names and name in TYPE_NAMES else None)
        raise missing(f"{modname}.{name}", hint)
    return __getattr__


def missing_callable(qualname, hint=None):
    """A Numba function loom has no equivalent of, importable so that a test file that names
    it at its top loads: calling it (on the host or, as a device function, in a kernel)
    raises LoomHasNo naming it."""
    def stand_in(*args, **kwargs):
        raise missing(qualname, hint)
    stand_in.__name__ = stand_in.__qualname__ = qualname.rsplit(".", 1)[-1]
    return stand_in
