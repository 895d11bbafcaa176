"""scipy.sparse.linalg over loom operators: LinearOperator; the Krylov solvers cg, gmres,
bicgstab, cgs and minres; the least-squares solvers lsqr and lsmr; eigsh (thick-restarted
Lanczos), lobpcg and svds; norm, matrix_power and spsolve (a dense solve for now, up to
4096 rows). Vectors stay on the device; the iterations read a few scalars per step on the
host for their convergence tests."""
from ._bicg import bicgstab, cgs
from ._dsolve import MatrixRankWarning, spsolve
from ._eigen import ArpackNoConvergence, eigsh
from ._interface import LinearOperator, aslinearoperator
from ._isolve import cg, gmres
from ._lobpcg import lobpcg
from ._lsmr import lsmr
from ._lsqr import lsqr
from ._matfuncs import matrix_power
from ._minres import minres
from ._norm import norm
from ._svds import svds

__all__ = ["ArpackNoConvergence", "LinearOperator", "MatrixRankWarning", "aslinearoperator", "bicgstab", "cg",
           "cgs", "eigsh", "gmres", "lobpcg", "lsmr", "lsqr", "matrix_power", "minres", "norm", "spsolve", "svds"]
