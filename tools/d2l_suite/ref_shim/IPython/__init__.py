"""Stand-in for IPython where it is not installed (the reference run draws nothing)."""
from . import display  # noqa: F401
