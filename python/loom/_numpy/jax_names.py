"""Methods a JAX program calls on its arrays that NumPy's lack: `x.devices()`, the set of
devices holding x (one device for a loom array; JAX's sharded arrays may have several).
(`x.block_until_ready()`, `x.at[...]` and `x.device` are the extension's.)"""
from .. import _loom


def _devices(self):
    """x.devices(): the set of devices x lives on ({x.device}), as jax.Array.devices()."""
    return {self.device}


_loom.ndarray.devices = _devices
