"""pycuda.compiler: SourceModule over loom's run-time compiled modules.

PyCUDA runs nvcc; loom compiles with NVRTC for the exact architecture of the device a
kernel runs on (and, on cpu(), with the host compiler for the CPU kernel emulator), caching
in memory and on disk. So `nvcc`, `keep` and `cache_dir` have nothing to control, and
`arch`/`code` (a target architecture) are accepted but loom still compiles for the device
the kernel runs on: a binary for another GPU could not run there.
"""
import re

import loom

from ._errors import LogicError
from ._function import Function, _TEXTURES_GONE
from ._context import Context

DEFAULT_NVCC_FLAGS = []

# PyCUDA's own device header for complex numbers, answered by loom's (the same API).
_PYCUDA_COMPLEX = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"]pycuda-complex\.hpp[>"][^\n]*$', re.M)
_LOOM_COMPLEX = '#include "loom_user_complex.cuh"'


def _with_loom_headers(source, no_extern_c):
    """`source` as loom compiles it: `#include <pycuda-complex.hpp>` becomes loom's complex
    header, included before the extern "C" block PyCUDA wraps the source in (a C++ template
    cannot have C linkage); `#line 1` keeps the compiler's line numbers the user's."""
    needs_complex = bool(_PYCUDA_COMPLEX.search(source))
    if needs_complex:
        source = _PYCUDA_COMPLEX.sub("", source)
    head = _LOOM_COMPLEX + "\n" if needs_complex else ""
    if no_extern_c:
        return head + "#line 1\n" + source if head else source
    return head + 'extern "C" {\n#line 1\n' + source + "\n}\n"


class SourceModule:
    """CUDA C source compiled at run time; kernels by get_function, variables by get_global.

    `source` is a string or any object whose str() is the source (cgen/codepy modules). Unless
    `no_extern_c` is true, the source is wrapped in extern "C" so kernels are found by their
    plain names, as PyCUDA does.
    """

    def __init__(self, source, nvcc="nvcc", options=None, keep=False, no_extern_c=False,
                 arch=None, code=None, cache_dir=None, include_dirs=(), **kwargs):
        if kwargs:
            raise TypeError(f"[SourceModule] unexpected keyword arguments: {', '.join(kwargs)}")
        self.source = str(source)
        self._module = loom.SourceModule(_with_loom_headers(self.source, bool(no_extern_c)),
                                         options=list(options or []), no_extern_c=True,
                                         include_dirs=list(include_dirs or []))
        self._functions = {}
        # PyCUDA compiles in the constructor: a syntax error is raised here, not at first use.
        if Context.get_device().loom_device.type == "cuda":
            self._module.compile()

    @property
    def module(self):
        """The loom SourceModule it is."""
        return self._module

    def get_function(self, name):
        f = self._functions.get(name)
        if f is None:
            f = self._functions[name] = Function(self._module.get_function(name))
        return f

    def get_global(self, name):
        """(address, size in bytes) of the module's __device__ or __constant__ variable `name` on
        the current device: the address is an integer that memcpy_htod/dtoh and kernels take."""
        return self._module.get_global(name, device=Context.get_device().loom_device)

    def get_texref(self, name):
        raise LogicError(f"[SourceModule.get_texref] {_TEXTURES_GONE}")

    def get_surfref(self, name):
        raise LogicError(f"[SourceModule.get_surfref] {_TEXTURES_GONE}")


_RDC = "-rdc=true"


def _needs_a_gpu(who):
    if Context.get_device().loom_device.type != "cuda":
        raise NotImplementedError(
            f"[{who}] dynamic parallelism (a kernel launching kernels) needs a GPU: loom's CPU kernel "
            "emulator runs no device-side launches")


class DynamicSourceModule(SourceModule):
    """PyCUDA's module for dynamic parallelism (kernels that launch kernels): the source is
    compiled as relocatable device code (-rdc=true) and linked with the device runtime
    (libcudadevrt) by nvJitLink. Needs a GPU. `cuda_libdir` is accepted; loom finds the
    toolkit's libraries itself (CUDA_PATH to point elsewhere)."""

    def __init__(self, source, nvcc="nvcc", options=None, keep=False, no_extern_c=False, arch=None, code=None,
                 cache_dir=None, include_dirs=(), cuda_libdir=None):
        _needs_a_gpu("DynamicSourceModule")
        options = list(options or [])
        if _RDC not in options:
            options.append(_RDC)
        super().__init__(source, nvcc, options, keep, no_extern_c, arch, code, cache_dir, include_dirs)


class DynamicModule:
    """PyCUDA's linker of several sources (relocatable device code): add_source collects CUDA C
    sources, add_stdlib("cudadevrt") is implied, and link() compiles them as one relocatable
    program linked with the device runtime; get_function/get_global then work as on a
    SourceModule. Precompiled inputs (add_data, add_file: PTX, cubin, fatbin) are not
    supported. Needs a GPU."""

    def __init__(self, nvcc="nvcc", link_options=None, keep=False, no_extern_c=False, arch=None, code=None,
                 cache_dir=None, include_dirs=(), message_handler=None, log_verbose=False, cuda_libdir=None):
        _needs_a_gpu("DynamicModule")
        self._no_extern_c, self._include_dirs = no_extern_c, list(include_dirs or [])
        self._sources, self._options = [], [_RDC]
        self.module = None

    def add_source(self, source, nvcc_options=None, name="kernel.ptx"):
        if self.module is not None:
            raise LogicError("[DynamicModule.add_source] the module is linked already")
        self._sources.append(str(source))
        for o in nvcc_options or []:
            # -lcudadevrt and -L... are the linker's: the device runtime is always linked.
            if not o.startswith(("-l", "-L")) and o not in self._options:
                self._options.append(o)
        return self

    def add_stdlib(self, name):
        if name != "cudadevrt":
            raise NotImplementedError(f"[DynamicModule.add_stdlib] only cudadevrt is linked, not {name!r}")
        return self

    def add_data(self, data, input_type, name="unknown"):
        raise NotImplementedError("[DynamicModule.add_data] precompiled inputs (PTX, cubin, fatbin) are not "
                                  "supported: pass CUDA C to add_source")

    def add_file(self, filename, input_type):
        raise NotImplementedError("[DynamicModule.add_file] precompiled inputs (PTX, cubin, fatbin) are not "
                                  "supported: pass CUDA C to add_source")

    def link(self):
        if not self._sources:
            raise LogicError("[DynamicModule.link] no source was added")
        self.module = SourceModule("\n".join(self._sources), options=self._options, no_extern_c=self._no_extern_c,
                                   include_dirs=self._include_dirs)
        return self

    def _linked(self):
        if self.module is None:
            raise LogicError("[DynamicModule] call link() first")
        return self.module

    def get_function(self, name):
        return self._linked().get_function(name)

    def get_global(self, name):
        return self._linked().get_global(name)
