"""2-D convolution and pooling over NCHW arrays, with PyTorch's arguments and defaults.

A convolution is loom's conv2d op (`_loom.conv2d`): cuDNN on a GPU, im2col and the BLAS on a
CPU, with its own gradient ops, batching and tracing. On a GPU where cuDNN cannot be loaded
(`_loom.conv_backend(device) == ''`) it falls back to a GEMM path written with loom's ops: the
input is padded (a zero array with the input set into its middle), each kernel offset (i, j)
is a strided view of it, the views are stacked into the patches of every output position,
(N, C, OH, OW, KH*KW), and one einsum (a cuBLAS GEMM) contracts them with the weight.
Pooling is loom's max_pool2d and avg_pool2d ops where conv2d is (cuDNN on a GPU, loops on a
CPU), and otherwise a max or a mean over the last axis of the same patches.
"""
import math

from .. import _loom
from . import init
from .module import Module


def _pair(v, name, who):
    t = (v, v) if isinstance(v, int) else tuple(v)
    if len(t) != 2 or not all(isinstance(k, int) for k in t):
        raise ValueError(f"[{who}] {name} must be an int or a pair of ints, got {v!r}")
    return t


def _check_input(x, channels, who):
    if len(x.shape) != 4:
        raise ValueError(f"[{who}] expected an input of shape (N, C, H, W), got {tuple(x.shape)}")
    if channels is not None and x.shape[1] != channels:
        raise ValueError(f"[{who}] expected {channels} input channels, got shape {tuple(x.shape)}")


def _patches(x, kernel, stride, padding, dilation, fill, who):
    """(N, C, OH, OW, KH*KW): the input values each output position sees."""
    n, c, h, w = x.shape
    (kh, kw), (sh, sw), (ph, pw), (dh, dw) = kernel, stride, padding, dilation
    oh = (h + 2 * ph - dh * (kh - 1) - 1) // sh + 1
    ow = (w + 2 * pw - dw * (kw - 1) - 1) // sw + 1
    if oh < 1 or ow < 1:
        raise ValueError(f"[{who}] the kernel {kernel} (dilation {dilation}) does not fit the input "
                         f"{h}x{w} padded by {padding}")
    if ph or pw:
        xp = _loom.full((n, c, h + 2 * ph, w + 2 * pw), fill, dtype=x.dtype, device=x.device)
        xp[:, :, ph:ph + h, pw:pw + w] = x
    else:
        xp = x
    views = [xp[:, :, i * dh:i * dh + sh * (oh - 1) + 1:sh, j * dw:j * dw + sw * (ow - 1) + 1:sw]
             for i in range(kh) for j in range(kw)]
    return _loom.stack(views, axis=-1), oh, ow


def _same_padding(kernel, dilation, stride, who):
    if stride != (1, 1):
        raise ValueError(f"[{who}] padding='same' needs stride 1, got {stride}")
    pads = []
    for k, d in zip(kernel, dilation):
        total = d * (k - 1)
        if total % 2:
            raise ValueError(f"[{who}] padding='same' with an even effective kernel ({kernel}, dilation "
                             f"{dilation}) would pad unevenly; pad explicitly")
        pads.append(total // 2)
    return tuple(pads)


def _library_conv(device):
    """Whether loom's conv2d op serves `device` (always on a CPU; on a GPU when cuDNN loaded)."""
    ok = _CONV_OP.get(device)
    if ok is None:
        ok = _CONV_OP[device] = bool(_loom.conv_backend(device))
    return ok


_CONV_OP = {}


def conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """The convolution (cross-correlation, as PyTorch's) of x (N, C, H, W) with weight
    (O, C/groups, KH, KW), plus bias (O,)."""
    who = "nn.conv2d"
    if len(weight.shape) != 4:
        raise ValueError(f"[{who}] the weight must have shape (O, C/groups, KH, KW), got {tuple(weight.shape)}")
    _check_input(x, weight.shape[1] * groups, who)
    kernel = tuple(weight.shape[2:])
    stride, dilation = _pair(stride, "stride", who), _pair(dilation, "dilation", who)
    if padding == "same":
        padding = _same_padding(kernel, dilation, stride, who)
    elif padding == "valid":
        padding = (0, 0)
    padding = _pair(padding, "padding", who)
    o = weight.shape[0]
    if _library_conv(x.device):
        y = _loom.conv2d(x, weight, stride, padding, dilation, groups)
    elif groups == 1:
        p, oh, ow = _patches(x, kernel, stride, padding, dilation, 0, who)
        y = _loom.einsum("nchwk,ock->nohw", p, weight.reshape((o, weight.shape[1], kernel[0] * kernel[1])))
    else:
        raise NotImplementedError(f"[{who}] groups={groups} on {x.device!r} needs cuDNN, which could not be loaded")
    return y + bias.reshape((1, o, 1, 1)) if bias is not None else y


class Conv2d(Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 bias=True, padding_mode="zeros", device=None, dtype=None):
        super().__init__()
        who = "nn.Conv2d"
        if groups < 1 or in_channels % groups or out_channels % groups:
            raise ValueError(f"[{who}] in_channels ({in_channels}) and out_channels ({out_channels}) must be "
                             f"divisible by groups ({groups})")
        if padding_mode != "zeros":
            raise NotImplementedError(f"[{who}] padding_mode={padding_mode!r}: only 'zeros' is supported yet")
        self.in_channels, self.out_channels, self.groups = int(in_channels), int(out_channels), int(groups)
        self.kernel_size = _pair(kernel_size, "kernel_size", who)
        self.stride, self.dilation = _pair(stride, "stride", who), _pair(dilation, "dilation", who)
        self.padding = padding if padding in ("same", "valid") else _pair(padding, "padding", who)
        if self.padding == "same":
            _same_padding(self.kernel_size, self.dilation, self.stride, who)
        shape = (self.out_channels, self.in_channels // self.groups) + self.kernel_size
        self.weight = init.kaiming_uniform_default(shape, device, dtype)
        fan_in = self.in_channels // self.groups * math.prod(self.kernel_size)
        self.bias = init.bias_default(self.out_channels, fan_in, device, dtype) if bias else None

    def forward(self, x):
        return conv2d(x, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)

    def extra_repr(self):
        return (f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, stride={self.stride}, "
                f"padding={self.padding}" + (f", groups={self.groups}" if self.groups != 1 else ""))


class _Pool2d(Module):
    def __init__(self, kernel_size, stride=None, padding=0):
        super().__init__()
        who = type(self).__name__
        self.kernel_size = _pair(kernel_size, "kernel_size", f"nn.{who}")
        self.stride = _pair(stride, "stride", f"nn.{who}") if stride is not None else self.kernel_size
        self.padding = _pair(padding, "padding", f"nn.{who}")
        if any(2 * p > k for p, k in zip(self.padding, self.kernel_size)):
            raise ValueError(f"[nn.{who}] padding {self.padding} must be at most half the kernel {self.kernel_size}")

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class MaxPool2d(_Pool2d):
    """The maximum over each window; padding counts as -inf."""

    def forward(self, x):
        _check_input(x, None, "nn.MaxPool2d")
        if _library_conv(x.device) and x.dtype.kind == "f":
            return _loom.max_pool2d(x, self.kernel_size, self.stride, self.padding)
        p, _, _ = _patches(x, self.kernel_size, self.stride, self.padding, (1, 1), -math.inf, "nn.MaxPool2d")
        return _loom.max(p, axis=-1)


class AvgPool2d(_Pool2d):
    """The mean over each window, padding counted as zeros (count_include_pad=True)."""

    def __init__(self, kernel_size, stride=None, padding=0, count_include_pad=True):
        super().__init__(kernel_size, stride, padding)
        if not count_include_pad:
            raise NotImplementedError("[nn.AvgPool2d] count_include_pad=False is not supported yet")

    def forward(self, x):
        _check_input(x, None, "nn.AvgPool2d")
        if _library_conv(x.device) and x.dtype.kind == "f":
            return _loom.avg_pool2d(x, self.kernel_size, self.stride, self.padding)
        p, _, _ = _patches(x, self.kernel_size, self.stride, self.padding, (1, 1), 0, "nn.AvgPool2d")
        return _loom.mean(p, axis=-1)


def max_pool2d(x, kernel_size, stride=None, padding=0):
    """The functional MaxPool2d (torch.nn.functional.max_pool2d's arguments)."""
    return MaxPool2d(kernel_size, stride, padding)(x)


def avg_pool2d(x, kernel_size, stride=None, padding=0):
    """The functional AvgPool2d (count_include_pad=True, as PyTorch's default)."""
    return AvgPool2d(kernel_size, stride, padding)(x)


def _bins(n, m):
    """PyTorch's adaptive pooling windows: [floor(i*n/m), ceil((i+1)*n/m)) for i < m."""
    return [(i * n // m, -(-(i + 1) * n // m)) for i in range(m)]


def adaptive_avg_pool2d(x, output_size):
    """torch.nn.functional.adaptive_avg_pool2d: output (N, C, oh, ow), each the mean of its
    window; one avg_pool2d when the sizes divide, else a mean per window."""
    _check_input(x, None, "nn.adaptive_avg_pool2d")
    oh, ow = (output_size, output_size) if isinstance(output_size, int) else tuple(output_size)
    h, w = x.shape[-2:]
    oh, ow = h if oh is None else int(oh), w if ow is None else int(ow)
    if (oh, ow) == (1, 1):
        return _loom.mean(x, axis=(-2, -1), keepdims=True)
    if h % oh == 0 and w % ow == 0:
        return avg_pool2d(x, (h // oh, w // ow))
    rows = [_loom.stack([_loom.mean(x[..., r0:r1, c0:c1], axis=(-2, -1)) for c0, c1 in _bins(w, ow)], axis=-1)
            for r0, r1 in _bins(h, oh)]
    return _loom.stack(rows, axis=-2)


class AdaptiveAvgPool2d(Module):
    """The mean over output_size windows that cover the input (PyTorch's AdaptiveAvgPool2d)."""

    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def forward(self, x):
        return adaptive_avg_pool2d(x, self.output_size)

    def extra_repr(self):
        return f"output_size={self.output_size}"
