"""`import loom.pycuda.autoinit`: pycuda.autoinit's counterpart.

Makes a context on the first device (a GPU, or cpu() where loom runs kernels there) and
exposes it as `context` and its device as `device`; the context is popped at exit, as
PyCUDA's is.
"""
import atexit

from . import driver as _driver

_driver.init()
device = _driver.Device(0)
context = device.make_context()


def _pop():
    if _driver.Context.get_current() is context:
        context.pop()


atexit.register(_pop)
