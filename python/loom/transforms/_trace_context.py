"""Which transforms are tracing on this thread, innermost last: "grad" while a differentiating
transform (grad, vjp, jvp, jacfwd, jacrev, nn.value_and_grad) calls the function it traces, "jit"
while loom.jit traces one. custom_jvp and custom_vjp read it: under exactly one
differentiation and no jit (whose trace is kept and may be differentiated again later), only
the first derivative of their rule is needed, and they write a simpler form of it
(_custom.py)."""
import contextlib
import threading

_local = threading.local()


def _stack():
    s = getattr(_local, "stack", None)
    if s is None:
        s = _local.stack = []
    return s


@contextlib.contextmanager
def frame(kind):
    s = _stack()
    s.append(kind)
    try:
        yield
    finally:
        s.pop()


def first_order_only():
    """Whether the trace in progress will be differentiated once only: one "grad" frame, no
    "jit" frame."""
    s = _stack()
    return s.count("grad") == 1 and "jit" not in s
