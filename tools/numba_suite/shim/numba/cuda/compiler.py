"""numba.cuda.compiler: compile_ptx, which loom lacks (it compiles CUDA C++ with NVRTC;
kernel.inspect_source() shows it); importable so a file that names it loads."""
from .._missing import missing_callable, module_getattr as _module_getattr

compile_ptx = missing_callable("numba.cuda.compiler.compile_ptx", "loom compiles CUDA C++, not PTX")
compile_ptx_for_current_device = missing_callable("numba.cuda.compiler.compile_ptx_for_current_device",
                                                  "loom compiles CUDA C++, not PTX")
__getattr__ = _module_getattr(__name__)
