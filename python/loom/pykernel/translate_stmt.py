"""Statements of a Python kernel, as C (a mixin of FunctionTranslator, translate.py).

Python variables are function-wide, so each becomes one C variable declared at the top
with the type all its assignments unify to. `for` goes over range() (other loops are
rewritten into one: for_loops.py); its variable
is assigned from a hidden counter, so changing it in the body does not change the loop
(Python's rule). `#line` directives before each statement make compiler messages and the
emulator's debug reports name the Python file and line.
"""
import ast
import builtins

from . import for_loops, records, stubs
from . import types as T
from .errors import TypingError
from .translate_expr import Pending
from .values import Value, cast, tuple_items


class StmtMixin:
    def block(self, stmts):
        for s in stmts:
            self.stmt(s)

    def stmt(self, node):
        method = getattr(self, "stmt_" + type(node).__name__, None)
        if method is None:
            self.unsupported(node, f"the statement '{type(node).__name__}' is not supported in kernels"
                             + _HINTS.get(type(node).__name__, ""))
        self.line_directive(node)
        try:
            method(node)
        except Pending:
            self.pending = True
        except TypingError as e:
            if str(e).startswith("["):
                raise
            self.fail(node, str(e), type(e))  # a rule of values.py/types.py: named and placed here

    def line_directive(self, node):
        self.emit(f'#line {node.lineno} "{self.filename_c}"', raw=True)

    # ------------------------------------------------------------------ assignment
    def assign_name(self, node, name, v):
        if name in self.constants:
            self.unsupported(node, f"'{name}' holds {self.constants[name].type} passed by the caller; it cannot be "
                             "reassigned")
        if isinstance(v.type, T.Opaque):
            self.unsupported(node, f"'{name}' cannot hold {v.type} (only numbers, arrays and tuples)")
        if isinstance(v.type, T.NoneType):
            self.fail(node, f"'{name}' is assigned the result of a call that returns nothing")
        old = self.vars.get(name)
        new = T.unify(old, v.type)
        if new is None:
            self.fail(node, f"the variable '{name}' is {old} here but assigned a {v.type}; a variable keeps one "
                      "type in a kernel (cast with a dtype, e.g. np.float32(...))")
        if new != old:
            self.vars[name] = new
            self.changed = True
        nonneg = bool(v.nonneg) and isinstance(new, T.Scalar) and new.is_int
        if self.nonneg.get(name, True) and not nonneg:
            self.nonneg[name] = False
            self.changed = True
        elif name not in self.nonneg:
            self.nonneg[name] = True
        if isinstance(new, T.Scalar):
            self.emit(f"{self.cname(name)} = {cast(v, new)};")
        elif isinstance(new, T.Tuple) and v.items is not None:
            self.emit(f"{self.cname(name)} = {self.materialize(Value(None, new, items=v.items))};")
        else:
            self.emit(f"{self.cname(name)} = {self.materialize(v)};")

    def assign_target(self, target, v):
        if isinstance(target, ast.Name):
            self.assign_name(target, target.id, v)
        elif isinstance(target, ast.Attribute):
            base = self.expr(target.value)
            if not isinstance(base.type, T.Record):
                self.unsupported(target, f"assigning to an attribute of a {base.type} is not supported in kernels")
            records.assign(self, target, records.field(self, target, base, target.attr), v)  # r.a = v
        elif isinstance(target, ast.Subscript):
            base = self.expr(target.value)
            if isinstance(base.type, (T.Record, T.RecordArray)):  # r["a"] = v, ary[i] = rec
                records.assign(self, target, records.item(self, target, base), v)
                return
            if not isinstance(base.type, (T.Array, T.Pointer)):
                self.fail(target, f"only array elements can be assigned, not items of a {base.type}")
            if base.type.readonly:
                self.fail(target, "a constant array cannot be written")
            if not isinstance(v.type, T.Scalar):
                self.fail(target, f"an array element cannot be assigned a {v.type}")
            ref = self.element_ref(target, base, target.slice)
            self.emit(f"{ref} = {cast(v, base.type.element)};")
        elif isinstance(target, ast.Tuple):
            if not isinstance(v.type, T.Tuple) or len(v.type.items) != len(target.elts):
                self.fail(target, f"cannot unpack a {v.type} into {len(target.elts)} names")
            # Every item is read into a temporary before any is assigned: `a, b = b, a` swaps.
            temps = []
            for t, item in zip(v.type.items, tuple_items(v)):
                if isinstance(t, T.Scalar) and item.const is None:
                    tmp = self.temp()
                    self.emit(f"const {t.c} {tmp} = {item.code};")
                    item = Value(tmp, t, nonneg=item.nonneg)
                elif not isinstance(t, T.Scalar) and item.const is None:
                    tmp = self.temp()
                    self.emit(f"const auto {tmp} = {self.materialize(item)};")
                    item = Value(tmp, t)
                temps.append(item)
            for sub, item in zip(target.elts, temps):
                self.assign_target(sub, item)
        else:
            self.unsupported(target, f"assigning to {type(target).__name__} is not supported in kernels")

    def stmt_Assign(self, node):
        v = self.expr(node.value)
        if len(node.targets) > 1 and not (v.const is not None or v.code is None or v.code.isidentifier()):
            tmp = self.temp()
            self.emit(f"const auto {tmp} = {self.materialize(v)};")
            v = Value(tmp, v.type, nonneg=v.nonneg)
        for t in node.targets:
            self.assign_target(t, v)

    def stmt_AnnAssign(self, node):
        if node.value is None:
            return
        self.assign_target(node.target, self.expr(node.value))

    def stmt_AugAssign(self, node):
        from .translate_expr import _ARITH
        op = _ARITH[type(node.op)]
        rhs = self.scalar(node.value)
        t = node.target
        if isinstance(t, ast.Name):
            cur = self.expr(ast.copy_location(ast.Name(t.id, ast.Load()), t))
            if not isinstance(cur.type, T.Scalar):
                self.fail(node, f"'{t.id}' is a {cur.type}; augmented assignment needs a number")
            self.assign_name(node, t.id, self.binop(node, op, cur, rhs))
        elif isinstance(t, ast.Subscript):
            base = self.expr(t.value)
            if not isinstance(base.type, (T.Array, T.Pointer)):
                self.fail(node, f"only array elements can be assigned, not items of a {base.type}")
            ref = self.element_ref(t, base, t.slice)
            r = self.binop(node, op, Value(ref, base.type.element), rhs)
            self.emit(f"{ref} = {cast(r, base.type.element)};")
        else:
            self.unsupported(node, "augmented assignment goes to a name or an array element")

    # ------------------------------------------------------------------ control flow
    def stmt_If(self, node):
        try:
            test = self.expr(node.test)
        except Pending:
            self.pending = True
            test = None
        if test is not None and test.weak and test.const is not None:
            self.block(node.body if test.const else node.orelse)  # a constant test: the other branch is dead
            return
        cond = self.truth(node.test) if test is not None else "false"
        self.emit(f"if ({cond}) {{")
        self.indented(node.body)
        if node.orelse:
            self.emit("} else {")
            self.indented(node.orelse)
        self.emit("}")

    def stmt_While(self, node):
        if node.orelse:
            self.unsupported(node, "while ... else is not supported in kernels")
        try:
            cond = self.truth(node.test)
        except Pending:
            self.pending = True
            cond = "false"
        self.emit(f"while ({cond}) {{")
        self.indented(node.body)
        self.emit("}")

    def stmt_For(self, node):
        if node.orelse:
            self.unsupported(node, "for ... else is not supported in kernels")
        it = node.iter
        if isinstance(it, ast.Call) and len(it.args) == 1 and not it.keywords:
            f = self.expr(it.func)
            if isinstance(f.type, T.Opaque) and f.obj is stubs.literal_unroll:
                return self.unrolled_for(node, self.expr(it.args[0]))
        is_range = isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range"
        if is_range:
            found, obj = self.src.lookup("range")
            is_range = found and obj is range and "range" not in self.locals
        if not is_range:  # an array, enumerate(), zip(): rewritten as a loop over range (for_loops.py)
            name = for_loops.loop_local(self.src.tree, node)
            if name is not None:  # a variable of this loop's own (its type may differ from another loop's)
                alias = f"{name}__for{node.lineno}_{node.col_offset}"
                node = for_loops.renamed(node, name, alias)
                self.locals.add(alias)
            try:
                loop, counter = for_loops.rewrite(node, self.is_builtin)
            except for_loops.NotIterable as e:
                self.unsupported(node, str(e))
            self.locals.add(counter)
            return self.stmt_For(loop)
        if it.keywords or not 1 <= len(it.args) <= 3:
            self.fail(node, "range() takes 1 to 3 positional arguments")
        if not isinstance(node.target, ast.Name):
            self.unsupported(node, "the variable of a for loop over range() must be a name")
        args = [self.scalar(a, "range() argument") for a in it.args]
        for a, a_node in zip(args, it.args):
            if not (a.type.is_int or a.type.is_bool):
                self.fail(a_node, f"range() takes integers, not {a.type}")
        start = args[0] if len(args) > 1 else Value("0", T.INT64, "int", 0, nonneg=True)
        stop = args[1] if len(args) > 1 else args[0]
        step = args[2] if len(args) > 2 else Value("1", T.INT64, "int", 1, nonneg=True)
        strong = [a.type for a in (start, stop, step) if not a.weak]
        t = strong[0] if strong else T.INT64
        for s in strong[1:]:
            t = T.promote(t, s)
        if t.is_bool:
            t = T.INT64
        if step.const == 0:
            self.fail(node, "range() arg 3 must not be zero")
        counter, stop_c, step_c = self.temp(), self.temp(), self.temp()
        if step.const is not None:
            cmp = f"{counter} < {stop_c}" if step.const > 0 else f"{counter} > {stop_c}"
        else:
            cmp = f"({step_c} > 0 ? {counter} < {stop_c} : {counter} > {stop_c})"
        self.emit("{")
        self.emit(f"  const {t.c} {stop_c} = {cast(stop, t)};")
        self.emit(f"  const {t.c} {step_c} = {cast(step, t)};")
        self.emit(f"  for ({t.c} {counter} = {cast(start, t)}; {cmp}; {counter} += {step_c}) {{")
        self.depth += 2
        nonneg = start.nonneg and step.const is not None and step.const > 0
        self.assign_name(node.target, node.target.id, Value(counter, t, nonneg=nonneg))
        self.block(node.body)
        self.depth -= 2
        self.emit("  }")
        self.emit("}")

    def unrolled_for(self, node, tup):
        """for x in literal_unroll(t): the body once per item of tuple `t`, with `x` that item
        (each of its own type, as Numba's literal_unroll gives), each copy in a do-while(0) so
        that `continue` goes on to the next item; `break` is refused."""
        if not isinstance(tup.type, T.Tuple):
            self.fail(node, f"literal_unroll() takes a tuple, not {tup.type}")
        if not isinstance(node.target, ast.Name):
            self.unsupported(node, "the variable of a literal_unroll loop must be a name")
        for n in for_loops.loop_body_nodes(node.body):
            if isinstance(n, ast.Break):
                self.unsupported(n, "break in a literal_unroll loop is not supported (its body is unrolled)")
        name = node.target.id
        for k, item in enumerate(tuple_items(tup)):
            alias = f"{name}__unroll{k}"
            body = [for_loops.renamed(s, name, alias) for s in node.body]
            self.constants[alias] = item
            self.emit("do {")
            self.depth += 1
            try:
                self.block(body)
            finally:
                self.depth -= 1
                del self.constants[alias]
            self.emit("} while (0);")

    def is_builtin(self, name):
        """Whether `name` is Python's builtin of that name here (not a local, global or closure)."""
        found, obj = self.src.lookup(name)
        return found and obj is getattr(builtins, name, None) and name not in self.locals

    def stmt_Break(self, node):
        self.emit("break;")

    def stmt_Continue(self, node):
        self.emit("continue;")

    def stmt_Pass(self, node):
        pass

    def stmt_Return(self, node):
        if self.kind == "kernel":
            if node.value is not None and not (isinstance(node.value, ast.Constant) and node.value.value is None):
                self.expr(node.value)  # its own typing errors first, as Numba types it before the return
                self.fail(node, "a kernel cannot return a value (write results into an array argument)")
            self.emit("return;")
            return
        if node.value is None or (isinstance(node.value, ast.Constant) and node.value.value is None):
            self.note_return(node, T.NONE)
            self.emit("return;")
            return
        v = self.expr(node.value)
        if isinstance(v.type, T.Opaque):
            self.unsupported(node, f"a device function cannot return {v.type}")
        self.note_return(node, v.type)
        ret = self.ret
        if isinstance(ret, T.Scalar) and isinstance(v.type, T.Scalar):
            self.emit(f"return {cast(v, ret)};")
        else:
            self.emit(f"return {self.materialize(v)};")

    def note_return(self, node, t):
        if self.ret is None:
            self.ret, self.changed = t, True
            return
        if isinstance(self.ret, T.NoneType) != isinstance(t, T.NoneType):
            self.fail(node, f"a device function returns {self.ret} in one place and {t} in another")
        new = self.ret if isinstance(t, T.NoneType) else T.unify(self.ret, t)
        if new is None:
            self.fail(node, f"a device function returns {self.ret} in one place and {t} in another")
        if new != self.ret:
            self.ret, self.changed = new, True

    def stmt_Expr(self, node):
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            return  # a docstring
        v = self.expr(node.value)
        if v.code is not None and not isinstance(v.type, T.Opaque):
            self.emit(f"{v.code};" if isinstance(node.value, ast.Call) else f"(void)({v.code});")

    def stmt_Assert(self, node):
        cond = self.truth(node.test)
        text = self.src.lines.get(node.lineno, "assert").strip().replace("\\", "\\\\").replace('"', '\\"')
        self.emit(f'LOOM_PK_ASSERT({cond}, "{self.filename_c}: {text}");')


_HINTS = {
    "Raise": ": exceptions cannot be raised inside kernels",
    "Try": ": exceptions cannot be caught inside kernels",
    "With": "",
    "Global": ": kernels read global names as constants and cannot rebind them",
    "Nonlocal": ": kernels read closure variables as constants and cannot rebind them",
    "FunctionDef": ": define device functions at module level with @cuda.jit(device=True)",
    "ClassDef": "",
    "Import": ": import modules outside the kernel",
    "ImportFrom": ": import modules outside the kernel",
    "Delete": "",
}
