"""The decorators that run a test body twice, with xp=numpy and xp=cupy (loom), and compare:
the results (allclose, equal, almost equal, ulp, less), or the exceptions when either raises
(both must raise errors of the same public kinds, and accept_error must accept them)."""
import numpy

import loom

from ._array import (assert_allclose, assert_array_almost_equal, assert_array_almost_equal_nulp, assert_array_equal,
                     assert_array_less, assert_array_max_ulp, host)
from ._loops import _SKIP, float_dtypes, hide_arguments, signed_dtypes, unsigned_dtypes

# Errors told apart: a loom error and a NumPy error match when each is an instance of the same
# ones of these.
_PUBLIC_ERRORS = (AttributeError, Exception, IndexError, TypeError, ValueError, NotImplementedError,
                  DeprecationWarning, numpy.exceptions.AxisError, numpy.linalg.LinAlgError)


def _modules(xp_is_numpy, name, sp_name, scipy_name):
    if xp_is_numpy:
        import scipy
        import scipy.sparse
        mods = {name: numpy, sp_name: scipy.sparse, scipy_name: scipy}
    else:
        import cupy
        import cupyx
        mods = {name: cupy}
        if sp_name:
            mods[sp_name] = cupyx.scipy.sparse  # an AttributeError naming cupyx.scipy
        if scipy_name:
            mods[scipy_name] = cupyx.scipy
    return {k: v for k, v in mods.items() if k is not None}


def _call(impl, args, kw, xp_is_numpy, name, sp_name, scipy_name):
    """(result, None) or (None, the exception the body raised)."""
    kw = {**kw, **_modules(xp_is_numpy, name, sp_name, scipy_name)}
    try:
        return impl(*args, **kw), None
    except (Exception, *_SKIP) as e:
        if e.__traceback__.tb_next is None:  # the call itself failed (a wrong argument): not the body
            raise
        return None, e


def _both(impl, args, kw, name, sp_name, scipy_name):
    c = _call(impl, args, kw, False, name, sp_name, scipy_name)
    n = _call(impl, args, kw, True, name, sp_name, scipy_name)
    return c + n


def _line(e):
    return f"{type(e).__name__}: {e}"


def check_errors(cupy_error, numpy_error, accept_error=False):
    """Raises unless both raised the same kinds of errors and accept_error accepts them."""
    if isinstance(cupy_error, _SKIP) and isinstance(numpy_error, _SKIP):
        if type(cupy_error) is not type(numpy_error) or cupy_error.args != numpy_error.args:
            raise AssertionError(f"loom and NumPy skipped differently: {_line(cupy_error)}; {_line(numpy_error)}")
        raise numpy_error
    accept = Exception if accept_error is True else (accept_error or ())
    if cupy_error is None and numpy_error is None:
        raise AssertionError("loom and NumPy were both expected to raise, and neither did")
    if numpy_error is None:
        cupy_error.add_note("(NumPy raised nothing)")
        raise cupy_error
    if cupy_error is None:
        raise AssertionError(f"only NumPy raised: {_line(numpy_error)}") from numpy_error
    if any(isinstance(cupy_error, t) != isinstance(numpy_error, t) for t in _PUBLIC_ERRORS):
        raise AssertionError(f"loom raised {_line(cupy_error)}; NumPy raised {_line(numpy_error)}") from cupy_error
    if not (isinstance(cupy_error, accept) and isinstance(numpy_error, accept)):
        cupy_error.add_note(f"(NumPy raised {_line(numpy_error)} too, an error the test does not accept)")
        raise cupy_error


def _sparse_pair(c, n):
    """Two sparse results (loom.scipy.sparse's and SciPy's) as their dense arrays (toarray, in
    each format's own order), once their formats and shapes agree, as CuPy's comparison does;
    None when neither is sparse."""
    import scipy.sparse
    from loom.scipy import sparse as loom_sparse
    c_sparse, n_sparse = loom_sparse.issparse(c), scipy.sparse.issparse(n)
    if not (c_sparse or n_sparse):
        return None
    if not (c_sparse and n_sparse):
        raise AssertionError(f"loom and SciPy return different kinds of results: loom {type(c).__name__}, "
                             f"SciPy {type(n).__name__}")
    if c.format != n.format:
        raise AssertionError(f"sparse formats differ: loom {c.format}, SciPy {n.format}")
    if tuple(c.shape) != tuple(n.shape):
        raise AssertionError(f"sparse shapes differ: loom {tuple(c.shape)}, SciPy {tuple(n.shape)}")
    return c.toarray(), n.toarray()


def _pair(c, n):
    """The two results as (loom or NumPy array/scalar, NumPy array/scalar), or AssertionError."""
    sparse = _sparse_pair(c, n)
    if sparse is not None:
        return sparse
    if isinstance(c, loom.ndarray) and isinstance(n, (numpy.ndarray, numpy.generic)):
        return c, n
    if isinstance(c, numpy.generic) and isinstance(n, numpy.generic):
        return c, n
    if numpy.isscalar(c) and numpy.isscalar(n):
        return numpy.array(c), numpy.array(n)
    raise AssertionError(f"loom and NumPy return different kinds of results: loom {type(c).__name__}, "
                         f"NumPy {type(n).__name__}")


def _signed(kw):
    return {k: (numpy.dtype(v.char.lower() if isinstance(v, numpy.dtype) else numpy.dtype(v).char.lower()).type
                if v in unsigned_dtypes else v) for k, v in kw.items()}


def _mixes_signs(kw):
    values = {v for v in kw.values() if isinstance(v, type) and issubclass(v, numpy.generic)}
    return bool(values & set(unsigned_dtypes)) and bool(values & set(float_dtypes + signed_dtypes))


def compare_with(check, name="xp", type_check=True, contiguous_check=False, accept_error=False,
                 sp_name=None, scipy_name=None):
    """A decorator: runs the body with NumPy and loom, then check(loom_result, numpy_result) on
    each pair of host arrays."""
    def decorate(impl):
        @hide_arguments(impl, *(x for x in (name, sp_name, scipy_name) if x))
        def test(*args, **kw):
            c_out, c_err, n_out, n_err = _both(impl, args, kw, name, sp_name, scipy_name)
            if c_err is not None or n_err is not None:
                check_errors(c_err, n_err, accept_error)
                return
            c_out = c_out if isinstance(c_out, (tuple, list)) else (c_out,)
            n_out = n_out if isinstance(n_out, (tuple, list)) else (n_out,)
            if len(c_out) != len(n_out):
                raise AssertionError(f"loom returns {len(c_out)} results, NumPy {len(n_out)}")
            pairs = [_pair(c, n) for c, n in zip(c_out, n_out)]
            for c, n in pairs:
                if type_check and numpy.dtype(c.dtype) != n.dtype:
                    raise AssertionError(f"dtypes differ: loom {numpy.dtype(c.dtype)}, NumPy {n.dtype}")
                if contiguous_check and isinstance(n, numpy.ndarray) and isinstance(c, loom.ndarray):
                    for flag in ("c_contiguous", "f_contiguous"):
                        if getattr(n.flags, flag) and not getattr(c.flags, flag):
                            raise AssertionError(f"the NumPy result is {flag}, the loom result is not")
                if tuple(c.shape) != tuple(n.shape):
                    raise AssertionError(f"shapes differ: loom {tuple(c.shape)}, NumPy {n.shape}")
            masks = [None] * len(pairs)
            if _mixes_signs(kw) and any(numpy.dtype(c.dtype).type in unsigned_dtypes for c, _ in pairs):
                # A negative value cast to an unsigned type is undefined (CPUs and GPUs differ):
                # compare only where the same body with signed types gives values >= 0.
                signed_out, err = _call(impl, args, _signed(kw), False, name, sp_name, scipy_name)
                if err is not None:
                    raise err
                signed_out = signed_out if isinstance(signed_out, (tuple, list)) else (signed_out,)
                masks = [numpy.asarray(host(s)) >= 0 if numpy.dtype(c.dtype).type in unsigned_dtypes else None
                         for s, (c, _) in zip(signed_out, pairs)]
            for (c, n), mask in zip(pairs, masks):
                c = host(c)
                if mask is not None:
                    if numpy.ndim(c) == 0:
                        if not mask.all():
                            continue
                    else:
                        c, n = numpy.asarray(c)[mask], numpy.asarray(n)[mask]
                check(c, n)
        return test
    return decorate


def _tolerance_keys(tol):
    """A tolerance dict keyed by NumPy scalar types: CuPy's tests key it by cupy.float32 and
    the like, which are loom's dtypes here (numpy.dtype reads them)."""
    if not isinstance(tol, dict):
        return tol
    out = {}
    for k, v in tol.items():
        try:
            out[k if k == "default" else numpy.dtype(k).type] = v
        except TypeError:
            raise TypeError(f"tolerance dict keys must be dtypes (numpy.float32) or 'default', not {k!r}") from None
    return out


def _tolerance(tol, dtype):
    if not isinstance(tol, dict):
        return tol
    value = tol.get(numpy.dtype(dtype).type, tol.get("default"))
    if value is None:
        raise TypeError(f"no tolerance given for {numpy.dtype(dtype)}")
    return value


def numpy_cupy_allclose(rtol=1e-7, atol=0, err_msg="", verbose=True, name="xp", type_check=True,
                        accept_error=False, sp_name=None, scipy_name=None, contiguous_check=True,
                        *, _check_sparse_format=True):
    rtol, atol = _tolerance_keys(rtol), _tolerance_keys(atol)
    if not type_check and (isinstance(rtol, dict) or isinstance(atol, dict)):
        raise TypeError("with type_check=False, rtol and atol must be numbers")

    def check(c, n):
        dtype = numpy.asarray(c).dtype
        assert_allclose(c, n, _tolerance(rtol, dtype), _tolerance(atol, dtype), err_msg=err_msg, verbose=verbose)
    return compare_with(check, name, type_check, contiguous_check, accept_error, sp_name, scipy_name)


def numpy_cupy_array_equal(err_msg="", verbose=True, name="xp", type_check=True, accept_error=False,
                           sp_name=None, scipy_name=None, strides_check=False):
    def check(c, n):
        assert_array_equal(c, n, err_msg, verbose, strides_check=strides_check)
    return compare_with(check, name, type_check, False, accept_error, sp_name, scipy_name)


def numpy_cupy_array_almost_equal(decimal=6, err_msg="", verbose=True, name="xp", type_check=True,
                                  accept_error=False, sp_name=None, scipy_name=None):
    def check(c, n):
        assert_array_almost_equal(c, n, decimal, err_msg, verbose)
    return compare_with(check, name, type_check, False, accept_error, sp_name, scipy_name)


def numpy_cupy_array_almost_equal_nulp(nulp=1, name="xp", type_check=True, accept_error=False, sp_name=None,
                                       scipy_name=None):
    return compare_with(lambda c, n: assert_array_almost_equal_nulp(c, n, nulp), name, type_check, False,
                        accept_error, sp_name, scipy_name)


def numpy_cupy_array_max_ulp(maxulp=1, dtype=None, name="xp", type_check=True, accept_error=False, sp_name=None,
                             scipy_name=None):
    return compare_with(lambda c, n: assert_array_max_ulp(c, n, maxulp, dtype), name, type_check, False,
                        accept_error, sp_name, scipy_name)


def numpy_cupy_array_less(err_msg="", verbose=True, name="xp", type_check=True, accept_error=False, sp_name=None,
                          scipy_name=None):
    return compare_with(lambda c, n: assert_array_less(c, n, err_msg, verbose), name, type_check, False,
                        accept_error, sp_name, scipy_name)


def numpy_cupy_array_list_equal(err_msg="", verbose=True, name="xp", sp_name=None, scipy_name=None):
    return compare_with(lambda c, n: assert_array_equal(c, n, err_msg, verbose), name, False, False, False,
                        sp_name, scipy_name)


def numpy_cupy_equal(name="xp", sp_name=None, scipy_name=None):
    """The two results must be equal as Python values (==)."""
    def decorate(impl):
        @hide_arguments(impl, *(x for x in (name, sp_name, scipy_name) if x))
        def test(*args, **kw):
            c_out, c_err, n_out, n_err = _both(impl, args, kw, name, sp_name, scipy_name)
            if c_err is not None or n_err is not None:
                check_errors(c_err, n_err, False)
                return
            if c_out != n_out:
                raise AssertionError(f"results differ:\nloom: {c_out}\nNumPy: {n_out}")
        return test
    return decorate


def numpy_cupy_raises(name="xp", sp_name=None, scipy_name=None, accept_error=Exception):
    """Both must raise errors of the same kinds."""
    def decorate(impl):
        @hide_arguments(impl, *(x for x in (name, sp_name, scipy_name) if x))
        def test(*args, **kw):
            c_out, c_err, n_out, n_err = _both(impl, args, kw, name, sp_name, scipy_name)
            check_errors(c_err, n_err, accept_error)
        return test
    return decorate



