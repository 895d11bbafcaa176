"""`import loom.autoinit`: pycuda.autoinit's counterpart, so ported code changes one name.

PyCUDA's autoinit creates a context on the first GPU and exposes it as `context` (and its
device as `device`). loom has no contexts to manage: this module names the device loom
uses by default (loom.default_device(): gpu(0) when present, else cpu()) and gives a
`context` with the few methods ported code calls on it. Importing it is harmless without a
GPU: `device` is then cpu() and `context.synchronize()` does nothing.
"""
import loom as _loom

__all__ = ["device", "context"]

device = _loom.default_device()


class _Context:
    """Stands in for pycuda.driver.Context: loom makes its devices current itself."""

    def __init__(self, dev):
        self._device = dev

    def get_device(self):
        """The device the context belongs to (a loom Device)."""
        return self._device

    def synchronize(self):
        """Waits for all queued work on the device."""
        _loom.synchronize(self._device)

    def push(self):
        """No-op: loom activates the device of each operation itself."""

    def pop(self):
        """No-op: see push()."""

    def detach(self):
        """No-op: loom's device state lives as long as the process."""

    def __repr__(self):
        return f"<loom.autoinit context on {self._device}>"


context = _Context(device)
