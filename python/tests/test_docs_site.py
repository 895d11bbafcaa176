"""The documentation site (docs/site, `make docs`): every Python example in its pages runs,
and the API reference has a page for every public submodule.

A page's ```python blocks run in order in one fresh process, as one program, on loom's
default device (cpu() without a GPU). A block right after a `% norun: why` line (a MyST
comment, invisible on the site) is shown but not run; one after `% requires: loom.name`
runs only when loom has that name, else the rest of the page is skipped, naming it (pages
that document names another branch brings); one after `% file: name.py` is written to that
file in the program's working folder before the program runs (a script that a later block
starts, as under python -m loom.launch).
"""
import importlib.util
import os
import pathlib
import re
import subprocess
import sys

import pytest

import loom

ROOT = pathlib.Path(__file__).resolve().parents[2]
SITE = ROOT / "docs" / "site"
PAGES = sorted(p for p in SITE.rglob("*.md") if "_build" not in p.parts)

_FENCE = re.compile(r"^(`{3,})\s*(\S*)\s*$")
_MARK = re.compile(r"^%\s*(norun|requires|file)\s*:\s*(.*)$")


def code_blocks(text):
    """(language, code, marks) for each fenced block of a Markdown page; marks maps "norun",
    "requires" and "file" to the text of the MyST comments right before the fence."""
    lines = text.splitlines()
    blocks, i, marks = [], 0, {}
    while i < len(lines):
        m = _FENCE.match(lines[i])
        mark = _MARK.match(lines[i])
        if mark:
            marks[mark.group(1)] = mark.group(2).strip()
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


def _has(dotted):
    obj = sys.modules["loom"]
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
    for n, (lang, code, marks) in enumerate(code_blocks(page.read_text())):
        if "file" in marks:
            files[marks["file"]] = code
            continue
        if lang != "python" or "norun" in marks:
            continue
        needed = [r.strip() for r in marks.get("requires", "").split(",") if r.strip()]
        absent = [r for r in needed if not _has(r)]
        if absent:
            missing = absent[0]
            break
        parts.append(f"# ---- block {n + 1}\n{code}")
    return "\n".join(parts), missing, files


PAGES_WITH_CODE = [p for p in PAGES if any(b[0] == "python" for b in code_blocks(p.read_text()))]


@pytest.mark.parametrize("page", PAGES_WITH_CODE, ids=[str(p.relative_to(SITE)) for p in PAGES_WITH_CODE])
def test_page_examples_run(page, tmp_path):
    program, missing, files = page_program(page)
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    if program:
        script = tmp_path / "page.py"
        script.write_text(program)
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "python"), os.environ.get("PYTHONPATH", "")]),
                   MPLBACKEND="Agg")
        r = subprocess.run([sys.executable, "-X", "faulthandler", str(script)], cwd=tmp_path, env=env,
                           capture_output=True, text=True, timeout=600)
        assert r.returncode == 0, f"{page.relative_to(ROOT)}:\n{r.stdout}\n{r.stderr}"
    if missing:
        pytest.skip(f"{page.relative_to(SITE)}: loom has no {missing} in this build; its examples from there on did not run")


def test_code_blocks_reads_marks_and_languages():
    text = "intro\n\n```python\na = 1\n```\n% norun: needs 2 GPUs\n```python\nb = 2\n```\n\n" \
           "% requires: loom.nothing_here\n```python\nc = 3\n```\n```sh\nmake\n```\n"
    blocks = code_blocks(text)
    assert [b[0] for b in blocks] == ["python", "python", "python", "sh"]
    assert blocks[0][2] == {} and blocks[1][2] == {"norun": "needs 2 GPUs"}
    assert blocks[2][1] == "c = 3\n" and blocks[2][2] == {"requires": "loom.nothing_here"}
    # A mark counts only for the fence right after it (blank lines between are fine).
    assert code_blocks("% norun: x\ntext\n```python\nd\n```\n")[0][2] == {}


def test_requires_cuts_the_page_at_a_missing_name(tmp_path):
    page = tmp_path / "p.md"
    page.write_text("```python\nx = 1\n```\n% requires: loom.no_such_name_here\n```python\ny\n```\n"
                    "```python\nz\n```\n")
    program, missing, _ = page_program(page)
    assert "x = 1" in program and "y" not in program.split("block 1")[1] and missing == "loom.no_such_name_here"
    page.write_text("% requires: loom.linalg\n```python\nx = 2\n```\n")
    assert page_program(page) == ("# ---- block 1\nx = 2\n", None, {})
    page.write_text("% file: s.py\n```python\nimport sys\n```\n```python\nrun('s.py')\n```\n")
    assert page_program(page) == ("# ---- block 2\nrun('s.py')\n", None, {"s.py": "import sys\n"})


def test_every_page_is_in_a_toctree():
    """Sphinx warns about an orphan page (so -W fails); this names it without a build."""
    text = "\n".join(p.read_text() for p in PAGES) + "\n".join(p.read_text() for p in SITE.rglob("*.rst"))
    for page in PAGES + sorted(SITE.rglob("*.rst")):
        rel = page.relative_to(SITE).with_suffix("")
        if str(rel) == "index":
            continue
        assert re.search(rf"^\s*{re.escape(rel.name)}\s*$", text, re.M) or str(rel) in text, \
            f"{rel} is in no toctree"


# Public submodules that need no page of their own: their names are loom's (documented there).
_NO_PAGE = {"pykernel", "transforms"}


def test_api_reference_has_a_page_per_public_submodule():
    modules = sorted(n for n in loom.__all__ if type(getattr(loom, n)).__name__ == "module")
    pages = {p.stem: p.read_text() for p in (SITE / "api").glob("*.rst")}
    documented = {m.group(1) for t in pages.values() for m in re.finditer(r"^\.\. automodule:: (\S+)", t, re.M)}
    missing = [m for m in modules if f"loom.{m}" not in documented and m not in _NO_PAGE]
    assert not missing, f"docs/site/api has no page for loom.{missing[0]}: add api/{missing[0]}.rst and list it in api/index.md"
    for stem in pages:
        assert stem in (SITE / "api" / "index.md").read_text(), f"api/{stem}.rst is not in api/index.md's toctree"


def _loom_api():
    """docs/site/_ext/loom_api.py, which needs Sphinx: `make docs` installs it into
    build/docs-deps, appended to sys.path so it never shadows the venv's packages."""
    deps = ROOT / "build" / "docs-deps"
    if deps.is_dir() and str(deps) not in sys.path:
        sys.path.append(str(deps))
    for name in ("sphinx", "docutils"):  # a Python may carry one without the other
        pytest.importorskip(name, reason=f"{name} is not installed (make docs installs Sphinx into build/docs-deps)")
    spec = importlib.util.spec_from_file_location("loom_api", SITE / "_ext" / "loom_api.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_plain_docstrings_become_text_not_markup():
    api = _loom_api()
    assert api.escape_line("|x| and *args, `a`, ix_ and a_b") == r"\|x\| and \*args, \`a\`, ix\_ and a_b"
    assert api.escape_line(r"a \ b") == r"a \\ b"
    lines = ["Summary line.", "", "    example()", "Back at the margin.", "- item", "  continued"]
    assert api.plain_text_lines(lines) == ["Summary line.", "", "    example()", "", "Back at the margin.",
                                           "- item", "  continued"]


def test_module_summary_lists_the_public_names():
    api = _loom_api()
    import loom.nn
    assert api.resolve_module("loom.nn.losses") is loom.nn.losses
    names = api.public_names(loom.linalg)
    assert "solve" in names and "svd" in names and not any(n.startswith("_") for n in names)
    assert api.public_names(loom.cuda, exclude=("TypingError",)).count("TypingError") == 0
    assert "linalg" not in api.public_names(loom)          # submodules have pages of their own
