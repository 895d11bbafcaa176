"""`for` over what Numba's kernels iterate besides range(): a 1-d array, a tuple whose items
share a type (indexed at run time), enumerate(...) and zip(...) of those and of ranges with a
constant step. Each such loop is rewritten, on the AST, into a loop over range(n) that
assigns the items first:

    for i, (x, y) in enumerate(zip(a, b)):      for loom_for_7_4 in range(min(len(a), len(b))):
        body                             ->         i, (x, y) = (loom_for_7_4, (a[loom_for_7_4], b[loom_for_7_4]))
                                                    body

so the translator's one loop (over range) and its tuple assignment do the rest. An iterable is
named again for every item, so it must be a name or an attribute (an array, a range's bounds
are read once per item: names and constants)."""
import ast
import copy


class NotIterable(Exception):
    """The loop is over something this module does not rewrite (the message says what)."""


def _call_name(node):
    return node.func.id if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) else None


def _int(value):
    return ast.Constant(value)


def _length_and_item(it, index, is_builtin):
    """(AST of the number of items, function AST index -> AST of the item) of iterable `it`."""
    name = _call_name(it)
    if name and is_builtin(name):
        if it.keywords and name != "enumerate":
            raise NotIterable(f"{name}() takes no keyword arguments in a kernel's for loop")
        if name == "enumerate":
            start = it.args[1] if len(it.args) > 1 else None
            for k in it.keywords:
                if k.arg != "start":
                    raise NotIterable(f"enumerate() takes no keyword {k.arg!r}")
                start = k.value
            if not 1 <= len(it.args) <= 2 or (len(it.args) == 2 and it.keywords):
                raise NotIterable("enumerate() takes an iterable and a start")
            n, item = _length_and_item(it.args[0], index, is_builtin)
            return n, lambda i: ast.Tuple([i if start is None else ast.BinOp(i, ast.Add(), start), item(i)],
                                          ast.Load())
        if name == "tuple" and len(it.args) == 1 and isinstance(it.args[0], ast.Tuple):  # tuple((a, b))
            return _length_and_item(it.args[0], index, is_builtin)
        if name == "zip":
            if not it.args:
                raise NotIterable("zip() of nothing")
            parts = [_length_and_item(a, index, is_builtin) for a in it.args]
            n = parts[0][0] if len(parts) == 1 else ast.Call(ast.Name("min", ast.Load()), [p[0] for p in parts], [])
            return n, lambda i: ast.Tuple([p[1](i) for p in parts], ast.Load())
        if name == "range":
            args = it.args
            if not 1 <= len(args) <= 3:
                raise NotIterable("range() takes 1 to 3 arguments")
            start, stop = (args[0], args[1]) if len(args) > 1 else (_int(0), args[0])
            step = args[2] if len(args) == 3 else _int(1)
            if not (isinstance(step, ast.Constant) and isinstance(step.value, int) and step.value > 0):
                raise NotIterable("a range() inside enumerate() or zip() takes a constant positive step")
            span = ast.BinOp(ast.BinOp(stop, ast.Sub(), start), ast.Add(), _int(step.value - 1))
            n = ast.Call(ast.Name("max", ast.Load()), [_int(0), ast.BinOp(span, ast.FloorDiv(), step)], [])
            return n, lambda i: ast.BinOp(start, ast.Add(), ast.BinOp(i, ast.Mult(), step))
    if isinstance(it, (ast.Name, ast.Attribute)):  # an array (its items along axis 0) or a tuple
        length = ast.Call(ast.Name("len", ast.Load()), [it], [])
        return length, lambda i: ast.Subscript(it, i, ast.Load())
    if isinstance(it, ast.Tuple) and not any(isinstance(e, ast.Starred) for e in it.elts):  # (a, b, c)
        return _int(len(it.elts)), lambda i: ast.Subscript(it, i, ast.Load())
    raise NotIterable("for loops in kernels go over range(), a 1-d array or a tuple (by name, or a tuple "
                      "display), enumerate() and zip() of those")


def rewrite(node, is_builtin):
    """The `for` statement `node` as a loop over range(n) with the items assigned first, and
    the name of its new counter variable."""
    counter = f"loom_for_{node.lineno}_{node.col_offset}"
    index = ast.Name(counter, ast.Load())
    n, item = _length_and_item(node.iter, index, is_builtin)
    target = _store(node.target)
    body = [ast.Assign([target], item(index))] + node.body
    loop = ast.For(ast.Name(counter, ast.Store()), ast.Call(ast.Name("range", ast.Load()), [n], []), body, [])
    for new in ast.walk(loop):
        if "lineno" in new._attributes and not hasattr(new, "lineno"):
            ast.copy_location(new, node)
    return ast.fix_missing_locations(loop), counter


def _store(target):
    if isinstance(target, ast.Name):
        return ast.Name(target.id, ast.Store())
    if isinstance(target, (ast.Tuple, ast.List)):
        return ast.Tuple([_store(e) for e in target.elts], ast.Store())
    raise NotIterable("a for loop's target is a name or a tuple of names")


def loop_body_nodes(body):
    """The nodes of a loop body that belong to that loop (not to a loop nested in it)."""
    stack = list(body)
    while stack:
        n = stack.pop()
        yield n
        if isinstance(n, (ast.For, ast.While)):
            stack.extend(n.orelse)
            continue
        stack.extend(ast.iter_child_nodes(n))


def renamed(stmt, old, new):
    """A copy of `stmt` with the name `old` read as `new` (literal_unroll's per-item copies)."""
    class Rename(ast.NodeTransformer):
        def visit_Name(self, n):
            return ast.copy_location(ast.Name(id=new, ctx=n.ctx), n) if n.id == old else n
    return Rename().visit(copy.deepcopy(stmt))


def _names_in(node, name):
    return sum(1 for n in ast.walk(node) if isinstance(n, ast.Name) and n.id == name)


def loop_local(tree, loop):
    """The name of `loop`'s variable when nothing outside `for` loops over that same name
    reads or writes it (and no such loop is nested in this one): each such loop may then have
    a variable of its own, of its own type, as Numba's typing gives every loop (`for v in
    (a2, b2)` then `for v in (a3, b3)` over vectors of 2 and 3 components). Else None."""
    if not isinstance(loop.target, ast.Name):
        return None
    name = loop.target.id
    same = [n for n in ast.walk(tree) if isinstance(n, ast.For) and isinstance(n.target, ast.Name)
            and n.target.id == name]
    if any(n is not loop and any(m is n for m in ast.walk(loop)) for n in same):
        return None  # a loop over the same name inside this one
    outer = [n for n in same if any(m is loop for m in ast.walk(n)) and n is not loop]
    if outer:
        return None
    inside = sum(_names_in(n.target, name) + sum(_names_in(b, name) for b in n.body) for n in same)
    return name if inside == _names_in(tree, name) else None
