"""numba.cuda.bf16 is loom.cuda.bf16: the bfloat16 type and the bfloat16 intrinsics."""
from loom.cuda.bf16 import *  # noqa: F401,F403
