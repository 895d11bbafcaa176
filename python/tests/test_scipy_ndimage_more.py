"""loom.scipy.ndimage's derivative and Fourier filters, per-label statistics and the binary
operations built on erosion and dilation, against scipy.ndimage on fresh random images, on
every device."""
import warnings

import numpy as np
import pytest
import scipy.ndimage as nd

import loom
from loom.scipy import ndimage as ln
from scipy_compare import check, same_error


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32, np.uint8])
def test_derivative_filters(device, rng, dtype):
    x = (rng.random((6, 7, 5)) * 50).astype(dtype)
    lx = loom.asarray(x, device=device)
    calls = [("sobel", (), {}), ("sobel", (), {"axis": 0, "mode": "constant", "cval": 1.0}),
             ("prewitt", (), {"axis": 1, "mode": ["reflect", "wrap", "nearest"]}), ("laplace", (), {}),
             ("laplace", (), {"axes": (0, 2), "mode": "mirror"}), ("gaussian_laplace", (1.5,), {}),
             ("gaussian_laplace", ((1.0, 2.0),), {"axes": (1, 2)}), ("gaussian_gradient_magnitude", (1.0,), {}),
             ("gaussian_gradient_magnitude", (0.8,), {"truncate": 2.0, "output": np.float32}),
             # SciPy smooths along the axes left out too (sigma as given, over every axis)
             ("gaussian_gradient_magnitude", (0.7,), {"axes": (0, -1), "mode": ("reflect", "constant"), "cval": 2}),
             ("gaussian_gradient_magnitude", ((0.5, 1.0, 1.5),), {"axes": (1, 2)}),
             ("sobel", (), {"output": np.float64})]
    for name, args, kw in calls:
        want = getattr(nd, name)(x, *args, **kw)
        check(getattr(ln, name)(lx, *args, **kw), want, device=device, rtol=1e-4, int_atol=1)
    check(ln.generic_gradient_magnitude(lx, ln.sobel), nd.generic_gradient_magnitude(x, nd.sobel), int_atol=1)
    check(ln.generic_laplace(lx, lambda v, ax, out, m, c: ln.correlate1d(v, [1, -2, 1], ax, out, m, c)),
          nd.generic_laplace(x, lambda v, ax, out, m, c: nd.correlate1d(v, [1, -2, 1], ax, out, m, c)), int_atol=1)


@pytest.mark.parametrize("shape", [(8,), (6, 9), (4, 5, 6)])
def test_fourier_filters(device, rng, shape):
    x = rng.standard_normal(shape)
    spectra = [(np.fft.fftn(x), -1), (np.fft.fftn(x).astype(np.complex64), -1), (np.fft.rfft(x, axis=-1), shape[-1]),
               (x, -1), (x.astype(np.float32), -1)]
    for spectrum, n in spectra:
        ls = loom.asarray(spectrum, device=device)
        for name, arg in (("fourier_gaussian", 1.3), ("fourier_uniform", 3.0), ("fourier_ellipsoid", 2.5),
                          ("fourier_shift", 1.7), ("fourier_gaussian", [0.5 + i for i in range(len(shape))])):
            check(getattr(ln, name)(ls, arg, n=n), getattr(nd, name)(spectrum, arg, n=n), device=device, rtol=1e-5)
    out = loom.zeros(shape, dtype=loom.complex128, device=device)
    assert ln.fourier_shift(loom.asarray(x, device=device), 0.5, output=out) is out
    check(out, nd.fourier_shift(x, 0.5))


@pytest.mark.parametrize("dtype", [np.int32, np.float64, np.float32])
def test_label_statistics(device, rng, dtype):
    x = (rng.permutation(42).reshape(6, 7) * 1.25).astype(dtype)  # no ties: positions are unique
    lab = rng.integers(0, 4, (6, 7))
    lx, llab = loom.asarray(x, device=device), loom.asarray(lab, device=device)
    for labels, index in ((None, None), (lab, None), (lab, 2), (lab, [1, 2, 3]), (lab, np.array([3, 1]))):
        ll = None if labels is None else llab
        for name in ("minimum", "maximum", "variance", "standard_deviation", "median"):
            check(getattr(ln, name)(lx, ll, index), getattr(nd, name)(x, labels, index), device=device)
        for name in ("minimum_position", "maximum_position"):
            assert getattr(ln, name)(lx, ll, index) == getattr(nd, name)(x, labels, index)
        got, want = ln.extrema(lx, ll, index), nd.extrema(x, labels, index)
        check(got[0], want[0])
        check(got[1], want[1])
        assert got[2:] == want[2:]
    for got, want in zip(ln.histogram(lx, 0, 50, 5, llab, [1, 2]), nd.histogram(x, 0, 50, 5, lab, [1, 2])):
        check(got, want)
    check(ln.histogram(lx, 0, 50, 5), nd.histogram(x, 0, 50, 5))
    check(ln.labeled_comprehension(lx, llab, [1, 2, 7], loom.mean, np.float64, -1.0),
          nd.labeled_comprehension(x, lab, [1, 2, 7], np.mean, np.float64, -1.0), device=device)
    assert ln.find_objects(llab) == nd.find_objects(lab)
    assert ln.find_objects(llab, 6) == nd.find_objects(lab, 6)
    got, want = ln.value_indices(llab, ignore_value=0), nd.value_indices(lab, ignore_value=0)
    assert list(got) == list(want)
    for k in want:
        for g, w in zip(got[k], want[k]):
            check(g, w, device=device)
    check(ln.sum(lx, llab, [1, 2]), nd.sum(x, lab, [1, 2]))


@pytest.mark.parametrize("shape", [(12, 13), (6, 7, 8)])
def test_binary_propagation_fill_holes_hit_or_miss(device, rng, shape):
    x = rng.random(shape) > 0.5
    lx = loom.asarray(x, device=device)
    mask = rng.random(shape) > 0.3
    seed = np.zeros(shape, bool)
    seed[(0,) * len(shape)] = True
    full = nd.generate_binary_structure(len(shape), len(shape))
    check(ln.binary_propagation(loom.asarray(seed, device=device), mask=loom.asarray(mask, device=device)),
          nd.binary_propagation(seed, mask=mask), device=device)
    check(ln.binary_propagation(loom.asarray(seed, device=device), full, mask=loom.asarray(mask, device=device)),
          nd.binary_propagation(seed, full, mask=mask))
    for s in (None, full):
        check(ln.binary_fill_holes(lx, s), nd.binary_fill_holes(x, s), device=device)
        check(ln.binary_hit_or_miss(lx, s), nd.binary_hit_or_miss(x, s), device=device)
    cube = np.ones([3] * len(shape))
    check(ln.binary_hit_or_miss(lx, cube, np.zeros_like(cube)), nd.binary_hit_or_miss(x, cube, np.zeros_like(cube)))
    for axes in ((0, 1), (-1,), (0, -1)):  # the structure spans these axes only
        s = nd.generate_binary_structure(len(axes), 2)
        for name in ("binary_erosion", "binary_dilation", "binary_opening", "binary_closing", "binary_fill_holes",
                     "binary_hit_or_miss"):
            check(getattr(ln, name)(lx, s, axes=axes), getattr(nd, name)(x, s, axes=axes), device=device)
        check(ln.binary_propagation(loom.asarray(seed, device=device), s, mask=loom.asarray(mask, device=device), axes=axes),
              nd.binary_propagation(seed, s, mask=mask, axes=axes))


def test_iterate_structure():
    for s, iterations, origin in ((nd.generate_binary_structure(2, 1), 3, None), (nd.generate_binary_structure(3, 1), 2, None),
                                  (nd.generate_binary_structure(2, 2), 1, None)):
        check(ln.iterate_structure(s, iterations, origin), nd.iterate_structure(s, iterations, origin))
    got, got_origin = ln.iterate_structure(np.ones((3, 2), bool), 3, [0, 1])
    want, want_origin = nd.iterate_structure(np.ones((3, 2), bool), 3, [0, 1])
    check(got, want)
    assert list(got_origin) == list(want_origin)


def check_with_nan(got, want, device):
    """check, where NaN (an empty label's moments, a NaN that propagates) is in the same places."""
    want = np.asarray(want)
    nan = np.isnan(want)
    assert np.array_equal(np.isnan(got.numpy()), nan)
    check(loom.where(loom.isnan(got), 0, got), np.where(nan, 0, want), device=device)


def test_label_statistics_of_thousands_of_labels(device, rng):
    # Segment reductions: memory linear in the elements (an elements x labels mask of this
    # size would be 2 GB of booleans). Distinct values: positions are unique.
    x = rng.permutation(240 * 250).reshape(240, 250) * 0.5
    lab = rng.integers(0, 9000, x.shape)
    present = np.unique(lab[lab != 0])  # SciPy's median of an absent label is whichever element
    index = rng.permutation(present)[:8000].reshape(80, 100)  # an index of two dimensions
    lx, llab = loom.asarray(x, device=device), loom.asarray(lab, device=device)
    for name in ("minimum", "maximum", "variance", "median", "sum_labels", "mean"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # SciPy's 0/0 of labels with no element
            want = getattr(nd, name)(x, lab, index)
        check_with_nan(getattr(ln, name)(lx, llab, index), want, device)
    for name in ("minimum_position", "maximum_position"):
        assert getattr(ln, name)(lx, llab, index[0]) == getattr(nd, name)(x, lab, index[0])


def test_label_statistics_follow_scipy_on_nan_and_empty_labels(device):
    # SciPy reduces one region with NumPy (NaN propagates) and sorts for a sequence of labels
    # (NaN sorts last); labels absent or repeated in index; a label with no element gives 0.
    x = np.array([3.0, np.nan, 1.0, 5.0, 2.0, 2.0, 7.0])
    lab = np.array([1, 1, 1, 2, 2, 2, 0])
    lx, llab = loom.asarray(x, device=device), loom.asarray(lab, device=device)
    for index in (1, None, [1, 2], [2, 9, 1, 1]):
        for name in ("minimum", "maximum", "median"):
            if name == "median" and np.ndim(index) and 9 in index:
                continue  # SciPy's median of an absent label is whichever element it indexes; loom's is 0
            check_with_nan(getattr(ln, name)(lx, llab, index), getattr(nd, name)(x, lab, index), device)
    check(ln.median(lx, llab, [9, 1]), np.array([0.0, 3.0]), device=device)
    assert ln.maximum_position(lx, llab, [2, 9]) == nd.maximum_position(x, lab, [2, 9])
    check(ln.minimum(lx, llab, []), nd.minimum(x, lab, []), device=device)


@pytest.mark.parametrize("shape, dtype", [((6, 7), np.int8), ((300, 2), np.int16), ((1, 40000), np.int32)])
def test_value_indices_adaptive_index_dtype(device, rng, shape, dtype):
    lab = rng.integers(0, 3, shape)
    got = ln.value_indices(loom.asarray(lab, device=device), adaptive_index_dtype=True)
    want = nd.value_indices(lab)
    assert list(got) == list(want)
    for k in want:
        for g, w in zip(got[k], want[k]):
            assert g.dtype == dtype
            check(g.astype(loom.int64), w, device=device)


def test_center_of_mass_and_comprehension_rules(device, rng):
    x = rng.random((5, 6)).astype(np.float32)
    lab = rng.integers(0, 3, (1, 6))  # broadcast over the rows
    lx, llab = loom.asarray(x, device=device), loom.asarray(lab, device=device)
    for labels, index in ((None, None), (lab, None), (lab, 1), (lab, [1, 2])):
        got = ln.center_of_mass(lx, None if labels is None else llab, index)
        want = nd.center_of_mass(x, None if labels is None else np.broadcast_to(lab, x.shape), index)
        for g, w in zip(got if isinstance(got, list) else [got], want if isinstance(want, list) else [want]):
            for gc, wc in zip(g, w):
                check(gc, np.asarray(wc), device=device)  # float64 coordinates, as SciPy's
    same_error(lambda: ln.center_of_mass(loom.asarray(1.5, device=device)), lambda: nd.center_of_mass(np.array(1.5)))
    f = lambda v, p: (v * p).sum()  # noqa: E731
    got = ln.labeled_comprehension(lx, llab, None, f, np.float64, 0, pass_positions=True)
    want = nd.labeled_comprehension(x, np.broadcast_to(lab, x.shape), None, f, np.float64, 0, pass_positions=True)
    np.testing.assert_allclose(float(got), want, rtol=1e-6)


@pytest.mark.parametrize("output", [np.int8, "int8"])
def test_label_refuses_an_output_type_too_small(device, output):
    # SciPy raises RuntimeError, CuPy ValueError: loom's error is both
    img, structure = np.ones(130, np.int8), np.zeros(3, bool)
    with pytest.raises(RuntimeError):
        nd.label(img, output=output, structure=structure)
    for kind in (RuntimeError, ValueError):
        with pytest.raises(kind, match="label"):
            ln.label(loom.asarray(img, device=device), output=output, structure=structure)
    _, count = ln.label(loom.asarray(img, device=device), output=np.int16, structure=structure)
    assert count == 130


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int32, np.float32, np.float64, np.bool_])
def test_label_sums_have_scipys_dtypes(device, rng, dtype):
    # One region is NumPy's sum (ints to int64, float32 kept), a sequence bincount's float64
    x = rng.integers(0, 5, (4, 6)).astype(dtype)
    lab = rng.integers(0, 3, (4, 6))
    lx, llab = loom.asarray(x, device=device), loom.asarray(lab, device=device)
    for index in (None, 1, [1, 2]):
        for name in ("sum_labels", "sum", "mean"):
            check(getattr(ln, name)(lx, llab, index), getattr(nd, name)(x, lab, index), device=device)


def test_empty_label_moments_are_nan(device):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = nd.variance(np.arange(4.0), np.array([1, 1, 2, 2]), [1, 5])
    got = ln.variance(loom.arange(4.0, device=device), loom.asarray([1, 1, 2, 2], device=device), [1, 5])
    np.testing.assert_allclose(got.numpy(), want)
    assert np.isnan(got.numpy()[1])


def test_measurement_errors_and_casts(device, rng):
    x = rng.random(20) + 1j
    lab = rng.integers(0, 3, 20)
    lx, llab = loom.asarray(x, device=device), loom.asarray(lab, device=device)
    for name in ("sum", "mean", "variance", "standard_deviation", "center_of_mass"):
        same_error(lambda: getattr(ln, name)(lx, llab, [1, 2]), lambda: getattr(nd, name)(x, lab, [1, 2]))
    same_error(lambda: ln.histogram(lx.real, 0, 1, 4, None, [1]), lambda: nd.histogram(x.real, 0, 1, 4, None, [1]))
    same_error(lambda: ln.labeled_comprehension(lx.real, None, [1], loom.sum, float, 0),
               lambda: nd.labeled_comprehension(x.real, None, [1], np.sum, float, 0))
    big = rng.integers(0, 101, 200).astype(np.uint8)  # label sums past 255 wrap in a uint8 output
    lab2 = rng.integers(0, 4, 200)
    check(ln.labeled_comprehension(loom.asarray(big, device=device), loom.asarray(lab2, device=device), [1, 2], loom.sum,
                                   np.uint8, 0),
          nd.labeled_comprehension(big, lab2, [1, 2], np.sum, np.uint8, 0))


@pytest.mark.parametrize("axes", [(0, 1), (-2, -1), (0, -1)])
def test_grey_morphology_axes(device, rng, axes):
    x = rng.standard_normal((3, 4, 7, 8))
    lx = loom.asarray(x, device=device)
    for name in ("grey_erosion", "grey_dilation", "grey_opening", "grey_closing", "morphological_gradient",
                 "morphological_laplace", "white_tophat", "black_tophat"):
        for kw in ({"size": 3}, {"footprint": np.array([[1, 0, 1], [1, 1, 0]], bool)},
                   {"structure": rng.random((3, 2)), "mode": "constant"}, {"size": (2, 3), "origin": (0, -1)}):
            check(getattr(ln, name)(lx, axes=axes, **kw), getattr(nd, name)(x, axes=axes, **kw), device=device)


@pytest.mark.parametrize("name", ["white_tophat", "black_tophat"])
@pytest.mark.parametrize("dtype", [np.int32, np.float64, np.bool_])
@pytest.mark.parametrize("output", [None, np.float32, np.int32, "array"])
def test_tophats_take_the_output_dtype(device, rng, name, dtype, output):
    """SciPy makes the opening (closing) in the output's dtype and subtracts there: a float32
    output gives float32, an int32 one refuses a float input (NumPy's same_kind rule)."""
    x = (rng.random((6, 8)) * 10).astype(dtype)
    lx = loom.asarray(x, device=device)

    def run(xp, mod, a):
        out = xp.zeros(a.shape, dtype=np.float32, **({"device": device} if xp is loom else {})) \
            if output == "array" else output
        r = getattr(mod, name)(a, 3, output=out)
        return r, out
    if dtype == np.float64 and output is np.int32:
        for xp, mod, a in ((np, nd, x), (loom, ln, lx)):  # NumPy's UFuncTypeError is a TypeError
            with pytest.raises(TypeError, match="Cannot cast ufunc 'subtract' output"):
                run(xp, mod, a)
        return
    (got, lout), (want, nout) = run(loom, ln, lx), run(np, nd, x)
    if output == "array":
        assert got is lout
    check(got, want if want is not None else nout, device=device)


@pytest.mark.parametrize("name", ["correlate", "convolve", "correlate1d", "convolve1d"])
@pytest.mark.parametrize("dtype, wdtype", [(np.uint8, np.complex64), (np.float32, np.complex128),
                                           (np.complex64, np.float32), (np.complex128, np.complex64)])
@pytest.mark.parametrize("output", [None, np.float64, "f", "real array", "array"])
def test_complex_weights_and_inputs(device, rng, name, dtype, wdtype, output):
    """Complex input or weights: SciPy's complex result (correlation conjugates the weights, as
    numpy.correlate), its dtype, and its warning or error for a real output."""
    def cplx(shape, dt):
        v = rng.random(shape) * 10
        return (v + 1j * rng.random(shape)).astype(dt) if np.dtype(dt).kind == "c" else v.astype(dt)
    x, w = cplx((6, 7), dtype), cplx((3,) if name.endswith("1d") else (3, 2), wdtype)

    def out(xp):
        if output in ("array", "real array"):
            where = {"device": device} if xp is loom else {}
            return xp.zeros((6, 7), dtype=np.complex128 if output == "array" else np.float64, **where)
        return output
    lx, lw = loom.asarray(x, device=device), loom.asarray(w, device=device)
    if output in ("f", "real array"):
        same_error(lambda: getattr(ln, name)(lx, lw, output=out(loom)), lambda: getattr(nd, name)(x, w, output=out(np)))
        return
    with warnings.catch_warnings(record=True) as got_w:
        warnings.simplefilter("always")
        got = getattr(ln, name)(lx, lw, output=out(loom))
    with warnings.catch_warnings(record=True) as want_w:
        warnings.simplefilter("always")
        want = getattr(nd, name)(x, w, output=out(np))
    assert [str(m.message) for m in got_w] == [str(m.message) for m in want_w]
    check(got, want, device=device, rtol=1e-5)


def test_generic_derivative_protocol_is_scipys(device, rng):
    """The first axis's derivative is written into the output array (its return ignored), the
    others get the output's numpy.dtype and return arrays: a callback written for SciPy (as
    CuPy's tests write it) works unchanged."""
    def derivative(xp):
        def f(inp, axis, output, mode, cval):
            if output is not None and not isinstance(output, np.dtype):
                output[...] = inp + axis
                return None
            return inp + axis
        return f
    for dtype in (np.uint8, np.float64):
        x = (rng.random((4, 5, 3)) * 20).astype(dtype)
        lx = loom.asarray(x, device=device)
        for name in ("generic_laplace", "generic_gradient_magnitude"):
            check(getattr(ln, name)(lx, derivative(loom)), getattr(nd, name)(x, derivative(np)), device=device)


@pytest.mark.parametrize("name", ["binary_erosion", "binary_dilation", "binary_opening", "binary_closing"])
@pytest.mark.parametrize("structure", [2, 3, (3, 1), (1, 3), (2, 3)])
def test_binary_structure_as_a_shape(device, rng, name, structure):
    """CuPy's extension where SciPy refuses: an int or a tuple of ndim ints is a structure of
    ones of that shape; the result is the one of the equivalent array."""
    x = rng.random((8, 9)) < 0.5
    shape = (structure,) * 2 if isinstance(structure, int) else structure
    got = getattr(ln, name)(loom.asarray(x, device=device), structure, border_value=1)
    check(got, getattr(nd, name)(x, np.ones(shape, bool), border_value=1), device=device)
