"""The Python Array API standard's glue: `x.__array_namespace__()`, `loom.__array_api_version__`,
`loom.__array_namespace_info__()` and the standard's constants.

Everything that computes (the functions, dtypes, devices) is loom's own and lives in the
extension; this file only answers the standard's questions about the namespace, so that
libraries written against the standard (array-api-compat, SciPy, scikit-learn) find loom.
"""
import math as _math

from .. import _loom

__array_api_version__ = "2024.12"

# The versions whose names and behaviour loom's namespace has: a newer standard only added.
_SUPPORTED_VERSIONS = ("2021.12", "2022.12", "2023.12", "2024.12")

# The standard's constants (Python floats, as NumPy's; newaxis indexes like None).
e = _math.e
pi = _math.pi
from numpy import inf, nan  # NumPy's very objects (CuPy's too): code tests `cval is np.nan`
newaxis = None

# The largest number of dimensions an array may have: the GPU kernels' index structs hold
# 64 (LOOM_MAX_DIMS), as NumPy's limit.
_MAX_DIMS = 64

_DTYPE_NAMES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                "float32", "float64", "complex64", "complex128")
_KINDS = {
    "bool": ("bool",),
    "signed integer": ("int8", "int16", "int32", "int64"),
    "unsigned integer": ("uint8", "uint16", "uint32", "uint64"),
    "integral": ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"),
    "real floating": ("float32", "float64"),
    "complex floating": ("complex64", "complex128"),
    "numeric": ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64",
                "complex64", "complex128"),
}


def _dtype(name):
    return getattr(_loom, "bool_" if name == "bool" else name)


def _check_device(device, what):
    # Devices as loom takes them everywhere (a Device, or a name such as "gpu:1"); anything
    # else is a caller's mistake, reported rather than ignored.
    if device is not None and not isinstance(device, (_loom.Device, str)):
        raise ValueError(f"[__array_namespace_info__.{what}] {device!r} is not a loom device "
                         f"(one of {_loom.devices()}, or a name such as 'cpu')")


class _Info:
    """The standard's inspection namespace: `loom.__array_namespace_info__()`.

    Every device computes every dtype (the GPU too), so the answers do not depend on the
    device; loom's default dtypes are NumPy's (float64, complex128, int64).
    """

    __slots__ = ()

    def capabilities(self):
        """What loom supports of the standard's optional parts."""
        return {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": _MAX_DIMS}

    def default_device(self):
        """The device arrays are made on when none is named (loom.default_device())."""
        return _loom.default_device()

    def devices(self):
        """Every device of this machine: cpu() and each GPU."""
        return list(_loom.devices())

    def default_dtypes(self, *, device=None):
        """The dtypes loom picks when none is named: NumPy's, on every device."""
        _check_device(device, "default_dtypes")
        return {"real floating": _loom.float64, "complex floating": _loom.complex128, "integral": _loom.int64,
                "indexing": _loom.int64}

    def dtypes(self, *, device=None, kind=None):
        """The standard's dtypes loom has (all of them), by canonical name; `kind` filters
        by a kind name or a tuple of them (a union)."""
        _check_device(device, "dtypes")
        if kind is None:
            names = _DTYPE_NAMES
        else:
            kinds = kind if isinstance(kind, tuple) else (kind,)
            wanted = set()
            for k in kinds:
                if k not in _KINDS:
                    raise ValueError(f"[__array_namespace_info__.dtypes] unknown kind {k!r} "
                                     f"(one of {', '.join(map(repr, _KINDS))})")
                wanted.update(_KINDS[k])
            names = [n for n in _DTYPE_NAMES if n in wanted]
        return {n: _dtype(n) for n in names}

    def __repr__(self):
        return "loom.__array_namespace_info__()"


_INFO = _Info()


def __array_namespace_info__():
    """The Array API standard's inspection namespace of loom (devices, dtypes, capabilities)."""
    return _INFO


def _array_namespace(self, /, *, api_version=None):
    """The Array API namespace of this array: the `loom` module itself.

    `api_version` (a string such as "2024.12") asks for a version of the standard; loom
    answers for 2021.12 to 2024.12 and raises ValueError for any other.
    """
    if api_version is not None and api_version not in _SUPPORTED_VERSIONS:
        raise ValueError(f"[__array_namespace__] loom implements the Array API versions "
                         f"{', '.join(_SUPPORTED_VERSIONS)}, not {api_version!r}")
    import loom  # lazy: the namespace is the package, which imports this module
    return loom


_loom.ndarray.__array_namespace__ = _array_namespace


# The standard's two array methods with keyword arguments, as Python functions so that
# inspect.signature reads their parameters (the suite checks them; bound methods of the
# extension show none). Neither is on a hot path.
_bound_to_device = _loom.ndarray.to_device
_bound_dlpack = _loom.ndarray.__dlpack__


def _to_device(self, device, /, *, stream=None):
    return _bound_to_device(self, device, stream=stream)


def _dlpack(self, /, *, stream=None, max_version=None, dl_device=None, copy=None):
    return _bound_dlpack(self, stream=stream, max_version=max_version, dl_device=dl_device, copy=copy)


for _name, _fn in (("to_device", _to_device), ("__dlpack__", _dlpack)):
    _fn.__name__ = _fn.__qualname__ = _name
    _fn.__doc__ = getattr(_loom.ndarray, _name).__nb_signature__[0][1]
    setattr(_loom.ndarray, _name, _fn)
