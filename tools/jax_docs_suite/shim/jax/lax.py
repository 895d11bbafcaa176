"""`jax.lax` for the harness: `loom.lax`."""
import sys as _sys

import loom.lax as _m

_sys.modules[__name__] = _m
