"""The `pycuda` package of tools/pycuda_suite: every `pycuda.X` import resolves to
`loom.pycuda.X` (the same module object, so state such as the current context is shared),
and a module loom.pycuda lacks is an ImportError that names it."""
import importlib
import importlib.abc
import importlib.util
import sys

import loom.pycuda as _loom_pycuda

VERSION = _loom_pycuda.VERSION
VERSION_STATUS = _loom_pycuda.VERSION_STATUS
VERSION_TEXT = _loom_pycuda.VERSION_TEXT


class _Alias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, fullname, path=None, target=None):
        if not fullname.startswith("pycuda."):
            return None
        target = "loom." + fullname
        try:
            found = importlib.util.find_spec(target)
        except ModuleNotFoundError:
            found = None
        if found is None:
            raise ImportError(f"loom.pycuda has no module '{fullname[len('pycuda.'):]}' (PyCUDA's {fullname})",
                              name=fullname)
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec):
        return importlib.import_module("loom." + spec.name)

    def exec_module(self, module):
        pass


sys.meta_path.insert(0, _Alias())
