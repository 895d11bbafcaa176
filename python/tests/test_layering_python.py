"""The layering of the Python package holds (tools/check_layers_python.py, run by
tools/check_layers.py): subpackages import only lower rungs of its order, and a
function-level import that hides a cycle or goes up the order carries `# lazy: <reason>`.
Each rule must also be able to fail: a violation planted in a small tree is reported."""
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))
try:
    import check_layers_python as layers
finally:
    sys.path.pop(0)


def test_the_package_keeps_its_order_and_hides_no_cycle():
    assert layers.check(ROOT) == []


def plant(tmp_path, files):
    """A python/loom tree of `files` ({relative path: text}); every subpackage has an __init__.py."""
    for rel, text in files.items():
        path = tmp_path / "python" / "loom" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        init = path.parent / "__init__.py"
        if not init.exists():
            init.write_text("")
    return str(tmp_path)


@pytest.fixture
def tree(tmp_path):
    return lambda files: plant(tmp_path, {"__init__.py": "from . import _loom\n", **files})


def test_a_lower_package_importing_a_higher_one_is_reported(tree):
    root = tree({"nn/module.py": "X = 1\n",
                 "transforms/_grad.py": "from ..nn.module import X\n",
                 "transforms/_jit.py": "from .. import monitor\n",
                 "monitor/profiler.py": "from .. import _loom\n"})
    errors = layers.check_order(root, layers.python_files(root))
    assert any("python/loom/transforms/_grad.py:1: transforms imports loom.nn.module (nn)" in e for e in errors), errors
    # Subpackages on one rung are independent: a sibling is not below.
    assert any("python/loom/transforms/_jit.py:1: transforms imports loom.monitor (monitor)" in e for e in errors), errors
    assert not any("monitor/profiler.py" in e for e in errors), errors  # the extension is below every rung


def test_a_module_level_import_of_the_package_root_is_reported(tree):
    root = tree({"optim/sgd.py": "from .. import default_device\n"})
    errors = layers.check_order(root, layers.python_files(root))
    assert any("python/loom/optim/sgd.py:1: optim imports loom (the package root)" in e for e in errors), errors


def test_a_subpackage_missing_from_the_order_is_reported(tree):
    root = tree({"sparse/csr.py": "from .. import _loom\n"})
    errors = layers.check_order(root, layers.python_files(root))
    assert any("python/loom/sparse: a subpackage" in e for e in errors), errors


def test_a_function_level_import_that_hides_a_cycle_is_reported(tree):
    root = tree({"pykernel/dispatcher.py": "from . import cache\n",
                 "pykernel/cache.py": "def key(v):\n    from .dispatcher import CUDADispatcher\n    return v\n"})
    errors = layers.check_lazy_imports(root, layers.python_files(root))
    assert any("python/loom/pykernel/cache.py:2: imports loom.pykernel.dispatcher inside a function, which hides "
               "a cycle" in e for e in errors), errors


def test_a_function_level_import_up_the_order_is_reported(tree):
    root = tree({"pykernel/dispatcher.py": "def launch():\n    from .. import RawModule\n    return RawModule\n"})
    errors = layers.check_lazy_imports(root, layers.python_files(root))
    assert any("python/loom/pykernel/dispatcher.py:2: imports loom inside a function, up the order" in e
               for e in errors), errors


def test_a_lazy_mark_with_a_reason_allows_it_and_one_without_does_not(tree):
    cycle = "def find():\n    import loom{}\n    return loom\n"
    root = tree({"__init__.py": "from ._numpy import lookup, signatures\n",
                 "_numpy/lookup.py": cycle.format("  # lazy: the namespace searched is the package"),
                 "_numpy/signatures.py": "def sign():\n    # lazy: the package imports this module\n"
                                         "    import loom\n    return loom\n",
                 "_numpy/protocols.py": cycle.format("  # lazy:")})
    errors = layers.check_lazy_imports(root, layers.python_files(root))
    assert not any("lookup.py" in e or "signatures.py" in e for e in errors), errors
    assert any("python/loom/_numpy/protocols.py:2: imports loom inside a function" in e for e in errors), errors


def test_a_function_level_import_that_is_no_cycle_needs_no_mark(tree):
    root = tree({"train/trainer.py": "def fit():\n    from ._parallel import Step\n    return Step\n",
                 "train/_parallel.py": "from .. import nn\nStep = 1\n",
                 "nn/layers.py": "from .. import _loom\n"})
    assert layers.check(root) == []


def test_check_layers_runs_the_python_rules(tree, monkeypatch, capsys):
    # tools/check_layers.py (what `make test` and test_layering.py run) fails on a planted
    # Python violation, not only this module's functions.
    root = tree({"transforms/_grad.py": "from ..train import trainer\n", "train/trainer.py": ""})
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    try:
        import check_layers
    finally:
        sys.path.pop(0)
    monkeypatch.setattr(check_layers, "ROOT", root)
    assert check_layers.main() == 1
    assert "python/loom/transforms/_grad.py:1: transforms imports loom.train.trainer (train)" in capsys.readouterr().out
