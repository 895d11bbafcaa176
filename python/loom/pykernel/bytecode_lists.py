"""The instructions CPython builds lists and star-calls with, for bytecode.py: a call of more
than 30 arguments is compiled as BUILD_LIST, LIST_APPEND per argument (LIST_EXTEND for a
constant run), LIST_TO_TUPLE and CALL_FUNCTION_EX, which become the plain call f(a, b, ...)."""
import ast

OPS = ("CALL_FUNCTION_EX", "LIST_APPEND", "LIST_EXTEND", "LIST_TO_TUPLE", "INTRINSIC_LIST_TO_TUPLE")


def step(rb, op, ins, stack, null):
    """Runs one of OPS on the stack of AST expressions (`rb`: the rebuilder, for its
    locations and errors; `null`: its NULL marker)."""
    if op == "CALL_FUNCTION_EX":
        if ins.arg & 1:
            rb.unsupported(ins, "a call with **kwargs")
        args = stack.pop()
        if not isinstance(args, (ast.Tuple, ast.List)):
            rb.unsupported(ins, "a call with *args")
        callee = stack.pop()
        if callee is null:  # 3.13 pushes NULL above the callable, 3.11-3.12 below it
            callee = stack.pop()
        elif stack and stack[-1] is null:
            stack.pop()
        stack.append(rb.at(ast.Call(func=callee, args=list(args.elts), keywords=[]), ins))
    elif op == "LIST_APPEND":
        v = stack.pop()
        stack[-ins.arg].elts.append(v)
    elif op == "LIST_EXTEND":
        v = stack.pop()
        if isinstance(v, (ast.Tuple, ast.List)):
            items = v.elts
        elif isinstance(v, ast.Constant) and isinstance(v.value, tuple):
            items = [ast.Constant(x) for x in v.value]
        else:
            rb.unsupported(ins, "extending a list with a value known only at run time")
        stack[-ins.arg].elts.extend(items)
    else:  # LIST_TO_TUPLE (3.11), CALL_INTRINSIC_1 INTRINSIC_LIST_TO_TUPLE (3.12 on)
        lst = stack.pop()
        stack.append(rb.at(ast.Tuple(elts=list(lst.elts), ctx=ast.Load()), ins))
