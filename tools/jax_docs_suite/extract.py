"""The code cells of a JAX documentation page: a MyST Markdown page (```{code-cell} blocks,
with `:key: value` options or a `---` YAML header) or a Jupyter notebook (.ipynb). A cell is
numbered from 1 in page order; its tags (`raises-exception`, ...) come with it."""
import json
import re
from pathlib import Path

_FENCE = re.compile(r"^(`{3,}|~{3,})\{code-cell\}[^\n]*$")


def _options(lines):
    """Splits a MyST cell's leading options (`:tags: [a]` lines or a `---` YAML block) from
    its code; returns (tags, code lines)."""
    tags = []
    i = 0
    if lines and lines[0].strip() == "---":
        j = next((k for k in range(1, len(lines)) if lines[k].strip() == "---"), None)
        if j is not None:
            header, i = lines[1:j], j + 1
            tags = _tags("\n".join(header))
    else:
        while i < len(lines) and re.match(r"^:[\w-]+:", lines[i]):
            tags += _tags(lines[i])
            i += 1
    while i < len(lines) and not lines[i].strip():
        i += 1
    return tags, lines[i:]


def _tags(text):
    m = re.search(r"tags:\s*\[([^\]]*)\]", text)
    return [t.strip().strip("'\"") for t in m.group(1).split(",") if t.strip()] if m else []


def cells(path):
    """[(number, tags, source)] of the page's code cells."""
    path = Path(path)
    if path.suffix == ".ipynb":
        nb = json.loads(path.read_text())
        out = []
        for c in nb["cells"]:
            if c["cell_type"] == "code":
                src = "".join(c["source"]) if isinstance(c["source"], list) else c["source"]
                out.append((len(out) + 1, list(c.get("metadata", {}).get("tags", [])), src))
        return out
    out = []
    lines = path.read_text().splitlines()
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        fence = m.group(1)
        j = i + 1
        while j < len(lines) and not (lines[j].startswith(fence[0] * len(fence))
                                      and lines[j].strip() == fence[0] * len(lines[j].strip())):
            j += 1
        tags, code = _options(lines[i + 1:j])
        out.append((len(out) + 1, tags, "\n".join(code) + "\n"))
        i = j + 1
    return out


if __name__ == "__main__":
    import sys
    for n, tags, src in cells(sys.argv[1]):
        print(f"# ---- cell {n} {tags}")
        print(src)
