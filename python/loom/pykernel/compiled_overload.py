"""One compiled kernel as Numba's `dispatcher.overloads` shows it (dispatcher.py): its
resource use as attributes, its typing record, and the loom RawKernel's own otherwise."""
from . import numba_types


class CompiledOverload:
    """One compiled kernel as Numba's overloads show it: its resource use as attributes
    (regs_per_thread, shared_mem_per_block, ...), and the loom RawKernel's own otherwise."""

    _FIELDS = {"regs_per_thread": "num_regs", "shared_mem_per_block": "shared_size_bytes",
               "local_mem_per_thread": "local_size_bytes", "const_mem_size": "const_size_bytes",
               "max_threads_per_block": "max_threads_per_block"}

    def __init__(self, kernel, local_types=None):
        self.kernel = kernel
        self._local_types = local_types

    @property
    def _type_annotation(self):
        """Numba's typing record of the compiled function, as far as tests read it: `typemap`,
        each argument's and variable's type as a Numba type object."""
        if self._local_types is None:
            raise AttributeError("this kernel has no type annotation")
        return _TypeAnnotation({n: numba_types.from_kernel_type(t) for n, t in self._local_types().items()})

    def attribute(self, field):
        return int(self.kernel.attributes()[field])

    def max_cooperative_grid_blocks(self, blockdim):
        """The most blocks of shape `blockdim` a cooperative launch of it may have on the current
        device (all resident at once)."""
        return self.kernel.max_cooperative_blocks(blockdim)

    def __getattr__(self, name):
        if name in CompiledOverload._FIELDS:
            return self.attribute(CompiledOverload._FIELDS[name])
        return getattr(self.kernel, name)


class _TypeAnnotation:
    def __init__(self, typemap):
        self.typemap = typemap
