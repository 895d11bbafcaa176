"""The Python kernel translator (DESIGN.md §4, docs/PYTHON_KERNELS.md): a Python function's
AST, typed for the argument types of a launch and written as CUDA C++ that runs through
loom.RawModule on a GPU (NVRTC) or on cpu() (the CPU kernel emulator).

  source.py        the function's AST, file, lines and the names it sees
  types.py         kernel types and Numba's typing rules
  values.py        what the translator knows of an expression
  translate*.py    one function's types (fixed point) and C (expressions, statements)
  intrinsics.py    cuda.* inside kernels; mathfuncs.py: math, NumPy and builtins (ufuncs.py:
                   those that are ops of loom's elementwise table)
  compiler.py      a whole module: prelude, tuples, constants, device functions, kernel
  function.py      the kernel-function object the translator reads (a leaf: no circle)
  dispatcher.py    @cuda.jit objects: one specialisation per argument-type signature
  vectorize.py     loom.vectorize and loom.guvectorize
"""
from .errors import KernelSyntaxError, TypingError, UnsupportedError

__all__ = ["TypingError", "UnsupportedError", "KernelSyntaxError"]
