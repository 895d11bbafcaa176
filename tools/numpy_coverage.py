"""How much of NumPy's main namespace loom has.

Walks `numpy`'s public functions, sets aside those the README's "Left out of NumPy"
section names (each under a heading that says why), and reports which of the rest `loom`
lacks. `python/tests/test_numpy_coverage.py` runs it; by hand:

    PYTHONPATH=python python tools/numpy_coverage.py
"""
import pathlib
import re
import sys
import types

import numpy as np

README = pathlib.Path(__file__).resolve().parent.parent / "README.md"
SECTION = "### Left out of NumPy"


def numpy_functions():
    """NumPy's public callables that are functions (not classes, modules or constants)."""
    names = []
    for name in dir(np):
        if name.startswith("_"):
            continue
        value = getattr(np, name)
        if isinstance(value, (type, types.ModuleType)) or not callable(value):
            continue
        names.append(name)
    return sorted(names)


def left_out(readme_text=None):
    """{name: reason} from the README section: each bullet is `- **reason**: `a`, `b` ...`."""
    text = README.read_text() if readme_text is None else readme_text
    start = text.find(SECTION)
    if start < 0:
        raise LookupError(f"README.md has no '{SECTION}' section")
    end = text.find("\n#", start + len(SECTION))
    section = text[start:end if end >= 0 else len(text)]
    out = {}
    for bullet in re.split(r"\n- ", section)[1:]:
        reason = re.match(r"\*\*(.+?)\*\*", bullet)
        if reason is None:
            continue
        for name in re.findall(r"`([A-Za-z_][A-Za-z0-9_]*)`", bullet[reason.end():]):
            out[name] = reason.group(1)
    return out


def coverage(module):
    """(share, missing, counted): the share of NumPy's functions, left-out list aside, that
    `module` has, the names it lacks, and how many were counted."""
    excluded = left_out()
    counted = [n for n in numpy_functions() if n not in excluded]
    missing = [n for n in counted if not hasattr(module, n)]
    return 1 - len(missing) / len(counted), missing, len(counted)


def main():
    import loom
    share, missing, counted = coverage(loom)
    print(f"loom has {counted - len(missing)} of NumPy's {counted} array functions "
          f"({share:.1%}; {len(left_out())} left out by the README)")
    if missing:
        print("missing:", " ".join(missing))
    return 0


if __name__ == "__main__":
    sys.exit(main())
