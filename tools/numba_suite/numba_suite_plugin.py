"""pytest plugin of the Numba-CUDA suite harness (tools/numba_suite/run.sh).

- Imports the suite's test files as `numba.cuda.tests.<dir>.<file>` through the shim (so
  their relative imports and use-case modules resolve), never through the checkout's own
  `numba` packages, whose __init__ files import the real Numba.
- Leaves out what scope.txt marks `out` (files, or single test ids).
- --numba-suite-known=FILE: marks the ids listed there xfail (a listed file whose import
  fails is reported skipped), each with its group's reason.
- --numba-suite-report=FILE: one JSON object per test or collection outcome (summarize.py
  reads it).
- --numba-suite-timeout=S: a test running longer fails (SIGALRM), and one stuck outside
  Python ends its process after S + 60 s (faulthandler; xdist then replaces the worker).
- A test that leaves the GPU's CUDA context lost (a kernel fault, or a debug-mode check that
  traps on a GPU) fails, and under xdist its worker then exits, so that the tests after it
  run in a fresh process instead of failing one by one on the lost context.
"""
import faulthandler
import importlib
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

KNOWN = "known failure: "
# loom's CudaError after which every call on the GPU fails (loom/runtime: a sticky CUDA error).
LOST_CONTEXT = "is lost (device context lost)"
_LOST = [False]
SHIM = Path(__file__).resolve().parent / "shim"


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
    g = parser.getgroup("numba_suite")
    g.addoption("--numba-suite-tests", help="the suite's tests folder (numba_cuda/numba/cuda/tests)")
    g.addoption("--numba-suite-scope", help="scope.txt")
    g.addoption("--numba-suite-known", help="known_failures.txt: mark its ids xfail")
    g.addoption("--numba-suite-report", help="write outcomes here, one JSON object a line")
    g.addoption("--numba-suite-timeout", type=float, default=0, help="seconds a test may run (0: no limit)")


def read_scope(path):
    """{path or test id: (in_scope, reason)} from scope.txt."""
    scope = {}
    for line in Path(path).read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split(None, 2)
        if len(parts) < 2 or parts[0] not in ("in", "out"):
            raise pytest.UsageError(f"scope.txt: cannot read {line!r} (want 'in|out PATH[::TEST] reason')")
        scope[parts[1]] = (parts[0] == "in", parts[2] if len(parts) > 2 else "")
    return scope


def read_known(path):
    """{test id or file: reason}; the reason is the comment block above each group."""
    known, reason = {}, []
    new_group = True
    for line in Path(path).read_text().splitlines():
        s = line.strip()
        if s.startswith("#"):
            if new_group:
                reason, new_group = [], False
            reason.append(s.lstrip("# ").strip())
        elif s:
            known[s] = " ".join(reason)
            new_group = True
        else:
            new_group = True
    return known


class _State:
    tests = None
    scope = {}
    known = {}
    records = []


def pytest_configure(config):
    tests = config.getoption("numba_suite_tests")
    _State.tests = Path(tests).resolve() if tests else None
    if config.getoption("numba_suite_scope"):
        _State.scope = read_scope(config.getoption("numba_suite_scope"))
    if config.getoption("numba_suite_known"):
        _State.known = read_known(config.getoption("numba_suite_known"))


def _rel(path):
    try:
        return Path(path).resolve().relative_to(_State.tests).as_posix()
    except (ValueError, TypeError):
        return None


def pytest_ignore_collect(collection_path, config):
    rel = _rel(collection_path)
    if rel is None or not _State.scope or collection_path.is_dir():
        return None
    if not rel.endswith(".py") or not Path(rel).name.startswith("test_"):
        return None
    entry = _State.scope.get(rel)
    if entry is None:
        return None  # not listed: collected (summarize.py flags unlisted files)
    return not entry[0] or None


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


def pytest_collection_modifyitems(session, config, items):
    keep, drop = [], []
    for item in items:
        entry = next((_State.scope[k] for k in _prefixes(item.nodeid) if k in _State.scope), None)
        (drop if entry is not None and not entry[0] else keep).append(item)
        reason = next((_State.known[k] for k in _prefixes(item.nodeid) if k in _State.known), None)
        if reason is not None:
            item.add_marker(pytest.mark.xfail(reason=KNOWN + (reason or "listed"), strict=False))
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


def _prefixes(nodeid):
    """The node id, then the ids of its parents (class, file)."""
    parts = nodeid.split("::")
    return ["::".join(parts[:i]) for i in range(len(parts), 0, -1)]


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(collector):
    rep = yield
    if rep.failed and isinstance(collector, SuiteModule) and rep.nodeid in _State.known:
        rep.outcome = "skipped"
        rep.longrepr = (str(collector.path), 0, KNOWN + _State.known[rep.nodeid])
    return rep


class TestTimeout(Exception):
    pass


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    limit = item.config.getoption("numba_suite_timeout")
    if not limit or not hasattr(signal, "SIGALRM"):
        return (yield)

    def on_alarm(signum, frame):
        raise TestTimeout(f"the test ran past {limit:g} s")
    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, limit)
    faulthandler.dump_traceback_later(limit + 60, exit=True)
    try:
        return (yield)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
        faulthandler.cancel_dump_traceback_later()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    rep = yield
    # A test that runs code in a subprocess fails with CalledProcessError, whose message
    # lacks the child's error: keep the last line of its stderr.
    exc = call.excinfo.value if call.excinfo is not None else None
    if exc is not None and LOST_CONTEXT in str(exc) and os.environ.get("PYTEST_XDIST_WORKER"):
        _LOST[0] = True  # this worker's GPU is unusable: it ends after this test (logfinish)
    stderr = getattr(exc, "stderr", None) if isinstance(exc, subprocess.CalledProcessError) else None
    if stderr:
        text = stderr.decode(errors="replace") if isinstance(stderr, bytes) else str(stderr)
        lines = [t for t in text.strip().splitlines() if t.strip()]
        if lines:
            rep.user_properties.append(("subprocess_error", lines[-1].strip()))
    return rep


def pytest_runtest_logfinish(nodeid, location):
    if _LOST[0]:  # xdist reports the worker crashed and starts another for the rest
        os._exit(3)


def _message(rep):
    for key, value in getattr(rep, "user_properties", ()):
        if key == "subprocess_error":
            return f"a subprocess failed: {value}"
    lr = rep.longrepr
    if lr is None:
        return ""
    if isinstance(lr, tuple):  # a skip: (path, line, reason)
        return str(lr[2])
    crash = getattr(lr, "reprcrash", None)
    if crash is not None and getattr(crash, "message", None):
        return crash.message
    text = str(lr).rstrip().splitlines()
    errs = [t for t in text if t.startswith("E ") or ("Error" in t and ":" in t)]
    return (errs[-1] if errs else text[-1] if text else "").strip()


def _worker(config):
    return hasattr(config, "workerinput")


def pytest_runtest_logreport(report):
    outcome = None
    if report.when == "call" or (report.when == "setup" and not report.passed):
        if hasattr(report, "wasxfail"):
            # xfailed: a test the suite itself expects to fail on a GPU (unittest's
            # expectedFailure), which behaves as there; xfailed-known: one of known_failures.txt.
            known = str(report.wasxfail).startswith(KNOWN)
            outcome = ("xpassed" if report.passed else "xfailed") + ("-known" if known else "")
        else:
            outcome = report.outcome
        if report.when == "setup" and report.failed:
            outcome = "error"
    elif report.when == "teardown" and report.failed:
        outcome = "error"
    if outcome:
        # A unittest subTest has its own report (pytest's subtests): summarize.py folds
        # the reports of one id into one outcome.
        _State.records.append({"id": report.nodeid, "outcome": outcome, "when": report.when,
                               "sub": type(report).__name__ == "SubtestReport",
                               "message": _message(report) if outcome != "passed" else "",
                               "duration": round(report.duration, 3)})


def pytest_collectreport(report):
    if report.failed or (report.skipped and report.nodeid.endswith(".py")):
        _State.records.append({"id": report.nodeid, "outcome": "collect-error" if report.failed else "collect-skipped",
                               "when": "collect", "message": _message(report), "duration": 0})


def pytest_sessionfinish(session, exitstatus):
    path = session.config.getoption("numba_suite_report")
    if not path or _worker(session.config):
        return
    with open(path, "w") as f:
        for r in _State.records:
            f.write(json.dumps(r) + "\n")
