"""The pytest hooks a suite harness shares (tools/numba_suite, tools/cupy_suite).

A harness's own plugin calls add_options(parser, PREFIX) from its pytest_addoption and
registers Recorder(config, PREFIX) from its pytest_configure; the options are then
--PREFIX-tests (the suite's tests folder), --PREFIX-scope (scope.txt), --PREFIX-known
(known_failures.txt: mark its ids xfail), --PREFIX-report (one JSON object a test) and
--PREFIX-timeout (seconds a test may run).

- Leaves out what scope.txt marks `out` (folders, files, classes or single test ids; `*` in
  an id matches any characters).
- Marks the ids known_failures.txt lists xfail, each with its group's reason (a listed file
  whose import fails is reported skipped).
- A test running past the timeout fails (SIGALRM), and one stuck outside Python ends its
  process after timeout + 60 s (faulthandler; xdist then replaces the worker).
- A test that leaves the GPU's CUDA context lost fails, and under xdist its worker then
  exits, so that the tests after it run in a fresh process.
"""
import faulthandler
import functools
import json
import os
import re
import signal
import subprocess
from pathlib import Path

import pytest

KNOWN = "known failure: "
# loom's CudaError after which every call on the GPU fails (a sticky CUDA error).
LOST_CONTEXT = "is lost (device context lost)"


def add_options(parser, prefix):
    g = parser.getgroup(prefix.replace("-", "_"))
    g.addoption(f"--{prefix}-tests", help="the suite's tests folder")
    g.addoption(f"--{prefix}-scope", help="scope.txt")
    g.addoption(f"--{prefix}-known", help="known_failures.txt: mark its ids xfail")
    g.addoption(f"--{prefix}-report", help="write outcomes here, one JSON object a line")
    g.addoption(f"--{prefix}-timeout", type=float, default=0, help="seconds a test may run (0: no limit)")


def read_scope(path):
    """{path or test id: (in_scope, reason)} from scope.txt (`in|out PATH[::TEST] reason`; an id
    may hold a `{...}` with spaces, as the classes CuPy's testing.parameterize names)."""
    scope = {}
    for line in Path(path).read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        m = re.match(r"(in|out)\s+((?:[^\s{]|\{[^}]*\})+)\s*(.*)$", line)
        if m is None:
            raise pytest.UsageError(f"scope.txt: cannot read {line!r} (want 'in|out PATH[::TEST] reason')")
        scope[m.group(2)] = (m.group(1) == "in", m.group(3))
    return scope


def read_known(path):
    """{test id or file: reason}; the reason is the comment block above each group."""
    return parse_known(Path(path).read_text())


def parse_known(text):
    """read_known of known_failures.txt's text."""
    known, reason = {}, []
    new_group = True
    for line in text.splitlines():
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


def prefixes(nodeid):
    """The node id, the id without its parameters (`test_x[...]` -> `test_x`), then the ids of
    its parents (class, file), most specific first; a class generated per parameter set
    (CuPy's `Base_param_3_{...}`) is followed at each level by its base class."""
    parts = nodeid.split("::")
    bare = parts[:-1] + [re.sub(r"\[.*\]$", "", parts[-1])]
    levels = [parts] + ([bare] if bare != parts else []) + [parts[:i] for i in range(len(parts) - 1, 0, -1)]
    out = []
    for level in levels:
        for ids in (level, [re.sub(r"_param_\d+_\{.*\}$", "", p) for p in level]):
            text = "::".join(ids)
            if text not in out:
                out.append(text)
    return out


def lookup(table, nodeid):
    """The entry of the longest prefix of nodeid that table holds, else None. A key with a `*`
    (any characters; nothing else is special) matches a prefix it spells whole, so that one
    line of scope.txt stands for many generated test ids; at each prefix an exact key comes
    first."""
    globs = _glob_keys(table)
    for i in prefixes(nodeid):
        if i in table:
            return table[i]
        for k in globs:
            if _glob(k).fullmatch(i):
                return table[k]
    return None


_GLOB_KEYS = {}


def _glob_keys(table):
    """table's keys holding a `*` (cached: known_failures.txt has thousands of keys)."""
    cached = _GLOB_KEYS.get(id(table))
    if cached is None or cached[0] is not table or cached[1] != len(table):
        cached = _GLOB_KEYS[id(table)] = (table, len(table), [k for k in table if "*" in k])
    return cached[2]


@functools.lru_cache(maxsize=None)
def _glob(pattern):
    return re.compile(".*".join(re.escape(part) for part in pattern.split("*")), re.S)


class TestTimeout(Exception):
    pass


def message(rep):
    """A report's failure (or skip) as one line."""
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


class Recorder:
    """The shared hooks, registered as a plugin object by a harness's plugin."""

    def __init__(self, config, prefix, is_suite_module=None):
        opt = prefix.replace("-", "_")
        self.config = config
        tests = config.getoption(f"{opt}_tests")
        self.tests = Path(tests).resolve() if tests else None
        scope = config.getoption(f"{opt}_scope")
        self.scope = read_scope(scope) if scope else {}
        known = config.getoption(f"{opt}_known")
        self.known = read_known(known) if known else {}
        self.report = config.getoption(f"{opt}_report")
        self.timeout = config.getoption(f"{opt}_timeout")
        self.is_suite_module = is_suite_module or (lambda c: isinstance(c, pytest.Module)
                                                   and self.rel(c.path) is not None)
        self.records = []
        self.lost = False

    def rel(self, path):
        """path relative to the suite's tests folder, or None outside it."""
        try:
            return Path(path).resolve().relative_to(self.tests).as_posix()
        except (ValueError, TypeError):
            return None

    def pytest_ignore_collect(self, collection_path, config):
        rel = self.rel(collection_path)
        if rel is None or not self.scope:
            return None
        if collection_path.is_dir():  # a folder marked out (tools/cupy_suite/scipy_scope.txt's sparse_tests)
            entry = self.scope.get(rel)
            return (entry is not None and not entry[0]) or None
        if not rel.endswith(".py") or not Path(rel).name.startswith("test_"):
            return None
        entry = self.scope.get(rel)
        if entry is None:
            return None  # not listed: collected (summarize.py flags unlisted files)
        return not entry[0] or None

    def pytest_collection_modifyitems(self, session, config, items):
        keep, drop = [], []
        for item in items:
            entry = lookup(self.scope, item.nodeid)
            (drop if entry is not None and not entry[0] else keep).append(item)
            reason = lookup(self.known, item.nodeid)
            if reason is not None:
                item.add_marker(pytest.mark.xfail(reason=KNOWN + (reason or "listed"), strict=False))
        if drop:
            config.hook.pytest_deselected(items=drop)
            items[:] = keep

    @pytest.hookimpl(wrapper=True)
    def pytest_make_collect_report(self, collector):
        rep = yield
        if rep.failed and self.is_suite_module(collector) and rep.nodeid in self.known:
            rep.outcome = "skipped"
            rep.longrepr = (str(collector.path), 0, KNOWN + self.known[rep.nodeid])
        return rep

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_call(self, item):
        limit = self.timeout
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
    def pytest_runtest_makereport(self, item, call):
        rep = yield
        exc = call.excinfo.value if call.excinfo is not None else None
        if exc is not None and LOST_CONTEXT in str(exc) and os.environ.get("PYTEST_XDIST_WORKER"):
            self.lost = True  # this worker's GPU is unusable: it ends after this test (logfinish)
        # A test that runs code in a subprocess fails with CalledProcessError, whose message
        # lacks the child's error: keep the last line of its stderr.
        stderr = getattr(exc, "stderr", None) if isinstance(exc, subprocess.CalledProcessError) else None
        if stderr:
            text = stderr.decode(errors="replace") if isinstance(stderr, bytes) else str(stderr)
            lines = [t for t in text.strip().splitlines() if t.strip()]
            if lines:
                rep.user_properties.append(("subprocess_error", lines[-1].strip()))
        return rep

    def pytest_runtest_logfinish(self, nodeid, location):
        if self.lost:  # xdist reports the worker crashed and starts another for the rest
            os._exit(3)

    def pytest_runtest_logreport(self, report):
        outcome = None
        if report.when == "call" or (report.when == "setup" and not report.passed):
            if hasattr(report, "wasxfail"):
                # xfailed: a test the suite itself expects to fail (its expectedFailure or xfail
                # mark), which behaves as there; xfailed-known: one of known_failures.txt.
                known = str(report.wasxfail).startswith(KNOWN)
                outcome = ("xpassed" if report.passed else "xfailed") + ("-known" if known else "")
            else:
                outcome = report.outcome
            if report.when == "setup" and report.failed:
                outcome = "error"
        elif report.when == "teardown" and report.failed:
            outcome = "error"
        if outcome:
            # A unittest subTest has its own report (pytest's subtests): summary.fold folds
            # the reports of one id into one outcome.
            self.records.append({"id": report.nodeid, "outcome": outcome, "when": report.when,
                                 "sub": type(report).__name__ == "SubtestReport",
                                 "message": message(report) if outcome != "passed" else "",
                                 "duration": round(report.duration, 3)})

    def pytest_collectreport(self, report):
        if report.failed or (report.skipped and report.nodeid.endswith(".py")):
            self.records.append({"id": report.nodeid,
                                 "outcome": "collect-error" if report.failed else "collect-skipped",
                                 "when": "collect", "message": message(report), "duration": 0})

    def pytest_sessionfinish(self, session, exitstatus):
        if not self.report or hasattr(session.config, "workerinput"):
            return
        with open(self.report, "w") as f:
            for r in self.records:
                f.write(json.dumps(r) + "\n")
