"""loom.conv2d and its gradient ops (cuDNN on a GPU, im2col + BLAS on a CPU) against a
NumPy float64 reference on fresh random data: strides, padding, dilation, groups, every
floating dtype; the gradient ops against the adjoint identities; grad, grad of grad, vmap
and jit through them; the errors. On cpu() and each GPU."""
import numpy as np
import pytest

import loom
from conftest import central_differences

L = loom._loom


def np_conv(x, w, stride, padding, dilation, groups):
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    (sh, sw), (ph, pw), (dh, dw) = stride, padding, dilation
    xp = np.pad(x, ((0, 0), (0, 0), (ph, ph), (pw, pw)))
    oh = (h + 2 * ph - dh * (kh - 1) - 1) // sh + 1
    ow = (wd + 2 * pw - dw * (kw - 1) - 1) // sw + 1
    og = o // groups
    y = np.zeros((n, o, oh, ow))
    for g in range(groups):
        for i in range(kh):
            for j in range(kw):
                patch = xp[:, g * cg:(g + 1) * cg, i * dh:i * dh + sh * (oh - 1) + 1:sh,
                           j * dw:j * dw + sw * (ow - 1) + 1:sw]
                y[:, g * og:(g + 1) * og] += np.einsum("nchw,oc->nohw", patch, w[g * og:(g + 1) * og, :, i, j])
    return y


# (x shape, w shape, stride, padding, dilation, groups)
CASES = [((2, 3, 9, 8), (5, 3, 3, 3), (1, 1), (0, 0), (1, 1), 1),
         ((2, 4, 9, 8), (6, 2, 3, 2), (2, 1), (1, 2), (1, 2), 2),
         ((3, 6, 7, 7), (6, 1, 3, 3), (1, 1), (1, 1), (1, 1), 6),
         ((2, 8, 5, 6), (4, 8, 1, 1), (1, 1), (0, 0), (1, 1), 1),
         ((1, 2, 11, 10), (3, 2, 5, 4), (3, 2), (2, 0), (1, 1), 1),
         ((2, 3, 4, 4), (2, 3, 2, 2), (1, 1), (3, 3), (2, 2), 1)]


def args(case):
    return dict(stride=case[2], padding=case[3], dilation=case[4], groups=case[5])


@pytest.mark.parametrize("case", CASES, ids=str)
def test_conv2d_matches_numpy_float64(device, rng, case):
    x, w = rng.standard_normal(case[0]), rng.standard_normal(case[1])
    got = L.conv2d(loom.asarray(x, device=device), loom.asarray(w, device=device), **args(case))
    assert got.device == device and got.dtype == loom.float64
    np.testing.assert_allclose(got.numpy(), np_conv(x, w, *case[2:]), rtol=1e-10, atol=1e-11)


@pytest.mark.parametrize("dtype,tol", [(loom.float32, 2e-5), (loom.float16, 2e-2), (loom.bfloat16, 8e-2)])
def test_conv2d_low_precision(device, rng, dtype, tol):
    case = CASES[1]
    x, w = rng.standard_normal(case[0]), rng.standard_normal(case[1])
    xl, wl = loom.asarray(x, device=device).astype(dtype), loom.asarray(w, device=device).astype(dtype)
    got = L.conv2d(xl, wl, **args(case))
    assert got.dtype == dtype
    want = np_conv(xl.astype(loom.float64).numpy(), wl.astype(loom.float64).numpy(), *case[2:])
    np.testing.assert_allclose(got.astype(loom.float64).numpy(), want, rtol=tol, atol=tol * np.abs(want).max())


@pytest.mark.parametrize("case", CASES, ids=str)
def test_gradient_ops_are_the_adjoints(device, rng, case):
    """<conv(x, w), dy> == <x, input_grad(dy, w)> == <w, weight_grad(x, dy)>."""
    x, w = rng.standard_normal(case[0]), rng.standard_normal(case[1])
    dy = rng.standard_normal(np_conv(x, w, *case[2:]).shape)
    xl, wl, dyl = (loom.asarray(a, device=device) for a in (x, w, dy))
    dx = L.conv2d_input_grad(dyl, wl, x.shape, **args(case)).numpy()
    dw = L.conv2d_weight_grad(xl, dyl, w.shape, **args(case)).numpy()
    want_dx = central_differences(lambda v: float(np.sum(np_conv(v, w, *case[2:]) * dy)), x)
    np.testing.assert_allclose(dx, want_dx, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(dw, central_differences(lambda v: float(np.sum(np_conv(x, v, *case[2:]) * dy)), w),
                               rtol=1e-6, atol=1e-6)


def test_grad_and_grad_of_grad(device, rng):
    case = CASES[1]
    x, w = rng.standard_normal(case[0]), rng.standard_normal(case[1])
    r = loom.asarray(rng.standard_normal(np_conv(x, w, *case[2:]).shape), device=device)
    kw = args(case)

    def loss(xx, ww):
        return loom.sum(L.conv2d(xx, ww, **kw) ** 2 * r)
    xl, wl = loom.asarray(x, device=device), loom.asarray(w, device=device)
    gx, gw = loom.grad(loss, argnums=(0, 1))(xl, wl)
    rn = r.numpy()
    f = lambda a, b: float(np.sum(np_conv(a, b, *case[2:]) ** 2 * rn))  # noqa: E731
    np.testing.assert_allclose(gx.numpy(), central_differences(lambda v: f(v, w), x), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(gw.numpy(), central_differences(lambda v: f(x, v), w), rtol=1e-5, atol=1e-6)

    # Second order: d/dw of |d loss/dx|^2 runs the vjps of both gradient ops.
    def gnorm(ww):
        return loom.sum(loom.grad(loss)(xl, ww) ** 2)
    hw = loom.grad(gnorm)(wl)
    g_np = lambda b: float(np.sum(loom.grad(loss)(xl, loom.asarray(b, device=device)).numpy() ** 2))  # noqa: E731
    np.testing.assert_allclose(hw.numpy(), central_differences(g_np, w, h=1e-5), rtol=1e-4, atol=1e-5)


def test_vmap_and_jit(device, rng):
    case = CASES[0]
    xs = loom.asarray(rng.standard_normal((4,) + case[0]), device=device)
    w = loom.asarray(rng.standard_normal(case[1]), device=device)
    kw = args(case)
    f = lambda x: L.conv2d(x, w, **kw)  # noqa: E731
    want = np.stack([f(xs[i]).numpy() for i in range(4)])
    np.testing.assert_allclose(loom.vmap(f)(xs).numpy(), want, rtol=1e-12)
    np.testing.assert_allclose(loom.jit(f)(xs[1]).numpy(), want[1], rtol=1e-12)
    # A batched weight: one convolution per example.
    ws = loom.asarray(rng.standard_normal((4,) + case[1]), device=device)
    got = loom.vmap(lambda x, ww: L.conv2d(x, ww, **kw))(xs, ws).numpy()
    np.testing.assert_allclose(got, np.stack([L.conv2d(xs[i], ws[i], **kw).numpy() for i in range(4)]), rtol=1e-12)
    # The gradient under vmap: per-example weight gradients.
    per = loom.vmap(loom.grad(lambda ww, x: loom.sum(L.conv2d(x, ww, **kw) ** 2)), in_axes=(None, 0))(w, xs)
    for i in range(4):
        one = loom.grad(lambda ww: loom.sum(L.conv2d(xs[i], ww, **kw) ** 2))(w)
        np.testing.assert_allclose(per[i].numpy(), one.numpy(), rtol=1e-10)


def test_errors(device):
    x, w = loom.ones((1, 4, 6, 6), device=device), loom.ones((2, 4, 3, 3), device=device)
    with pytest.raises(ValueError, match=r"\[conv2d\].*channels"):
        L.conv2d(x, loom.ones((2, 3, 3, 3), device=device))
    with pytest.raises(ValueError, match=r"\[conv2d\].*divisible by groups=3"):
        L.conv2d(loom.ones((1, 6, 6, 6), device=device), loom.ones((4, 2, 3, 3), device=device), groups=3)
    with pytest.raises(ValueError, match=r"\[conv2d\].*does not fit"):
        L.conv2d(x, loom.ones((2, 4, 7, 7), device=device))
    with pytest.raises(ValueError, match=r"\[conv2d\] stride must be >= 1"):
        L.conv2d(x, w, stride=(0, 1))
    with pytest.raises(ValueError, match=r"\[conv2d\] padding must be >= 0"):
        L.conv2d(x, w, padding=(-1, 0))
    with pytest.raises(ValueError, match=r"\(N, C, H, W\)"):
        L.conv2d(loom.ones((4, 6, 6), device=device), w)
    with pytest.raises(TypeError, match=r"\[conv2d\] needs floating arrays"):
        L.conv2d(x.astype(loom.int32), w)
    with pytest.raises(ValueError, match=r"\[conv2d_input_grad\] the output gradient has shape"):
        L.conv2d_input_grad(loom.ones((1, 2, 5, 5), device=device), w, (1, 4, 6, 6))


@pytest.mark.gpu
def test_device_mismatch(gpu):
    with pytest.raises(loom.DeviceMismatchError, match="conv2d"):
        L.conv2d(loom.ones((1, 2, 4, 4), device=gpu), loom.ones((1, 2, 3, 3), device=loom.cpu()))


def test_backend_names(device):
    name = L.conv_backend(device)
    if device == loom.cpu():
        assert name.startswith("im2col+")
    else:
        assert name == "" or name.startswith("cudnn 9.")
