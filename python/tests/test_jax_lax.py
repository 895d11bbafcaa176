"""loom.lax's array functions against NumPy references: select, rsqrt, logistic, clamp,
broadcast_in_dim, dynamic_slice (JAX's clamping), dot_general, reduce_window,
conv_general_dilated, pad; eagerly, under jit, and their gradients."""
import numpy as np
import pytest

import loom
from loom import lax
from conftest import assert_matches


def _a(rng, shape, device):
    n = rng.standard_normal(shape)
    return n, loom.asarray(n, device=device)


def test_elementwise_names(rng, device):
    xn, x = _a(rng, (3, 4), device)
    assert_matches(lax.rsqrt(loom.abs(x) + 0.1), 1 / np.sqrt(np.abs(xn) + 0.1), device=device)
    assert_matches(lax.logistic(x * 50), 1 / (1 + np.exp(-xn * 50)), device=device)
    assert_matches(lax.clamp(-0.5, x, 0.5), np.clip(xn, -0.5, 0.5), device=device)
    assert_matches(lax.select(x > 0, x, -x), np.abs(xn), device=device)
    assert_matches(lax.pow(loom.abs(x), 1.5), np.abs(xn) ** 1.5, device=device)
    assert_matches(lax.integer_pow(x, 3), xn ** 3, device=device)
    assert_matches(lax.rem(x * 5, 2.0), np.fmod(xn * 5, 2.0), device=device)
    assert_matches(lax.round(loom.asarray([0.5, 1.5, -2.5], device=device)), [1.0, 2.0, -3.0], device=device)
    g = loom.grad(lambda x: loom.sum(lax.logistic(x)))(x)
    s = 1 / (1 + np.exp(-xn))
    assert_matches(g, s * (1 - s), device=device)
    # No overflow in the value or the derivative far out.
    far = loom.asarray([-800.0, 800.0], device=device)
    assert_matches(lax.logistic(far), [0.0, 1.0], device=device)
    assert_matches(loom.grad(lambda x: loom.sum(lax.logistic(x)))(far), [0.0, 0.0], device=device)
    assert lax.stop_gradient is loom.stop_gradient


def test_broadcast_in_dim(rng, device):
    xn, x = _a(rng, (3,), device)
    assert_matches(lax.broadcast_in_dim(x, (2, 3, 4), (1,)), np.broadcast_to(xn[None, :, None], (2, 3, 4)),
                   device=device)
    yn, y = _a(rng, (3, 1), device)
    assert_matches(lax.broadcast_in_dim(y, (3, 5), (0, 1)), np.broadcast_to(yn, (3, 5)), device=device)
    with pytest.raises(ValueError, match="broadcast_in_dim"):
        lax.broadcast_in_dim(x, (2, 4), (1,))


@pytest.mark.parametrize("starts", [(1, 2), (-3, 9), (2, 0)])
def test_dynamic_slice_clamps(starts, rng, device):
    xn, x = _a(rng, (5, 6), device)
    s0 = min(max(starts[0], 0), 5 - 3)
    s1 = min(max(starts[1], 0), 6 - 2)
    want = xn[s0:s0 + 3, s1:s1 + 2]
    assert_matches(lax.dynamic_slice(x, starts, (3, 2)), want, device=device)
    traced = loom.jit(lambda x, i, j: lax.dynamic_slice(x, (i, j), (3, 2)))
    assert_matches(traced(x, loom.asarray(starts[0], device=device), loom.asarray(starts[1], device=device)), want,
                   device=device)
    un, u = _a(rng, (3, 2), device)
    want_u = xn.copy()
    want_u[s0:s0 + 3, s1:s1 + 2] = un
    assert_matches(lax.dynamic_update_slice(x, u, starts), want_u, device=device)
    upd = loom.jit(lambda x, u, i, j: lax.dynamic_update_slice(x, u, (i, j)))
    assert_matches(upd(x, u, loom.asarray(starts[0], device=device), loom.asarray(starts[1], device=device)),
                   want_u, device=device)


def test_dynamic_slice_grad_and_vmap(rng, device):
    xn, x = _a(rng, (6,), device)
    g = loom.grad(lambda x, i: loom.sum(lax.dynamic_slice(x, (i,), (2,)) ** 2))(x, loom.asarray(3, device=device))
    want = np.zeros(6)
    want[3:5] = 2 * xn[3:5]
    assert_matches(g, want, device=device)
    idx = loom.asarray([0, 4, 7], device=device)
    got = loom.vmap(lambda i: lax.dynamic_slice(x, (i,), (2,)))(idx)
    assert_matches(got, np.stack([xn[0:2], xn[4:6], xn[4:6]]), device=device)
    assert_matches(lax.dynamic_index_in_dim(x, 2, keepdims=False), xn[2], device=device)
    assert_matches(lax.dynamic_slice_in_dim(x, 1, 3), xn[1:4], device=device)


@pytest.mark.parametrize("dims, sa, sb", [
    ((((1,), (0,)), ((), ())), (3, 4), (4, 5)),                 # matmul
    ((((2,), (1,)), ((0,), (0,))), (2, 3, 4), (2, 4, 5)),       # batched matmul
    ((((0, 2), (1, 0)), ((), ())), (4, 3, 5), (5, 4, 2)),       # two contractions
    ((((1,), (2,)), ((0,), (1,))), (2, 3, 6), (4, 2, 3)),       # batch dims not leading on rhs
])
def test_dot_general(dims, sa, sb, rng, device):
    an, a = _a(rng, sa, device)
    bn, b = _a(rng, sb, device)
    (lc, rc), (lb, rb) = dims
    # NumPy reference: move batch, then free, then contracting dims; tensordot per batch.
    la = [d for d in range(an.ndim) if d not in lc + lb]
    ra = [d for d in range(bn.ndim) if d not in rc + rb]
    ap = np.transpose(an, list(lb) + la + list(lc))
    bp = np.transpose(bn, list(rb) + list(rc) + ra)
    k = int(np.prod([an.shape[d] for d in lc]))
    nb = int(np.prod([an.shape[d] for d in lb]))
    am = ap.reshape(nb, -1, k)
    bm = bp.reshape(nb, k, -1)
    want = np.matmul(am, bm).reshape([an.shape[d] for d in lb] + [an.shape[d] for d in la] + [bn.shape[d] for d in ra])
    assert_matches(lax.dot_general(a, b, dims), want, device=device, rtol=1e-12)
    assert_matches(loom.jit(lambda a, b: lax.dot_general(a, b, dims))(a, b), want, device=device, rtol=1e-12)


def test_dot_general_grad(rng, device):
    an, a = _a(rng, (2, 3, 4), device)
    bn, b = _a(rng, (2, 4, 5), device)
    dims = (((2,), (1,)), ((0,), (0,)))
    ga = loom.grad(lambda a: loom.sum(lax.dot_general(a, b, dims)))(a)
    assert_matches(ga, np.broadcast_to(bn.sum(axis=2)[:, None, :], (2, 3, 4)), device=device, rtol=1e-12)


def _np_reduce_window(x, init, op, window, strides, pads):
    x = np.pad(x, pads, constant_values=init)
    out_shape = [(n - w) // s + 1 for n, w, s in zip(x.shape, window, strides)]
    out = np.full(out_shape, init, dtype=x.dtype)
    for idx in np.ndindex(*out_shape):
        sl = tuple(slice(i * s, i * s + w) for i, s, w in zip(idx, strides, window))
        out[idx] = op(out[idx], op.reduce(x[sl], axis=None))
    return out


@pytest.mark.parametrize("padding", ["VALID", "SAME", ((1, 0), (2, 1))])
@pytest.mark.parametrize("op, init", [(np.add, 0.0), (np.maximum, -np.inf)])
def test_reduce_window(padding, op, init, rng, device):
    xn, x = _a(rng, (7, 6), device)
    window, strides = (3, 2), (2, 1)
    if isinstance(padding, str):
        pads = lax.padtype_to_pads(xn.shape, window, strides, padding)
    else:
        pads = padding
    want = _np_reduce_window(xn, init, op, window, strides, pads)
    fn = loom.add if op is np.add else loom.maximum
    got = lax.reduce_window(x, init, fn, window, strides, padding)
    assert_matches(got, want, device=device, rtol=1e-12)
    assert_matches(loom.jit(lambda x: lax.reduce_window(x, init, fn, window, strides, padding))(x), want,
                   device=device, rtol=1e-12)


def test_reduce_window_same_shape_and_dilation(rng, device):
    xn, x = _a(rng, (1, 5, 5, 2), device)
    got = lax.reduce_window(x, -np.inf, lax.max, (1, 3, 3, 1), (1, 2, 2, 1), "SAME")
    assert got.shape == (1, 3, 3, 2)
    dil = lax.reduce_window(x, 0.0, lax.add, (1, 2, 2, 1), (1, 1, 1, 1), "VALID", window_dilation=(1, 2, 2, 1))
    want = xn[:, :-2, :-2] + xn[:, 2:, :-2] + xn[:, :-2, 2:] + xn[:, 2:, 2:]
    assert_matches(dil, want, device=device, rtol=1e-12)


def _np_conv(x, w, stride, pads, ldil, rdil, groups):
    """Direct NCHW / OIHW cross-correlation with input and kernel dilation."""
    n, c, h, wd = x.shape
    if ldil != (1, 1):
        xd = np.zeros((n, c, (h - 1) * ldil[0] + 1, (wd - 1) * ldil[1] + 1))
        xd[:, :, ::ldil[0], ::ldil[1]] = x
        x = xd
    x = np.pad(x, ((0, 0), (0, 0)) + tuple((max(lo, 0), max(hi, 0)) for lo, hi in pads))
    o, cg, kh, kw = w.shape
    ekh, ekw = (kh - 1) * rdil[0] + 1, (kw - 1) * rdil[1] + 1
    oh = (x.shape[2] - ekh) // stride[0] + 1
    ow = (x.shape[3] - ekw) // stride[1] + 1
    out = np.zeros((n, o, oh, ow))
    og = o // groups
    for oc in range(o):
        g = oc // og
        for i in range(oh):
            for j in range(ow):
                patch = x[:, g * cg:(g + 1) * cg, i * stride[0]:i * stride[0] + ekh:rdil[0],
                          j * stride[1]:j * stride[1] + ekw:rdil[1]]
                out[:, oc, i, j] = np.sum(patch * w[oc], axis=(1, 2, 3))
    return out


@pytest.mark.parametrize("stride, padding, ldil, rdil, groups", [
    ((1, 1), "VALID", (1, 1), (1, 1), 1),
    ((2, 1), "SAME", (1, 1), (1, 1), 1),
    ((1, 2), ((2, 1), (0, 1)), (1, 1), (2, 1), 2),
    ((1, 1), ((1, 1), (1, 1)), (2, 2), (1, 1), 1),
])
def test_conv_general_dilated(stride, padding, ldil, rdil, groups, rng, device):
    xn, x = _a(rng, (2, 4, 6, 5), device)
    wn, w = _a(rng, (6, 4 // groups, 3, 2), device)
    in_shape = [(n - 1) * d + 1 for n, d in zip(xn.shape[2:], ldil)]
    eff = [(k - 1) * d + 1 for k, d in zip(wn.shape[2:], rdil)]
    pads = lax.padtype_to_pads(in_shape, eff, stride, padding) if isinstance(padding, str) else padding
    want = _np_conv(xn, wn, stride, pads, ldil, rdil, groups)
    got = lax.conv_general_dilated(x, w, stride, padding, lhs_dilation=ldil, rhs_dilation=rdil,
                                   feature_group_count=groups)
    assert_matches(got, want, device=device, rtol=1e-10)


def test_conv_general_dilated_nhwc_and_grad(rng, device):
    xn, x = _a(rng, (2, 5, 5, 3), device)   # NHWC
    wn, w = _a(rng, (3, 3, 3, 4), device)   # HWIO
    got = lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))
    want = _np_conv(xn.transpose(0, 3, 1, 2), wn.transpose(3, 2, 0, 1), (1, 1), ((1, 1), (1, 1)), (1, 1), (1, 1), 1)
    assert_matches(got, want.transpose(0, 2, 3, 1), device=device, rtol=1e-10)
    f = loom.jit(loom.grad(lambda w: loom.sum(lax.conv_general_dilated(
        x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")) ** 2)))
    g = f(w)
    assert g.shape == w.shape
    eps = 1e-6
    d = np.zeros_like(wn)
    d[1, 2, 0, 3] = eps

    def loss(wv):
        y = _np_conv(xn.transpose(0, 3, 1, 2), wv.transpose(3, 2, 0, 1), (1, 1), ((1, 1), (1, 1)), (1, 1), (1, 1), 1)
        return np.sum(y ** 2)

    assert np.isclose(np.asarray(g)[1, 2, 0, 3], (loss(wn + d) - loss(wn - d)) / (2 * eps), rtol=1e-5)


def test_conv_1d_and_errors(rng, device):
    xn, x = _a(rng, (2, 3, 9), device)
    wn, w = _a(rng, (4, 3, 3), device)
    got = lax.conv_general_dilated(x, w, (2,), "VALID")
    want = _np_conv(xn[:, :, None, :], wn[:, :, None, :], (1, 2), ((0, 0), (0, 0)), (1, 1), (1, 1), 1)[:, :, 0, :]
    assert_matches(got, want, device=device, rtol=1e-10)
    with pytest.raises(NotImplementedError, match="conv_general_dilated"):
        lax.conv_general_dilated(loom.ones((1, 1, 2, 2, 2), device=device), loom.ones((1, 1, 1, 1, 1), device=device),
                                 (1, 1, 1), "VALID")
    with pytest.raises(ValueError, match="conv_general_dilated"):
        lax.conv_general_dilated(x, w, (1,), "FULL")


def test_pad_with_interior_and_negative(rng, device):
    xn, x = _a(rng, (3, 4), device)
    got = lax.pad(x, -1.0, [(1, -1, 1), (-1, 2, 0)])
    spread = np.full((5, 4), -1.0)
    spread[::2] = xn
    want = np.pad(spread, ((1, 0), (0, 2)), constant_values=-1.0)[:-1, 1:]
    assert_matches(got, want, device=device, exact=True)
