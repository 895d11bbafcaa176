from . import backend_inline  # noqa: F401
