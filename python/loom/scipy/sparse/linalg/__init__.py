"""scipy.sparse.linalg over loom operators: LinearOperator, the Krylov solvers cg and gmres,
eigsh (thick-restarted Lanczos), norm and spsolve (a dense solve for now, up to 4096 rows).
Vectors stay on the device; the iterations read one residual norm per step on the host."""
from ._dsolve import MatrixRankWarning, spsolve
from ._eigen import ArpackNoConvergence, eigsh
from ._interface import LinearOperator, aslinearoperator
from ._isolve import cg, gmres
from ._norm import norm

__all__ = ["ArpackNoConvergence", "LinearOperator", "MatrixRankWarning", "aslinearoperator", "cg", "eigsh", "gmres",
           "norm", "spsolve"]
