"""The kernel-function object as the translator sees it: a Python function that @cuda.jit
made a kernel or a device function, with its options, its declared signatures and its
parsed source.

A leaf of pykernel: the translator (translate.py, compiler.py) and the translation cache
(cache.py) recognise and read these objects without importing the dispatcher, which imports
them (the dispatcher adds the launch: dispatcher.CUDADispatcher derives from KernelFunction).
"""
import functools

from . import types as T
from .errors import TypingError
from .foreign import read_links
from .signatures import parse_signature
from .source import FunctionSource


class KernelFunction:
    """A @cuda.jit function: py_func, the options, the declared signatures and the source."""

    def _init_function(self, func, device=False, signatures=None, debug=False, lineinfo=False, fastmath=False,
                       opt=True, link=None):
        functools.update_wrapper(self, func)
        self.py_func = func
        self.device = device
        # What __reduce__ passes on (dispatcher.py): the options as given.
        self._given = dict(device=device, signatures=list(signatures) if signatures else None, debug=debug,
                           lineinfo=lineinfo, fastmath=fastmath, opt=opt, link=link)
        self.debug = bool(debug)
        self.lineinfo, self.fastmath, self.opt = lineinfo, fastmath, opt
        self._src = None
        self.links = read_links(link, func.__name__)  # CUDA C++ texts of link= (foreign.py)
        self._declared = []       # eager signatures: (return type or None, argument types)
        for sig in signatures or ():
            ret, args = parse_signature(sig, func.__name__)
            if not device and ret is not None:
                raise TypingError(f"[{func.__name__}] a kernel's signature returns void, not {ret}")
            if device and any(isinstance(t, T.Pointer) for t in [ret, *args]):
                raise TypingError(f"[{func.__name__}] CPointer parameters are for kernels (an address passed as an "
                                  "int) and foreign device functions (cuda.declare_device); Python device functions "
                                  "take arrays")
            self._declared.append((ret, args))

    def source(self):
        if self._src is None:
            self._src = FunctionSource(self.py_func)
        return self._src

    def declared_argtypes(self):
        """A device function's declared argument types (first signature), or None."""
        return tuple(self._declared[0][1]) if self._declared else None

    def declared_signatures(self):
        """A device function's declared signatures: [(return type or None, argument types)]."""
        return [(r, tuple(a)) for r, a in self._declared] if self.device else []

    def declared_signature(self):
        """(return type or None, argument types) of a device function's first signature, or None."""
        return (self._declared[0][0], tuple(self._declared[0][1])) if self._declared and self.device else None

    def __repr__(self):
        return f"<loom.cuda {'device function' if self.device else 'kernel'} {self.__name__}>"


class DeviceFunction(KernelFunction):
    """A plain Python function translated as a device function (the scalar body of vectorize,
    guvectorize and cuda.reduce): called from generated kernels, never launched itself."""

    def __init__(self, func, src=None):
        self._init_function(func, device=True)
        self._src = src

    def __call__(self, *args, **kwargs):
        raise TypeError(f"[{self.__name__}] is a device function: call it from a kernel")
