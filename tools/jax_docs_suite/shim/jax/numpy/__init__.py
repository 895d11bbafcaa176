"""`jax.numpy` for the harness: loom's NumPy namespace (`jnp.X` is `loom.X`), with
`jnp.linalg` and `jnp.fft` loom's modules."""
import loom as _loom
from loom import *  # noqa: F401,F403
from loom import fft, linalg  # noqa: F401


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(f"module 'jax.numpy' has no attribute {name!r}")
    try:
        return getattr(_loom, name)
    except AttributeError:
        raise AttributeError(f"jax.numpy.{name}: loom has no equivalent (no loom.{name})") from None
