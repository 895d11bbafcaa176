"""CuPy internals some in-scope test files import at their top (cupy._core, cupy._indexing,
cupy.cublas, cupyx.cusolver, cupy.random._generator, ...) for a few tests of CuPy's own
machinery. They import as stand-ins, so that the files' other tests run; using one (calling
it, reading a value from it) raises LoomHasNo naming the CuPy internal."""
import dis
import importlib.abc
import importlib.machinery
import re
import sys
import types

# Modules served as stand-ins, with everything below them.
INTERNAL = ("cupy._core", "cupy._indexing", "cupy.cublas", "cupy._statistics", "cupy._sorting",
            "cupy.random._bit_generator",
            "cupy.linalg._util", "cupy.fft._fft", "cupy.fft.config",
            "cupyx.cutensor", "cupyx.jit")
# More stand-ins, by pattern: (regular expression on the module's full name, what it is).
# The cupyx.scipy shim adds CuPy's private modules under cupyx.scipy.* and the cupyx.scipy
# modules loom has no equivalent of (shim/cupyx/scipy/__init__.py).
PATTERNS = []


def stand_in(fullname):
    """What fullname is when it is served as a stand-in module (else None)."""
    if any(fullname == m or fullname.startswith(m + ".") for m in INTERNAL):
        return "a CuPy internal"
    return next((what for pattern, what in PATTERNS if re.fullmatch(pattern, fullname)), None)


class LoomHasNo(AttributeError):
    """A CuPy name loom has no equivalent of."""


def missing(qualname, what="a CuPy internal"):
    return LoomHasNo(f"{qualname}: loom has no equivalent ({what})", name=qualname.rsplit(".", 1)[-1])


class Missing:
    """A name under a stand-in module: its attributes are stand-ins too; any use raises."""

    def __init__(self, qualname, what="a CuPy internal"):
        self.__qualname = qualname
        self.__what = what

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return Missing(f"{self.__qualname}.{name}", self.__what)

    def __call__(self, *args, **kwargs):
        raise missing(self.__qualname, self.__what)

    def __bool__(self):
        raise missing(self.__qualname, self.__what)

    def __iter__(self):
        raise missing(self.__qualname, self.__what)

    def __repr__(self):
        return f"<missing {self.__qualname}>"


class MissingModule(types.ModuleType):
    def __init__(self, qualname, what="a CuPy internal"):
        super().__init__(qualname)
        self.__path__ = []
        self.__what = what

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return Missing(f"{self.__name__}.{name}", self.__what)


class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, fullname, path=None, target=None):
        if stand_in(fullname) is not None:
            return importlib.machinery.ModuleSpec(fullname, self, is_package=True)
        return None

    def create_module(self, spec):
        return MissingModule(spec.name, stand_in(spec.name))

    def exec_module(self, module):
        pass


def install():
    if not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.insert(0, _Finder())


def _importing_from(depth):
    """True when the frame depth levels up runs `from module import name` (the IMPORT_FROM
    instruction), not an attribute read."""
    try:
        frame = sys._getframe(depth + 1)
        return frame.f_code.co_code[frame.f_lasti] == dis.opmap["IMPORT_FROM"]
    except (ValueError, IndexError, KeyError):
        return False


def forward_to(modname, target):
    """A module-level __getattr__ for the shim's module modname standing for loom's module
    target: loom's names, then CuPy's internals below modname as stand-ins, else LoomHasNo.
    A name loom lacks that a test file imports at its top (`from cupyx.scipy.linalg import
    khatri_rao`) comes as a stand-in that raises LoomHasNo on use, so that the file's other
    tests run and each test using the name fails naming it; read as an attribute, it raises
    at once."""
    import importlib
    what = f"no {target.__name__.replace('._loom', '')}"

    def __getattr__(name):
        if hasattr(target, name):
            return getattr(target, name)
        if name.startswith("__"):  # a protocol's probe (uarray's __ua_cache__), never a module
            raise AttributeError(name)
        if stand_in(f"{modname}.{name}") is not None:
            return importlib.import_module(f"{modname}.{name}")
        if _importing_from(1):
            return Missing(f"{modname}.{name}", f"{what}.{name}")
        raise LoomHasNo(f"{modname}.{name}: loom has no equivalent ({what}.{name})", name=name)
    return __getattr__
