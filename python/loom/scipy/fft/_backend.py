"""loom.scipy.fft as a backend of scipy.fft (SciPy's uarray protocol, as cupyx.scipy.fft is):
`with scipy.fft.set_backend(loom.scipy.fft): scipy.fft.fft(x)` runs loom's transform when the
array arguments are loom arrays; anything else is left to SciPy's other backends."""
import loom

__ua_domain__ = "numpy.scipy.fft"


def _loom_arrays(values):
    """Whether the call's array arguments are loom arrays (and there is at least one)."""
    arrays = [v for v in values if hasattr(v, "__array__") or isinstance(v, loom.ndarray)]
    return bool(arrays) and all(isinstance(v, loom.ndarray) for v in arrays)


def ua_function(namespace):
    """The __ua_function__ of the module whose names are `namespace`."""
    def __ua_function__(method, args, kwargs):
        fn = namespace.get(method.__name__)
        if fn is None or not _loom_arrays(list(args) + list(kwargs.values())):
            return NotImplemented
        return fn(*args, **kwargs)
    return __ua_function__
