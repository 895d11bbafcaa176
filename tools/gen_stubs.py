#!/usr/bin/env python3
"""Writes loom's type stubs with nanobind's stubgen: python/loom/_loom/*.pyi (the extension
and its submodules linalg, fft, random, ...), python/loom/__init__.pyi (the package, whose
names are mostly copied from the extension at import, which a type checker cannot follow)
and python/loom/py.typed. `make stubs` runs it; python/tests/test_stubs.py runs it into a
temporary folder and fails when the checked-in stubs differ.

    python tools/gen_stubs.py [--output-dir DIR] [--import-path DIR]

What stubgen writes depends on its version: nanobind is pinned in requirements-dev.txt, and
test_stubs.py compares only under that version. Before stubgen looks, this process undoes
what would hide the bound functions' typed signatures and docstrings:
- `import loom` replaces every bound function by a builtin that inspect.signature can read
  (loom/_numpy/signatures.py). Those builtins have no types, and their __module__ ("loom",
  "loom.linalg") would make stubgen write `from loom.linalg import solve` into the stub of
  loom._loom.linalg. The bound functions are put back.
- Names that load on first use (loom.nn, loom.cuda, ...) are loaded, so the package stub
  lists them.
- The named tuples of loom.linalg get their real module, and the Python functions attached
  to ndarray the names their modules hold them under.
Four of stubgen's rules are bent (by wrapping StubGen.put and __init__): NumPy's public
names that end in one underscore (bool_, ix_) and private classes that public signatures
name are written, the package stub imports what it re-exports from NumPy (AxisError,
LinAlgError), and slot wrappers that exist under some Pythons only are left out. tools/stub_patterns.txt adds what stubgen leaves out (see there).
"""
import argparse
import os
import sys
import types

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def unsign(loom):
    """Puts the bound functions back in place of _signatures' builtins, in loom and in the
    extension's submodules, and in place of Python functions that stand for them there."""
    from loom._numpy import signatures as _signatures

    original = {wrapper: fn for fn, wrapper in _signatures._wrapped.items()}
    namespaces = [vars(loom)] + [vars(m) for m in vars(loom._loom).values()
                                 if isinstance(m, types.ModuleType) and m.__name__.startswith("loom._loom.")]
    for ns in namespaces:
        for name, value in list(ns.items()):
            if isinstance(value, types.BuiltinFunctionType) and value in original:
                ns[name] = original[value]
    # A Python function that took a bound function's place in a submodule of the extension
    # (loom.linalg.solve: loom/_numpy/linalg_shapes.py) names it as _loom_bound: the
    # extension's stub describes the bound function.
    for ns in namespaces[1:]:
        for name, value in list(ns.items()):
            if isinstance(value, types.FunctionType) and hasattr(value, "_loom_bound"):
                ns[name] = value._loom_bound


def home_result_types(loom):
    """The named tuples of the extension's submodules (loom.linalg.EigResult) say they are
    loom.linalg's, a module that exists only as an alias of loom._loom.linalg: moved to the
    real module, stubgen writes their class there instead of importing it from nowhere."""
    for m in vars(loom._loom).values():
        if isinstance(m, types.ModuleType) and m.__name__.startswith("loom._loom."):
            alias = "loom." + m.__name__.rsplit(".", 1)[-1]
            for value in vars(m).values():
                if isinstance(value, type) and value.__module__ == alias:
                    value.__module__ = m.__name__


def importable_methods(loom):
    """Python functions that loom's modules attach to the extension's classes
    (ndarray.__dlpack__ is loom._numpy.array_api._dlpack renamed): stubgen imports each by its
    __name__, so that name is made the one its module holds it under."""
    for cls in vars(loom._loom).values():
        if not isinstance(cls, type):
            continue
        for fn in vars(cls).values():
            home = sys.modules.get(getattr(fn, "__module__", None) or "")
            if isinstance(fn, types.FunctionType) and home and getattr(home, fn.__name__, None) is not fn:
                fn.__name__ = next((n for n, v in vars(home).items() if v is fn), fn.__name__)


# Slot wrappers that only some Pythons put in a class's __dict__: 3.12 (PEP 688) gives every
# type with the buffer protocol (loom.driver.HostAllocation) __buffer__ and __release_buffer__,
# which stubgen writes as methods. Left out, the stubs are the same under every Python.
PYTHON_VERSION_SLOTS = ("__buffer__", "__release_buffer__")


def numpy_style_names(stub_gen):
    """Makes stub_gen (nanobind's StubGen) write the public names that end in one underscore
    (bool_, ix_), which it takes for private ones, the private classes of a module (their
    names appear in public signatures) and, for the loom package, the names it re-exports
    from other packages (NumPy's AxisError)."""
    put, init = stub_gen.put, stub_gen.__init__

    def put_numpy_style(self, value, name=None, parent=None):
        if name in PYTHON_VERSION_SLOTS:
            return
        public = bool(name) and name[0] != "_" and name.endswith("_") and not name.endswith("__")
        # A private class of the extension that public signatures name (ndarray.at's _AtHelper).
        public |= isinstance(value, type) and value.__module__ == self.module.__name__
        saved = self.include_private
        self.include_private = saved or public
        try:
            return put(self, value, name, parent)
        finally:
            self.include_private = saved

    def init_with_external(self, module, *a, **kw):
        init(self, module, *a, **kw)
        self.include_external_imports = module.__name__ == "loom"

    stub_gen.put, stub_gen.__init__ = put_numpy_style, init_with_external


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--output-dir", default=os.path.join(ROOT, "python", "loom"),
                        help="the folder of the loom package (default: the checkout's python/loom)")
    parser.add_argument("--import-path", default=os.path.join(ROOT, "python"),
                        help="where the built loom package is imported from")
    args = parser.parse_args(argv)
    sys.path.insert(0, args.import_path)

    import loom
    for name in loom._LAZY:
        getattr(loom, name)
    unsign(loom)
    home_result_types(loom)
    importable_methods(loom)

    from nanobind import stubgen
    numpy_style_names(stubgen.StubGen)
    out = args.output_dir
    patterns = ["-p", os.path.join(ROOT, "tools", "stub_patterns.txt")]
    stubgen.main(["-q", "-r", "-m", "loom._loom", "-O", out] + patterns)
    stubgen.main(["-q", "-m", "loom", "-o", os.path.join(out, "__init__.pyi"), "-M", os.path.join(out, "py.typed")]
                 + patterns)


if __name__ == "__main__":
    main()
