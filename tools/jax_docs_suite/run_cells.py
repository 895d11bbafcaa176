"""Runs one documentation page's code cells in order, in one namespace, in this process, as a
notebook kernel would, and writes what each cell did to a JSON file: whether it raised (the
exception's type and first line), what it printed and the repr of its last expression.

  python run_cells.py PAGE OUT.json [--timeout SECONDS]

IPython's line magics are read as a notebook user would mean them: `%timeit [-opts] STMT` runs
STMT once (timings are not measured), other magics (`%xmode`, `%matplotlib`) do nothing. Without
matplotlib installed, `matplotlib.pyplot` is a stand-in that turns each array argument into a
NumPy array and draws nothing (plots are not measured). The `jax` this imports is whichever is
on sys.path: real JAX for the reference run, the harness's shim (loom) for the measured one.
"""
import ast
import contextlib
import io
import json
import os
import signal
import sys
import traceback
import types
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from extract import cells  # noqa: E402


def _magic_free(src):
    """The cell's source with IPython magics replaced by the Python they stand for."""
    out = []
    for line in src.splitlines():
        s = line.lstrip()
        indent = line[: len(line) - len(s)]
        if s.startswith("%%timeit"):
            continue
        if s.startswith("%timeit") or s.startswith("%time "):
            words = s.split()[1:]
            while words and words[0].startswith("-"):
                words.pop(0)
            stmt = " ".join(words)
            # `pass` after it: %timeit shows a timing, never the statement's value.
            out += [f"{indent}{stmt}" if stmt else f"{indent}pass", f"{indent}pass"]
        elif s.startswith("%") or s.startswith("!"):
            out.append(f"{indent}pass")
        else:
            out.append(line)
    return "\n".join(out) + "\n"


def _plot_stand_in():
    try:
        import matplotlib
        matplotlib.use("Agg")
        return
    except ImportError:
        pass
    import numpy as np

    def draw(*args, **kwargs):
        for a in args:
            if not isinstance(a, str):
                np.asarray(a)
        return []

    mpl = types.ModuleType("matplotlib")
    plt = types.ModuleType("matplotlib.pyplot")
    plt.__getattr__ = lambda name: draw
    mpl.pyplot = plt
    sys.modules["matplotlib"], sys.modules["matplotlib.pyplot"] = mpl, plt


class _Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise _Timeout("the cell ran past the harness's time limit")


def run_cell(src, ns):
    """(status, exc_type, exc_msg, stdout, display) of one cell run in namespace ns: the
    display is the repr of a last expression statement, as a notebook shows it."""
    code = _magic_free(src)
    buf = io.StringIO()
    display = None
    try:
        tree = ast.parse(code)
        last = None
        if tree.body and isinstance(tree.body[-1], ast.Expr):
            last = ast.Expression(tree.body.pop().value)
        with contextlib.redirect_stdout(buf):
            exec(compile(tree, "<cell>", "exec"), ns)
            if last is not None:
                value = eval(compile(last, "<cell>", "eval"), ns)
                if value is not None:
                    display = repr(value)
        return "ok", None, None, buf.getvalue(), display
    except BaseException as e:  # noqa: BLE001 - a cell's failure is data
        if isinstance(e, KeyboardInterrupt):
            raise
        msg = (str(e).strip().splitlines() or [""])[0][:400]
        tb = traceback.extract_tb(e.__traceback__)
        where = next((f"{Path(f.filename).name}:{f.lineno}" for f in reversed(tb)
                      if f.filename != "<cell>" and "run_cells" not in f.filename), "")
        return "raised", type(e).__name__, msg + (f" [{where}]" if where else ""), buf.getvalue(), None


def main(argv):
    page, out = argv[0], argv[1]
    timeout = int(argv[argv.index("--timeout") + 1]) if "--timeout" in argv else 120
    _plot_stand_in()
    signal.signal(signal.SIGALRM, _alarm)
    ns = {"__name__": "__main__"}
    records = []
    for n, tags, src in cells(page):
        signal.alarm(timeout)
        try:
            status, et, em, stdout, display = run_cell(src, ns)
        finally:
            signal.alarm(0)
        records.append({"cell": n, "tags": tags, "status": status, "exc_type": et, "exc_msg": em,
                        "stdout": stdout, "display": display})
    Path(out).write_text(json.dumps(records, indent=1))


if __name__ == "__main__":
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    main(sys.argv[1:])
