"""loom.scipy.ndimage.distance_transform_edt against scipy.ndimage on fresh random images,
on every device (a CUDA C kernel: on cpu() through the kernel emulator), and its source
through NVRTC."""
import numpy as np
import pytest
import scipy.ndimage as nd
from conftest import needs_nvrtc

import loom
from loom.scipy import ndimage as ln
from loom.scipy.ndimage import _distance
from scipy_compare import check, same_error


@pytest.mark.parametrize("shape, sampling", [((12, 9), None), ((30, 20), (1.5, 1.5)), ((30, 20), (3, 2)),
                                             ((14, 12, 10), None), ((10, 8, 6), (3, 1, 2)), ((7,), None),
                                             ((40, 33), 0.75)])
@pytest.mark.parametrize("foreground", [0.05, 0.5, 0.95])
def test_distances_and_indices(device, rng, shape, sampling, foreground):
    img = rng.random(shape) < foreground
    limg = loom.asarray(img, device=device)
    want_d, want_i = nd.distance_transform_edt(img, sampling=sampling, return_indices=True)
    got_d, got_i = ln.distance_transform_edt(limg, sampling=sampling, return_indices=True)
    check(got_d, want_d, device=device, rtol=1e-12)
    assert got_i.dtype == loom.int32 and got_i.shape == want_i.shape
    # where background elements tie, another nearest one is as right: its distance is the distance
    spacing = np.broadcast_to(np.asarray(1.0 if sampling is None else sampling, float), (len(shape),))
    offsets = (np.indices(shape) - got_i.numpy()) * spacing.reshape((-1,) + (1,) * len(shape))
    np.testing.assert_allclose(np.sqrt((offsets ** 2).sum(0)), want_d, rtol=1e-12)
    assert np.mean(got_i.numpy() == want_i) > 0.95
    check(ln.distance_transform_edt(limg, sampling=sampling), want_d)
    check(ln.distance_transform_edt(limg, sampling=sampling, return_distances=False, return_indices=True),
          got_i.numpy())


def test_in_place_outputs_options_and_errors(device, rng):
    img = rng.random((9, 11)) < 0.6
    limg = loom.asarray(img, device=device)
    want_d, want_i = nd.distance_transform_edt(img, return_indices=True)
    d = loom.empty((9, 11), dtype=loom.float64, device=device)
    i = loom.empty((2, 9, 11), dtype=loom.int32, device=device)
    assert ln.distance_transform_edt(limg, return_indices=True, distances=d, indices=i) is None
    check(d, want_d)
    np.testing.assert_array_equal(i.numpy(), want_i)
    check(ln.distance_transform_edt(limg, float64_distances=False), want_d.astype(np.float32))
    for img0 in (np.ones((3, 4)), np.zeros((3, 4))):  # no background: SciPy's point before row 0
        got = ln.distance_transform_edt(loom.asarray(img0, device=device), return_indices=True)
        want = nd.distance_transform_edt(img0, return_indices=True)
        check(got[0], want[0])
        np.testing.assert_array_equal(got[1].numpy(), want[1])
    for kw in (dict(return_distances=False), dict(distances=np.empty((9, 12))), dict(indices=np.empty((2, 9, 11), np.int32)),
               dict(sampling=(1, 2, 3))):
        lkw = {k: (loom.asarray(v, device=device) if isinstance(v, np.ndarray) else v) for k, v in kw.items()}
        same_error(lambda: ln.distance_transform_edt(limg, **lkw), lambda: nd.distance_transform_edt(img, **kw))


@needs_nvrtc
def test_pass_kernel_compiles_for_a_gpu():
    loom._loom._compile_for_testing(_distance._PASS_SOURCE, "edt_pass", 90)


def test_indices_of_other_integer_types(device, rng):
    img = loom.asarray(rng.random((12, 10)) < 0.7, device=device)
    want = ln.distance_transform_edt(img, return_distances=False, return_indices=True).numpy()
    for dt in (loom.int16, loom.uint16, loom.uint32, loom.int64, loom.uint64):
        out = loom.empty((2, 12, 10), dtype=dt, device=device)
        ln.distance_transform_edt(img, return_distances=False, return_indices=True, indices=out)
        np.testing.assert_array_equal(out.numpy(), want)
    for dt in (loom.int8, loom.float64):
        with pytest.raises(RuntimeError, match="indices"):
            ln.distance_transform_edt(img, return_indices=True, indices=loom.empty((2, 12, 10), dtype=dt, device=device))
    with pytest.raises(RuntimeError, match="float32"):
        ln.distance_transform_edt(img, distances=loom.empty((12, 10), dtype=loom.float64, device=device),
                                  float64_distances=False)
