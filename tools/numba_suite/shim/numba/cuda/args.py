"""numba.cuda.args: Numba's kernel-argument wrappers. cuda.In/Out/InOut are loom.cuda's when it
has them; wrap_arg (Numba's internal auto-conversion hook) raises LoomHasNo when called."""
from .._missing import missing_callable, module_getattr as _module_getattr

wrap_arg = missing_callable("numba.cuda.args.wrap_arg", "Numba's kernel-argument wrapping internals")
__getattr__ = _module_getattr(__name__)
