"""One Python function (a kernel or a device function) translated for one list of argument
types: types found by iterating over the body until every variable's type is stable,
then C written by the last pass (DESIGN.md §4; docs/PYTHON_KERNELS.md)."""
import ast
import operator
import types as pytypes

import numpy as np

from .. import _loom
from . import array_reductions, bf16, complexfuncs, cooperative, fp16, intrinsics, mathfuncs, stubs  # noqa: F401 (they register handlers)
from . import array_methods, enums, fission, overloads
from . import types as T
from .errors import TypingError, UnsupportedError, raise_at
from .foreign import ForeignFunction
from .function import KernelFunction
from .translate_expr import ExprMixin, Pending
from .translate_stmt import StmtMixin
from .values import Value, cast, literal

_MAX_PASSES = 40


def _assigned_names(tree):
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                for n in ast.walk(t):
                    if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                        names.add(n.id)
    return names


def _constant_locals(tree, params):
    """{name: int} of the variables assigned once in the function, by `name = <integer
    literal>`: reading one gives that constant (Numba's typing sees a literal there too), so
    `N = 100; cuda.shared.array(N, int32)` has a constant shape."""
    stores, consts = {}, {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            stores[node.id] = stores.get(node.id, 0) + 1
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            v = node.value
            neg = isinstance(v, ast.UnaryOp) and isinstance(v.op, ast.USub)
            c = v.operand if neg else v
            if isinstance(c, ast.Constant) and type(c.value) is int:
                consts[node.targets[0].id] = -c.value if neg else c.value
    return {n: c for n, c in consts.items() if stores.get(n) == 1 and n not in params}


# The operator module's functions as the expressions they stand for (operator.add(a, b) is a + b).
_OPERATOR_NODES = {
    **{getattr(operator, n): ("bin", op) for n, op in (
        ("add", ast.Add), ("sub", ast.Sub), ("mul", ast.Mult), ("truediv", ast.Div), ("floordiv", ast.FloorDiv),
        ("mod", ast.Mod), ("pow", ast.Pow), ("and_", ast.BitAnd), ("or_", ast.BitOr), ("xor", ast.BitXor),
        ("lshift", ast.LShift), ("rshift", ast.RShift), ("iadd", ast.Add), ("isub", ast.Sub), ("imul", ast.Mult),
        ("itruediv", ast.Div), ("ifloordiv", ast.FloorDiv), ("imod", ast.Mod), ("ipow", ast.Pow))},
    **{getattr(operator, n): ("cmp", op) for n, op in (
        ("lt", ast.Lt), ("le", ast.LtE), ("gt", ast.Gt), ("ge", ast.GtE), ("eq", ast.Eq), ("ne", ast.NotEq))},
    **{getattr(operator, n): ("unary", op) for n, op in (
        ("neg", ast.USub), ("pos", ast.UAdd), ("invert", ast.Invert), ("inv", ast.Invert), ("not_", ast.Not))},
    pow: ("bin", ast.Pow),  # the builtin pow(x, y) is x ** y (pow(x, y, mod) is refused)
}


def _operator_node(kind, op, node):
    """The AST of operator.<fn>(...) written as its operator, placed at the call."""
    a = node.args
    if kind == "unary":
        new = ast.UnaryOp(op=op(), operand=a[0])
    elif kind == "bin":
        new = ast.BinOp(left=a[0], op=op(), right=a[1])
    else:
        new = ast.Compare(left=a[0], ops=[op()], comparators=[a[1]])
    return ast.copy_location(new, node)


def _flat_params(t, name):
    """(C parameters, brace initializer) of a kernel's tuple parameter passed flattened."""
    if not isinstance(t, T.Tuple):
        return [f"{t.c} {name}"], name
    decls, inits = [], []
    for k, item in enumerate(t.items):
        d, init = _flat_params(item, f"{name}_{k}")
        decls += d
        inits.append(init)
    return decls, "{" + ", ".join(inits) + "}"


class FunctionTranslator(ExprMixin, StmtMixin):
    def __init__(self, src, argtypes, module, kind, cname, constants=None):
        self.src, self.module, self.kind, self.cname_fn = src, module, kind, cname
        if len(argtypes) != len(src.params):
            raise TypingError(f"[{src.name}] takes {len(src.params)} argument(s) but {len(argtypes)} were given")
        self.argtypes = list(argtypes)
        # A device function's parameters that its call site passed a compile-time object (a
        # dtype, a function, a module): each stands for that object in the body, as a global
        # would, and is no parameter of the C function (one specialisation per object).
        self.constants = dict(constants or {})
        # A parameter may be reassigned: it keeps one type, unified with the argument's
        # (a widened one is declared as a local initialised from the argument).
        self.locals = _assigned_names(src.tree) | set(src.params)
        self.constant_locals = _constant_locals(src.tree, src.params)
        self.launch_bounds = None  # a kernel's __launch_bounds__ (compiler.launch_bounds), set by its translator
        typed = [(p, t) for p, t in zip(src.params, argtypes) if p not in self.constants]
        self.vars = dict(typed)
        self.nonneg = {p: isinstance(t, T.Scalar) and t.is_int and not t.is_signed for p, t in typed}
        self.ret = None
        self.filename_c = src.filename.replace("\\", "\\\\").replace('"', '\\"')
        self.strict = False

    # ------------------------------------------------------------------ plumbing
    def fail(self, node, message, cls=TypingError):
        raise_at(cls, self.src.location(node) if node is not None else None, self.src.name, message)

    def unsupported(self, node, message):
        self.fail(node, message, UnsupportedError)

    def cname(self, name):
        return "py_" + name

    def temp(self):
        self.ntemp += 1
        return f"loom_t{self.ntemp}"

    def emit(self, line, raw=False):
        self.out.append(line if raw else "  " * self.depth + line)

    def indented(self, stmts):
        self.depth += 1
        self.block(stmts)
        self.depth -= 1

    def buffer(self, node, prefix, decl):
        """A local or shared buffer of one call site, declared at the top of the function."""
        key = (node.lineno, node.col_offset)
        if key not in self.buffers:
            name = f"{prefix}_{len(self.buffers)}"
            self.buffers[key] = (name, decl(name))
        return self.buffers[key][0]

    # ------------------------------------------------------------------ the passes
    def translate(self):
        """Returns (C definition, return type)."""
        self.buffers = {}
        for _ in range(_MAX_PASSES):
            self.changed = self.pending = False
            self.run_pass()
            if not self.changed and not self.pending:
                break
            if not self.changed and self.pending:
                self.strict = True
                self.run_pass()
                break
        else:
            self.fail(self.src.tree, "the types of the variables do not settle (a bug of loom's translator)")
        ret = self.ret if self.ret is not None else T.NONE
        if self.kind == "kernel" and not isinstance(ret, T.NoneType):
            self.fail(self.src.tree, "a kernel cannot return a value")
        return self.definition(ret), ret

    def run_pass(self):
        self.out, self.depth, self.ntemp = [], 1, 0
        self.block(self.src.tree.body)

    def definition(self, ret):
        params, rebuilt = self.c_parameters()
        lines = [f'#line {self.src.tree.lineno} "{self.filename_c}"']
        if self.kind == "kernel":
            lb = f"__launch_bounds__({', '.join(map(str, self.launch_bounds))}) " if self.launch_bounds else ""
            head = f'extern "C" __global__ void {lb}{self.cname_fn}({", ".join(params)})'
        else:
            if isinstance(ret, T.Tuple):
                self.module.tuple_struct(ret)
            head = f"static __device__ __forceinline__ {'void' if isinstance(ret, T.NoneType) else ret.c} " \
                   f"{self.cname_fn}({', '.join(params)})"
        lines.append(head + " {")
        lines.extend(rebuilt)
        for name, decl in self.buffers.values():
            lines.append("  " + decl)
        for field, t, init in self.reassigned_locals():
            lines.append(f"  {t.c} {field} = {init};")
        for field, t in self.local_variables():
            lines.append(f"  {t.c} {field}{{}};")
        lines.extend(self.out)
        lines.append("}")
        return "\n".join(lines)

    def whole_block_form(self, module_text):
        """The kernel's loop-fissioned form for the CPU emulator (fission.py), or ""."""
        params, rebuilt = self.c_parameters()
        shared = [d for n, d in self.buffers.values() if n.startswith("loom_shared")]
        per_thread = [(n, d) for n, d in self.buffers.values() if not n.startswith("loom_shared")]
        reassigned = self.reassigned_locals()
        per_thread += [(f, f"{t.c} {f};") for f, t, _ in reassigned]
        per_thread += [(f, f"{t.c} {f};") for f, t in self.local_variables()]
        return fission.whole_block_form(self, params, rebuilt, per_thread, shared,
                                        [(f, init) for f, _, init in reassigned], module_text)

    def reassigned_locals(self):
        """[(C name, type, initializer)] of the parameters declared as wider locals."""
        out = []
        for p in self.reassigned_params():
            t, arg = self.vars[p], Value(self.cname(p) + "_arg", self.argtypes[self.src.params.index(p)])
            out.append((self.cname(p), t, cast(arg, t) if isinstance(t, T.Scalar) else arg.code))
        return out

    def local_variables(self):
        """[(C name, type)] of the function's local variables (declared at its top)."""
        out = []
        for name in sorted(self.locals - set(self.src.params)):
            t = self.vars.get(name)
            if t is None:
                continue
            if isinstance(t, T.Tuple):
                self.module.tuple_struct(t)
            out.append((self.cname(name), t))
        return out

    def c_parameters(self):
        """(C parameters, lines that rebuild the parameters passed in another form)."""
        params, rebuilt = [], []
        for p, t in zip(self.src.params, self.argtypes):
            if p in self.constants:
                continue
            flat = t.value_type if isinstance(t, T.EnumMember) else t  # an enum member: its value
            if isinstance(flat, T.Tuple):
                self.module.tuple_struct(flat)
                if self.kind == "kernel":  # passed flattened, one parameter per leaf (dispatcher.py)
                    decls, init = _flat_params(flat, self.cname(p) + "_in")
                    params += decls
                    name = self.cname(p) + ("_arg" if p in self.reassigned_params() else "")
                    rebuilt.append(f"  {t.c} {name} = {t.c}{init};")
                    continue
            if isinstance(t, T.Pointer) and self.kind == "kernel":  # Numba's CPointer: an address (a uint64)
                params.append(f"unsigned long long {self.cname(p)}_addr")
                rebuilt.append(f"  {t.c} {self.cname(p)} = reinterpret_cast<{t.c}>({self.cname(p)}_addr);")
                continue
            if isinstance(t, T.Record) and self.kind == "kernel":  # its bytes, as a uint8 array (records.py)
                params.append(f"LoomArray<unsigned char, 1, true> {self.cname(p)}_in")
                rebuilt.append(f"  unsigned char* {self.cname(p)} = {self.cname(p)}_in.data;")
                continue
            params.append(f"{t.c} {self.cname(p)}_arg" if p in self.reassigned_params() else f"{t.c} {self.cname(p)}")
        return params, rebuilt

    def reassigned_params(self):
        """Parameters whose type widened (a reassignment): declared as a local of the wider type."""
        return [p for p, t in zip(self.src.params, self.argtypes) if p not in self.constants and self.vars.get(p) != t]

    # ------------------------------------------------------------------ names and objects
    def from_python(self, node, obj, name):
        """A global, closure variable or module attribute as a compile-time Value."""
        if enums.is_member(obj):  # before numbers: an IntEnum member is an int
            return enums.constant(self, node, obj)
        if enums.is_enum_class(obj):
            return Value(None, T.Opaque("enumclass", obj), obj=obj)
        if isinstance(obj, (bool, int, float, np.generic)) and not isinstance(obj, np.ndarray):
            v = literal(obj)
            if v is None:
                self.fail(node, f"'{name}' is {obj!r}, which no kernel type holds")
            return v
        if isinstance(obj, tuple):
            items = [self.from_python(node, o, name) for o in obj]
            return Value(None, T.Tuple([i.type for i in items]), items=items,
                         const=tuple(i.const for i in items) if all(i.const is not None for i in items) else None)
        if isinstance(obj, pytypes.ModuleType):
            return Value(None, T.Opaque("module", obj), obj=obj)
        v = intrinsics.value_of(self, node, obj)
        if v is not None:
            return v
        if isinstance(obj, stubs.Dim3Intrinsic):
            return Value(None, T.Opaque("dim3", obj), obj=obj)
        if isinstance(obj, stubs.Namespace):
            return Value(None, T.Opaque("namespace", obj), obj=obj)
        try:
            known = obj in intrinsics.HANDLERS or obj in mathfuncs.HANDLERS
        except TypeError:  # unhashable
            known = False
        if known:
            return Value(None, T.Opaque("function", obj), obj=obj)
        if isinstance(obj, np.ndarray):
            return intrinsics.constant_array(self, node, obj)
        if isinstance(obj, _loom.ndarray):
            return intrinsics.device_array_global(self, node, obj)
        if isinstance(obj, ForeignFunction):  # cuda.declare_device
            return Value(None, T.Opaque("foreign", obj), obj=obj)
        if type(obj).__module__.startswith("cffi") and hasattr(obj, "from_buffer"):  # a cffi.FFI()
            return Value(None, T.Opaque("ffi", obj), obj=obj)
        if isinstance(obj, KernelFunction):  # the objects @cuda.jit makes
            return Value(None, T.Opaque("device" if obj.device else "kernel", obj), obj=obj)
        if isinstance(obj, (type, np.dtype)) or type(obj).__module__.startswith(("numba", "loom")):
            dt = T.dtype_name(obj)
            if dt is not None:
                return Value(None, T.Opaque("dtype", dt), obj=dt)
        if callable(obj):
            return Value(None, T.Opaque("pyfunction", obj), obj=obj)
        self.unsupported(node, f"Untyped global name '{name}': '{name}' is a {type(obj).__name__}; kernels can use "
                         "numbers, tuples, NumPy arrays, modules (math, numpy, cuda) and device functions from outside")

    def compile_time_object(self, node):
        """A keyword argument Numba requires to be a compile-time constant (alignment=): the
        Python object of a literal, global or closure variable (None too), else the value it
        evaluates to (whose .const the handler checks)."""
        if isinstance(node, ast.Constant):
            return Value(None, T.Opaque("object", node.value), obj=node.value)
        if isinstance(node, ast.Name) and node.id not in self.locals and node.id not in self.constants:
            found, obj = self.src.lookup(node.id)
            if found:
                return Value(None, T.Opaque("object", obj), obj=obj)
        return self.expr(node)

    def float_constant(self, node):
        try:
            value = float(node.value)
        except ValueError:
            self.fail(node, f"float({node.value!r}): the text is not a number")
        return literal(value)

    def opaque_attribute(self, node, base, attr):
        kind, obj = base.type.kind, base.obj
        if kind == "dim3":
            return intrinsics.dim3_attribute(self, node, obj, attr)
        if kind == "enumclass":  # Color.red
            return enums.member_of(self, node, obj, attr)
        if kind == "ctypes" and attr == "data":  # a.ctypes.data: the array's address
            return Value(f"((unsigned long long)(size_t)({obj.code}.data))", T.UINT64, nonneg=True)
        if kind == "ffi" and attr == "from_buffer":
            return Value(None, T.Opaque("ffi_from_buffer", obj), obj=obj)
        if kind in ("module", "namespace"):
            if not hasattr(obj, attr):
                self.fail(node, f"{getattr(obj, '__name__', obj)!s} has no attribute '{attr}'")
            return self.from_python(node, getattr(obj, attr), f"{getattr(obj, '__name__', '')}.{attr}")
        self.unsupported(node, f"{base.type} has no attribute '{attr}' in kernels")

    # ------------------------------------------------------------------ calls
    def expr_Call(self, node):
        methods = ("conjugate", "bit_count", "view", "reshape") + array_reductions.REDUCTIONS
        if isinstance(node.func, ast.Attribute) and node.func.attr in methods:
            base = self.expr(node.func.value)
            attr = node.func.attr
            if isinstance(base.type, T.Scalar) and attr in ("conjugate", "bit_count") and not node.args:
                # z.conjugate(), n.bit_count(): methods of numbers
                if attr == "conjugate":
                    return complexfuncs.conjugate(self, node, base)
                return intrinsics.bit_count(self, node, base)
            if isinstance(base.type, T.Array) and attr in array_reductions.REDUCTIONS:  # a.sum(), a.max(), ...
                return array_reductions.method(self, node, attr, base, node.args, node.keywords)
            if isinstance(base.type, T.Array) and attr in ("view", "reshape"):  # views (array_methods.py)
                if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
                    self.unsupported(node, "*args and **kwargs in calls are not supported in kernels")
                args = [self.expr(a) for a in node.args]
                kwargs = {k.arg: self.expr(k.value) for k in node.keywords}
                return getattr(array_methods, attr)(self, node, base, args, kwargs)
            f = self.attribute(node.func, base, attr)
        else:
            f = self.expr(node.func)
        if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
            self.unsupported(node, "*args and **kwargs in calls are not supported in kernels")
        # print() takes string literals, and cuda.local/shared.array a dtype's name ("int32").
        makes_array = isinstance(f.type, T.Opaque) and f.obj in (stubs.local.array, stubs.shared.array)
        takes_str = isinstance(f.type, T.Opaque) and (f.obj is print or makes_array)
        # float("nan"), float("inf"), np.float32("-inf"): the number, at compile time.
        float_of_str = isinstance(f.type, T.Opaque) and (f.obj is float or (f.type.kind == "dtype" and f.obj in T.FLOATS))

        def arg(a):
            if takes_str and isinstance(a, ast.Constant) and isinstance(a.value, str):
                return Value(None, T.Opaque("str"), obj=a.value)
            if float_of_str and isinstance(a, ast.Constant) and isinstance(a.value, str):
                return self.float_constant(a)
            return self.expr(a)
        args = [arg(a) for a in node.args]
        kwargs = {k.arg: (self.compile_time_object(k.value) if makes_array and k.arg == "alignment" else arg(k.value))
                  for k in node.keywords}
        if not isinstance(f.type, T.Opaque):
            self.fail(node, f"a {f.type} is not callable")
        kind, obj = f.type.kind, f.obj
        if kind == "pyfunction" and obj in _OPERATOR_NODES:
            how, op = _OPERATOR_NODES[obj]
            if node.keywords or len(node.args) != (1 if how == "unary" else 2):
                where = "" if obj is pow else "operator."
                self.fail(node, f"{where}{obj.__name__}() takes {1 if how == 'unary' else 2} positional argument(s) in kernels")
            return self.expr(_operator_node(how, op, node))
        if kind == "function":
            h = intrinsics.HANDLERS.get(obj) or mathfuncs.HANDLERS.get(obj)
            if kwargs and obj not in (stubs.local.array, stubs.shared.array, stubs.syncwarp, stubs.carray, stubs.farray) \
                    and not (isinstance(obj, np.ufunc) and set(kwargs) == {"out"}):
                self.fail(node, f"{getattr(obj, '__name__', obj)}() takes no keyword arguments in kernels")
            return h(self, node, args, kwargs)
        if kind == "dtype":
            return mathfuncs.cast_to(self, node, obj, args)
        if kind == "device":
            if kwargs:
                self.fail(node, "device functions take positional arguments only")
            return self.call_device(node, obj, args)
        if kind == "grid_sync":  # g.sync() of cuda.cg.this_grid()
            return cooperative.sync(self, node, args, kwargs)
        if kind == "foreign":
            if kwargs:
                self.fail(node, "foreign device functions take positional arguments only")
            return self.call_foreign(node, obj, args)
        if kind == "ffi_from_buffer":
            if len(args) != 1 or kwargs or not isinstance(args[0].type, T.Array):
                self.fail(node, "ffi.from_buffer() takes one array in kernels")
            return Value(f"({args[0].code}.data)", T.Pointer(args[0].type.dtype))
        if kind == "kernel":  # a @cuda.jit function called from a kernel is a device function, as in Numba
            if kwargs:
                self.fail(node, "device functions take positional arguments only")
            return self.call_device(node, obj, args)
        if kind == "pyfunction":
            if kwargs:
                self.fail(node, "device functions take positional arguments only")
            if isinstance(obj, pytypes.FunctionType):  # a plain def: a device function, as Numba compiles it
                return self.call_device(node, self.module.plain_device_function(obj), args)
            name = getattr(obj, "__name__", repr(obj))
            what = ("a vectorize/guvectorize function, which runs from the host only" if hasattr(obj, "py_func")
                    else "neither a Python function nor a device function")
            self.unsupported(node, f"Untyped global name '{name}': a call to {type(obj).__name__} '{name}', {what}")
        self.fail(node, f"{f.type} is not callable in a kernel")

    def choose_signature(self, node, disp, args):
        """The declared signature of a device function a call takes, as Numba chooses among
        several (overloads.py): the best-rated; of equals, the first declared (Numba resolves
        such a tie for device functions, where it refuses one for a kernel's launch). A complex
        to a real, or an array of another dtype or rank, is no match: a TypingError."""
        types = [a.type for a in args]
        chosen = overloads.best([(sig[1], sig) for sig in disp.declared_signatures()], types,
                                [a.weak for a in args])
        if not chosen:
            given = ", ".join(map(str, types))
            have = "; ".join("(" + ", ".join(map(str, s[1])) + ")" for s in disp.declared_signatures())
            self.fail(node, f"Invalid use of type(device function '{disp.__name__}') with parameters ({given}): no "
                      f"declared signature takes them; it has {have}")
        return chosen[0][1]

    def call_foreign(self, node, fn, args):
        """A call of a cuda.declare_device function: arguments convert to its declared types."""
        if len(args) != len(fn.params):
            self.fail(node, f"'{fn.name}' is declared with {len(fn.params)} argument(s), called with {len(args)}")
        code = []
        for a, p in zip(args, fn.params):
            if isinstance(p, T.Pointer):
                if a.type != p:
                    self.fail(node, f"'{fn.name}' takes {p} (ffi.from_buffer of a {p.dtype} array), not {a.type}")
                code.append(a.code)
            elif isinstance(a.type, T.Scalar):
                code.append(cast(a, p))
            else:
                self.fail(node, f"'{fn.name}' takes {p}, not {a.type}")
        self.module.foreign_function(fn)
        return Value(f"{fn.wrapper_name()}({', '.join(code)})", fn.ret if fn.ret is not None else T.NONE)

    def call_device(self, node, disp, args):
        # Compile-time objects (a dtype, a function, a module) specialise the device function
        # (FunctionTranslator's constants); the other arguments are its C parameters. So does
        # a number (or a tuple of them) known at compile time for a parameter the callee never
        # assigns, as it was written at the call (a literal stays weak), so that it may size a
        # local or shared array there (Numba's literal arguments).
        constants = {i: a for i, a in enumerate(args) if isinstance(a.type, T.Opaque)}
        if disp.declared_signature() is None:
            params, assigned = disp.source().params, _assigned_names(disp.source().tree)
            for i, a in enumerate(args):
                if a.const is None or i >= len(params) or params[i] in assigned:
                    continue
                if isinstance(a.type, (T.Scalar, T.Tuple)):  # a literal stays weak (NEP 50) in the callee
                    constants[i] = a
        if constants:
            if disp.declared_signature() is not None:
                self.unsupported(node, f"'{disp.__name__}' has a declared signature, which cannot take "
                                 f"{constants[min(constants)].type}")
            if not 0 < len(args) <= len(disp.source().params):
                self.fail(node, f"'{disp.__name__}' takes {len(disp.source().params)} argument(s), called with "
                          f"{len(args)}")
            cname, ret = self.module.device_function(disp, tuple(a.type for a in args), self, node, constants)
            codes = [cast(a, a.type) if isinstance(a.type, T.Scalar) else self.materialize(a)
                     for i, a in enumerate(args) if i not in constants]
            return Value(f"{cname}({', '.join(codes)})", ret)
        types = [a.type for a in args]
        declared = self.choose_signature(node, disp, args) if disp.declared_signature() is not None else None
        if declared is not None:  # @cuda.jit("float32(float32, int32)", device=True): arguments convert
            types = [p if isinstance(p, T.Scalar) else a.type for p, a in zip(declared[1], args)]
        cname, ret = self.module.device_function(disp, tuple(types), self, node)
        codes = [cast(a, t) if isinstance(t, T.Scalar) else self.materialize(a) for a, t in zip(args, types)]
        code = f"{cname}({', '.join(codes)})"
        if declared is not None and declared[0] is not None and isinstance(ret, T.Scalar):
            return Value(f"(({declared[0].c})({code}))", declared[0])
        return Value(code, ret)
