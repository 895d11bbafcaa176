"""pytest plugin of the PyCUDA suite harness (tools/pycuda_suite/run.sh).

The suite's files import `pycuda`, which is the shim (tools/pycuda_suite/shim: loom.pycuda
under PyCUDA's names), never a PyCUDA that may be installed. The rest is the harnesses'
shared hooks (tools/suite_common/plugin.py: scope.txt, known failures xfail, the timeout, the
JSONL report) under --pycuda-suite-* options, and gpu_only.txt: on cpu() its tests are
skipped, each with its reason.
"""
import sys
from pathlib import Path

import pytest

from suite_common.plugin import Recorder, add_options, lookup, read_scope

HERE = Path(__file__).resolve().parent
SHIM = HERE / "shim"


def _use_the_shim():
    """Modules of an installed PyCUDA imported at start-up are dropped: `pycuda` is the shim's."""
    for name in [m for m in sys.modules if m.split(".")[0] == "pycuda"]:
        if not (getattr(sys.modules[name], "__file__", None) or "").startswith(str(SHIM)):
            del sys.modules[name]


_use_the_shim()


def pytest_addoption(parser):
    add_options(parser, "pycuda-suite")


def pytest_configure(config):
    config.pluginmanager.register(Recorder(config, "pycuda-suite"), "pycuda_suite_recorder")


def pytest_collection_modifyitems(config, items):
    import loom
    if loom.default_device().type != "cpu":
        return
    gpu_only = read_scope(HERE / "gpu_only.txt")  # `in ID reason` lines: ids that need a GPU
    for item in items:
        entry = lookup(gpu_only, item.nodeid)
        if entry is not None:
            item.add_marker(pytest.mark.skip(reason=f"needs a GPU: {entry[1]}"))
