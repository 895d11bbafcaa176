"""Pickling @cuda.jit kernels, device functions, their configured launches (`k[grid, block]`)
and @vectorize/@guvectorize objects, as Numba pickles its dispatchers: by the Python function
and the options, so the other side compiles again (its own device, its own compile cache).

A function pickle's own way (by module and name) needs an importable function; kernels are
often defined inside other functions (tests, notebooks), so a function is pickled by value
instead: its code (marshal, for the same Python version, as Numba's), the globals its code
reads, its defaults and its closure's values. In those, modules go by name, functions pickle
by name when they can and by value when not; everything else pickles as it does.
"""
import importlib
import marshal
import pickle
import sys
import types

from .. import _loom


class _Module:
    """A module among a function's globals or closure values: re-imported by name."""

    def __init__(self, name):
        self.name = name


def _importable(fn):
    """Whether pickle finds `fn` again by its module and qualified name."""
    mod = sys.modules.get(getattr(fn, "__module__", None) or "")
    obj = mod
    for part in fn.__qualname__.split("."):
        obj = getattr(obj, part, None)
    return obj is fn


def _value(v):
    """A global or closure value as it travels: modules by name, unimportable functions by
    value (recursively), the rest as themselves (pickle's own rules)."""
    if isinstance(v, types.ModuleType):
        return _Module(v.__name__)
    if isinstance(v, types.FunctionType) and not _importable(v):
        return _FunctionState(v)
    return v


def _restore(v):
    if isinstance(v, _Module):
        return importlib.import_module(v.name)
    if isinstance(v, _FunctionState):
        return v.rebuild()
    return v


def _names(code):
    """The global names `code` and the code objects nested in it read."""
    names = set(code.co_names)
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            names |= _names(c)
    return names


class _FunctionState:
    """A Python function by value."""

    def __init__(self, fn):
        g = fn.__globals__
        self.code = marshal.dumps(fn.__code__)
        self.module = fn.__module__
        self.name, self.qualname = fn.__name__, fn.__qualname__
        self.defaults, self.kwdefaults = fn.__defaults__, fn.__kwdefaults__
        self.globals = {n: _value(g[n]) for n in _names(fn.__code__) if n in g}
        self.closure = tuple(_value(c.cell_contents) for c in fn.__closure__ or ())
        self.python = sys.version_info[:2]

    def rebuild(self):
        if sys.version_info[:2] != self.python:
            raise pickle.UnpicklingError(f"[loom] a kernel pickled under Python {self.python[0]}.{self.python[1]} "
                                         f"cannot be rebuilt under {sys.version_info[0]}.{sys.version_info[1]} "
                                         "(its bytecode differs)")
        code = marshal.loads(self.code)
        home = sys.modules.get(self.module)
        g = dict(vars(home)) if home is not None else {"__builtins__": __builtins__}
        g.update({n: _restore(v) for n, v in self.globals.items()})
        closure = tuple(types.CellType(_restore(v)) for v in self.closure) or None
        fn = types.FunctionType(code, g, self.name, self.defaults, closure)
        fn.__kwdefaults__, fn.__qualname__, fn.__module__ = self.kwdefaults, self.qualname, self.module
        return fn


def function_state(fn):
    """What a pickle of a kernel carries of its Python function."""
    return fn if _importable(fn) else _FunctionState(fn)


def function_of(state):
    return state.rebuild() if isinstance(state, _FunctionState) else state


def rebuild_dispatcher(cls, state, given):
    """A @cuda.jit object again (CUDADispatcher.__reduce__): its class, function and options."""
    return cls(function_of(state), **given)


def reduce_launcher(launcher):
    """A configured launch (k[grid, block]) pickles as its dispatcher and configuration; a
    stream does not travel (it belongs to this process)."""
    s = launcher.stream
    if isinstance(s, _loom.Stream) and s != _loom.default_stream(s.device) or (isinstance(s, int) and s != 0):
        raise pickle.PicklingError(f"[{launcher.dispatcher.__name__}] a launch configured with a stream cannot be "
                                   "pickled: configure it again where it is unpickled")
    return (_configure, (launcher.dispatcher, _dim3(launcher.griddim), _dim3(launcher.blockdim), launcher.sharedmem))


def _dim3(d):
    """A launch dimension as Numba gives it back: three ints, (5, 1, 1) for 5."""
    d = tuple(d) if isinstance(d, (tuple, list)) else (int(d),)
    return tuple(int(x) for x in d) + (1,) * (3 - len(d))


def _configure(dispatcher, griddim, blockdim, sharedmem):
    return dispatcher[griddim, blockdim, 0, sharedmem]
