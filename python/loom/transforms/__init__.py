"""loom's transforms, JAX style, over the C++ core's (loom/transforms/): each module flattens
pytree arguments and results, turns NumPy arrays into loom arrays and calls the core.

  _jit.py          loom.jit: trace once per signature, fuse, replay
  _grad.py         loom.grad, value_and_grad, vjp, jvp, stop_gradient
  _jacobian.py     loom.jacfwd, jacrev, hessian, linearize (over _grad's vjp)
  _check_grads.py  loom.check_grads: jvp and vjp against finite differences (JAX's test_util)
  _custom.py       loom.custom_jvp, custom_vjp (rules written into the trace), checkpoint
  lax.py           loom.lax (its _lax_*.py parts: control flow, array functions, windows)
  _vmap.py         loom.vmap
  _cuda_graph.py   loom.cuda_graph: capture once, replay with new inputs
  _fuse.py         loom.fuse: cupy.fuse on loom.jit
  tree_util.py     pytrees (loom.tree_util), which every transform flattens with

loom re-exports these names at the top level; this package is their home.
"""
from ._check_grads import check_grads
from ._cuda_graph import CudaGraph, cuda_graph
from ._custom import checkpoint, checkpoint_policies, custom_jvp, custom_vjp, remat
from ._fuse import Fusion, fuse
from ._grad import grad, jvp, stop_gradient, value_and_grad, vjp
from ._jacobian import hessian, jacfwd, jacobian, jacrev, linearize
from ._jit import JitFunction, jit
from ._vmap import vmap

__all__ = ["jit", "JitFunction", "grad", "value_and_grad", "vjp", "jvp", "stop_gradient", "vmap",
           "jacfwd", "jacrev", "jacobian", "hessian", "linearize", "check_grads",
           "custom_jvp", "custom_vjp", "checkpoint", "remat", "checkpoint_policies", "cuda_graph",
           "CudaGraph", "fuse", "Fusion"]
