"""Runs every Python example of README.md and of the documentation site (docs/site), as a
fresh reader would: each page's ```python blocks in order, as one program, in a fresh
process, on cpu() unless told otherwise.

    PYTHONPATH=python python tools/run_doc_snippets.py                 # README and every page
    PYTHONPATH=python python tools/run_doc_snippets.py README.md docs/site/guide/nn.md
    PYTHONPATH=python python tools/run_doc_snippets.py --device gpu    # loom's default device

It prints one line per page (ok, FAIL or skip) and the failing program's output, and exits
with 1 when a page fails. python/tests/test_docs_site.py imports it, so `make test` runs the
same programs.

A comment right before a fence changes what happens to that block. In the site's pages it
is a MyST comment (`% norun: why`, invisible on the site); in README.md, which GitHub
renders, an HTML comment (`<!-- norun: why -->`). Both forms are read everywhere:

  norun: why            the block is shown, not run (a fragment, or it needs several machines)
  requires: loom.a, ... the block runs only where loom has these names; otherwise the rest
                        of the page is skipped, and the skip names the missing one
  file: name.py         the block is written to name.py beside the program instead of run
                        (a script that a later block starts)

Blank lines may stand between a mark and its fence; any other text cancels the mark.
Blocks in other languages (sh, cpp, cmake) are never run.
"""
import argparse
import importlib
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
SITE = ROOT / "docs" / "site"
README = ROOT / "README.md"

_FENCE = re.compile(r"^(`{3,})\s*(\S*)\s*$")
_MARK = re.compile(r"^(?:%\s*(norun|requires|file)\s*:\s*(.*?)|<!--\s*(norun|requires|file)\s*:\s*(.*?)\s*-->)\s*$")


def site_pages():
    return sorted(p for p in SITE.rglob("*.md") if "_build" not in p.parts and p.name != "README.md")


def code_blocks(text):
    """(language, code, marks) for each fenced block of a Markdown page; marks maps "norun",
    "requires" and "file" to the text of the comments right before the fence."""
    lines = text.splitlines()
    blocks, i, marks = [], 0, {}
    while i < len(lines):
        m = _FENCE.match(lines[i])
        mark = _MARK.match(lines[i].strip())
        if mark:
            name, value = (mark.group(1), mark.group(2)) if mark.group(1) else (mark.group(3), mark.group(4))
            marks[name] = value.strip()
        elif m:
            fence, lang = m.groups()
            j = i + 1
            while j < len(lines) and lines[j].rstrip() != fence:
                j += 1
            blocks.append((lang, "\n".join(lines[i + 1:j]) + "\n", marks))
            marks, i = {}, j
        elif lines[i].strip():
            marks = {}
        i += 1
    return blocks


def has_name(dotted):
    """Whether loom has `dotted` (`loom.a.b`), importing submodules as needed."""
    obj = importlib.import_module("loom")
    for part in dotted.split(".")[1:]:
        if not hasattr(obj, part):
            try:
                importlib.import_module(f"{obj.__name__}.{part}")
            except ImportError:
                return False
        obj = getattr(obj, part, None)
        if obj is None:
            return False
    return True


def page_program(page):
    """The page's runnable Python as one program, the name whose absence cut it short, and
    the files ({name: text}) the program expects beside it."""
    parts, missing, files = [], None, {}
    for n, (lang, code, marks) in enumerate(code_blocks(pathlib.Path(page).read_text())):
        if "file" in marks:
            files[marks["file"]] = code
            continue
        if lang != "python" or "norun" in marks:
            continue
        needed = [r.strip() for r in marks.get("requires", "").split(",") if r.strip()]
        absent = [r for r in needed if not has_name(r)]
        if absent:
            missing = absent[0]
            break
        parts.append(f"# ---- block {n + 1}\n{code}")
    return "\n".join(parts), missing, files


def has_python(page):
    return any(b[0] == "python" for b in code_blocks(pathlib.Path(page).read_text()))


def documents():
    """README.md and every site page that has a Python block."""
    return [p for p in [README] + site_pages() if has_python(p)]


def run_page(page, workdir, env=None, timeout=600):
    """Writes the page's files and program into workdir and runs the program there in a fresh
    Python. Returns (CompletedProcess or None when nothing ran, the missing name or None)."""
    workdir = pathlib.Path(workdir)
    program, missing, files = page_program(page)
    for name, text in files.items():
        (workdir / name).write_text(text)
    if not program:
        return None, missing
    script = workdir / "page.py"
    script.write_text(program)
    env = dict(os.environ if env is None else env)
    env["PYTHONPATH"] = os.pathsep.join(p for p in [str(ROOT / "python"), env.get("PYTHONPATH", "")] if p)
    env.setdefault("MPLBACKEND", "Agg")
    r = subprocess.run([sys.executable, "-X", "faulthandler", str(script)], cwd=workdir, env=env,
                       capture_output=True, text=True, timeout=timeout)
    return r, missing


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pages", nargs="*", help="Markdown files (default: README.md and every site page)")
    ap.add_argument("--device", default="cpu",
                    help="LOOM_DEVICE for the programs (default cpu; 'default' leaves loom's choice)")
    args = ap.parse_args(argv)
    pages = [pathlib.Path(p).resolve() for p in args.pages] or documents()
    env = dict(os.environ)
    if args.device != "default":
        env["LOOM_DEVICE"] = args.device
    sys.path.insert(0, str(ROOT / "python"))
    failed = 0
    for page in pages:
        name = page.relative_to(ROOT) if page.is_relative_to(ROOT) else page
        t0 = time.perf_counter()
        with tempfile.TemporaryDirectory(prefix="loom-doc-") as tmp:
            r, missing = run_page(page, tmp, env)
        seconds = time.perf_counter() - t0
        if r is not None and r.returncode != 0:
            failed += 1
            print(f"FAIL {name} ({seconds:.1f} s)\n{r.stdout}{r.stderr}", flush=True)
            continue
        note = f"; the rest skipped: no {missing} in this build" if missing else ""
        print(f"{'ok  ' if r is not None else 'skip'} {name} ({seconds:.1f} s{note})", flush=True)
    print(f"{len(pages) - failed} of {len(pages)} pages ran cleanly")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
