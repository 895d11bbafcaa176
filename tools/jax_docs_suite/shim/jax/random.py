"""`jax.random` for the harness: `loom.random`."""
import sys as _sys

import loom.random as _m

_sys.modules[__name__] = _m
