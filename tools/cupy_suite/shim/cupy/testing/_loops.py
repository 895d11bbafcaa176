"""The dtype and order decorators: the test body runs once per dtype (or order), the value
passed as a keyword; a failure names the value it failed with."""
import functools
import inspect
import itertools
import unittest

import numpy
import pytest

_SKIP = (unittest.SkipTest, pytest.skip.Exception)

complex_dtypes = (numpy.complex64, numpy.complex128)
regular_float_dtypes = (numpy.float64, numpy.float32)
float_dtypes = regular_float_dtypes + (numpy.float16,)
signed_dtypes = tuple(numpy.dtype(c).type for c in "bhilq")
unsigned_dtypes = tuple(numpy.dtype(c).type for c in "BHILQ")
int_dtypes = signed_dtypes + unsigned_dtypes
int_bool_dtypes = int_dtypes + (numpy.bool_,)


def hide_arguments(impl, *names):
    """A wrapper's metadata: impl's name and signature less the arguments the decorator fills
    in (so pytest does not look for fixtures of those names)."""
    def decorate(wrapper):
        wrapper = functools.wraps(impl)(wrapper)
        sig = inspect.signature(impl)
        wrapper.__signature__ = sig.replace(parameters=[p for n, p in sig.parameters.items() if n not in names])
        return wrapper
    return decorate


def _run_each(impl, args, kw, settings):
    """impl(*args, **kw | s) for each s of settings; skips of one setting are skips of it alone."""
    for s in settings:
        try:
            impl(*args, **{**kw, **s})
        except _SKIP:
            continue
        except Exception as e:
            e.add_note(f"with {', '.join(f'{k} = {v!r}' for k, v in s.items())}")
            raise


def for_dtypes(dtypes, name="dtype"):
    def decorate(impl):
        @hide_arguments(impl, name)
        def test(*args, **kw):
            _run_each(impl, args, kw, [{name: numpy.dtype(d).type} for d in dtypes])
        return test
    return decorate


def all_dtypes(no_float16=False, no_bool=False, no_complex=False):
    dtypes = regular_float_dtypes if no_float16 else float_dtypes
    dtypes += int_dtypes if no_bool else int_bool_dtypes
    return dtypes if no_complex else dtypes + complex_dtypes


def for_all_dtypes(name="dtype", no_float16=False, no_bool=False, no_complex=False):
    return for_dtypes(all_dtypes(no_float16, no_bool, no_complex), name=name)


def for_float_dtypes(name="dtype", no_float16=False):
    return for_dtypes(regular_float_dtypes if no_float16 else float_dtypes, name=name)


def for_signed_dtypes(name="dtype"):
    return for_dtypes(signed_dtypes, name=name)


def for_unsigned_dtypes(name="dtype"):
    return for_dtypes(unsigned_dtypes, name=name)


def for_int_dtypes(name="dtype", no_bool=False):
    return for_dtypes(int_dtypes if no_bool else int_bool_dtypes, name=name)


def for_complex_dtypes(name="dtype"):
    return for_dtypes(complex_dtypes, name=name)


def for_dtypes_combination(types, names=("dtype",), full=None):
    """Every combination of types over names when full, else a sample in which each type
    appears for each name (CuPy's reduced product)."""
    types = [numpy.dtype(t).type for t in types]
    combos = [dict(zip(names, c)) for c in itertools.product(types, repeat=len(names))]
    if not full and len(names) > 1:
        # Each name's column: the types in order (the diagonal), then in a shuffled order of
        # its own; the rows without repeats are the combinations run.
        rng = numpy.random.RandomState(0)
        columns = [types + [types[j] for j in rng.permutation(len(types))] for _ in names]
        rows = list(dict.fromkeys(zip(*columns)))
        combos = [dict(zip(names, r)) for r in rows]

    def decorate(impl):
        @hide_arguments(impl, *names)
        def test(*args, **kw):
            _run_each(impl, args, kw, combos)
        return test
    return decorate


def for_all_dtypes_combination(names=("dtype",), no_float16=False, no_bool=False, full=None, no_complex=False):
    return for_dtypes_combination(all_dtypes(no_float16, no_bool, no_complex), names, full)


def for_signed_dtypes_combination(names=("dtype",), full=None):
    return for_dtypes_combination(signed_dtypes, names, full)


def for_unsigned_dtypes_combination(names=("dtype",), full=None):
    return for_dtypes_combination(unsigned_dtypes, names, full)


def for_int_dtypes_combination(names=("dtype",), no_bool=False, full=None):
    return for_dtypes_combination(int_dtypes if no_bool else int_bool_dtypes, names, full)


def for_orders(orders, name="order"):
    def decorate(impl):
        @hide_arguments(impl, name)
        def test(*args, **kw):
            _run_each(impl, args, kw, [{name: o} for o in orders])
        return test
    return decorate


def for_CF_orders(name="order"):
    return for_orders([None, "C", "F", "c", "f"], name)


def for_contiguous_axes(name="axis"):
    """The axes that are contiguous in kw['order'] for kw['shape']: (n-1,), (n-2, n-1), ... for
    C; (0,), (0, 1), ... for F."""
    def decorate(impl):
        @hide_arguments(impl, name)
        def test(self, *args, **kw):
            ndim, order = len(kw["shape"]), kw["order"]
            if order not in ("c", "C", "f", "F"):
                raise ValueError("for_contiguous_axes: the test must give order C or F")
            if order in ("c", "C"):
                axes = [tuple(range(i, ndim)) for i in range(ndim)]
            else:
                axes = [tuple(range(0, i + 1)) for i in range(ndim)]
            _run_each(lambda *a, **k: impl(self, *a, **k), args, kw, [{name: a} for a in axes])
        return test
    return decorate
