"""The JAX documentation harness's `jax`: loom under JAX's names (tools/jax_docs_suite/run.sh
puts it first on sys.path). `jax.X` is `loom.X` (jit, grad, vmap, jacfwd, custom_jvp, Array,
devices, ...), `jax.numpy` is loom's NumPy namespace, `jax.lax`, `jax.random`,
`jax.tree_util` are loom's modules of those names. Nothing here computes: a JAX name loom
lacks raises an AttributeError (or ImportError) that names it, so a cell using it fails with
that cause."""
import loom as _loom

from . import numpy  # noqa: F401
from loom import lax, random, tree_util  # noqa: F401

Array = _loom.ndarray


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(f"module 'jax' has no attribute {name!r}")
    try:
        return getattr(_loom, name)
    except AttributeError:
        raise AttributeError(f"jax.{name}: loom has no equivalent (no loom.{name})") from None
