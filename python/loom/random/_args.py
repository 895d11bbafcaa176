"""Arguments of a distribution method: size, dtype, device and the parameters.

A parameter stays a Python float when it is a scalar (checks run on the host, formulas use
it as a weak scalar) and becomes a loom array on the output's device otherwise (NumPy
arrays, lists, loom arrays): results broadcast over parameters as NumPy's do.
"""
import operator

import numpy as np

from .. import _loom

FLOATS = ("float16", "bfloat16", "float32", "float64")


def size_shape(size, fn):
    """size=None -> None; an int -> (n,); a sequence of ints -> a tuple."""
    if size is None:
        return None
    try:
        shape = (operator.index(size),)
    except TypeError:
        try:
            shape = tuple(operator.index(s) for s in size)
        except TypeError:
            raise TypeError(f"[{fn}] size must be None, an int or a tuple of ints, not {size!r}") from None
    if any(s < 0 for s in shape):
        raise ValueError(f"[{fn}] negative dimensions are not allowed (size={shape})")
    return shape


def to_dtype(dtype, fn):
    try:
        return _loom.dtype(dtype)
    except (TypeError, ValueError):
        raise TypeError(f"[{fn}] {dtype!r} is not a dtype") from None


def is_array(x):
    return isinstance(x, _loom.ndarray)


class Call:
    """One call of a distribution: resolves device, output shape and dtypes, converts the
    parameters, checks them, and casts the result.

    kind: "float" (the result is a float dtype; others raise TypeError, as NumPy's dtype=
    and CuPy's checks do), "cast" (a float result cast to any real dtype=, as CuPy's) or
    "int" (an integer result, int64 unless dtype= says otherwise).
    """

    def __init__(self, fn, size, dtype, device, kind="cast"):
        self.fn = fn
        self.size = size_shape(size, fn)
        default = _loom.int64 if kind == "int" else _loom.float64
        self.dtype = default if dtype is None else to_dtype(dtype, fn)
        name = self.dtype.name
        if kind == "float" and name not in FLOATS:
            raise TypeError(f"[{fn}] dtype must be float16, bfloat16, float32 or float64, got {name}")
        if name.startswith("complex"):
            raise TypeError(f"[{fn}] complex dtypes are not supported, got {name}")
        # Computed in float32 for a float32 (or narrower float) result, else in float64.
        self.cdt = _loom.float32 if name in FLOATS[:3] and kind != "int" else _loom.float64
        self.device = None if device is None else _device(device, fn)
        self.shape = None

    def params(self, **values):
        """Converts the parameters (keyword order) and fixes the output shape."""
        arrays = [v for v in values.values() if is_array(v)]
        if self.device is None:
            self.device = arrays[0].device if arrays else _loom.default_device()
        out = [self._convert(name, v) for name, v in values.items()]
        shapes = [tuple(v.shape) for v in out if is_array(v)]
        if self.size is None:
            self.shape = np.broadcast_shapes(*shapes) if shapes else ()
        else:
            self.shape = self.size
            try:
                ok = np.broadcast_shapes(self.size, *shapes) == self.size
            except ValueError:
                ok = False
            if not ok:
                raise ValueError(f"[{self.fn}] shape mismatch: parameters of shapes {shapes} cannot be broadcast "
                                 f"to size {self.size}")
        return out[0] if len(out) == 1 else out

    def arrays(self, **values):
        """Parameters that are whole vectors or matrices (not broadcast against size): loom
        arrays on the result's device, in the compute dtype."""
        if self.device is None:
            found = [v for v in values.values() if is_array(v)]
            self.device = found[0].device if found else _loom.default_device()
        out = []
        for name, v in values.items():
            a = self._convert(name, v)
            out.append(a if is_array(a) else _loom.asarray(a, dtype=self.cdt, device=self.device))
        return out[0] if len(out) == 1 else out

    def no_params(self):
        if self.device is None:
            self.device = _loom.default_device()
        self.shape = () if self.size is None else self.size

    def _convert(self, name, v):
        if isinstance(v, (bool, int, float, np.integer, np.floating, np.bool_)):
            return float(v)
        if isinstance(v, (complex, np.complexfloating)):
            raise TypeError(f"[{self.fn}] {name} must be real, not complex")
        if is_array(v):
            if v.dtype.name.startswith("complex"):
                raise TypeError(f"[{self.fn}] {name} must be real, not {v.dtype.name}")
            if v.device != self.device:
                raise _loom.DeviceMismatchError(f"[{self.fn}] {name} is on {v.device!r}, the result on {self.device!r}")
            return v if v.dtype == self.cdt else v.astype(self.cdt)
        if v is None or isinstance(v, (str, bytes)):
            raise TypeError(f"[{self.fn}] {name} must be a number or an array of numbers, not {type(v).__name__}")
        a = np.asarray(v)
        if a.dtype.kind not in "biuf" and a.dtype.name != "bfloat16":
            raise TypeError(f"[{self.fn}] {name} must be a number or an array of numbers, not {a.dtype}")
        if a.ndim == 0:
            return float(a)
        return _loom.asarray(a.astype(np.float64), dtype=self.cdt, device=self.device)

    def check(self, message, value, bad):
        """Raises ValueError("[fn] message") when bad(value) holds for any element."""
        hit = bad(value) if not is_array(value) else bool(_loom.any(bad(value)))
        if hit:
            raise ValueError(f"[{self.fn}] {message}")

    def finish(self, x):
        """The sample as the requested dtype."""
        return x if x.dtype == self.dtype else x.astype(self.dtype)


def _device(device, fn):
    if isinstance(device, _loom.Device):
        return device
    if isinstance(device, str):  # 'cpu', 'gpu:1': parsed as the extension parses them
        return _loom.empty((0,), device=device).device
    raise TypeError(f"[{fn}] device must be a loom Device (loom.cpu(), loom.gpu(i)), not {device!r}")
