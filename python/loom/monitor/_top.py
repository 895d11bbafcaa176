"""`python -m loom top`: a live terminal view of every device and the processes on the GPUs,
redrawn each `--interval` seconds with plain ANSI codes (no curses); `--once` prints one
frame, `--json` one JSON document. Off a terminal, frames follow each other undecorated.
"""
import argparse
import json
import shutil
import sys
import time

from ._sampler import Monitor

_HIDE, _SHOW, _HOME_CLEAR, _CLEAR_TO_END = "\x1b[?25l", "\x1b[?25h", "\x1b[H", "\x1b[J"


def fmt_bytes(n):
    if n is None:
        return "-"
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if abs(n) < 1024 or unit == "TiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024


def fmt_rate(n):
    return "-" if n is None else fmt_bytes(n) + "/s"


def _pair(a, b, fmt):
    return "-" if a is None and b is None else f"{fmt(a)} / {fmt(b)}"


def _bar(fraction, width=10):
    if fraction is None:
        return " " * (width + 2)
    filled = round(max(0.0, min(1.0, fraction)) * width)
    return "[" + "|" * filled + " " * (width - filled) + "]"


def _percent(p):
    return "   -" if p is None else f"{p:3.0f}%"


def _device_lines(d):
    mem_frac = d["memory_used"] / d["memory_total"] if d["memory_used"] is not None and d["memory_total"] else None
    pool = d["pool"]
    lines = [
        f"{d['device']:<9}{(d['name'] or '?')[:40]}",
        f"  util {_bar(None if d['utilization'] is None else d['utilization'] / 100)} {_percent(d['utilization'])}"
        f"   mem {_bar(mem_frac)} {_pair(d['memory_used'], d['memory_total'], fmt_bytes)}"
        f"   loom pool {_pair(pool['in_use'], pool['cached'], fmt_bytes) + ' (in use / cached)' if pool else '-'}",
    ]
    if d["kind"] == "cuda":
        temp = "-" if d["temperature"] is None else f"{d['temperature']} C"
        power = "-" if d["power"] is None else f"{d['power']:.0f} W" + (
            f" / {d['power_limit']:.0f} W" if d["power_limit"] else "")
        lines.append(f"  PCIe tx/rx {_pair(d['pcie_tx'], d['pcie_rx'], fmt_rate)}"
                     f"   NVLink tx/rx {_pair(d['nvlink_tx'], d['nvlink_rx'], fmt_rate)}"
                     f"   temp {temp}   power {power}")
    return lines


def render(frame):
    """The text of one frame (no terminal codes)."""
    stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(frame["timestamp"]))
    head = f"loom top  {frame['host']}  {stamp}"
    if frame["driver"]:
        head += f"  driver {frame['driver']}"
    lines = [head, ""]
    for d in frame["devices"]:
        lines += _device_lines(d)
    if frame["gpu_note"]:
        lines += ["", f"no GPU rows: {frame['gpu_note']}"]
    lines += ["", "loom pool: loom's allocator in this process (start the dashboard inside a "
              "program to see its own)."]
    if frame["devices"][1:]:
        lines += ["", f"{'PID':>8}  {'DEVICE':<8}{'GPU MEMORY':>12}  LOOM  NAME"]
        for p in frame["processes"]:
            loom_flag = {True: "yes", False: "no", None: "?"}[p["loom"]]
            lines.append(f"{p['pid']:>8}  {p['device']:<8}{fmt_bytes(p['gpu_memory']):>12}  {loom_flag:<4}  "
                         f"{p['name'] or '(not visible here)'}")
        if not frame["processes"]:
            lines.append("  no processes on the GPUs")
    return "\n".join(lines)


def _positive(text):
    v = float(text)
    if not v > 0:
        raise argparse.ArgumentTypeError(f"must be > 0, got {text}")
    return v


def parse_args(argv):
    ap = argparse.ArgumentParser(prog="python -m loom top", description=(
        "Live view of every device (utilisation, memory, loom's pool, PCIe/NVLink traffic, "
        "temperature, power) and of the processes on the GPUs."))
    ap.add_argument("--once", action="store_true", help="print one frame and exit")
    ap.add_argument("--json", action="store_true", help="print one JSON document and exit")
    ap.add_argument("--interval", type=_positive, default=1.0, metavar="S", help="seconds between frames (1)")
    ap.add_argument("--count", type=int, default=0, metavar="N", help="exit after N frames (0: until Ctrl-C)")
    return ap.parse_args(argv)


def _loop(mon, args, out, tty):
    frames = 0
    while True:
        text = render(mon.sample())
        if tty:  # fit the terminal, redraw in place
            cols, rows = shutil.get_terminal_size()
            text = "\n".join(line[:cols] for line in text.split("\n")[: rows - 1])
            out.write(_HOME_CLEAR + text + "\n" + _CLEAR_TO_END)
        else:
            out.write(text + "\n\n")
        out.flush()
        frames += 1
        if args.once or (args.count and frames >= args.count):
            return
        time.sleep(args.interval)


def main(argv, out=sys.stdout):
    args = parse_args(argv)
    mon = Monitor()
    try:
        if args.json:
            json.dump(mon.sample(), out, indent=1)
            out.write("\n")
            return 0
        tty = out.isatty() and not args.once
        if tty:
            out.write(_HIDE)
        try:
            _loop(mon, args, out, tty)
        except KeyboardInterrupt:
            pass
        finally:
            if tty:
                out.write(_SHOW)
                out.flush()
        return 0
    finally:
        mon.close()
