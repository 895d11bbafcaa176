"""cupyx as far as the suite's in-scope tests use it: `cupyx.errstate(linalg=...)`, CuPy's
switch between raising LinAlgError and returning NaN for a singular matrix. loom always raises
(API.md: linalg failures raise numpy.linalg.LinAlgError), which is CuPy's `linalg='raise'`:
that setting is accepted, `linalg='ignore'` is not. `cupyx.scipy` is loom.scipy (shim/cupyx/scipy,
imported on first use, as CuPy does). Other cupyx names raise an AttributeError naming them."""
import contextlib
import importlib

import numpy

import cupy  # noqa: F401 - installs the stand-ins for CuPy's internals (cupy._missing)


@contextlib.contextmanager
def errstate(*, linalg=None, **numpy_settings):
    if linalg not in (None, "raise"):
        raise NotImplementedError(f"cupyx.errstate: linalg={linalg!r}: loom always raises LinAlgError")
    with numpy.errstate(**numpy_settings):
        yield


def __getattr__(name):
    if name in ("scipy", "cusparse", "cusolver"):
        return importlib.import_module(f"cupyx.{name}")
    if name.startswith("__"):
        raise AttributeError(name)
    raise AttributeError(f"cupyx.{name}: loom has no equivalent")
