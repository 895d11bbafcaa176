"""cupy.testing._helper, the private module CuPy's SciPy tests import two helpers from:
is_after_baseline and skip_if_after_baseline (CuPy's semantics: a version cut-off newer than the
oldest NumPy/SciPy CuPy supports skips a test where that version is installed). The other
helpers are the shim's (_helpers.py)."""
import pytest
from packaging.version import Version

from ._helpers import *  # noqa: F401,F403
from ._helpers import installed

# The oldest NumPy and SciPy that CuPy (at the commit the suites were measured with) supports.
_NUMPY_BASELINE = "2.3"
_SCIPY_BASELINE = "1.14"


def is_after_baseline(*, numpy=None, scipy=None):
    """True when the cut-off (exactly one of numpy= and scipy=) is newer than its baseline."""
    if (numpy is None) == (scipy is None):
        raise ValueError("Exactly one of numpy or scipy must be specified.")
    if numpy is not None:
        return Version(numpy) > Version(_NUMPY_BASELINE)
    return Version(scipy) > Version(_SCIPY_BASELINE)


def skip_if_after_baseline(*, numpy=None, scipy=None, reason=""):
    """Skips the test where numpy (scipy) >= the cut-off is installed and the cut-off is newer
    than the baseline."""
    def wrapper(func):
        if numpy is not None and is_after_baseline(numpy=numpy):
            func = pytest.mark.skipif(installed(f"numpy>={numpy}"), reason=reason)(func)
        if scipy is not None and is_after_baseline(scipy=scipy):
            func = pytest.mark.skipif(installed(f"scipy>={scipy}"), reason=reason)(func)
        return func
    return wrapper
