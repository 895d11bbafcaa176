"""`jax.test_util` for the harness: its one name the documentation uses, `check_grads`, is
loom's."""
from loom import check_grads  # noqa: F401
