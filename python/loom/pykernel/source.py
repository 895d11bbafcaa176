"""A Python function's source as an AST with its real file and line numbers, and the
names it can see (closure cells, then globals, then builtins) at translation time."""
import ast
import builtins
import inspect
import textwrap

from .errors import Location, UnsupportedError


class FunctionSource:
    """The parsed `def` of `func`: `tree` (ast.FunctionDef) with line numbers of its file."""

    def __init__(self, func):
        self.func = func
        self.name = func.__name__
        try:
            lines, first = inspect.getsourcelines(func)
            self.filename = inspect.getsourcefile(func) or inspect.getfile(func)
        except (OSError, TypeError) as e:
            raise UnsupportedError(f"[{self.name}] the source of the function is not available ({e}); "
                                   "kernels must be defined in a file or a notebook cell") from None
        self.lines = {first + i: text.rstrip("\n") for i, text in enumerate(lines)}
        module = ast.parse(textwrap.dedent("".join(lines)))
        ast.increment_lineno(module, first - 1)
        defs = [n for n in module.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
        if not defs or isinstance(defs[0], ast.AsyncFunctionDef):
            raise UnsupportedError(f"[{self.name}] only a plain `def` can be a kernel\n"
                                   f"{Location(self.filename, first, self.lines.get(first, ''))}")
        self.tree = defs[0]
        # Column offsets are of the dedented text: add the indentation back for carets.
        self.indent = len(lines[0]) - len(lines[0].lstrip())
        self.params = self._params()

    def _params(self):
        a = self.tree.args
        unsupported = a.vararg or a.kwarg or a.kwonlyargs or a.posonlyargs or a.defaults
        if unsupported:
            raise UnsupportedError(f"[{self.name}] kernels and device functions take plain positional "
                                   f"parameters only (no *args, **kwargs, defaults or keyword-only ones)\n"
                                   f"{self.location(self.tree)}")
        return [p.arg for p in a.args]

    def location(self, node):
        line = getattr(node, "lineno", self.tree.lineno)
        col = getattr(node, "col_offset", None)
        return Location(self.filename, line, self.lines.get(line, ""),
                        None if col is None else col + self.indent)

    def lookup(self, name):
        """(True, value) for a name from the closure, the globals or the builtins; (False, None)."""
        code = self.func.__code__
        if self.func.__closure__ and name in code.co_freevars:
            cell = self.func.__closure__[code.co_freevars.index(name)]
            try:
                return True, cell.cell_contents
            except ValueError:
                return False, None
        g = self.func.__globals__
        if name in g:
            return True, g[name]
        if hasattr(builtins, name):
            return True, getattr(builtins, name)
        return False, None
