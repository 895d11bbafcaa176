"""cupyx.cusolver.check_availability(routine): whether loom has the routine's operation (CuPy
asks it of the cuSOLVER it was built with; loom computes linalg on every device)."""
import loom

# cuSOLVER routines the suite's tests ask about, and the loom.linalg function doing that work.
_ROUTINES = {"geev": "eig", "potrfBatched": "cholesky", "gesvdj": "svd", "syevj": "eigh", "gesv": "solve",
             "getrf": "solve", "potrf": "cholesky", "gesvd": "svd", "syevd": "eigh", "geqrf": "qr"}


def check_availability(name):
    if name not in _ROUTINES:
        raise ValueError(f"cupyx.cusolver.check_availability: no loom equivalent known for {name!r}")
    return hasattr(loom.linalg, _ROUTINES[name])
