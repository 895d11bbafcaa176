"""`jax.tree_util` for the harness: `loom.tree_util`."""
import sys as _sys

import loom.tree_util as _m

_sys.modules[__name__] = _m
