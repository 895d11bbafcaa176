"""The documentation site (docs/site, `make docs`) and README.md: every Python example in
them runs, README.md stays a front page, and the API reference has a page for every public
submodule.

A page's ```python blocks run in order in one fresh process, as one program, on loom's
default device (cpu() without a GPU); tools/run_doc_snippets.py does the running (by hand it
runs README.md and every page on cpu()). A comment right before a fence changes that: in the
site's pages a MyST comment (`% norun: why`, invisible on the site), in README.md an HTML
comment (`<!-- norun: why -->`, invisible on GitHub); both forms are read in every file.
A block after `norun: why` is shown but not run; one after `requires: loom.name` runs only
when loom has that name, else the rest of the page is skipped, naming it (pages that
document names another branch brings); one after `file: name.py` is written to that file in
the program's working folder before the program runs (a script that a later block starts,
as under python -m loom.launch). Blocks in other languages are never run.
"""
import importlib.util
import pathlib
import re
import sys

import pytest

import loom

ROOT = pathlib.Path(__file__).resolve().parents[2]
SITE = ROOT / "docs" / "site"
PAGES = sorted(p for p in SITE.rglob("*.md") if "_build" not in p.parts)
README_MAX_LINES = 150


def _snippets():
    spec = importlib.util.spec_from_file_location("run_doc_snippets", ROOT / "tools" / "run_doc_snippets.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


snippets = _snippets()
code_blocks, page_program = snippets.code_blocks, snippets.page_program
DOCUMENTS = snippets.documents()


@pytest.mark.parametrize("page", DOCUMENTS, ids=[str(p.relative_to(ROOT)) for p in DOCUMENTS])
def test_page_examples_run(page, tmp_path):
    r, missing = snippets.run_page(page, tmp_path)
    if r is not None:
        assert r.returncode == 0, f"{page.relative_to(ROOT)}:\n{r.stdout}\n{r.stderr}"
    if missing:
        pytest.skip(f"{page.relative_to(ROOT)}: loom has no {missing} in this build; its examples from there on did not run")


def test_readme_is_a_front_page():
    """At most 150 lines, the set-up commands in the first screen, and examples of at most 12
    lines (blank lines aside) that run (test_page_examples_run[README.md])."""
    lines = (ROOT / "README.md").read_text().splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md has {len(lines)} lines (at most {README_MAX_LINES}): " \
        "move detail into docs/site"
    first_screen = "\n".join(lines[:40])
    assert "make demo" in first_screen and "make test" in first_screen
    assert snippets.README in DOCUMENTS
    for lang, code, _ in code_blocks("\n".join(lines)):
        if lang == "python":
            assert sum(1 for line in code.splitlines() if line.strip()) <= 12, f"a README example is long:\n{code}"


def test_code_blocks_reads_marks_and_languages():
    text = "intro\n\n```python\na = 1\n```\n% norun: needs 2 GPUs\n```python\nb = 2\n```\n\n" \
           "% requires: loom.nothing_here\n```python\nc = 3\n```\n```sh\nmake\n```\n"
    blocks = code_blocks(text)
    assert [b[0] for b in blocks] == ["python", "python", "python", "sh"]
    assert blocks[0][2] == {} and blocks[1][2] == {"norun": "needs 2 GPUs"}
    assert blocks[2][1] == "c = 3\n" and blocks[2][2] == {"requires": "loom.nothing_here"}
    # A mark counts only for the fence right after it (blank lines between are fine).
    assert code_blocks("% norun: x\ntext\n```python\nd\n```\n")[0][2] == {}
    # README.md's form: HTML comments, which GitHub does not show.
    html = "<!-- norun: a fragment -->\n```python\ne\n```\n<!--requires: loom.fft, loom.linalg-->\n\n```python\nf\n```\n" \
           "<!-- a plain comment -->\n```python\ng\n```\n"
    assert [b[2] for b in code_blocks(html)] == [{"norun": "a fragment"}, {"requires": "loom.fft, loom.linalg"}, {}]


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
