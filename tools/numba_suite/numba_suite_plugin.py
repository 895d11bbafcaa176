"""pytest plugin of the Numba-CUDA suite harness (tools/numba_suite/run.sh).

- Imports the suite's test files as `numba.cuda.tests.<dir>.<file>` through the shim (so
  their relative imports and use-case modules resolve), never through the checkout's own
  `numba` packages, whose __init__ files import the real Numba.
- The rest is the harnesses' shared hooks (tools/suite_common/plugin.py: scope.txt, known
  failures xfail, the timeout, the JSONL report), under --numba-suite-* options.
"""
import importlib
import sys
from pathlib import Path

import pytest
from suite_common.plugin import Recorder, add_options, read_known, read_scope  # noqa: F401 - summarize.py reads these

SHIM = Path(__file__).resolve().parent / "shim"
_STATE = {}


def _use_the_shim():
    """On a machine with Numba-CUDA installed, its site-packages redirector (a .pth file puts
    a finder on sys.meta_path that sends every `numba.cuda` import to the installed
    numba_cuda) and modules imported at start-up would bypass the shim: both are removed, so
    `numba` and `numba.cuda` are the shim's, as on a machine without Numba."""
    sys.meta_path[:] = [f for f in sys.meta_path if type(f).__name__ != "NumbaCudaFinder"]
    for name in [m for m in sys.modules if m.split(".")[0] in ("numba", "numba_cuda", "cuda")]:
        where = getattr(sys.modules[name], "__file__", None) or ""
        if not where.startswith(str(SHIM)):
            del sys.modules[name]


_use_the_shim()


def pytest_addoption(parser):
    add_options(parser, "numba-suite")


def pytest_configure(config):
    rec = Recorder(config, "numba-suite", is_suite_module=lambda c: isinstance(c, SuiteModule))
    _STATE["recorder"] = rec
    config.pluginmanager.register(rec, "numba_suite_recorder")


def _rel(path):
    rec = _STATE.get("recorder")
    return rec.rel(path) if rec is not None else None


def pytest_collect_directory(path, parent):
    # The suite's packages are plain folders here: pytest would import their __init__.py
    # (a unittest loader that needs the real Numba).
    if _rel(path) is not None:
        return pytest.Dir.from_parent(parent, path=path)
    return None


class SuiteModule(pytest.Module):
    """A test file of the suite, imported under its numba.cuda.tests.* name."""

    def _getobj(self):
        rel = _rel(self.path)
        name = "numba.cuda.tests." + rel[:-3].replace("/", ".")
        try:
            mod = importlib.import_module(name)
        except pytest.skip.Exception:
            raise
        except Exception as e:
            import traceback
            tb = "".join(traceback.format_exception(type(e), e, e.__traceback__, limit=-3))
            raise self.CollectError(f"error while importing test module {rel} as {name}:\n{tb}") from e
        self.config.pluginmanager.consider_module(mod)
        return mod


def pytest_pycollect_makemodule(module_path, parent):
    if _rel(module_path) is not None:
        return SuiteModule.from_parent(parent, path=module_path)
    return None
