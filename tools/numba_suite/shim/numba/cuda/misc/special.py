"""numba.cuda.misc.special: literal_unroll is loom.cuda.literal_unroll."""
from loom.cuda import literal_unroll  # noqa: F401
