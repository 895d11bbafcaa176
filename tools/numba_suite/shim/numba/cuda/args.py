"""numba.cuda.args: Numba's kernel-argument wrappers are loom's (loom.pykernel.args)."""
from loom.pykernel.args import ArgHint, In, InOut, Out, wrap_arg  # noqa: F401

from .._missing import module_getattr as _module_getattr

__getattr__ = _module_getattr(__name__)
