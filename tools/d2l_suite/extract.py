"""The PyTorch code cells of a section of the d2l book: a Markdown page of a checkout of
d2l-ai/d2l-en whose code blocks (```{.python .input ...}) open with a tab marker, `%%tab
pytorch, mxnet` or `#@tab all` (a block without one is MXNet's, the book's first framework).
A cell is kept when its marker names pytorch or all; cells are numbered from 1 in the order
kept, so a section's numbering does not depend on the other frameworks' blocks."""
import re
from pathlib import Path

_FENCE = re.compile(r"^```\{\.python \.input[^}]*\}\s*$")
_TAB = re.compile(r"^\s*(%%tab|#@tab)\s+(.*)$")


def tabs_of(first_line):
    """The frameworks a block's first line names, or None without a marker."""
    m = _TAB.match(first_line)
    if not m:
        return None
    return {t.strip() for t in m.group(2).split(",") if t.strip()}


def cells(path, framework="pytorch"):
    """[(number, source)] of the section's cells for `framework` (its marker line dropped)."""
    lines = Path(path).read_text().splitlines()
    out, i = [], 0
    while i < len(lines):
        if not _FENCE.match(lines[i]):
            i += 1
            continue
        j = i + 1
        while j < len(lines) and lines[j].strip() != "```":
            j += 1
        body = lines[i + 1:j]
        i = j + 1
        if not body:
            continue
        tabs = tabs_of(body[0])
        if tabs is None or not (framework in tabs or "all" in tabs):
            continue
        out.append((len(out) + 1, "\n".join(body[1:]) + "\n"))
    return out


if __name__ == "__main__":
    import sys
    for n, src in cells(sys.argv[1]):
        print(f"# ---- cell {n}")
        print(src)
