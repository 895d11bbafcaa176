"""nn.Conv2d, MaxPool2d and AvgPool2d against direct NumPy float64 loops (and PyTorch where
it is installed), with stride, padding, 'same' and dilation, and their gradients against
central finite differences in float64; on cpu() and each GPU."""
import numpy as np
import pytest

import loom
from loom import nn
from test_conv import np_conv as np_conv_groups
from test_nn import check_grad
from test_pool import np_pool


def np_conv(x, w, b, stride, padding, dilation):
    y = np_conv_groups(x, w, stride, padding, dilation, 1)
    return y + (b[None, :, None, None] if b is not None else 0)


CONVS = [dict(stride=1, padding=0, dilation=1), dict(stride=2, padding=1, dilation=1),
         dict(stride=(1, 2), padding=(2, 1), dilation=(2, 1)), dict(stride=1, padding="same", dilation=1)]


@pytest.mark.parametrize("kw", CONVS, ids=str)
def test_conv2d_matches_numpy(device, rng, kw):
    conv = nn.Conv2d(3, 5, (3, 3), device=device, dtype=loom.float64, **kw)
    x = rng.standard_normal((2, 3, 9, 8))
    pad = (1, 1) if kw["padding"] == "same" else kw["padding"]
    pad = (pad, pad) if isinstance(pad, int) else pad
    two = lambda v: (v, v) if isinstance(v, int) else v  # noqa: E731
    want = np_conv(x, conv.weight.numpy(), conv.bias.numpy(), two(kw["stride"]), pad, two(kw["dilation"]))
    np.testing.assert_allclose(conv(loom.asarray(x, device=device)).numpy(), want, rtol=1e-10, atol=1e-12)


def test_conv2d_float32_matches_torch(device, rng):
    torch = pytest.importorskip("torch")
    x = rng.standard_normal((4, 6, 14, 14)).astype(np.float32)
    conv = nn.Conv2d(6, 8, 3, stride=1, padding=1, device=device)
    want = torch.nn.functional.conv2d(torch.from_numpy(x), torch.from_numpy(conv.weight.numpy()),
                                      torch.from_numpy(conv.bias.numpy()), padding=1).numpy()
    np.testing.assert_allclose(conv(loom.asarray(x, device=device)).numpy(), want, rtol=1e-4, atol=1e-5)


def test_pools_match_numpy(device, rng):
    x = rng.standard_normal((2, 3, 7, 6))
    xl = loom.asarray(x, device=device)
    np.testing.assert_array_equal(nn.MaxPool2d(2)(xl).numpy(), np_pool(x, (2, 2), (2, 2), (0, 0), -np.inf, np.max))
    np.testing.assert_array_equal(nn.MaxPool2d(3, stride=2, padding=1)(xl).numpy(),
                                  np_pool(x, (3, 3), (2, 2), (1, 1), -np.inf, np.max))
    np.testing.assert_allclose(nn.AvgPool2d((2, 3), stride=1, padding=(1, 1))(xl).numpy(),
                               np_pool(x, (2, 3), (1, 1), (1, 1), 0, np.mean), rtol=1e-12)


@pytest.mark.parametrize("make", [lambda: nn.Conv2d(2, 3, 3, padding=1, dtype=loom.float64),
                                  lambda: nn.Conv2d(2, 2, (2, 3), stride=2, dilation=(1, 2), dtype=loom.float64),
                                  lambda: nn.Conv2d(2, 4, 3, padding=1, groups=2, dtype=loom.float64),
                                  lambda: nn.MaxPool2d(2), lambda: nn.AvgPool2d(3, stride=2, padding=1)])
def test_conv_and_pool_gradients(make, rng):
    check_grad(make(), rng.standard_normal((2, 2, 5, 6)), rng)


def test_errors():
    with pytest.raises(ValueError, match=r"\(N, C, H, W\)"):
        nn.Conv2d(3, 4, 3)(loom.ones((3, 8, 8)))
    with pytest.raises(ValueError, match="3 input channels"):
        nn.Conv2d(3, 4, 3)(loom.ones((1, 2, 8, 8)))
    with pytest.raises(ValueError, match="does not fit"):
        nn.Conv2d(1, 1, 5)(loom.ones((1, 1, 3, 3)))
    with pytest.raises(ValueError, match="stride 1"):
        nn.Conv2d(1, 1, 3, stride=2, padding="same")
    with pytest.raises(ValueError, match="divisible by groups"):
        nn.Conv2d(4, 6, 3, groups=4)
    with pytest.raises(ValueError, match="half the kernel"):
        nn.MaxPool2d(2, padding=2)


def test_functional_pools(device, rng):
    x = loom.asarray(rng.standard_normal((2, 3, 6, 6)), device=device)
    np.testing.assert_array_equal(nn.max_pool2d(x, 2).numpy(), nn.MaxPool2d(2)(x).numpy())
    np.testing.assert_array_equal(nn.avg_pool2d(x, 3, 1, 1).numpy(), nn.AvgPool2d(3, 1, 1)(x).numpy())


def test_per_example_gradients_under_vmap(device, rng):
    """vmap(grad) through conv, pooling and the fused loss equals a loop over examples, and
    batches each of those ops into one call (the examples' images are more images)."""
    net = nn.Sequential(nn.Conv2d(1, 3, 3, padding=1, dtype=loom.float64), nn.ReLU(), nn.MaxPool2d(2),
                        nn.AvgPool2d(2), nn.Flatten(), nn.Linear(12, 4, dtype=loom.float64)).to(device)
    xs = loom.asarray(rng.standard_normal((5, 1, 1, 8, 8)), device=device)
    ys = loom.asarray(rng.integers(0, 4, (5, 1)), device=device)
    params = dict(net.named_parameters())
    names = list(params)

    def loss(p, x, y):
        return nn.losses.cross_entropy(net._with_arrays([p[k] for k in names])(x), y)
    rec = loom._loom._DispatchRecorder()
    rec.start()
    per = loom.vmap(loom.grad(loss), in_axes=(None, 0, 0))(params, xs, ys)
    rec.stop()
    ops = [e[0] for e in rec.events()]
    for op in ("conv2d", "max_pool2d", "max_pool2d_grad", "avg_pool2d_grad", "cross_entropy", "cross_entropy_grad"):
        assert ops.count(op) == 1, (op, ops.count(op))
    for i in range(5):
        one = loom.grad(loss)(params, xs[i], ys[i])
        for k in params:
            np.testing.assert_allclose(per[k][i].numpy(), one[k].numpy(), rtol=1e-10, atol=1e-12, err_msg=k)
