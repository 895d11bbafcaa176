"""`python -m loom profile [options] script.py [args]`: runs a script under loom.profiler and
prints the per-kernel table when it ends, as `python -m cProfile` does for Python functions
(and `nsys profile` for a whole program); `--trace out.json` also writes the Chrome trace.

The script runs as `python script.py args` would run it: as __main__, with sys.argv set and
its folder first on sys.path. The table is printed even when the script fails or calls
sys.exit, and the exit status is the script's.
"""
import argparse
import os
import runpy
import sys
import traceback

from . import profiler

_SORTS = ("total", "mean", "calls", "max", "min", "name")


def _parser():
    p = argparse.ArgumentParser(
        prog="python -m loom profile",
        description="Run a Python script under loom's profiler and print the per-kernel table.")
    p.add_argument("--trace", metavar="OUT.json", help="also write a Chrome trace (open it in Perfetto)")
    p.add_argument("--sort-by", default="total", choices=_SORTS, help="the table's order (default: total)")
    p.add_argument("--row-limit", type=int, default=None, metavar="N", help="print the first N rows")
    p.add_argument("--group-by-input-shape", action="store_true",
                   help="one row per kernel and input shapes (PyTorch's group_by_input_shape)")
    p.add_argument("script", help="the Python script to run")
    p.add_argument("args", nargs=argparse.REMAINDER, help="the script's arguments")
    return p


def run_script(path, args):
    """Runs `path` as __main__ with `args`; returns its exit status (1 for an exception)."""
    saved_argv, saved_path0 = sys.argv, sys.path[0] if sys.path else None
    sys.argv = [path] + list(args)
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    try:
        runpy.run_path(path, run_name="__main__")
        return 0
    except SystemExit as e:
        if e.code is None or isinstance(e.code, int):
            return e.code or 0
        print(e.code, file=sys.stderr)  # sys.exit("message"): Python prints it and exits 1
        return 1
    except BaseException:  # the table is still wanted, after the script's traceback
        traceback.print_exc()
        return 1
    finally:
        sys.argv = saved_argv
        if sys.path and sys.path[0] != saved_path0:
            del sys.path[0]


def main(argv):
    opts = _parser().parse_args(argv)
    if not os.path.isfile(opts.script):
        print(f"python -m loom profile: no such file: {opts.script}", file=sys.stderr)
        return 2
    if opts.row_limit is not None and opts.row_limit < 0:
        print("python -m loom profile: --row-limit must be >= 0", file=sys.stderr)
        return 2
    prof = profiler.profile()
    with prof:
        status = run_script(opts.script, opts.args)
    sys.stdout.flush()
    print(prof.table(sort_by=opts.sort_by, row_limit=opts.row_limit,
                     group_by_input_shape=opts.group_by_input_shape))
    if opts.trace:
        prof.export_chrome_trace(opts.trace)
        print(f"Chrome trace written to {opts.trace} (open it in https://ui.perfetto.dev)")
    return status
