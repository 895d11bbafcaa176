"""The API reference's reading of loom's docstrings.

loom's docstrings are plain text written for help() (the bound functions' come from the
C++ op table): `|x|`, `*args`, `ix_` and backquoted names are text there, not
reStructuredText markup. Each docstring's markup characters are escaped before autodoc
parses it, so the reference shows the text help() shows and the build stays free of
warnings without rewriting several hundred docstrings in reStructuredText.
"""
import re

# `_` ends a reference only after a word (`ix_`, `[1]_`); inside a word it is plain.
_TRAILING_UNDERSCORE = re.compile(r"(?<=[\w\]`])_(?=\W|$)")
_MARKUP = re.compile(r"([*`|])")


def escape_line(line):
    """One line of plain text with reStructuredText's inline markup characters escaped."""
    line = line.replace("\\", "\\\\")
    line = _MARKUP.sub(r"\\\1", line)
    return _TRAILING_UNDERSCORE.sub(r"\\_", line)


def _indent(line):
    return len(line) - len(line.lstrip())


def plain_text_lines(lines):
    """The lines of a plain-text docstring as reStructuredText that reads the same: markup
    characters escaped, and a blank line where the indentation changes, which plain text
    does freely (an indented example, a wrapped list item) and reStructuredText rejects
    without one."""
    out = []
    for line in lines:
        prev = out[-1] if out else ""
        if line.strip() and prev.strip() and _indent(line) != _indent(prev) \
                and not prev.lstrip().startswith(("- ", "* ")):
            out.append("")
        out.append(escape_line(line))
    return out


def _escape_docstring(app, what, name, obj, options, lines):
    if name.startswith("loom"):
        lines[:] = plain_text_lines(lines)


def setup(app):
    app.connect("autodoc-process-docstring", _escape_docstring)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
