"""pytest plugin of the CuPy suite harness (tools/cupy_suite/run.sh).

The suite's files import as CuPy's own run imports them (`cupy_tests.<dir>.<file>`, the
checkout's tests/ folder on sys.path); `cupy` is the shim (tools/cupy_suite/shim), never a
CuPy that may be installed. The rest is the harnesses' shared hooks
(tools/suite_common/plugin.py: scope.txt, known failures xfail, the timeout, the JSONL report),
under --cupy-suite-* options.
"""
import sys
from pathlib import Path

from suite_common.plugin import Recorder, add_options

SHIM = Path(__file__).resolve().parent / "shim"


def _use_the_shim():
    """Modules of an installed CuPy imported at start-up (by another plugin) are dropped, so
    that `cupy` and `cupyx` are the shim's."""
    for name in [m for m in sys.modules if m.split(".")[0] in ("cupy", "cupyx", "cupy_backends")]:
        if not (getattr(sys.modules[name], "__file__", None) or "").startswith(str(SHIM)):
            del sys.modules[name]


_use_the_shim()


def pytest_addoption(parser):
    add_options(parser, "cupy-suite")


def pytest_configure(config):
    config.pluginmanager.register(Recorder(config, "cupy-suite"), "cupy_suite_recorder")
