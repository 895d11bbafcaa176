"""The handler factories cuda.fp16 (fp16.py) and cuda.bf16 (bf16.py) share: an intrinsic
takes 16-bit floats (other numbers converted, as Numba's typing does), widened to float by
`floats(tr, node, args, name, n)`, computes in float32 and rounds the result once back to
its 16-bit type with `finish(expr)`; comparisons give a bool."""
from . import types as T
from .values import Value


def binary(floats, finish, name, op):
    def h(tr, node, args, kwargs):
        a, b = floats(tr, node, args, name, 2)
        return finish(f"({a} {op} {b})")
    return h


def compare(floats, name, op):
    def h(tr, node, args, kwargs):
        a, b = floats(tr, node, args, name, 2)
        return Value(f"({a} {op} {b})", T.BOOL)
    return h


def unary(floats, finish, name, template):
    def h(tr, node, args, kwargs):
        (a,) = floats(tr, node, args, name, 1)
        return finish(template.format(a))
    return h
