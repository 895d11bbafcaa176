"""C parameter declarations as PyCUDA's kernel generators read them ("float *x", "int n",
"pycuda::complex<float> *z", "float3 v"): the dtype and whether it is a pointer."""
import re

import numpy as np

from loom.pykernel.signatures import split_top_level

_SCALARS = {
    "bool": np.bool_, "char": np.int8, "signed char": np.int8, "unsigned char": np.uint8,
    "short": np.int16, "short int": np.int16, "unsigned short": np.uint16, "ushort": np.uint16,
    "unsigned short int": np.uint16, "int": np.int32, "signed int": np.int32, "signed": np.int32,
    "unsigned": np.uint32, "unsigned int": np.uint32, "uint": np.uint32,
    "long": np.int64, "long int": np.int64, "unsigned long": np.uint64, "ulong": np.uint64,
    "unsigned long int": np.uint64, "long long": np.int64, "unsigned long long": np.uint64,
    "size_t": np.uint64, "ptrdiff_t": np.int64, "float": np.float32, "double": np.float64,
    "float32": np.float32, "float64": np.float64,
    "pycuda::complex<float>": np.complex64, "pycuda::complex<double>": np.complex128,
    "complex<float>": np.complex64, "complex<double>": np.complex128,
}


def ctype_to_dtype(name):
    """The dtype of C type `name`, or ValueError."""
    name = " ".join(name.replace("const", " ").replace("volatile", " ").replace("__restrict__", " ").split())
    name = re.sub(r"\s*<\s*", "<", re.sub(r"\s*>", ">", name))
    if name in _SCALARS:
        return np.dtype(_SCALARS[name])
    from . import _vec
    if name in _vec.types:
        return _vec.types[name]
    raise ValueError(f"unknown C type '{name}'")


def split_declaration(c_arg):
    """("float", True, "x") for "const float *x"; raises ValueError for what it cannot read."""
    m = re.fullmatch(r"\s*(.*?)\s*(\*?)\s*(\w+)\s*(\[\s*\])?\s*", c_arg)
    if not m or not m.group(1):
        raise ValueError(f"cannot read the C declaration '{c_arg.strip()}'")
    pointer = bool(m.group(2) or m.group(4))
    return m.group(1).strip(), pointer, m.group(3)


def parse_c_arg(c_arg, vector_cls, scalar_cls):
    ctype, pointer, name = split_declaration(c_arg)
    return (vector_cls if pointer else scalar_cls)(ctype_to_dtype(ctype), name)


def split_arg_list(arguments):
    """A comma-separated declaration list, commas inside <...> kept ("complex<float> *a, int n")."""
    return [a.strip() for a in split_top_level(arguments, "<", ">") if a.strip()]
