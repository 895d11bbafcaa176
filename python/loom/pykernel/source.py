"""A Python function's source as an AST with its real file and line numbers, and the
names it can see (closure cells, then globals, then builtins) at translation time."""
import ast
import builtins
import inspect
import textwrap

from .bytecode import decompile
from .errors import Location, UnsupportedError


class FunctionSource:
    """The parsed `def` of `func`: `tree` (ast.FunctionDef) with line numbers of its file."""

    from_bytecode = False

    def __init__(self, func):
        self.func = func
        self.name = func.__name__
        try:
            lines, first = inspect.getsourcelines(func)
            self.filename = inspect.getsourcefile(func) or inspect.getfile(func)
        except (OSError, TypeError):
            # exec() of a string, a REPL, `python -c`: the def is rebuilt from the bytecode.
            self._from_bytecode(func)
            return
        self.lines = {first + i: text.rstrip("\n") for i, text in enumerate(lines)}
        where = Location(self.filename, first, self.lines.get(first, ""))
        try:
            module = ast.parse(textwrap.dedent("".join(lines)))
        except SyntaxError:  # a lambda inside a statement that goes on past the lines Python gives
            raise UnsupportedError(f"[{self.name}] the source of the function cannot be read on its own: "
                                   f"define it with `def`\n{where}") from None
        ast.increment_lineno(module, first - 1)
        if func.__name__ == "<lambda>":
            self.tree = self._lambda_def(module, func, where)
        else:
            defs = [n for n in module.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
            if not defs or isinstance(defs[0], ast.AsyncFunctionDef):
                raise UnsupportedError(f"[{self.name}] only a plain `def` or a lambda can be a kernel\n{where}")
            self.tree = defs[0]
        # Column offsets are of the dedented text: add the indentation back for carets.
        self.indent = len(lines[0]) - len(lines[0].lstrip())
        self.params = self._params()

    def _from_bytecode(self, func):
        """The def rebuilt from `func`'s bytecode (bytecode.py): no source lines to quote; a
        node's column is an instruction offset, so no caret is drawn."""
        self.filename = func.__code__.co_filename
        self.lines = {}
        self.indent = 0
        self.from_bytecode = True
        self.tree = decompile(func, "lambda" if func.__name__ == "<lambda>" else func.__name__)
        self.params = self._params()

    def _lambda_def(self, module, func, where):
        """The lambda of `func` (cuda.reduce(lambda a, b: a + b)) as a def returning its body:
        the one lambda on its lines with the function's parameter names."""
        code = func.__code__
        names = list(code.co_varnames[:code.co_argcount])
        found = [n for n in ast.walk(module) if isinstance(n, ast.Lambda) and [a.arg for a in n.args.args] == names]
        if len(found) != 1:
            raise UnsupportedError(f"[{self.name}] {'several lambdas' if found else 'no lambda'} with the parameters "
                                   f"({', '.join(names)}) on these lines: define the function with `def`\n{where}")
        lam = found[0]
        fn = ast.FunctionDef(name="lambda", args=lam.args, body=[ast.Return(value=lam.body)], decorator_list=[],
                             returns=None, type_comment=None)
        return ast.fix_missing_locations(ast.copy_location(fn, lam))

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
                        None if col is None or self.from_bytecode else col + self.indent)

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
