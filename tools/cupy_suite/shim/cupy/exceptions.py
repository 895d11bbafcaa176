"""cupy.exceptions: CuPy re-exports NumPy's exception and warning types, as loom raises them."""
from numpy.exceptions import AxisError, ComplexWarning, DTypePromotionError, TooHardError, VisibleDeprecationWarning  # noqa: F401


class PerformanceWarning(RuntimeWarning):
    """CuPy's warning for a slow path (cupy._util.PerformanceWarning); loom issues none."""
