"""numba.cuda.cudaimpl: Numba's lowering registry; `lower` registrations are accepted and do
nothing (see extending.py: loom has no extension API)."""
from .extending import _recorder

lower = _recorder("lower")
lower_attr = _recorder("lower_attr")
