"""Expressions of a Python kernel: typed and turned into C in one visit (DESIGN.md §4).

A mixin of FunctionTranslator (translate.py): it reads `self.vars` (the variables' types,
found by iterating the whole function to a fixed point) and reports errors through
`self.fail`. Arithmetic follows Python/Numba semantics: `/` on integers is true division,
`//` and `%` round toward minus infinity, bools count as int64 in arithmetic.
"""
import ast
import math
import operator

import numpy as np

from . import array_methods, enums, records
from . import types as T
from .errors import TypingError, UnsupportedError
from .ufuncs import op_call
from .values import Value, cast, literal, tuple_code, tuple_items

_ARITH = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%",
          ast.Pow: "**", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^", ast.LShift: "<<",
          ast.RShift: ">>", ast.MatMult: "@"}
_PYOP = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
         "//": operator.floordiv, "%": operator.mod, "**": operator.pow, "&": operator.and_,
         "|": operator.or_, "^": operator.xor, "<<": operator.lshift, ">>": operator.rshift}
_CMP = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}
_ENUM_CMP = {ast.Eq: "==", ast.NotEq: "!=", ast.Is: "is", ast.IsNot: "is not"}
_PYCMP = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
          ">=": operator.ge}


class Pending(Exception):
    """A variable's type is not known yet in this pass of the fixed-point iteration."""


def _arith_view(v):
    """A bool takes part in arithmetic as an int64 (Python's rule)."""
    if isinstance(v.type, T.Scalar) and v.type.is_bool:
        return Value(f"((long long)({v.code}))" if v.const is None else None, T.INT64,
                     "int" if v.weak else None, None if v.const is None else int(v.const), nonneg=True)
    return v


class ExprMixin:
    # ------------------------------------------------------------------ entry
    def expr(self, node):
        method = getattr(self, "expr_" + type(node).__name__, None)
        if method is None:
            self.unsupported(node, f"{_describe(node)} is not supported in kernels")
        return method(node)

    def scalar(self, node, what="operand"):
        v = self.expr(node)
        if not isinstance(v.type, T.Scalar):
            self.fail(node, f"the {what} must be a number, not {v.type}")
        return v

    def truth(self, node):
        """C code of `node` as a condition."""
        v = self.expr(node)
        if not isinstance(v.type, T.Scalar):
            self.fail(node, f"a {v.type} has no truth value in a kernel")
        return v.code if v.type.is_bool else f"(({v.code}) != 0)"

    # ------------------------------------------------------------------ leaves
    def expr_Constant(self, node):
        v = literal(node.value)
        if v is None:
            what = type(node.value).__name__
            self.unsupported(node, f"a {what} constant ({node.value!r}) is not supported in kernels"
                             if node.value is not None else "None is not a value in kernels")
        return v

    def expr_Name(self, node):
        name = node.id
        if name in self.constants:
            return self.constants[name]
        if name in self.locals:
            if name not in self.vars:
                if self.strict:
                    self.fail(node, f"the variable '{name}' is used before it is assigned")
                raise Pending(name)
            t = self.vars[name]
            return Value(self.cname(name), t, nonneg=self.nonneg.get(name, False),
                         const=self.constant_locals.get(name))
        found, obj = self.src.lookup(name)
        if not found:
            self.fail(node, f"the name '{name}' is not defined")
        return self.from_python(node, obj, name)

    def expr_Tuple(self, node):
        items = [self.expr(e) for e in node.elts]
        for e, i in zip(node.elts, items):
            if isinstance(i.type, T.Opaque):
                self.unsupported(e, f"a tuple cannot hold {i.type}")
        types = [i.type for i in items]
        const = tuple(i.const for i in items) if all(i.const is not None for i in items) else None
        return Value(None, T.Tuple(types), const=const, items=items)

    def expr_Attribute(self, node):
        base = self.expr(node.value)
        return self.attribute(node, base, node.attr)

    # ------------------------------------------------------------------ operators
    def expr_BinOp(self, node):
        op = _ARITH.get(type(node.op))
        if op == "@":
            self.unsupported(node, "the @ operator (matmul) is not supported in kernels")
        a, b = self.scalar(node.left), self.scalar(node.right)
        return self.binop(node, op, a, b)

    def binop(self, node, op, a, b):
        if a.weak and b.weak and a.const is not None and b.const is not None:
            try:
                r = _PYOP[op](a.const, b.const)
            except ZeroDivisionError:
                self.fail(node, "division by zero in a constant expression")
            v = literal(r)
            if v is not None:
                return v
        if op in ("&", "|", "^", "<<", ">>"):
            for v in (a, b):
                if v.type.is_float or v.type.is_complex:
                    self.fail(node, f"the operator {op} takes integers or bools, not {v.type}")
            if op in ("<<", ">>"):
                a, b = _arith_view(a), _arith_view(b)
            t = T.promote(a.type, b.type, a.weak, b.weak)
            code = f"({cast(a, t)} {op} {cast(b, t)})"
            return Value(code, t, a.weak if a.weak and b.weak else None,
                         nonneg=op in ("&", ">>") and a.nonneg or (op == "&" and b.nonneg))
        a, b = _arith_view(a), _arith_view(b)
        t = T.promote(a.type, b.type, a.weak, b.weak)
        weak = (("complex" if "complex" in (a.weak, b.weak) else "float" if "float" in (a.weak, b.weak) else "int")
                if a.weak and b.weak else None)
        if t.is_complex and op in ("//", "%"):
            self.fail(node, f"the operator {op} does not take complex numbers")
        if op == "/":
            if t.is_int:
                t = T.FLOAT64
                weak = "float" if weak else None
            return Value(f"({cast(a, t)} / {cast(b, t)})", t, weak)
        ca, cb = cast(a, t), cast(b, t)
        nonneg = a.nonneg and b.nonneg and t.is_int
        if op in ("+", "*"):
            return Value(f"({ca} {op} {cb})", t, weak, nonneg=nonneg)
        if op == "-":
            return Value(f"({ca} - {cb})", t, weak)
        if op == "//":
            if t.is_int:
                code = f"({ca} / {cb})" if nonneg or not t.is_signed else f"loom_floordiv<{t.c}>({ca}, {cb})"
                return Value(code, t, weak, nonneg=nonneg)
            # Python's float // and % are CPython's divmod, which NumPy's floor_divide and
            # remainder copy (division by zero gives inf/nan instead of raising).
            return Value(op_call(self, node, "//", "floor_divide", [a, b], t).code, t, weak)
        if op == "%":
            if t.is_int:
                code = f"({ca} % {cb})" if nonneg or not t.is_signed else f"loom_mod<{t.c}>({ca}, {cb})"
                return Value(code, t, weak, nonneg=nonneg or b.nonneg)
            return Value(op_call(self, node, "%", "remainder", [a, b], t).code, t, weak)
        if op == "**":
            if t.is_complex:
                return Value(op_call(self, node, "**", "power", [a, b], t).code, t, weak)
            if t.is_int:
                return Value(f"loom_ipow<{t.c}>({ca}, (long long)({cast(b, T.INT64)}))", t, weak, nonneg=a.nonneg)
            if b.const == 2:
                return Value(f"loom_sq<{t.c}>({ca})", t, weak)
            fn = "powf" if t.dtype == "float32" else "pow"
            return Value(f"{fn}({ca}, {cb})", t, weak)
        raise AssertionError(op)

    def expr_UnaryOp(self, node):
        if isinstance(node.op, ast.Not):
            v = self.expr(node.operand)
            if v.const is not None and v.weak:
                return literal(not v.const)
            return Value(f"(!{self.truth(node.operand)})", T.BOOL)
        v = self.scalar(node.operand)
        if isinstance(node.op, ast.Invert):
            if v.type.is_float or v.type.is_complex:
                self.fail(node, f"~ takes integers or bools, not {v.type}")
            if v.type.is_bool:
                return Value(f"(!{v.code})", T.BOOL)
            if v.weak and v.const is not None:
                return literal(~v.const)
            return Value(f"((({v.type.c})~{v.code}))", v.type)
        v = _arith_view(v)
        if isinstance(node.op, ast.UAdd):
            return v
        if v.weak and v.const is not None:
            return literal(-v.const)
        return Value(f"(-{v.code})", v.type, v.weak)

    def expr_BoolOp(self, node):
        op = " && " if isinstance(node.op, ast.And) else " || "
        return Value("(" + op.join(self.truth(v) for v in node.values) + ")", T.BOOL)

    def expr_Compare(self, node):
        parts = []
        operands = [self.expr(n) for n in [node.left] + list(node.comparators)]  # Python's order
        if len(node.ops) == 1 and type(node.ops[0]) in _ENUM_CMP:  # enum members (enums.py)
            r = enums.compare(self, node, _ENUM_CMP[type(node.ops[0])], operands[0], operands[1])
            if r is not None:
                return r
        for op_node in node.ops:
            if type(op_node) not in _CMP:
                self.unsupported(node, f"the comparison '{type(op_node).__name__}' is not supported in kernels")
        for v, n in zip(operands, [node.left] + list(node.comparators)):
            if not isinstance(v.type, T.Scalar):
                self.fail(n, f"the operand must be a number, not {v.type}")
        left = operands[0]
        consts = []
        for op_node, right in zip(node.ops, operands[1:]):
            op = _CMP[type(op_node)]
            if left.weak and right.weak:
                consts.append(_PYCMP[op](left.const, right.const))
            else:
                consts.append(None)
            t = T.promote(left.type, right.type, left.weak, right.weak)
            if t.is_complex and op not in ("==", "!="):
                self.fail(node, f"complex numbers are not ordered ({op})")
            parts.append(f"({cast(left, t)} {op} {cast(right, t)})")
            left = right
        if all(c is not None for c in consts):
            return literal(all(consts))
        return Value("(" + " && ".join(parts) + ")", T.BOOL)

    def expr_IfExp(self, node):
        cond = self.truth(node.test)
        a, b = self.expr(node.body), self.expr(node.orelse)
        if isinstance(a.type, T.Scalar) and isinstance(b.type, T.Scalar):
            if a.weak and b.weak:
                t, weak = T.promote(a.type, b.type, a.weak, b.weak), "float" if "float" in (a.weak, b.weak) else a.weak
            else:
                t, weak = T.promote(a.type, b.type, a.weak, b.weak), None
            return Value(f"({cond} ? {cast(a, t)} : {cast(b, t)})", t, weak, nonneg=a.nonneg and b.nonneg)
        t = T.unify(a.type, b.type)
        if t is None or isinstance(t, T.Opaque):
            self.fail(node, f"the two branches of a conditional expression have types {a.type} and {b.type}")
        return Value(f"({cond} ? {self.materialize(a)} : {self.materialize(b)})", t)

    # ------------------------------------------------------------------ subscripts
    def expr_Subscript(self, node):
        base = self.expr(node.value)
        if isinstance(base.type, T.Tuple):
            return self.tuple_item(node, base, node.slice)
        if isinstance(base.type, T.Array):
            return self.element(node, base, node.slice)
        if isinstance(base.type, T.Pointer):
            return Value(self.element_ref(node, base, node.slice), base.type.element)
        if isinstance(base.type, (T.Record, T.RecordArray)):
            return records.item(self, node, base)
        if isinstance(base.type, T.Opaque) and base.type.kind == "enumclass":  # Color["red"]
            name = records.constant_field_name(self, node, node.slice)
            if name is None:
                self.fail(node, f"{base.obj.__name__}[...] takes a member's name (a string constant)")
            return enums.member_of(self, node, base.obj, name)
        self.fail(node, f"a {base.type} cannot be indexed")

    def tuple_item(self, node, base, index_node):
        k = self.expr(index_node)
        if k.const is None and isinstance(k.type, T.Scalar) and k.type.is_int:
            return self.tuple_item_at_run_time(node, base, k)
        if k.const is None or not isinstance(k.const, int) or isinstance(k.const, bool):
            self.unsupported(node, "a tuple can only be indexed by a constant integer in kernels")
        n = len(base.type.items)
        i = k.const + n if k.const < 0 else k.const
        if not 0 <= i < n:
            raise_index = f"tuple index {k.const} is out of range for a tuple of {n} items"
            self.fail(node, raise_index)
        return tuple_items(base)[i]

    def tuple_item_at_run_time(self, node, base, k):
        """t[i] with i known only at run time, for a tuple whose items share one type (Numba's
        UniTuple): a switch over the items of the tuple, materialized once. Python's negative
        indices count from the end; past the end is checked in debug mode, as for arrays."""
        items = base.type.items
        if not items or any(t != items[0] for t in items):
            self.unsupported(node, f"a {base.type} (items of different types) can only be indexed by a constant "
                             "integer in kernels")
        t = items[0]
        n = len(items)
        tup = self.materialize(base)
        cases = " ".join(f"case {i}: return loom_tup.f{i};" for i in range(n - 1))
        code = (f"([&]() -> {t.c} {{ const auto loom_tup = {tup}; "
                f"switch (LOOM_PK_IDX(loom_wrap({k.code}, {n}LL), {n}LL, kLoomTupleAxis)) {{ {cases} "
                f"default: return loom_tup.f{n - 1}; }} }}())")
        return Value(code, t)

    def index_values(self, node, arr, index_node):
        parts = index_node.elts if isinstance(index_node, ast.Tuple) else [index_node]
        if any(isinstance(p, ast.Slice) for p in parts):
            self.unsupported(node, "a slice cannot be assigned to or updated in a kernel (views are read with "
                             "a[i:j]; write their elements one by one)")
        if isinstance(index_node, ast.Tuple):
            idx = [self.expr(e) for e in index_node.elts]
            nodes = index_node.elts
        else:
            v = self.expr(index_node)
            if isinstance(v.type, T.Tuple):
                if v.items is None:
                    v = Value(None, v.type, items=tuple_items(v))
                idx, nodes = v.items, [index_node] * len(v.items)
            else:
                idx, nodes = [v], [index_node]
        for n_, i in zip(nodes, idx):
            if isinstance(n_, ast.Slice):
                self.unsupported(node, "a slice cannot be assigned to or updated in a kernel (views are read with "
                                 "a[i:j]; write their elements one by one)")
            if not isinstance(i.type, T.Scalar) or not (i.type.is_int or i.type.is_bool):
                self.fail(node, f"an array index must be an integer, not {i.type}")
        if len(idx) > arr.type.ndim:
            self.unsupported(node, f"a {arr.type.ndim}-d array indexed with {len(idx)} index(es)")
        if len(idx) < arr.type.ndim:
            self.unsupported(node, f"a {arr.type.ndim}-d array indexed with {len(idx)} index(es) cannot be "
                             "assigned to in a kernel (a[i] of a 2-d array is a row view: write its elements)")
        return idx

    def element_ref(self, node, arr, index_node):
        """C lvalue of an array element (or of a pointer's: p[i], as C indexes it)."""
        if isinstance(arr.type, T.Pointer):
            i = self.scalar(index_node, "index")
            if not (i.type.is_int or i.type.is_bool):
                self.fail(node, f"a pointer index must be an integer, not {i.type}")
            return f"{arr.code}[{i.code}]"
        return self.element_ref_from(node, arr, self.index_values(node, arr, index_node))

    def element_ref_from(self, node, arr, idx):
        if len(idx) != arr.type.ndim:
            self.fail(node, f"a {arr.type.ndim}-d array indexed with {len(idx)} index(es)")
        for i in idx:
            if not isinstance(i.type, T.Scalar) or not (i.type.is_int or i.type.is_bool):
                self.fail(node, f"an array index must be an integer, not {i.type}")
        t = arr.type
        terms = []
        static = t.shape
        for k, i in enumerate(idx):
            n = str(static[k]) + "LL" if static else f"{arr.code}.shape[{k}]"
            if i.const is not None and static and not -static[k] <= i.const < static[k]:
                self.fail(node, f"index {i.const} is out of bounds for axis {k} with size {static[k]}")
            if i.nonneg or (i.type.is_int and not i.type.is_signed) or i.type.is_bool:
                ic = f"(long long)({i.code})"
            elif i.const is not None:
                ic = f"({i.const} + {n})" if i.const < 0 else f"{i.const}LL"
            else:
                ic = f"loom_wrap({i.code}, {n})"
            ic = f"LOOM_PK_IDX({ic}, {n}, {k})"
            if static:
                stride = 1
                for s in static[k + 1:]:
                    stride *= s
                terms.append(ic if stride == 1 else f"{ic} * {stride}LL")
            elif t.layout == "C" and k == t.ndim - 1:
                terms.append(ic)
            else:
                terms.append(f"{ic} * {arr.code}.strides[{k}]")
        return f"{arr.code}.data[{' + '.join(terms) or '0'}]"  # a 0-d array's a[()] is its one element

    def element(self, node, arr, index_node):
        parts = list(index_node.elts) if isinstance(index_node, ast.Tuple) else [index_node]
        if any(isinstance(p, ast.Slice) for p in parts) or (
                len(parts) < arr.type.ndim and not isinstance(self.expr(index_node).type, T.Tuple)):
            return self.view(node, arr, parts)
        return Value(self.element_ref(node, arr, index_node), arr.type.element)

    def view(self, node, arr, parts):
        """a[i, 2:n:2], a[i] of a 2-d array, ...: a view (a LoomArray over the same memory), as
        NumPy's basic indexing gives; its bounds follow Python's slice rules (loom_slice)."""
        t = arr.type
        if len(parts) > t.ndim:
            self.fail(node, f"a {t.ndim}-d array indexed with {len(parts)} index(es)")
        src = self.temp()
        lines = [f"const auto& {src} = {arr.code};"]  # the view's declaration goes after, once its rank is known
        out_dims = 0
        for k in range(t.ndim):
            p = parts[k] if k < len(parts) else ast.Slice(lower=None, upper=None, step=None)
            if isinstance(p, ast.Slice):
                bounds = []
                for b in (p.lower, p.upper):
                    if b is None:
                        bounds += ["false", "0LL"]
                        continue
                    bv = self.scalar(b, "slice bound")
                    if not (bv.type.is_int or bv.type.is_bool):
                        self.fail(node, f"a slice bound must be an integer, not {bv.type}")
                    bounds += ["true", f"(long long)({bv.code})"]
                step = "1LL"
                if p.step is not None:
                    sv = self.scalar(p.step, "slice step")
                    if not sv.type.is_int or sv.const == 0:
                        self.fail(node, "a slice step must be a nonzero integer")
                    step = f"(long long)({sv.code})"
                lines.append(f"{{ long long s = {step}, first, len; loom_slice({src}.shape[{k}], {', '.join(bounds)}, "
                             f"s, &first, &len); off += first * {src}.strides[{k}]; v.shape[{out_dims}] = len; "
                             f"v.strides[{out_dims}] = {src}.strides[{k}] * s; }}")
                out_dims += 1
            else:
                i = self.scalar(p, "index")
                if not (i.type.is_int or i.type.is_bool):
                    self.fail(node, f"an array index must be an integer, not {i.type}")
                lines.append(f"off += LOOM_PK_IDX(loom_wrap({i.code}, {src}.shape[{k}]), {src}.shape[{k}], {k}) * "
                             f"{src}.strides[{k}];")
        if out_dims == 0:
            self.fail(node, "indexing every dimension gives an element, not a view")
        vt = T.Array(t.dtype, out_dims, "A", t.space, None, t.readonly)
        lines.insert(1, f"{vt.c} v; long long off = 0;")
        lines.append(f"v.data = {src}.data + off; return v;")
        return Value("([&]() { " + " ".join(lines) + " }())", vt)

    # ------------------------------------------------------------------ attributes of values
    def attribute(self, node, base, attr):
        t = base.type
        if isinstance(t, T.Array):
            return self.array_attribute(node, base, attr)
        if isinstance(t, T.Opaque):
            return self.opaque_attribute(node, base, attr)
        if isinstance(t, T.Record):
            return records.field(self, node, base, attr)
        if isinstance(t, T.GridGroup):
            from . import cooperative
            return cooperative.attribute(self, node, base, attr)
        if isinstance(t, T.RecordArray):
            return records.array_attribute(self, node, base, attr)
        if isinstance(t, T.Tuple) and t.names and attr in t.names:  # a namedtuple's field
            return tuple_items(base)[t.names.index(attr)]
        if isinstance(t, T.Scalar) and t.is_complex and attr in ("real", "imag"):
            return Value(f"({base.code}).{attr[:2]}", T.real_part_type(t))
        if isinstance(t, T.Scalar) and attr in ("real", "imag") and not t.is_bool:
            return base if attr == "real" else literal(0)
        self.unsupported(node, f"a {t} has no attribute '{attr}' in kernels")

    def array_attribute(self, node, a, attr):
        t = a.type
        if attr == "shape":
            if t.shape:
                items = [literal(s) for s in t.shape]
            else:
                items = [Value(f"{a.code}.shape[{k}]", T.INT64, nonneg=True) for k in range(t.ndim)]
            return Value(None, T.Tuple([T.INT64] * t.ndim), items=items,
                         const=tuple(t.shape) if t.shape else None)
        if attr == "size":
            if t.ndim == 0:
                return literal(1)
            if t.shape:
                return literal(math.prod(t.shape))
            return Value("(" + " * ".join(f"{a.code}.shape[{k}]" for k in range(t.ndim)) + ")", T.INT64, nonneg=True)
        if attr == "ndim":
            return literal(t.ndim)
        if attr == "strides":
            size = _itemsize(t.dtype)
            items = [Value(f"({a.code}.strides[{k}] * {size}LL)", T.INT64) for k in range(t.ndim)]
            return Value(None, T.Tuple([T.INT64] * t.ndim), items=items)
        if attr == "dtype":
            return Value(None, T.Opaque("dtype", t.dtype), obj=t.dtype)
        if attr in ("real", "imag"):
            return array_methods.real_imag(self, node, a, attr)
        if attr == "ctypes":  # only .ctypes.data, the address, is read in kernels
            return Value(None, T.Opaque("ctypes", a), obj=a)
        self.unsupported(node, f"the array attribute '{attr}' is not supported in kernels "
                         "(shape, size, ndim, strides, dtype, real, imag and ctypes.data are; view() and reshape() make views)")

    def materialize(self, v):
        """C code for a value that must exist at run time (a tuple as its struct)."""
        if isinstance(v.type, T.Tuple):
            return tuple_code(self.module, Value(v.code, v.type, items=v.items))
        if isinstance(v.type, T.Opaque):
            raise TypingError("internal: opaque value materialized")
        return v.code


def _itemsize(dtype):
    return np.dtype(dtype).itemsize


def _describe(node):
    names = {"List": "a list", "Dict": "a dict", "Set": "a set", "ListComp": "a list comprehension",
             "DictComp": "a dict comprehension", "SetComp": "a set comprehension",
             "GeneratorExp": "a generator expression", "Lambda": "a lambda", "JoinedStr": "an f-string",
             "Starred": "a starred expression", "Await": "await", "Yield": "yield", "YieldFrom": "yield from",
             "NamedExpr": "the := operator", "Slice": "a slice"}
    return names.get(type(node).__name__, type(node).__name__)


__all__ = ["ExprMixin", "Pending", "UnsupportedError"]
