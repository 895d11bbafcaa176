"""Errors of the Python kernel translator: each names the Python file and line.

TypingError (a TypeError) is raised when a kernel cannot be typed: an undefined name, types
that cannot be unified, a wrong argument. UnsupportedError (a TypingError) is raised for a
construct kernels do not support (lists, dicts, strings, exceptions, recursion, calls to
ordinary Python functions); DESIGN.md §4 calls it KernelSyntaxError, an alias.
"""


class TypingError(TypeError):
    """A Python kernel or device function could not be typed (names the file and line)."""


class UnsupportedError(TypingError):
    """A Python construct that kernels do not support (names the file and line)."""


KernelSyntaxError = UnsupportedError


class LaunchConfigError(TypeError, ValueError):
    """A kernel called without kernel[griddim, blockdim]: Numba raises ValueError, loom raised
    TypeError; both catch it."""


class DeviceFunctionLaunchError(TypeError, RuntimeError):
    """A device function launched as a kernel: Numba raises RuntimeError, loom raised
    TypeError; both catch it."""


class Location:
    """Where a node of a kernel's source is: file, line, and the source line's text."""

    def __init__(self, filename, line, text, col=None):
        self.filename, self.line, self.text, self.col = filename, line, text, col

    def __str__(self):
        s = f'File "{self.filename}", line {self.line}'
        if self.text:
            s += "\n    " + self.text.strip()
            if self.col is not None:
                indent = len(self.text) - len(self.text.lstrip())
                s += "\n    " + " " * max(0, self.col - indent) + "^"
        return s


def raise_at(cls, loc, func_name, message):
    """Raise `cls` with "[func] message" and the location below it."""
    raise cls(f"[{func_name}] {message}\n{loc}" if loc else f"[{func_name}] {message}")
