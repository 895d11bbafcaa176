"""The API reference's reading of loom's docstrings, and its summary tables.

loom's docstrings are plain text written for help() (the bound functions' come from the
C++ op table): `|x|`, `*args`, `ix_` and backquoted names are text there, not
reStructuredText markup. Each docstring's markup characters are escaped before autodoc
parses it, so the reference shows the text help() shows and the build stays free of
warnings without rewriting several hundred docstrings in reStructuredText.
"""
import importlib
import inspect
import re

from docutils.statemachine import StringList
from sphinx.ext.autosummary import Autosummary

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


def public_names(module, exclude=()):
    """The names a module's reference page documents: its __all__, else its public
    attributes; submodules (pages of their own) and `exclude` left out."""
    names = getattr(module, "__all__", None)
    if names is None:
        names = [n for n in dir(module) if not n.startswith("_")]
    return sorted((n for n in names if n not in exclude and hasattr(module, n)
                   and not inspect.ismodule(getattr(module, n))), key=str.lower)


def resolve_module(modname):
    """The module named; `loom.nn.losses` is an attribute of loom.nn, not an importable
    path, so a failed import falls back to the parent's attribute."""
    try:
        return importlib.import_module(modname)
    except ImportError:
        parent, _, attr = modname.rpartition(".")
        if not parent:
            raise
        return getattr(resolve_module(parent), attr)


class ModuleSummary(Autosummary):
    """`.. loom-summary:: loom.linalg` (option `:exclude:` a comma list): autosummary's table
    of every public name of the module with its first docstring line, linking to the
    entries that automodule writes below it; the list follows the module, not the page."""
    required_arguments = 1
    option_spec = {**Autosummary.option_spec, "exclude": lambda text: [n.strip() for n in text.split(",")]}

    def run(self):
        modname = self.arguments[0]
        module = resolve_module(modname)
        names = public_names(module, self.options.get("exclude", ()))
        self.content = StringList([f"~{modname}.{n}" for n in names], source=modname)
        self.arguments = []
        self.options.setdefault("nosignatures", True)
        return super().run()


def setup(app):
    app.connect("autodoc-process-docstring", _escape_docstring)
    app.add_directive("loom-summary", ModuleSummary)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
