"""CuPy's assertion functions: NumPy's, on host copies of loom arrays (and of lists of them)."""
import numpy
import numpy.testing as npt

import loom


def host(x):
    """x with every loom array in it (also inside lists and tuples) copied to a NumPy array."""
    if isinstance(x, loom.ndarray):
        return x.numpy()
    if isinstance(x, (list, tuple)):
        return type(x)(host(v) for v in x)
    return x


def assert_allclose(actual, desired, rtol=1e-7, atol=0, equal_nan=True, err_msg="", verbose=True, *, strict=False):
    npt.assert_allclose(host(actual), host(desired), rtol=rtol, atol=atol, equal_nan=equal_nan,
                        err_msg=err_msg, verbose=verbose, strict=strict)


def assert_array_almost_equal(actual, desired, decimal=6, err_msg="", verbose=True):
    npt.assert_array_almost_equal(host(actual), host(desired), decimal=decimal, err_msg=err_msg, verbose=verbose)


def assert_array_almost_equal_nulp(x, y, nulp=1):
    npt.assert_array_almost_equal_nulp(host(x), host(y), nulp=nulp)


def assert_array_max_ulp(a, b, maxulp=1, dtype=None):
    npt.assert_array_max_ulp(host(a), host(b), maxulp=maxulp, dtype=dtype)


def assert_array_equal(actual, desired, err_msg="", verbose=True, *, strict=False, strides_check=False):
    npt.assert_array_equal(host(actual), host(desired), err_msg=err_msg, verbose=verbose, strict=strict)
    if strides_check and tuple(actual.strides) != tuple(desired.strides):
        raise AssertionError(f"strides differ: {actual.strides} and {desired.strides}" + (f"\n{err_msg}" if err_msg else ""))


def assert_array_list_equal(xlist, ylist, err_msg="", verbose=True):
    if len(xlist) != len(ylist):
        raise AssertionError(f"lists of different lengths: {len(xlist)} and {len(ylist)}")
    for x, y in zip(xlist, ylist):
        npt.assert_array_equal(host(x), host(y), err_msg=err_msg, verbose=verbose)


def assert_array_less(x, y, err_msg="", verbose=True):
    npt.assert_array_less(host(x), host(y), err_msg=err_msg, verbose=verbose)


def as_host_array(x):
    """A result as a NumPy array or scalar (0-d loom arrays stay arrays)."""
    x = host(x)
    return x if isinstance(x, (numpy.ndarray, numpy.generic)) else numpy.asarray(x)
