"""numba.cuda.tests.support, the harness's own minimal version: the base TestCase (with
assertPreciseEqual as Numba documents it) and the helpers Numba's CUDA tests import."""
import cmath
import contextlib
import enum
import io
import math
import subprocess
import sys
import tempfile
import unittest
import warnings

import numpy as np

from numba.cuda.core import config

try:
    import cffi  # noqa: F401
    _HAVE_CFFI = True
except ImportError:
    _HAVE_CFFI = False

skip_unless_cffi = unittest.skipUnless(_HAVE_CFFI, "requires cffi")
linux_only = unittest.skipIf(not sys.platform.startswith("linux"), "linux only test")
windows_only = unittest.skipIf(not sys.platform.startswith("win"), "Windows only test")


def captured_stdout():
    return contextlib.redirect_stdout(io.StringIO())


def captured_stderr():
    return contextlib.redirect_stderr(io.StringIO())


@contextlib.contextmanager
def override_config(name, value):
    """Sets numba.cuda.config.<name> for the block (it must exist; loom reads none of them)."""
    old = getattr(config, name)
    setattr(config, name, value)
    try:
        yield
    finally:
        setattr(config, name, old)


def ignore_internal_warnings():
    warnings.filterwarnings("ignore", module="typeguard")


def temp_directory(prefix):
    return tempfile.mkdtemp(prefix=prefix + "-")


def run_in_subprocess(code, flags=(), env=None, timeout=30):
    """Runs Python `code` in a fresh interpreter; returns (stdout, stderr)."""
    try:
        proc = subprocess.run([sys.executable, *flags, "-c", code], env=env, check=True,
                              capture_output=True, text=True, timeout=timeout)
    except subprocess.CalledProcessError as e:
        raise AssertionError(f"process failed with code {e.returncode}: stderr:\n{e.stderr}") from e
    return proc.stdout, proc.stderr


class TestCase(unittest.TestCase):
    longMessage = True

    @property
    def random(self):
        return np.random.RandomState(42)

    @staticmethod
    def reset_module_warnings(module):
        """Forget the warnings `module` (a name or a module) has shown, so that they show again."""
        import sys
        mod = sys.modules.get(module) if isinstance(module, str) else module
        if mod is not None and hasattr(mod, "__warningregistry__"):
            mod.__warningregistry__.clear()

    @contextlib.contextmanager
    def assertTypingError(self):
        from numba.core.errors import TypingError
        with self.assertRaises(TypingError) as cm:
            yield cm

    def assertStridesEqual(self, first, second):
        self.assertEqual(first.shape, second.shape, "shapes differ")
        self.assertEqual(first.itemsize, second.itemsize, "itemsizes differ")
        self.assertEqual(_strides(first), _strides(second), "strides differ")

    def assertPreciseEqual(self, first, second, prec="exact", ulps=1, msg=None, ignore_sign_on_zero=False,
                           abs_tol=None):
        """Arrays: same dtype, shape, strides and mutability, then every element. Sequences:
        element by element. Scalars: the same kind (bool, integer, float, complex); exact
        unless both are inexact and prec is 'single' (24 bits) or 'double' (53 bits), less
        `ulps` bits; NaN equals NaN; the sign of zero counts unless ignore_sign_on_zero;
        abs_tol (a float, or 'eps') accepts any smaller difference."""
        if prec not in ("exact", "single", "double"):
            raise ValueError(f"unsupported precision {prec!r}")
        try:
            self._precise(first, second, prec, ulps, msg, ignore_sign_on_zero, abs_tol)
        except AssertionError as e:
            text = str(e)
        else:
            return
        self.fail(f"when comparing {first} and {second}: {text}")

    def _precise(self, a, b, prec, ulps, msg, ign0, abs_tol):
        fa, fb = _family(a), _family(b)
        self.assertEqual(fa, fb, f"Type Family mismatch. ({fa} != {fb})" + (f": {msg}" if msg else ""))
        if fa == "ndarray":
            self.assertEqual(_canon(a.dtype), _canon(b.dtype))
            self.assertEqual(a.ndim, b.ndim, "different number of dimensions")
            self.assertEqual(a.shape, b.shape, "different shapes")
            self.assertEqual(a.flags.writeable, b.flags.writeable, "different mutability")
            self.assertEqual(_strides(a), _strides(b), "different strides")
            for x, y in zip(a.flat, b.flat):
                self._precise(x, y, prec, ulps, msg, ign0, abs_tol)
            return
        if fa == "sequence":
            self.assertEqual(len(a), len(b), msg=msg)
            for x, y in zip(a, b):
                self._precise(x, y, prec, ulps, msg, ign0, abs_tol)
            return
        if fa == "enum":
            self.assertIs(a.__class__, b.__class__)
            return self._precise(a.value, b.value, prec, ulps, msg, ign0, abs_tol)
        if fa == "unknown":
            self.assertIs(a.__class__, b.__class__)
        if hasattr(a, "dtype") and hasattr(b, "dtype"):
            self.assertEqual(a.dtype, b.dtype)
        if isinstance(a, (bool, np.bool_)) != isinstance(b, (bool, np.bool_)):
            self.fail(f"Mismatching return types ({a.__class__} vs. {b.__class__})")
        try:
            if cmath.isnan(a) and cmath.isnan(b):
                return
        except TypeError:
            pass
        if abs_tol is not None:
            tol = np.finfo(type(a)).eps if abs_tol == "eps" else abs_tol
            if abs(a - b) < tol:
                return
        delta = None
        if fa in ("approximate", "complex") and prec != "exact":
            bits = 24 if prec == "single" else 53
            delta = 2.0 ** (ulps - bits - 1) * (abs(a) + abs(b))
        if fa == "complex":
            self._number(a.real, b.real, delta, msg, ign0)
            self._number(a.imag, b.imag, delta, msg, ign0)
        elif isinstance(a, (np.datetime64, np.timedelta64)) and np.isnat(a):
            self.assertEqual(np.isnat(a), np.isnat(b))
        else:
            self._number(a, b, delta, msg, ign0)

    def _number(self, a, b, delta, msg, ign0):
        try:
            inf = math.isinf(a) or math.isinf(b)
        except TypeError:
            inf = False
        if delta is None or inf or a == b == 0.0:
            self.assertEqual(a, b, msg=msg)
            if not ign0:
                try:
                    if math.copysign(1, a) != math.copysign(1, b):
                        self.fail(self._formatMessage(msg, f"{a} != {b}"))
                except TypeError:
                    pass
        else:
            self.assertAlmostEqual(a, b, delta=delta, msg=msg)


def _family(x):
    if isinstance(x, np.ndarray):
        return "ndarray"
    if isinstance(x, enum.Enum):
        return "enum"
    if isinstance(x, (bool, int, np.bool_, np.integer, str, bytes, np.datetime64, np.timedelta64)):
        return "exact"
    if isinstance(x, (float, np.floating)):
        return "approximate"
    if isinstance(x, (complex, np.complexfloating)):
        return "complex"
    if isinstance(x, (tuple, list)):
        return "sequence"
    return "unknown"


def _canon(dtype):
    return dtype.newbyteorder("=") if dtype.byteorder not in ("=", "|") else dtype


def _strides(a):
    # Strides of length-1 dimensions do not matter.
    return tuple(s for s, n in zip(a.strides, a.shape) if n != 1) if a.size else ()


class MemoryLeakMixin:
    """Numba checks its NRT allocation counters around each test; loom has no NRT."""

    def disable_leak_check(self):
        pass


class CheckWarningsMixin:
    @contextlib.contextmanager
    def check_warnings(self, messages, category=RuntimeWarning):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            yield
        found = 0
        for w in caught:
            for m in messages:
                if m in str(w.message):
                    self.assertEqual(w.category, category)
                    found += 1
        self.assertEqual(found, len(messages))
