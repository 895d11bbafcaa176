"""CuPy internals some in-scope test files import at their top (cupy._core, cupy._indexing,
cupy.cublas, cupyx.cusolver, cupy.random._generator, ...) for a few tests of CuPy's own
machinery. They import as stand-ins, so that the files' other tests run; using one (calling
it, reading a value from it) raises LoomHasNo naming the CuPy internal."""
import importlib.abc
import importlib.machinery
import sys
import types

# Modules served as stand-ins, with everything below them.
INTERNAL = ("cupy._core", "cupy._indexing", "cupy.cublas", "cupy._statistics", "cupy._sorting",
            "cupy.random._bit_generator",
            "cupy.linalg._util", "cupy.fft._fft", "cupy.fft.config",
            "cupyx.cutensor", "cupyx.jit")


class LoomHasNo(AttributeError):
    """A CuPy name loom has no equivalent of."""


def missing(qualname, what="a CuPy internal"):
    return LoomHasNo(f"{qualname}: loom has no equivalent ({what})", name=qualname.rsplit(".", 1)[-1])


class Missing:
    """A name under a stand-in module: its attributes are stand-ins too; any use raises."""

    def __init__(self, qualname):
        self.__qualname = qualname

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return Missing(f"{self.__qualname}.{name}")

    def __call__(self, *args, **kwargs):
        raise missing(self.__qualname)

    def __bool__(self):
        raise missing(self.__qualname)

    def __iter__(self):
        raise missing(self.__qualname)

    def __repr__(self):
        return f"<missing {self.__qualname}>"


class MissingModule(types.ModuleType):
    def __init__(self, qualname):
        super().__init__(qualname)
        self.__path__ = []

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return Missing(f"{self.__name__}.{name}")


class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, fullname, path=None, target=None):
        if any(fullname == m or fullname.startswith(m + ".") for m in INTERNAL):
            return importlib.machinery.ModuleSpec(fullname, self, is_package=True)
        return None

    def create_module(self, spec):
        return MissingModule(spec.name)

    def exec_module(self, module):
        pass


def install():
    if not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.insert(0, _Finder())


def forward_to(modname, target):
    """A module-level __getattr__ for the shim's module modname standing for loom's module
    target: loom's names, then CuPy's internals below modname as stand-ins, else LoomHasNo."""
    import importlib

    def __getattr__(name):
        if hasattr(target, name):
            return getattr(target, name)
        if f"{modname}.{name}" in INTERNAL:
            return importlib.import_module(f"{modname}.{name}")
        if name.startswith("__"):
            raise AttributeError(name)
        raise LoomHasNo(f"{modname}.{name}: loom has no equivalent (no {target.__name__.replace('._loom', '')}.{name})",
                        name=name)
    return __getattr__
