"""numba.cuda.misc.special: literal_unroll (loops unrolled over heterogeneous tuples), which
loom's kernels lack: a kernel that calls it fails to translate."""
from ..._missing import missing_callable

literal_unroll = missing_callable("numba.cuda.misc.special.literal_unroll",
                                  "loops over heterogeneous tuples in kernels")
