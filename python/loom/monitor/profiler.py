"""Profiling: what ran, where, and for how long.

>>> with loom.profiler.profile() as p:
...     y = loom.matmul(a, b) + 1
>>> print(p.table())                      # per-kernel summary, longest total first
>>> p.export_chrome_trace("trace.json")   # open in Perfetto or chrome://tracing

A profile records every op and kernel (built-in ops, generated and fused kernels, user
kernels), copy, allocation and free, and compile (with its cache outcome). Work on a GPU is
timed on its stream by CUDA events, work on cpu() by the host clock; docs/PROFILER.md has
the design. ``range("name")`` marks a part of a program, for Nsight Systems (NVTX) and in
loom's own trace.
"""
import contextlib as _contextlib
import json as _json
import os as _os
import secrets as _secrets
from typing import NamedTuple as _NamedTuple

from .. import _loom

__all__ = ["profile", "range", "Event", "KernelAverage", "is_active"]


class Event(_NamedTuple):
    """One recorded event; times are microseconds since the profile started."""
    name: str
    category: str     # "kernel", "copy", "alloc", "free", "compile" or "range"
    device: str       # where it ran ("cpu", "gpu:0"); ranges and compiles: "cpu" (the host)
    stream: int       # the GPU stream handle it was timed on (0: the default stream)
    thread: int       # the host thread that issued it (small numbers, per process)
    start_us: float
    dur_us: float     # 0 for allocations and frees
    bytes: int        # allocation, free and copy sizes; -1 where none
    detail: str       # kernel: op family or "user"; compile: "miss", "memory hit", "disk hit", "failed"
    depth: int        # ranges: how many ranges enclose this one on its thread
    shapes: str = ""  # kernels and copies: the input arrays' shapes, "[2, 3], [3]" (PyTorch's record_shapes)


class KernelAverage(_NamedTuple):
    """One row of the summary: the kernels or copies of one name on one device."""
    name: str
    category: str
    device: str
    calls: int
    total_us: float
    mean_us: float
    min_us: float
    max_us: float
    share: float      # percent of the summed time of all rows
    shapes: str = ""  # the input shapes of its calls: one "[2, 3], [3]", or "(3 shapes)" when they differ


_TIMED = ("kernel", "copy")
_SORT_KEYS = {"total": "total_us", "mean": "mean_us", "calls": "calls", "name": "name", "max": "max_us",
              "min": "min_us"}
# PyTorch's key_averages().table() spellings, so code written for it reads the same.
_SORT_ALIASES = {"cuda_time_total": "total", "self_cuda_time_total": "total", "cpu_time_total": "total",
                 "self_cpu_time_total": "total", "device_time_total": "total", "count": "calls"}


def is_active():
    """Whether a profile is recording (in any thread: the session is process-wide)."""
    return _loom._profiler_active()


class profile:
    """Records what loom runs between ``__enter__`` (or start()) and ``__exit__`` (or stop()).

    One profile at a time per process: entering a second while one records raises
    RuntimeError. Ops of every thread are recorded, each on its thread's track.
    """

    def __init__(self):
        self._events = None
        self._recording = False

    def start(self):
        _loom._profiler_start()
        self._recording = True
        self._events = None
        return self

    def stop(self):
        """Ends the profile: waits for the GPUs used, resolves event times. Idempotent."""
        if self._recording:
            self._recording = False
            self._events = [Event(*t) for t in _loom._profiler_stop()]
        return self

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
        return False

    def _done(self, what):
        if self._recording:
            raise RuntimeError(f"[profiler] {what}: the profile is still recording; call it after the "
                               "`with` block (or stop())")
        if self._events is None:
            raise RuntimeError(f"[profiler] {what}: the profile was never started")
        return self._events

    def events(self, category=None):
        """The raw events sorted by start, optionally of one category ("kernel", "copy", ...)."""
        events = self._done("events")
        if category is None:
            return list(events)
        if category not in ("kernel", "copy", "alloc", "free", "compile", "range"):
            raise ValueError(f"[profiler] events: unknown category {category!r}")
        return [e for e in events if e.category == category]

    def key_averages(self, group_by_input_shape=False):
        """One KernelAverage per (name, category, device) of the kernels and copies; with
        `group_by_input_shape` (PyTorch's argument) one per input shapes of each as well."""
        groups, shapes = {}, {}
        for e in self._done("key_averages"):
            if e.category in _TIMED:
                key = (e.name, e.category, e.device) + ((e.shapes,) if group_by_input_shape else ())
                groups.setdefault(key, []).append(e.dur_us)
                shapes.setdefault(key, set()).add(e.shapes)
        grand = sum(sum(d) for d in groups.values())
        rows = []
        for key, durs in groups.items():
            total = sum(durs)
            seen = shapes[key]
            shape_text = next(iter(seen)) if len(seen) == 1 else f"({len(seen)} shapes)"
            rows.append(KernelAverage(*key[:3], len(durs), total, total / len(durs), min(durs), max(durs),
                                      100.0 * total / grand if grand > 0 else 100.0 / len(groups), shape_text))
        return rows

    def table(self, sort_by="total", row_limit=None, group_by_input_shape=False):
        """The per-kernel summary as text: name, device, input shapes, calls, total, mean, min,
        max and share of the total, sorted by `sort_by` ("total", "mean", "calls", "max", "min",
        "name"; also PyTorch's "cuda_time_total", "cpu_time_total"), the first `row_limit` rows.
        A kernel called with different shapes shows "(n shapes)"; `group_by_input_shape` (as
        PyTorch's key_averages has it) gives each shapes its own row. A footer counts compiles,
        cache hits and allocations."""
        key = _SORT_ALIASES.get(sort_by, sort_by)
        if key not in _SORT_KEYS:
            raise ValueError(f"[profiler] table: sort_by={sort_by!r} is not one of {sorted(_SORT_KEYS)}")
        if row_limit is not None and (not isinstance(row_limit, int) or row_limit < 0):
            raise ValueError(f"[profiler] table: row_limit must be a non-negative int, got {row_limit!r}")
        rows = sorted(self.key_averages(group_by_input_shape), key=lambda r: getattr(r, _SORT_KEYS[key]),
                      reverse=key != "name")
        shown = rows if row_limit is None else rows[:row_limit]
        head = ("Name", "Device", "Input shapes", "Calls", "Total", "Mean", "Min", "Max", "Share")
        cells = [(r.name, r.device, r.shapes, str(r.calls), _fmt_us(r.total_us), _fmt_us(r.mean_us),
                  _fmt_us(r.min_us), _fmt_us(r.max_us), f"{r.share:.2f}%") for r in shown]
        widths = [max([len(h)] + [len(c[i]) for c in cells]) for i, h in enumerate(head)]
        widths[0], widths[2] = min(widths[0], 72), min(widths[2], 40)  # the long ones are cut with "..."

        def cut(v, w):
            return v if len(v) <= w else v[:w - 3] + "..."

        def line(values):
            left = [cut(v, w).ljust(w) for v, w in zip(values[:3], widths[:3])]
            return "  ".join(left + [v.rjust(w) for v, w in zip(values[3:], widths[3:])])

        rule = "-" * (sum(widths) + 2 * (len(widths) - 1))
        out = [rule, line(head), rule] + [line(c) for c in cells] + [rule]
        total = sum(r.total_us for r in rows)
        calls = sum(r.calls for r in rows)
        out.append(f"Total: {_fmt_us(total)} in {calls} calls of {len(rows)} kernels and copies"
                   + (f" ({len(rows) - len(shown)} rows not shown)" if len(shown) < len(rows) else ""))
        events = self._events
        compiles = [e for e in events if e.category == "compile"]
        if compiles:
            misses = [e for e in compiles if e.detail == "miss"]
            out.append(f"Compiles: {len(misses)} compiled ({_fmt_us(sum(e.dur_us for e in misses))}), "
                       f"{len(compiles) - len(misses)} cache hits or failures")
        allocs = [e for e in events if e.category == "alloc"]
        if allocs:
            out.append(f"Allocations: {len(allocs)} ({_fmt_bytes(sum(e.bytes for e in allocs))}), "
                       f"frees: {sum(e.category == 'free' for e in events)}")
        return "\n".join(out)

    def export_chrome_trace(self, path):
        """Writes a Chrome trace-event JSON file (Perfetto, chrome://tracing): one process per
        device with one track per stream (cpu(): per thread), one "host" process with a track
        per thread for ranges, compiles, allocations and frees.

        The file is written beside `path` under a fresh name and renamed onto it: a file or a
        symbolic link already at `path` is replaced, never written through (the rules of
        docs/ARCHITECTURE.md, "Files loom writes")."""
        _write_replacing(path, _json.dumps(self._chrome_trace()))

    def _chrome_trace(self):
        events = self._done("export_chrome_trace")
        pids = {"host": 0}
        trace, tracks = [], set()
        stream_tids = {}  # (device, stream handle) -> 0 for the default stream, then 1, 2, ... as met

        def pid_of(device):
            if device not in pids:
                pids[device] = len(pids)
                trace.append({"ph": "M", "name": "process_name", "pid": pids[device], "args": {"name": device}})
            return pids[device]

        trace.append({"ph": "M", "name": "process_name", "pid": 0, "args": {"name": "host"}})
        for e in events:
            args = {"detail": e.detail} if e.detail else {}
            if e.bytes >= 0:
                args["bytes"] = e.bytes
            if e.shapes:
                args["input_shapes"] = e.shapes
            if e.category in _TIMED:
                pid = pid_of(e.device)
                gpu = not e.device.startswith("cpu")
                if gpu:
                    key = (e.device, e.stream)
                    if key not in stream_tids:
                        stream_tids[key] = 0 if e.stream == 0 else 1 + sum(
                            k[0] == e.device and k[1] != 0 for k in stream_tids)
                    tid = stream_tids[key]
                else:
                    tid = e.thread
                label = (f"stream {e.stream:#x}" if e.stream else "default stream") if gpu else f"thread {tid}"
            else:
                pid, tid, label = 0, e.thread, f"thread {e.thread}"
                if e.category in ("alloc", "free"):
                    args["device"] = e.device
                if e.category == "range":
                    args["depth"] = e.depth
            if (pid, tid) not in tracks:
                tracks.add((pid, tid))
                trace.append({"ph": "M", "name": "thread_name", "pid": pid, "tid": tid, "args": {"name": label}})
            ev = {"name": e.name, "cat": e.category, "pid": pid, "tid": tid, "ts": e.start_us, "args": args}
            if e.category in ("alloc", "free"):
                ev.update(ph="i", s="t")
            else:
                ev.update(ph="X", dur=e.dur_us)
            trace.append(ev)
        return {"traceEvents": trace, "displayTimeUnit": "ms"}


class range(_contextlib.ContextDecorator):
    """Marks a named part of a program: ``with range("step"):`` or ``@range("step")``.

    An NVTX range always (Nsight Systems shows it; free without a tool attached) and, while a
    profile records, a "range" event on the calling thread's host track. Ranges nest.
    """

    def __init__(self, name):
        if not isinstance(name, str):
            raise TypeError(f"[profiler] range: the name must be a str, got {type(name).__name__}")
        self.name = name

    def __enter__(self):
        _loom._profiler_range_push(self.name)
        return self

    def __exit__(self, *exc):
        _loom._profiler_range_pop()
        return False


def _fmt_us(us):
    if us >= 1e6:
        return f"{us / 1e6:.3f}s"
    if us >= 1e3:
        return f"{us / 1e3:.3f}ms"
    return f"{us:.3f}us"


def _fmt_bytes(n):
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.2f} {unit}"
        n /= 1024



def _write_replacing(path, text):
    # O_EXCL|O_NOFOLLOW on a fresh name: nothing planted at that name (a link into another
    # user's files) is opened; the mode is the user's umask's, as for any output file.
    path = _os.fspath(path)
    tmp = _os.path.join(_os.path.dirname(_os.path.abspath(path)),
                        f".{_os.path.basename(path)}.{_secrets.token_hex(8)}.tmp")
    fd = _os.open(tmp, _os.O_WRONLY | _os.O_CREAT | _os.O_EXCL | _os.O_NOFOLLOW | _os.O_CLOEXEC, 0o666)
    try:
        with _os.fdopen(fd, "w") as f:
            f.write(text)
        _os.replace(tmp, path)
    except BaseException:
        _os.unlink(tmp)
        raise
