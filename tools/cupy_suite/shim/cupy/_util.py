"""cupy._util as far as the suite's tests read it: CuPy's PerformanceWarning (loom never
issues it); other names are stand-ins that fail on use."""
from ._missing import Missing
from .exceptions import PerformanceWarning  # noqa: F401


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    return Missing(f"{__name__}.{name}")
