"""The checked-in type stubs (python/loom/__init__.pyi, python/loom/_loom/*.pyi) are what
nanobind's stubgen makes of the built extension today (`make stubs` rewrites them), and an
editor finds every public name of loom in them, with its signature and docstring."""
import ast
import filecmp
import importlib.metadata
import os
import re
import subprocess
import sys
import types

import pytest

import loom

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PACKAGE = os.path.join(ROOT, "python", "loom")
GENERATOR = os.path.join(ROOT, "tools", "gen_stubs.py")


def stub_files(package):
    found = ["py.typed", "__init__.pyi"]
    found += sorted(os.path.join("_loom", f) for f in os.listdir(os.path.join(package, "_loom")) if f.endswith(".pyi"))
    return found


def stub_names(path):
    """The names a stub defines or re-exports at its top level."""
    names = set()
    for node in ast.parse(open(path, encoding="utf-8").read()).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.ImportFrom):
            names.update(a.asname or a.name for a in node.names)
        elif isinstance(node, ast.AnnAssign):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return names


def test_checked_in_stubs_match_the_extension(tmp_path):
    if not loom.build_info()["cuda"]:
        pytest.skip("the stubs are generated from a build with CUDA; this one has none")
    pinned = re.search(r"^nanobind==(\S+)", open(os.path.join(ROOT, "requirements-dev.txt")).read(), re.M).group(1)
    if importlib.metadata.version("nanobind") != pinned:
        pytest.skip(f"the stubs are nanobind {pinned}'s stubgen output; this Python has nanobind "
                    f"{importlib.metadata.version('nanobind')}")
    r = subprocess.run([sys.executable, GENERATOR, "--output-dir", str(tmp_path),
                        "--import-path", os.path.dirname(os.path.dirname(loom.__file__))],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    for name in stub_files(PACKAGE) + [f for f in stub_files(tmp_path) if f not in stub_files(PACKAGE)]:
        fresh, kept = tmp_path / name, os.path.join(PACKAGE, name)
        assert os.path.exists(kept), f"{name}: stubgen writes it, it is not checked in (run `make stubs`)"
        assert fresh.exists(), f"{name}: checked in, stubgen no longer writes it (run `make stubs`)"
        assert filecmp.cmp(fresh, kept, shallow=False), f"{name} differs from stubgen's output (run `make stubs`)"


def test_every_public_name_of_loom_is_in_the_package_stub():
    names = stub_names(os.path.join(PACKAGE, "__init__.pyi"))
    # dir(loom) also holds the Python submodules other code has imported so far (loom.launch);
    # a type checker finds those as files of the package, so only the others are required.
    public = set(loom.__all__) | {n for n in dir(loom)
                                  if not n.startswith("_") and not isinstance(getattr(loom, n), types.ModuleType)}
    missing = sorted(public - names - {"__version__"})
    assert not missing, f"loom names the stub lacks: {missing}"


def test_every_public_name_of_each_submodule_is_in_its_stub():
    for name, module in vars(loom._loom).items():
        # Private submodules (_special, _sparse) are loom.scipy's internals, not API: no stub.
        if isinstance(module, types.ModuleType) and module.__name__.startswith("loom._loom.") and name[0] != "_":
            names = stub_names(os.path.join(PACKAGE, "_loom", name + ".pyi"))
            missing = sorted({n for n in dir(module) if not n.startswith("_")} - names)
            assert not missing, f"loom.{name} names its stub lacks: {missing}"


def test_bound_functions_have_typed_signatures_and_docstrings():
    # The bound functions themselves are written in _loom's stub (not `from loom import sum`,
    # which _signatures' wrappers would make stubgen write) with annotations and a docstring.
    tree = ast.parse(open(os.path.join(PACKAGE, "_loom", "__init__.pyi"), encoding="utf-8").read())
    defs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    for name in ("sum", "matmul", "asarray", "zeros", "where", "ix_"):
        fn = defs[name]
        assert fn.returns is not None, name
        assert all(a.annotation is not None for a in fn.args.args + fn.args.kwonlyargs), name
        assert ast.get_docstring(fn), name
    linalg = ast.parse(open(os.path.join(PACKAGE, "_loom", "linalg.pyi"), encoding="utf-8").read())
    assert "solve" in {n.name for n in linalg.body if isinstance(n, ast.FunctionDef)}


def test_stubs_compile():
    for name in stub_files(PACKAGE)[1:]:
        path = os.path.join(PACKAGE, name)
        compile(open(path, encoding="utf-8").read(), path, "exec")
