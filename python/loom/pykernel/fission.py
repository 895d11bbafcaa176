"""Loop fission of a Python kernel for the CPU emulator (docs/PYTHON_KERNELS.md, "Barriers on
the CPU").

The emulator runs a kernel with `cuda.syncthreads()` as one fiber per thread, switching at
every barrier: a 256-thread block of a tree reduction costs thousands of stack switches.
Where the barriers sit at places every thread of the block reaches together, the same kernel
can run as loops instead: the code between two barriers once for each thread of the block in
turn, then the next stretch. This module writes that form of a translated kernel, a C++
function of the kernel's parameters that the emulator calls once per block
(`LOOM_EMU_WHOLE_BLOCK`, loom_cuda_emu.h); NVRTC never sees it.

- Each thread's variables live in a struct of their own, one per thread (`loom_thread_locals`);
  a stretch binds the thread's fields by reference under the names the translated statements
  use, so the statements are the kernel's own, translated once more.
- A barrier may sit at the kernel's top level, or inside `if`, `while` and `for ... in
  range()` statements whose tests and bounds are the same for every thread of the block
  (uniform, below); such a statement runs once for the block, its test read from the first
  thread that has not returned.
- A `return` in a stretch ends its thread: later stretches skip it, as a GPU's barriers do not
  wait for threads that have exited.
- Anything else keeps the fibers: a barrier inside a loop with `break`/`continue`, in a device
  function, under a test that may differ between threads; warp collectives, the counting
  barriers, cooperative groups.

A value is uniform when it is built from constants, the kernel's scalar and array arguments,
the array's shapes, blockIdx, blockDim, gridDim, warpsize, and variables that are only ever
assigned uniform values at uniform places; a read of an array element, threadIdx, laneid,
cuda.grid() and calls of device functions are not (a fixpoint over the kernel's statements).
"""
import ast
import builtins
import math
import re

import numpy as np

from . import stubs
from . import types as T
from .errors import TypingError
from .values import Value, cast

# The kernel's C text may name these only in the fiber form (the emulator's collectives).
_COLLECTIVES = re.compile(r"__syncthreads_(count|and|or)|__syncwarp|__shfl|__ballot|__all_sync|__any_sync|"
                          r"__uni_sync|__match_a|__activemask|this_grid|this_thread_block|cooperative_groups")
_UNIFORM_INTRINSICS = (stubs.blockIdx, stubs.blockDim, stubs.gridDim, stubs.warpsize)
_PURE_BUILTINS = (min, max, abs, int, float, bool, len, round, range)
# Calls whose value is the same view in every thread (a local array's data differs, but only
# its elements are read per thread, and those are never uniform).
_ARRAY_MAKERS = (stubs.shared.array, stubs.local.array, stubs.const.array_like)


def _resolve(tr, node):
    """(True, object) for a Name or attribute chain that names a global object (cuda.blockIdx,
    math.sqrt, np.float32), else (False, None): a local, or not a plain chain."""
    if isinstance(node, ast.Name):
        if node.id in tr.locals:
            return False, None
        if node.id in tr.constants:
            return True, tr.constants[node.id]
        return tr.src.lookup(node.id)
    if isinstance(node, ast.Attribute):
        found, obj = _resolve(tr, node.value)
        if found and not isinstance(obj, stubs.Dim3Intrinsic):
            try:
                return True, getattr(obj, node.attr)
            except AttributeError:
                return False, None
    return False, None


def _is_one_of(obj, objects):
    """By identity: `in` would compare with ==, which a NumPy array answers elementwise."""
    return any(obj is o for o in objects)


def _is_call_of(tr, node, obj):
    if not isinstance(node, ast.Call):
        return False
    found, f = _resolve(tr, node.func)
    return found and f is obj


def _is_barrier(tr, node):
    return isinstance(node, ast.Expr) and _is_call_of(tr, node.value, stubs.syncthreads) \
        and not node.value.args and not node.value.keywords


def _has_barrier(tr, node):
    return any(_is_call_of(tr, n, stubs.syncthreads) for n in ast.walk(node))


def _own_escapes(body):
    """Whether a loop body has a break or continue of its own (not of a loop inside it)."""
    stack = list(body)
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.Break, ast.Continue)):
            return True
        if isinstance(n, (ast.For, ast.While)):
            stack.extend(n.orelse)  # a loop's else belongs to the outer loop's flow
            continue
        if isinstance(n, (ast.FunctionDef, ast.Lambda)):
            continue
        stack.extend(ast.iter_child_nodes(n))
    return False


class _Uniformity:
    """Which local variables may differ between the threads of a block (`varying`)."""

    def __init__(self, tr):
        self.tr = tr
        self.varying = set()

    def run(self, body):
        for n in ast.walk(self.tr.src.tree):  # a walrus anywhere: its name differs per thread for all we know
            if isinstance(n, ast.NamedExpr):
                self.varying.add(n.target.id)
        while True:
            before = len(self.varying)
            self.block(body, False)
            if len(self.varying) == before:
                return self

    def uniform(self, node):
        tr = self.tr
        if isinstance(node, ast.Constant):
            return True
        if isinstance(node, ast.Name):
            return node.id not in self.varying if node.id in tr.locals else _resolve(tr, node)[0]
        if isinstance(node, ast.Attribute):
            found, obj = _resolve(tr, node.value)
            if found and isinstance(obj, stubs.Dim3Intrinsic):
                return _is_one_of(obj, _UNIFORM_INTRINSICS)
            found, obj = _resolve(tr, node)
            if found:  # a global object (np.pi, a module's constant): uniform, but for laneid
                return _is_one_of(obj, _UNIFORM_INTRINSICS) or not (obj is stubs.laneid
                                                                     or isinstance(obj, stubs.Dim3Intrinsic))
            return node.attr in ("shape", "strides", "ndim", "size", "real", "imag") and self.uniform(node.value)
        if isinstance(node, ast.Subscript):
            base = node.value
            shape = isinstance(base, ast.Attribute) and base.attr in ("shape", "strides")
            tup = isinstance(base, ast.Name) and isinstance(tr.vars.get(base.id), T.Tuple)
            return (shape or tup) and self.uniform(base) and self.uniform(node.slice)
        if isinstance(node, (ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare, ast.IfExp, ast.Tuple)):
            return all(self.uniform(c) for c in ast.iter_child_nodes(node) if isinstance(c, ast.expr))
        if isinstance(node, ast.Call):
            found, obj = _resolve(tr, node.func)
            if found and _is_one_of(obj, _ARRAY_MAKERS):
                return True
            name = getattr(obj, "__name__", None)
            pure = found and (obj is stubs.gridsize or _is_one_of(obj, _PURE_BUILTINS)
                              or (isinstance(name, str) and getattr(math, name, None) is obj)
                              or isinstance(obj, np.ufunc) or (isinstance(obj, type) and issubclass(obj, np.number)))
            return pure and all(self.uniform(a) for a in node.args) and all(self.uniform(k.value) for k in node.keywords)
        return False

    def assign(self, target, uniform):
        for n in ast.walk(target):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) and not uniform:
                self.varying.add(n.id)

    def block(self, stmts, varying_ctx):
        for s in stmts:
            self.stmt(s, varying_ctx)

    def stmt(self, s, ctx):
        if isinstance(s, ast.Assign):
            for t in s.targets:
                self.assign(t, not ctx and self.uniform(s.value))
        elif isinstance(s, ast.AnnAssign):
            self.assign(s.target, not ctx and (s.value is None or self.uniform(s.value)))
        elif isinstance(s, ast.AugAssign):
            self.assign(s.target, not ctx and self.uniform(s.value) and self.uniform(ast.Name(s.target.id))
                        if isinstance(s.target, ast.Name) else True)
        elif isinstance(s, ast.For):
            ok = not ctx and self.uniform_range(s) and not _own_escapes(s.body) and not _returns(s.body)
            self.assign(s.target, ok)
            self.block(s.body, not ok)
            self.block(s.orelse, not ok)
        elif isinstance(s, ast.While):
            ok = not ctx and self.uniform(s.test) and not _own_escapes(s.body) and not _returns(s.body)
            self.block(s.body, not ok)
            self.block(s.orelse, not ok)
        elif isinstance(s, ast.If):
            ok = not ctx and self.uniform(s.test)
            self.block(s.body, not ok)
            self.block(s.orelse, not ok)
        else:  # with, try, match: their bodies as under a varying test
            for field in ("body", "orelse", "finalbody"):
                self.block(getattr(s, field, []) or [], True)
            for h in getattr(s, "handlers", []) or []:
                self.block(h.body, True)

    def uniform_range(self, s):
        it = s.iter
        if not (_is_call_of(self.tr, it, range) and "range" not in self.tr.locals and isinstance(s.target, ast.Name)):
            return False
        return not it.keywords and all(self.uniform(a) for a in it.args)


def _returns(body):
    return any(isinstance(n, ast.Return) for s in body for n in ast.walk(s))


class _NotFissionable(Exception):
    pass


class _Writer:
    """Writes the whole-block form through the translator's own statement emitter."""

    def __init__(self, tr, uniformity, fields):
        self.tr, self.u, self.fields = tr, uniformity, fields

    def check(self, stmts):
        """Raises _NotFissionable unless every barrier of `stmts` sits where the block's
        threads arrive together."""
        for s in stmts:
            if not _has_barrier(self.tr, s) or _is_barrier(self.tr, s):
                continue
            if isinstance(s, ast.If) and self.u.uniform(s.test):
                self.check(s.body)
                self.check(s.orelse)
            elif isinstance(s, ast.While) and not s.orelse and self.u.uniform(s.test) and not _own_escapes(s.body):
                self.check(s.body)
            elif isinstance(s, ast.For) and not s.orelse and self.u.uniform_range(s) and not _own_escapes(s.body) \
                    and 1 <= len(s.iter.args) <= 3:
                self.check(s.body)
            else:
                raise _NotFissionable

    def bind(self, thread):
        tr = self.tr
        tr.emit(f"loom_thread_locals& loom_fl = {thread};")
        for f in self.fields:
            tr.emit(f"[[maybe_unused]] auto& {f} = loom_fl.{f};")

    def stretch(self, emit_statements, may_return):
        """One stretch between barriers: the statements once for each live thread."""
        tr = self.tr
        tr.emit("for (unsigned int loom_ft = 0; loom_ft < loom_fn; ++loom_ft) {")
        tr.depth += 1
        tr.emit("if (loom_fl_all[loom_ft].loom_exited) continue;")
        tr.emit("loom_emu::fission_thread(loom_ft);")
        self.bind("loom_fl_all[loom_ft]")
        if may_return:  # the kernel's `return;` leaves the lambda: the thread has exited
            tr.emit("bool loom_returned = true;")
            tr.emit("[&] {")
            tr.depth += 1
            emit_statements()
            tr.emit("loom_returned = false;")
            tr.depth -= 1
            tr.emit("}();")
            tr.emit("loom_fl.loom_exited = loom_returned;")
        else:
            emit_statements()
        tr.depth -= 1
        tr.emit("}")

    def uniform_lambda(self, emit_body, when_none, close):
        """A lambda called in place that evaluates a uniform value in the first live thread's
        variables; `close` follows its call ("}()" + close)."""
        tr = self.tr
        tr.emit("[&] {")
        tr.depth += 1
        tr.emit("loom_thread_locals* const loom_fp = loom_first();")
        tr.emit(f"if (!loom_fp) return {when_none};")
        self.bind("*loom_fp")
        emit_body()
        tr.depth -= 1
        tr.emit("}()" + close)

    def condition(self, test):
        def body():
            mark = len(self.tr.out)
            cond = self.tr.truth(test)
            if len(self.tr.out) != mark:  # the test needed statements of its own: keep the fibers
                raise _NotFissionable
            self.tr.emit(f"return static_cast<bool>({cond});")
        return body

    def body(self, stmts):
        pending = []

        def flush():
            if pending:
                run = list(pending)
                self.stretch(lambda: self.tr.block(run), _returns(run))
                pending.clear()
        for s in stmts:
            if _is_barrier(self.tr, s):
                flush()
            elif not _has_barrier(self.tr, s):
                pending.append(s)
            else:
                flush()
                self.control(s)
        flush()

    def control(self, s):
        tr = self.tr
        tr.line_directive(s)
        if isinstance(s, ast.If):
            test = tr.expr(s.test)
            if test.weak and test.const is not None:  # as stmt_If: a constant test's other branch is dead
                self.body(s.body if test.const else s.orelse)
                return
        if isinstance(s, (ast.If, ast.While)):
            tr.emit(("if" if isinstance(s, ast.If) else "while") + " (")
            tr.depth += 1
            self.uniform_lambda(self.condition(s.test), "false", ") {")
            self.body(s.body)
            tr.depth -= 1
            if isinstance(s, ast.If) and s.orelse:
                tr.emit("} else {")
                tr.depth += 1
                self.body(s.orelse)
                tr.depth -= 1
            tr.emit("}")
            return
        self.range_loop(s)

    def range_loop(self, s):
        """for name in range(...) around barriers: the bounds once, from the first live thread;
        each step sets every live thread's `name`."""
        tr = self.tr
        args = [tr.scalar(a, "range() argument") for a in s.iter.args]
        start = args[0] if len(args) > 1 else Value("0", T.INT64, "int", 0, nonneg=True)
        stop = args[1] if len(args) > 1 else args[0]
        step = args[2] if len(args) > 2 else Value("1", T.INT64, "int", 1, nonneg=True)
        strong = [a.type for a in (start, stop, step) if not a.weak]  # the type stmt_For gives the loop
        t = strong[0] if strong else T.INT64
        for x in strong[1:]:
            t = T.promote(t, x)
        if t.is_bool:
            t = T.INT64
        counter, start_c, stop_c, step_c = tr.temp(), tr.temp(), tr.temp(), tr.temp()
        tr.emit("{")
        tr.depth += 1
        tr.emit(f"{t.c} {start_c}{{}}, {stop_c}{{}}, {step_c}{{}};")
        tr.emit("const bool loom_live = ")
        tr.depth += 1

        def bounds():
            tr.emit(f"{start_c} = {cast(start, t)};")
            tr.emit(f"{stop_c} = {cast(stop, t)};")
            tr.emit(f"{step_c} = {cast(step, t)};")
            tr.emit("return true;")
        self.uniform_lambda(bounds, "false", ";")
        tr.depth -= 1
        if step.const is not None:
            cmp = f"{counter} < {stop_c}" if step.const > 0 else f"{counter} > {stop_c}"
        else:
            cmp = f"({step_c} > 0 ? {counter} < {stop_c} : {counter} > {stop_c})"
        tr.emit(f"if (loom_live) for ({t.c} {counter} = {start_c}; {cmp}; {counter} += {step_c}) {{")
        tr.depth += 1
        nonneg = start.nonneg and step.const is not None and step.const > 0
        self.stretch(lambda: tr.assign_name(s.target, s.target.id, Value(counter, t, nonneg=nonneg)), False)
        self.body(s.body)
        tr.depth -= 1
        tr.emit("}")
        tr.depth -= 1
        tr.emit("}")


def whole_block_form(tr, params, rebuilt, thread_decls, block_decls, reassigned, module_text):
    """The C++ text of kernel `tr.cname_fn`'s whole-block form and its LOOM_EMU_WHOLE_BLOCK
    line, inside #ifdef LOOM_EMU_WHOLE_BLOCK; "" where its barriers need fibers.
    params: the kernel's C parameters; rebuilt: the lines that rebuild parameters passed
    flattened; thread_decls: [(field name, declaration)] of each thread's variables (locals,
    local arrays, widened parameters); block_decls: the block's own declarations (shared
    arrays); reassigned: [(field, C initializer)] of the widened parameters; module_text: the
    C text of the module's other parts (device functions, linked code)."""
    tree = tr.src.tree
    if not any(_has_barrier(tr, s) for s in tree.body) or _COLLECTIVES.search(module_text):
        return ""
    if "__syncthreads" in module_text:  # a barrier inside a device function
        return ""
    saved = tr.out, tr.depth
    try:
        w = _Writer(tr, _Uniformity(tr).run(tree.body), [f for f, _ in thread_decls])
        w.check(tree.body)
        tr.out, tr.depth = [], 1
        w.body(tree.body)
        body = tr.out
    except (_NotFissionable, TypingError):  # TypingError: UnsupportedError too; the fibers need no second look
        return ""
    finally:
        tr.out, tr.depth = saved
    name = tr.cname_fn + "_whole_block"
    lines = ["#ifdef LOOM_EMU_WHOLE_BLOCK",
             f"// The CPU emulator's form of {tr.cname_fn}: its code between barriers as loops over the",
             "// block's threads (python/loom/pykernel/fission.py).",
             f"static void {name}({', '.join(params)}) {{"]
    lines += rebuilt
    lines += ["  " + d for d in block_decls]
    lines.append("  struct loom_thread_locals {")
    lines.append("    bool loom_exited;")
    lines += ["    " + d for _, d in thread_decls]
    lines.append("  };")
    lines.append("  const unsigned int loom_fn = loom_emu::fission_threads();")
    lines.append("  loom_thread_locals* const loom_fl_all = loom_emu::fission_locals<loom_thread_locals>(loom_fn);")
    lines.append("  auto loom_first = [&]() -> loom_thread_locals* {  // the first thread that has not returned")
    lines.append("    for (unsigned int t = 0; t < loom_fn; ++t)")
    lines.append("      if (!loom_fl_all[t].loom_exited) return loom_emu::fission_thread(t), &loom_fl_all[t];")
    lines.append("    return nullptr;")
    lines.append("  };")
    for field, init in reassigned:
        lines.append(f"  for (unsigned int t = 0; t < loom_fn; ++t) loom_fl_all[t].{field} = {init};")
    lines += body
    lines.append("}")
    lines.append(f"LOOM_EMU_WHOLE_BLOCK({tr.cname_fn}, {name})")
    lines.append("#endif")
    return "\n".join(lines)
