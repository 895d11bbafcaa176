"""Numba's cuda.cg in kernels: `g = cuda.cg.this_grid()` and `g.sync()`, a barrier for every
thread of the grid. A kernel that names this_grid is cooperative (`overloads[sig].cooperative`):
its generated C++ names cooperative_groups::this_grid, so loom launches it cooperatively on a
GPU (every block resident, cuLaunchCooperativeKernel) and the CPU kernel emulator runs all its
blocks at once (kernel/emulator/executor.cpp). Its grid may have at most
`overloads[sig].max_cooperative_grid_blocks(blockdim)` blocks."""
from . import stubs
from . import types as T
from .intrinsics import handler
from .values import Value


@handler(stubs.cg.this_grid)
def _this_grid(tr, node, args, kwargs):
    if args or kwargs:
        tr.fail(node, "cuda.cg.this_grid() takes no arguments")
    # Named in the C++ even when unused: that makes the launch cooperative, as in Numba.
    return Value("((void)cooperative_groups::this_grid(), 0)", T.GridGroup())


def attribute(tr, node, base, attr):
    if attr != "sync":
        tr.unsupported(node, f"a grid group has sync() in kernels, not '{attr}'")
    return Value(None, T.Opaque("grid_sync"), obj=base)


def sync(tr, node, args, kwargs):
    if args or kwargs:
        tr.fail(node, "grid.sync() takes no arguments")
    return Value("cooperative_groups::this_grid().sync()", T.NONE)
