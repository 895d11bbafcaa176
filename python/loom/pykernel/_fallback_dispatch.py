# TEMPORARY: a Python stand-in for _loom._KernelDispatcher until the C++ one is merged.
import numpy as np


class _Launcher:
    def __init__(self, d, cfg):
        self.d, self.cfg = d, cfg
        self.griddim, self.blockdim = cfg[0], cfg[1]
        self.stream = cfg[2] if len(cfg) > 2 else None
        self.sharedmem = cfg[3] if len(cfg) > 3 else 0

    def __call__(self, *args):
        key = self.d.signature(*args)
        k = self.d.kernels.get(key) if key is not None else None
        if k is None:
            return self.d.on_miss(self, args)
        stream = self.stream if self.stream not in (None, 0) else None
        k(self.griddim, self.blockdim, args, shared_mem=self.sharedmem, stream=stream)


class KernelDispatcher:
    def __init__(self, name, on_miss):
        self.name, self.on_miss, self.kernels = name, on_miss, {}

    def signature(self, *args):
        from .. import _loom
        out = []
        for a in args:
            if isinstance(a, _loom.ndarray):
                c = "C" if np.asarray(a.numpy()).flags.c_contiguous or True else "A"
                out.append(f"{a.dtype}[{a.ndim}{'C' if _is_c(a) else 'A'}]")
            elif isinstance(a, bool):
                out.append("bool")
            elif isinstance(a, int):
                out.append("int64")
            elif isinstance(a, float):
                out.append("float64")
            elif isinstance(a, np.generic):
                out.append(a.dtype.name)
            else:
                return None
        return ",".join(out)

    def add(self, key, k):
        self.kernels[key] = k

    def get(self, key):
        return self.kernels.get(key)

    def keys(self):
        return list(self.kernels)

    def __getitem__(self, cfg):
        return _Launcher(self, cfg)


def _is_c(a):
    st, s = [], a.dtype.itemsize if hasattr(a.dtype, "itemsize") else np.dtype(str(a.dtype)).itemsize
    exp = s
    for d, stv in zip(reversed(a.shape), reversed(a.strides)):
        if d != 1 and stv != exp:
            return False
        exp *= d
    return True
