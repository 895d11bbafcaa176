"""`import loom.pycuda.autoprimaryctx`: pycuda.autoprimaryctx's counterpart. loom has one kind of
context, so it is loom.pycuda.autoinit's: the first device made current, popped at exit."""
from .autoinit import context, device  # noqa: F401
