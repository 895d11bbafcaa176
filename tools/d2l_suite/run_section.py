"""Runs one d2l section's PyTorch cells (extract.py) in order, in one namespace, in this
process, as the book's notebook would, and writes what each cell did to a JSON file (the
jax_docs_suite's run_cell: status, exception, stdout, last expression's repr). The namespace
has d2lbook's `tab` (tab.selected('pytorch') is true). Cells listed `out` in scope.txt are
not run. After the cells: the Trainer's last history (val_acc) if a section trained.

  python run_section.py SECTION.md OUT.json [--skip N,N] [--timeout SECONDS]
"""
import json
import signal
import sys
import time
from pathlib import Path

here = Path(__file__).resolve().parent
sys.path[:0] = [str(here), str(here.parent / "jax_docs_suite")]
from extract import cells  # noqa: E402
from run_cells import _alarm, _plot_stand_in, run_cell  # noqa: E402


class _Tab:
    """d2lbook's tab object: the PyTorch tab is the one selected."""

    @staticmethod
    def selected(*names):
        return "pytorch" in names

    @staticmethod
    def interact_select(*a, **k):
        return None


def main(argv):
    page, out = argv[0], argv[1]
    timeout = int(argv[argv.index("--timeout") + 1]) if "--timeout" in argv else 1800
    skip = set()
    if "--skip" in argv:
        skip = {int(s) for s in argv[argv.index("--skip") + 1].split(",") if s}
    _plot_stand_in()
    signal.signal(signal.SIGALRM, _alarm)
    ns = {"__name__": "__main__", "tab": _Tab()}
    records = []
    for n, src in cells(page):
        if n in skip:
            records.append({"cell": n, "status": "out"})
            continue
        signal.alarm(timeout)
        t0 = time.time()
        try:
            status, et, em, stdout, display = run_cell(src, ns)
        finally:
            signal.alarm(0)
        rec = {"cell": n, "status": status, "exc_type": et, "exc_msg": em, "stdout": stdout[-2000:],
               "display": (display or "")[-500:], "seconds": round(time.time() - t0, 1)}
        tr = ns.get("trainer")
        hist = getattr(tr, "history", None)
        board = getattr(getattr(tr, "model", None), "board", None)
        if hist is None and board is not None and getattr(board, "data", None):  # the book's Trainer
            hist = {k: [p.y for p in v] for k, v in board.data.items()}
        if isinstance(hist, dict) and hist.get("val_acc"):
            rec["val_acc"] = float(hist["val_acc"][-1])
            rec["epochs"] = len(hist["val_acc"])
        if isinstance(hist, dict) and hist.get("val_loss"):
            rec["val_loss"] = float(hist["val_loss"][-1])
        records.append(rec)
    tv = sys.modules.get("torchvision.datasets")
    stand_in = getattr(tv, "STAND_IN", None)
    ref = sys.modules.get("d2l.torch")
    if getattr(ref, "STAND_IN", None) is not None and stand_in is None:
        stand_in = ref.STAND_IN
    Path(out).write_text(json.dumps({"cells": records, "stand_in_data": stand_in}, indent=1, default=float))


if __name__ == "__main__":
    main(sys.argv[1:])
