"""The Python half of tools/check_layers.py: python/loom's subpackages keep an order, and no
function-level import hides an import cycle (docs/ARCHITECTURE.md, "The Python package").

- Order: a module imports its own subpackage, the extension (loom._loom) and subpackages of
  lower rungs of RUNGS, never a higher rung nor a sibling on its own rung. The modules at the
  package's root (loom/__init__.py, __main__.py, cuda.py, autoinit.py, memory.py, ...) are the
  public face, above every rung: they import anything, and only lazily are they imported.
  A subpackage that RUNGS does not list is reported, so that a new one is placed on purpose.
  CLIENTS (loom.pycuda, loom.scipy) sit above the root: they use loom's public API and nothing
  imports them (the root may name one in its table of names loaded on first use).
- Lazy imports: an import inside a function that could not be written at the top of its
  module (it goes up the order, or its target imports the importer back through module-level
  imports) needs `# lazy: <reason>` on its line or the line above. Other function-level
  imports (deferring a heavy module that is no cycle) need no mark.
"""
import ast
import os
import re

PACKAGE = "python/loom"
# Lowest first. Subpackages on one rung are independent of each other.
RUNGS = [
    ["_numpy", "transforms", "pykernel", "distributed", "monitor", "random"],  # over the extension alone
    ["nn", "optim"],                                                 # layers; optimisers
    ["train"],                                                       # Trainer, data, data-parallel
]
# Subpackages above the public face: other libraries' APIs written over loom's own (as a
# separate package would be), so they import the package root; nothing of loom imports them.
CLIENTS = ["pycuda", "scipy"]
EXTENSION = "_loom"
LAZY_MARK = re.compile(r"#\s*lazy:\s*\S")
BASE_RANK, TOP_RANK = -1, len(RUNGS)


def module_name(rel):
    """'python/loom/nn/module.py' -> 'loom.nn.module'; a package's __init__.py -> the package."""
    parts = os.path.relpath(rel, os.path.dirname(PACKAGE))[:-3].split(os.sep)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def unit_of(name, root):
    """The subpackage a module belongs to ('nn'), EXTENSION, or '' for the root modules."""
    parts = name.split(".")
    if len(parts) == 1:
        return ""
    if parts[1] == EXTENSION:
        return EXTENSION
    return parts[1] if os.path.isdir(os.path.join(root, PACKAGE, parts[1])) else ""


def rank_of(unit):
    if unit == EXTENSION:
        return BASE_RANK
    if unit == "":
        return TOP_RANK
    if unit in CLIENTS:
        return TOP_RANK + 1
    return next((i for i, rung in enumerate(RUNGS) if unit in rung), None)


def is_module(name, root):
    path = os.path.join(root, os.path.dirname(PACKAGE), *name.split("."))
    return os.path.isfile(path + ".py") or os.path.isfile(os.path.join(path, "__init__.py"))


def imports_of(rel, root):
    """(line, target module, at function level, marked lazy) of each import of a loom module."""
    text = open(os.path.join(root, rel), encoding="utf-8").read()
    lines = text.splitlines()
    me = module_name(rel)
    package = me if rel.endswith("__init__.py") else me.rpartition(".")[0]
    found = []

    def visit(node, in_function):
        for child in ast.iter_child_nodes(node):
            nested = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                marked = any(LAZY_MARK.search(lines[i]) for i in (child.lineno - 1, child.lineno - 2) if i >= 0)
                for target in targets(child, package, root):
                    found.append((child.lineno, target, in_function, marked))
            visit(child, nested)

    visit(ast.parse(text, rel), False)
    return found


def targets(node, package, root):
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if a.name.split(".")[0] == "loom"]
    if node.level:
        base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
        base = f"{base}.{node.module}" if node.module else base
    else:
        base = node.module or ""
    if base.split(".")[0] != "loom":
        return []
    # `from loom import nn` imports the module loom.nn; `from loom import jit` the package loom.
    return sorted({f"{base}.{a.name}" if is_module(f"{base}.{a.name}", root) or a.name == EXTENSION else base
                   for a in node.names})


def python_files(root):
    out = []
    for dirpath, dirs, names in os.walk(os.path.join(root, PACKAGE)):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__" and d != EXTENSION)
        out += [os.path.relpath(os.path.join(dirpath, n), root) for n in sorted(names) if n.endswith(".py")]
    return out


def check_order(root, files):
    errors = []
    for d in sorted(os.listdir(os.path.join(root, PACKAGE))):
        if os.path.isfile(os.path.join(root, PACKAGE, d, "__init__.py")) and rank_of(d) is None:
            errors.append(f"{PACKAGE}/{d}: a subpackage that tools/check_layers_python.py's RUNGS does not place")
    for rel in files:
        mine = unit_of(module_name(rel), root)
        for line, target, in_function, _ in imports_of(rel, root):
            theirs = unit_of(target, root)
            if not in_function and _above(theirs, mine):
                errors.append(f"{rel}:{line}: {mine or 'loom'} imports {target} ({theirs or 'the package root'}), "
                              "which is not below it in the order")
    return errors


def _above(theirs, mine):
    """True when a module of `mine` may not import one of `theirs` at module level."""
    if theirs == mine:
        return False
    if mine == "":
        return theirs in CLIENTS  # the public face never imports a client
    a, b = rank_of(theirs), rank_of(mine)
    return a is not None and b is not None and a >= b


def check_lazy_imports(root, files):
    """Function-level imports that go up the order or close a cycle carry a `# lazy:` reason."""
    graph = {}
    for rel in files:
        graph[module_name(rel)] = {t for _, t, in_function, _ in imports_of(rel, root) if not in_function}
    errors = []
    for rel in files:
        me = module_name(rel)
        for line, target, in_function, marked in imports_of(rel, root):
            if not in_function or marked or unit_of(target, root) == EXTENSION:
                continue
            if _above(unit_of(target, root), unit_of(me, root)):
                errors.append(f"{rel}:{line}: imports {target} inside a function, up the order; "
                              "mark it `# lazy: <reason>` if it must be")
            elif _reaches(graph, target, me):
                errors.append(f"{rel}:{line}: imports {target} inside a function, which hides a cycle "
                              f"({target} leads back to {me}); break the cycle or mark it `# lazy: <reason>`")
    return errors


def _reaches(graph, start, goal):
    seen, todo = set(), [start]
    while todo:
        name = todo.pop()
        if name == goal:
            return True
        if name not in seen:
            seen.add(name)
            todo.extend(graph.get(name, ()))
    return False


def check(root):
    files = python_files(root)
    return check_order(root, files) + check_lazy_imports(root, files)
