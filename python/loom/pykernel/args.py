"""Numba's argument hints for host arrays passed to kernels: cuda.In(a) is copied to the device
and not back, cuda.Out(a) is copied back and not to the device, cuda.InOut(a) both (what a bare
NumPy array gets). wrap_arg and a kernel's `extensions` (objects whose prepare_args(ty, val,
**kwargs) may rewrite each argument before the launch) are Numba's hooks for choosing them.
dispatcher.py's _convert_args honours them; an array already on a device ignores them."""


class ArgHint:
    copy_in = copy_out = True

    def __init__(self, value):
        self.value = value

    def __repr__(self):
        return f"cuda.{type(self).__name__}({self.value!r})"


class In(ArgHint):
    copy_out = False


class Out(ArgHint):
    copy_in = False


class InOut(ArgHint):
    pass


def wrap_arg(value, default=InOut):
    """`value` with its hint: itself when it has one, else `default(value)`."""
    return value if isinstance(value, ArgHint) else default(value)


def unwrap(value):
    """(the value, its hint or None)."""
    return (value.value, value) if isinstance(value, ArgHint) else (value, None)
