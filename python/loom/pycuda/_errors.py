"""pycuda.driver's exception classes. loom's own errors keep their types (CompileError,
DeviceMismatchError, ValueError...); these are for the calls only the PyCUDA layer makes."""
import loom


class Error(Exception):
    """Base of PyCUDA's driver errors."""


class LogicError(Error):
    """A call that makes no sense in the current state (PyCUDA's LogicError)."""


class LaunchError(Error):
    """A kernel launch failed."""


class RuntimeError(Error):  # noqa: A001 - PyCUDA's name
    """The driver failed at run time."""


class MemoryError(Error):  # noqa: A001 - PyCUDA's name
    """Out of device memory."""


CompileError = loom.CompileError
