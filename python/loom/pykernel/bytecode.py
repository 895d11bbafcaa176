"""A kernel's `def` rebuilt from its bytecode, for functions whose source Python does not keep
(made by exec() of a string, typed at a REPL or in `python -c`): the translator then works on
the rebuilt tree as on parsed source (docs/PYTHON_KERNELS.md, "Kernels without source").

The bytecode is cut into basic blocks; each block's instructions are run on a stack of AST
expressions, which yields its statements. A function of one block is those statements. A
function with jumps becomes a dispatch loop, one `if` per block, which C compilers turn back
into direct branches:

    __bb = 0
    while True:
        if __bb == 0:
            ...statements...
            __bb = 2 if cond else 1
            continue
        ...

so every control flow CPython emits (loops, early returns, `and`/`or`, conditional expressions,
chained comparisons, break/continue) needs no structuring. Values that stay on the stack from
one block to the next go through variables (`__s3_0`: block 3's entry, depth 0). `for` loops
over range(), enumerate(), zip() and arrays become index loops over hidden variables. Python
3.11 to 3.13 bytecode is read (calls of over 30 arguments: bytecode_lists.py); an instruction
outside the kernel language (try, with, comprehensions, nested functions, f-strings) is an
UnsupportedError naming it."""
import ast
import collections
import dis
import inspect
import sys

from . import bytecode_lists
from .errors import UnsupportedError

_BLOCK = "__bb"  # the dispatch variable
_UNCONDITIONAL = {"JUMP_FORWARD", "JUMP_BACKWARD", "JUMP_BACKWARD_NO_INTERRUPT", "JUMP", "JUMP_NO_INTERRUPT",
                  "JUMP_ABSOLUTE"}
_RETURNS = {"RETURN_VALUE", "RETURN_CONST"}
_SKIP = {"RESUME", "NOP", "CACHE", "PRECALL", "EXTENDED_ARG", "COPY_FREE_VARS", "MAKE_CELL", "TO_BOOL",
         "NOT_TAKEN", "RETURN_GENERATOR"}
_BINOPS = {"+": ast.Add, "-": ast.Sub, "*": ast.Mult, "/": ast.Div, "//": ast.FloorDiv, "%": ast.Mod,
           "**": ast.Pow, "<<": ast.LShift, ">>": ast.RShift, "&": ast.BitAnd, "|": ast.BitOr, "^": ast.BitXor,
           "@": ast.MatMult}
_COMPARES = {"<": ast.Lt, "<=": ast.LtE, ">": ast.Gt, ">=": ast.GtE, "==": ast.Eq, "!=": ast.NotEq}
_UNARY = {"UNARY_NEGATIVE": ast.USub, "UNARY_NOT": ast.Not, "UNARY_INVERT": ast.Invert,
          "UNARY_POSITIVE": ast.UAdd}


class _Null:
    """The NULL CPython pushes beside a callable (or a method's self slot)."""


# A `for` loop's iterator: hidden index variables and how to read element i.
_Iter = collections.namedtuple("_Iter", "index stop step element")


NULL = _Null()


def _name(id_, store=False):
    return ast.Name(id=id_, ctx=ast.Store() if store else ast.Load())


def _const(value):
    """A constant as the parser would give it: tuples as Tuple nodes (a[0, 1])."""
    if isinstance(value, tuple):
        return ast.Tuple(elts=[_const(v) for v in value], ctx=ast.Load())
    return ast.Constant(value=value)


def _has_call(node):
    return isinstance(node, ast.AST) and any(isinstance(n, (ast.Call, ast.NamedExpr)) for n in ast.walk(node))


def _reads(node, name):
    return isinstance(node, ast.AST) and any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node))


def _is_reference(node, local_names):
    """NULL, or a global name or attribute chain (a function, a module, a global constant):
    kept as it is across blocks rather than stored in a variable, which could not hold it."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return node is NULL or (isinstance(node, ast.Name) and node.id not in local_names and not node.id.startswith("__"))


class _Decompiler:
    def __init__(self, func, name):
        self.func, self.name = func, name
        self.code = func.__code__
        self.instrs = [i for i in dis.get_instructions(self.code) if i.opname != "CACHE"]
        self.by_offset = {ins.offset: k for k, ins in enumerate(self.instrs)}
        self.ntemp = 0
        self.nloop = 0
        self.line = self.code.co_firstlineno
        self.local_names = set(self.code.co_varnames) | set(self.code.co_cellvars)

    # -------------------------------------------------------------- errors and positions
    def unsupported(self, ins, what):
        line = _line(ins) or self.line
        raise UnsupportedError(f"[{self.name}] rebuilding the kernel from its bytecode (its source is not "
                               f"available): {what} is not supported; define the function in a file or a "
                               f"notebook cell\n  File \"{self.code.co_filename}\", line {line}")

    def at(self, node, ins):
        """Gives `node` (and its children without a position) the line of instruction `ins`; the
        column is the instruction's offset, so that two call sites on a line differ."""
        line = _line(ins) or self.line
        self.line = line
        for n in ast.walk(node):
            if isinstance(n, (ast.stmt, ast.expr)) and not hasattr(n, "lineno"):
                n.lineno, n.end_lineno = line, line
                n.col_offset, n.end_col_offset = ins.offset, ins.offset + 1
        return node

    def temp(self, prefix="__t"):
        self.ntemp += 1
        return f"{prefix}{self.ntemp}"

    # -------------------------------------------------------------- blocks
    def blocks(self):
        """The offsets that start a basic block, in order."""
        starts = {0}
        for k, ins in enumerate(self.instrs):
            if _jump_target(ins) is not None:
                starts.add(_jump_target(ins))
            if (_jump_target(ins) is not None or ins.opname in _RETURNS or ins.opname == "RAISE_VARARGS") \
                    and k + 1 < len(self.instrs):
                starts.add(self.instrs[k + 1].offset)
        return sorted(s for s in starts if s in self.by_offset)

    def decompile(self):
        flags = self.code.co_flags
        if flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS) or self.code.co_kwonlyargcount \
                or self.func.__defaults__ or flags & (inspect.CO_GENERATOR | inspect.CO_COROUTINE):
            self.unsupported(self.instrs[0], "a parameter list other than plain positional names, or a generator")
        if getattr(self.code, "co_exceptiontable", b""):
            self.unsupported(self.instrs[0], "try/except, with or another exception handler")
        starts = self.blocks()
        self.index = {off: k for k, off in enumerate(starts)}
        ends = starts[1:] + [None]
        self.entry_stack = {0: []}
        bodies = {}
        order = list(starts)
        # A block's entry stack is set by the first jump to it that is read; sweeps in offset
        # order until no block is newly reached (one never reached is dead code).
        swept = True
        while swept:
            swept = False
            for start, end in zip(starts, ends):
                if start not in bodies and start in self.entry_stack:
                    bodies[start] = self.block(start, end)
                    swept = True
        params = list(self.code.co_varnames[:self.code.co_argcount])
        if len(starts) == 1:
            body = bodies[0]
        else:
            body = [self.at(ast.Assign(targets=[_name(_BLOCK, True)], value=ast.Constant(0)), self.instrs[0])]
            cases = []
            for start in order:
                if start not in bodies:
                    continue
                test = ast.Compare(left=_name(_BLOCK), ops=[ast.Eq()], comparators=[ast.Constant(self.index[start])])
                cases.append(self.at(ast.If(test=test, body=bodies[start] or [ast.Pass()], orelse=[]),
                                     self.instrs[self.by_offset[start]]))
            loop = ast.While(test=ast.Constant(True), body=cases, orelse=[])
            body.append(self.at(loop, self.instrs[0]))
        args = ast.arguments(posonlyargs=[], args=[ast.arg(arg=p) for p in params], vararg=None, kwonlyargs=[],
                             kw_defaults=[], kwarg=None, defaults=[])
        fn = ast.FunctionDef(name=self.name, args=args, body=body, decorator_list=[], returns=None,
                             type_comment=None)
        if "type_params" in ast.FunctionDef._fields:
            fn.type_params = []
        fn.lineno = fn.end_lineno = self.code.co_firstlineno
        fn.col_offset = fn.end_col_offset = 0
        for a in args.args:
            a.lineno = a.end_lineno = fn.lineno
            a.col_offset = a.end_col_offset = 0
        return ast.fix_missing_locations(fn)

    def goto(self, target, stack, ins):
        """Statements that leave this block for the one at `target` with `stack`."""
        stmts = []
        if target not in self.entry_stack:
            entry = []
            for depth, value in enumerate(stack):
                keep = isinstance(value, _Iter) or _is_reference(value, self.local_names)
                entry.append(value if keep else _name(f"__s{self.index[target]}_{depth}"))
            self.entry_stack[target] = entry
        entry = self.entry_stack[target]
        if len(entry) != len(stack):
            self.unsupported(ins, "a jump that leaves the stack at another depth than its target expects")
        for depth, (want, have) in enumerate(zip(entry, stack)):
            if isinstance(want, ast.Name) and want.id == f"__s{self.index[target]}_{depth}":
                stmts.append(self.at(ast.Assign(targets=[_name(want.id, True)], value=have), ins))
            elif want is have or (isinstance(want, ast.AST) and isinstance(have, ast.AST)
                                  and ast.dump(want) == ast.dump(have)):
                continue
            else:
                self.unsupported(ins, "a jump that leaves different objects on the stack")
        stmts.append(self.at(ast.Assign(targets=[_name(_BLOCK, True)], value=ast.Constant(self.index[target])), ins))
        stmts.append(self.at(ast.Continue(), ins))
        return stmts

    def branch(self, cond, if_true, if_false, stack, ins):
        return [self.at(ast.If(test=cond, body=self.goto(if_true, stack, ins),
                               orelse=self.goto(if_false, stack, ins)), ins)]

    # -------------------------------------------------------------- one block
    def block(self, start, end):
        stack = list(self.entry_stack[start])
        out = []
        k = self.by_offset[start]
        kw_names = ()
        while k < len(self.instrs) and (end is None or self.instrs[k].offset < end):
            ins = self.instrs[k]
            op = ins.opname
            k += 1
            nxt = self.instrs[k].offset if k < len(self.instrs) else None

            def emit(stmt):
                out.append(self.at(stmt, ins))

            def spill(pred):
                """Stores the stack entries `pred` selects in temporaries, before a statement
                that could change what they read (or run after a call they are)."""
                for j, v in enumerate(stack):
                    if isinstance(v, ast.expr) and not _is_reference(v, self.local_names) and pred(v):
                        t = self.temp()
                        emit(ast.Assign(targets=[_name(t, True)], value=v))
                        stack[j] = _name(t)

            if op in _SKIP:
                continue
            if op in ("LOAD_FAST", "LOAD_FAST_CHECK", "LOAD_DEREF", "LOAD_GLOBAL", "LOAD_NAME", "LOAD_CLASSDEREF"):
                if op == "LOAD_GLOBAL" and ins.arg & 1 and sys.version_info < (3, 13):
                    stack.append(NULL)
                stack.append(self.at(_name(ins.argval), ins))
                if op == "LOAD_GLOBAL" and ins.arg & 1 and sys.version_info >= (3, 13):
                    stack.append(NULL)
            elif op == "LOAD_FAST_LOAD_FAST":
                stack.extend(self.at(_name(n), ins) for n in ins.argval)
            elif op in ("LOAD_CONST", "LOAD_SMALL_INT"):
                stack.append(self.at(_const(ins.argval), ins))
            elif op == "PUSH_NULL":
                stack.append(NULL)
            elif op in ("STORE_FAST", "STORE_NAME", "STORE_DEREF", "STORE_GLOBAL"):
                if op != "STORE_FAST":
                    self.unsupported(ins, f"assigning a global or closure variable ('{ins.argval}')")
                self.store(ins.argval, stack.pop(), stack, spill, emit)
            elif op == "STORE_FAST_STORE_FAST":
                for n in ins.argval:
                    self.store(n, stack.pop(), stack, spill, emit)
            elif op == "STORE_FAST_LOAD_FAST":
                self.store(ins.argval[0], stack.pop(), stack, spill, emit)
                stack.append(self.at(_name(ins.argval[1]), ins))
            elif op in ("LOAD_ATTR", "LOAD_METHOD"):
                obj = stack.pop()
                method = op == "LOAD_METHOD" or (sys.version_info >= (3, 12) and ins.arg & 1)
                attr = self.at(ast.Attribute(value=obj, attr=ins.argval, ctx=ast.Load()), ins)
                if method:
                    stack.extend([attr, NULL] if sys.version_info >= (3, 13) else [NULL, attr])
                else:
                    stack.append(attr)
            elif op == "KW_NAMES":
                kw_names = ins.argval
            elif op in ("CALL", "CALL_KW"):
                if op == "CALL_KW":
                    names = stack.pop()
                    kw_names = tuple(e.value for e in names.elts) if isinstance(names, ast.Tuple) else names.value
                args = [stack.pop() for _ in range(ins.arg)][::-1]
                b, a = stack.pop(), stack.pop()
                if a is NULL:
                    callee = b
                elif b is NULL:
                    callee = a
                else:  # a bound method and its self, as 3.11 pushes them: the attribute was kept
                    callee, args = a, [b] + args
                npos = len(args) - len(kw_names)
                keywords = [ast.keyword(arg=n, value=v) for n, v in zip(kw_names, args[npos:])]
                stack.append(self.at(ast.Call(func=callee, args=args[:npos], keywords=keywords), ins))
                kw_names = ()
            elif op in bytecode_lists.OPS or (op == "CALL_INTRINSIC_1" and ins.argrepr in bytecode_lists.OPS):
                bytecode_lists.step(self, op if op in bytecode_lists.OPS else ins.argrepr, ins, stack, NULL)
            elif op == "CALL_INTRINSIC_1":
                if ins.argrepr != "INTRINSIC_UNARY_POSITIVE":
                    self.unsupported(ins, f"the instruction {op} ({ins.argrepr})")
                stack.append(self.at(ast.UnaryOp(op=ast.UAdd(), operand=stack.pop()), ins))
            elif op == "BINARY_OP":
                right, left = stack.pop(), stack.pop()
                sym = ins.argrepr.removesuffix("=")  # an in-place x += y is x = x + y in a kernel
                if sym not in _BINOPS:
                    self.unsupported(ins, f"the operator {ins.argrepr}")
                stack.append(self.at(ast.BinOp(left=left, op=_BINOPS[sym](), right=right), ins))
            elif op in _UNARY:
                stack.append(self.at(ast.UnaryOp(op=_UNARY[op](), operand=stack.pop()), ins))
            elif op == "COMPARE_OP":
                right, left = stack.pop(), stack.pop()
                sym = ins.argval if isinstance(ins.argval, str) else ins.argrepr
                sym = sym.removeprefix("bool(").removesuffix(")")
                stack.append(self.at(ast.Compare(left=left, ops=[_COMPARES[sym]()], comparators=[right]), ins))
            elif op in ("IS_OP", "CONTAINS_OP"):
                right, left = stack.pop(), stack.pop()
                cmp = {("IS_OP", 0): ast.Is, ("IS_OP", 1): ast.IsNot, ("CONTAINS_OP", 0): ast.In,
                       ("CONTAINS_OP", 1): ast.NotIn}[(op, ins.arg)]
                stack.append(self.at(ast.Compare(left=left, ops=[cmp()], comparators=[right]), ins))
            elif op == "BINARY_SUBSCR":
                index, obj = stack.pop(), stack.pop()
                stack.append(self.at(ast.Subscript(value=obj, slice=index, ctx=ast.Load()), ins))
            elif op == "BINARY_SLICE":
                stop, start_, obj = stack.pop(), stack.pop(), stack.pop()
                stack.append(self.at(ast.Subscript(value=obj, slice=_slice(start_, stop, None), ctx=ast.Load()), ins))
            elif op == "BUILD_SLICE":
                parts = [stack.pop() for _ in range(ins.arg)][::-1]
                stack.append(self.at(_slice(*(parts + [None] * (3 - len(parts)))), ins))
            elif op == "STORE_SUBSCR":
                index, obj, value = stack.pop(), stack.pop(), stack.pop()
                spill(_has_call)
                emit(ast.Assign(targets=[ast.Subscript(value=obj, slice=index, ctx=ast.Store())], value=value))
            elif op == "STORE_ATTR":  # r.a = v (a record's field)
                obj, value = stack.pop(), stack.pop()
                spill(_has_call)
                emit(ast.Assign(targets=[ast.Attribute(value=obj, attr=ins.argval, ctx=ast.Store())], value=value))
            elif op == "STORE_SLICE":
                stop, start_, obj, value = stack.pop(), stack.pop(), stack.pop(), stack.pop()
                spill(_has_call)
                emit(ast.Assign(targets=[ast.Subscript(value=obj, slice=_slice(start_, stop, None), ctx=ast.Store())],
                                value=value))
            elif op in ("BUILD_TUPLE", "BUILD_LIST"):
                elts = [stack.pop() for _ in range(ins.arg)][::-1] if ins.arg else []
                node = ast.Tuple(elts=elts, ctx=ast.Load()) if op == "BUILD_TUPLE" else ast.List(elts=elts, ctx=ast.Load())
                stack.append(self.at(node, ins))
            elif op == "UNPACK_SEQUENCE":
                seq = stack.pop()
                if isinstance(seq, ast.Tuple) and len(seq.elts) == ins.arg:
                    elts = seq.elts
                else:
                    if _has_call(seq):
                        t = self.temp()
                        emit(ast.Assign(targets=[_name(t, True)], value=seq))
                        seq = _name(t)
                    elts = [self.at(ast.Subscript(value=seq, slice=ast.Constant(j), ctx=ast.Load()), ins)
                            for j in range(ins.arg)]
                stack.extend(reversed(elts))
            elif op == "COPY":
                v = stack[-ins.arg]
                if isinstance(v, ast.expr) and not isinstance(v, (ast.Name, ast.Constant)) \
                        and not _is_reference(v, self.local_names):
                    t = self.temp()
                    emit(ast.Assign(targets=[_name(t, True)], value=v))
                    stack[-ins.arg] = v = _name(t)
                stack.append(v)
            elif op == "SWAP":
                stack[-1], stack[-ins.arg] = stack[-ins.arg], stack[-1]
            elif op in ("ROT_TWO", "ROT_THREE"):
                n = 2 if op == "ROT_TWO" else 3
                stack[-n:] = [stack[-1]] + stack[-n:-1]
            elif op in ("DUP_TOP",):
                stack.append(stack[-1])
            elif op in ("POP_TOP", "END_FOR", "POP_ITER"):
                for _ in range(-dis.stack_effect(ins.opcode, ins.arg) if ins.opcode < dis.HAVE_ARGUMENT
                               else 1):
                    v = stack.pop()
                    if _has_call(v):
                        emit(ast.Expr(value=v))
            elif op == "GET_ITER":
                stack.append(self.iterator(stack.pop(), ins, emit))
            elif op == "FOR_ITER":
                it = stack[-1]
                if not isinstance(it, _Iter):
                    self.unsupported(ins, "a for loop over something other than range(), enumerate(), zip() or an array")
                cond = ast.Compare(left=_name(it.index), ops=[ast.Lt() if it.step > 0 else ast.Gt()],
                                   comparators=[_name(it.stop)])
                exhausted = stack[:-1] if sys.version_info < (3, 12) else stack + [NULL]
                element = it.element(_name(it.index))
                bump = ast.AugAssign(target=_name(it.index, True), op=ast.Add(), value=ast.Constant(it.step))
                # The element is read before the index moves on.
                cur = self.temp("__e")
                body = [self.at(ast.Assign(targets=[_name(cur, True)], value=element), ins), self.at(bump, ins)]
                body += self.goto(nxt, stack + [_name(cur)], ins)
                out.append(self.at(ast.If(test=cond, body=body, orelse=self.goto(ins.argval, exhausted, ins)), ins))
                return out
            elif op in _RETURNS:
                value = _const(ins.argval) if op == "RETURN_CONST" else stack.pop()
                emit(ast.Return(value=None if isinstance(value, ast.Constant) and value.value is None else value))
                return out
            elif op == "RAISE_VARARGS":
                exc = stack.pop() if ins.arg else None
                emit(ast.Raise(exc=exc, cause=None))
                return out
            elif op == "LOAD_ASSERTION_ERROR":
                stack.append(self.at(_name("AssertionError"), ins))
            elif op in _UNCONDITIONAL:
                out.extend(self.goto(ins.argval, stack, ins))
                return out
            elif op.startswith("POP_JUMP") and "IF_" in op:
                v = stack.pop()
                kind = op.rsplit("IF_", 1)[1]
                if kind in ("NONE", "NOT_NONE"):
                    v = ast.Compare(left=v, ops=[ast.Is() if kind == "NONE" else ast.IsNot()],
                                    comparators=[ast.Constant(None)])
                    kind = "TRUE"
                true_to, false_to = (ins.argval, nxt) if kind == "TRUE" else (nxt, ins.argval)
                out.extend(self.branch(v, true_to, false_to, stack, ins))
                return out
            elif op in ("JUMP_IF_FALSE_OR_POP", "JUMP_IF_TRUE_OR_POP"):
                v = stack[-1]
                if _has_call(v):
                    t = self.temp()
                    emit(ast.Assign(targets=[_name(t, True)], value=v))
                    v = _name(t)
                jump, fall = [*stack[:-1], v], stack[:-1]
                test = v if op == "JUMP_IF_TRUE_OR_POP" else ast.UnaryOp(op=ast.Not(), operand=v)
                out.append(self.at(ast.If(test=test, body=self.goto(ins.argval, jump, ins),
                                          orelse=self.goto(nxt, fall, ins)), ins))
                return out
            else:
                self.unsupported(ins, f"the instruction {op}")
        if end is not None:  # falls through into the next block
            out.extend(self.goto(end, stack, self.instrs[k - 1]))
        return out

    def store(self, name, value, stack, spill, emit):
        spill(lambda v: _reads(v, name) or _has_call(v))
        if isinstance(value, _Iter) or value is NULL:
            raise UnsupportedError(f"[{self.name}] rebuilding the kernel from its bytecode: storing an iterator")
        emit(ast.Assign(targets=[_name(name, True)], value=value))

    def iterator(self, iterable, ins, emit):
        """The hidden index loop of `for x in iterable`."""
        self.nloop += 1
        n = self.nloop
        index, stop = f"__i{n}", f"__n{n}"

        def assign(name, value):
            emit(ast.Assign(targets=[_name(name, True)], value=value))

        def arrays(nodes):
            """Each array in a variable (read once), and the shortest first dimension."""
            names = []
            for j, a in enumerate(nodes):
                if isinstance(a, ast.Name):
                    names.append(a.id)
                else:
                    names.append(f"__a{n}_{j}")
                    assign(names[-1], a)
            lengths = [ast.Call(func=_name("len"), args=[_name(a)], keywords=[]) for a in names]
            assign(stop, lengths[0] if len(lengths) == 1 else ast.Call(func=_name("min"), args=lengths, keywords=[]))
            return names

        call = iterable if isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name) else None
        if call is not None and call.func.id == "range" and not call.keywords and 1 <= len(call.args) <= 3:
            a = call.args
            step = a[2] if len(a) == 3 else ast.Constant(1)
            if not (isinstance(step, ast.Constant) and isinstance(step.value, int) and step.value != 0) \
                    and not (isinstance(step, ast.UnaryOp) and isinstance(step.op, ast.USub)):
                self.unsupported(ins, "range() with a step that is not a constant")
            if isinstance(step, ast.UnaryOp):
                step = ast.Constant(-step.operand.value)
            assign(index, a[0] if len(a) > 1 else ast.Constant(0))
            assign(stop, a[1] if len(a) > 1 else a[0])
            return _Iter(index, stop, step.value, lambda i: i)
        assign(index, ast.Constant(0))
        if call is not None and call.func.id == "enumerate" and len(call.args) == 1 and not call.keywords:
            (arr,) = arrays(call.args)
            return _Iter(index, stop, 1, lambda i: ast.Tuple(elts=[i, ast.Subscript(value=_name(arr), slice=i,
                                                                                       ctx=ast.Load())], ctx=ast.Load()))
        if call is not None and call.func.id == "zip" and call.args and not call.keywords:
            names = arrays(call.args)
            return _Iter(index, stop, 1, lambda i: ast.Tuple(
                elts=[ast.Subscript(value=_name(a), slice=i, ctx=ast.Load()) for a in names], ctx=ast.Load()))
        if isinstance(iterable, (ast.Name, ast.Attribute, ast.Subscript)):
            (arr,) = arrays([iterable])
            return _Iter(index, stop, 1, lambda i: ast.Subscript(value=_name(arr), slice=i, ctx=ast.Load()))
        self.unsupported(ins, "a for loop over something other than range(), enumerate(), zip() or an array")


def _slice(lower, upper, step):
    def part(p):
        return None if p is None or (isinstance(p, ast.Constant) and p.value is None) else p
    return ast.Slice(lower=part(lower), upper=part(upper), step=part(step))


def _jump_target(ins):
    op = ins.opname
    if op in _UNCONDITIONAL or op == "FOR_ITER" or (op.startswith("POP_JUMP") and "IF_" in op) \
            or op in ("JUMP_IF_FALSE_OR_POP", "JUMP_IF_TRUE_OR_POP"):
        return ins.argval
    return None


def _line(ins):
    pos = getattr(ins, "positions", None)
    if pos is not None and pos.lineno is not None:
        return pos.lineno
    return ins.starts_line if isinstance(ins.starts_line, int) and not isinstance(ins.starts_line, bool) else None


def decompile(func, name):
    """The ast.FunctionDef of `func`, rebuilt from its bytecode."""
    return _Decompiler(func, name).decompile()
