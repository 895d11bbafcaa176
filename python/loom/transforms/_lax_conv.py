"""jax.lax's windowed ops over loom's: reduce_window (strided slices combined with the
computation, any binary function) and conv_general_dilated (loom's conv2d primitive after
transposes, explicit padding and input dilation). loom.lax re-exports them.

conv_general_dilated takes 1 or 2 spatial dimensions (conv2d is the primitive; 3-d needs a
conv3d primitive) and batch_group_count 1 (a grouped weight gradient; JAX emits it for the
transpose of a grouped conv).
"""
import math

from .. import _loom

__all__ = ["reduce_window", "conv_general_dilated", "conv", "conv_with_general_padding", "padtype_to_pads",
           "ConvDimensionNumbers", "conv_dimension_numbers"]

_ndarray = _loom.ndarray


def padtype_to_pads(in_shape, window_shape, window_strides, padding):
    """JAX's padding strings as (low, high) pairs: 'VALID' none, 'SAME' (and 'SAME_LOWER') the
    output ceil(in / stride), the extra element high (low for SAME_LOWER)."""
    p = padding.upper()
    if p == "VALID":
        return [(0, 0)] * len(in_shape)
    if p not in ("SAME", "SAME_LOWER"):
        raise ValueError(f"padding must be 'SAME', 'SAME_LOWER', 'VALID' or (low, high) pairs, got {padding!r}")
    pads = []
    for n, w, s in zip(in_shape, window_shape, window_strides):
        out = -(-n // s)
        total = max((out - 1) * s + w - n, 0)
        lo = total // 2 if p == "SAME" else total - total // 2
        pads.append((lo, total - lo))
    return pads


def _pads(padding, in_shape, window, strides, who):
    if isinstance(padding, str):
        try:
            return padtype_to_pads(in_shape, window, strides, padding)
        except ValueError as e:
            raise ValueError(f"[{who}] {e}") from None
    pads = [tuple(int(v) for v in p) for p in padding]
    if len(pads) != len(in_shape) or any(len(p) != 2 for p in pads):
        raise ValueError(f"[{who}] padding needs one (low, high) pair per dimension ({len(in_shape)}), got {padding!r}")
    return pads


def _pad_crop(x, pads, value, first_dim=0):
    """x padded with `value` (negative pads crop) on dimensions first_dim, first_dim + 1, ..."""
    widths = [(0, 0)] * first_dim + [(max(lo, 0), max(hi, 0)) for lo, hi in pads]
    if any(lo or hi for lo, hi in widths):
        x = _loom.pad(x, widths, constant_values=value)
    key = [slice(None)] * first_dim + [slice(-min(lo, 0), x.shape[first_dim + d] + min(hi, 0))
                                       for d, (lo, hi) in enumerate(pads)]
    return x[tuple(key)]


def _dilate(x, factors, value, first_dim=0):
    """Elements of x spread `factor` apart on dimensions first_dim, ..., the gaps `value`."""
    if all(f == 1 for f in factors):
        return x
    shape = list(x.shape)
    for d, f in enumerate(factors):
        n = shape[first_dim + d]
        shape[first_dim + d] = (n - 1) * f + 1 if n else 0
    base = _loom.full(tuple(shape), value, dtype=x.dtype, device=x.device)
    return base.at[(slice(None),) * first_dim + tuple(slice(None, None, f) for f in factors)].set(x)


def reduce_window(operand, init_value, computation, window_dimensions, window_strides, padding,
                  base_dilation=None, window_dilation=None):
    """lax.reduce_window: computation (a binary function: lax.add, lax.max, loom.maximum, ...)
    folded over each window, starting from init_value (which also fills the padding).
    padding: 'VALID', 'SAME' or (low, high) per dimension. One strided slice per window offset."""
    if isinstance(operand, (tuple, list)):
        raise NotImplementedError("[reduce_window] several operands (a variadic reduction) are not supported")
    x = operand if isinstance(operand, _ndarray) else _loom.asarray(operand)
    nd = x.ndim
    window = tuple(int(w) for w in window_dimensions)
    strides = tuple(int(s) for s in window_strides)
    base = tuple(int(b) for b in (base_dilation or (1,) * nd))
    wdil = tuple(int(d) for d in (window_dilation or (1,) * nd))
    if not len(window) == len(strides) == len(base) == len(wdil) == nd:
        raise ValueError(f"[reduce_window] window_dimensions, window_strides and the dilations need one entry "
                         f"per dimension of the operand ({nd})")
    if min(window + strides + base + wdil, default=1) < 1:
        raise ValueError("[reduce_window] window sizes, strides and dilations must be >= 1")
    init = init_value.item() if isinstance(init_value, _ndarray) else init_value
    x = _dilate(x, base, init)
    eff = tuple((w - 1) * d + 1 for w, d in zip(window, wdil))
    x = _pad_crop(x, _pads(padding, x.shape, eff, strides, "reduce_window"), init)
    out = tuple((n - e) // s + 1 if n >= e else 0 for n, e, s in zip(x.shape, eff, strides))
    acc = None
    for flat in range(math.prod(window)):
        offs, r = [], flat
        for w in reversed(window):
            offs.append(r % w)
            r //= w
        offs.reverse()
        key = tuple(slice(o * d, o * d + (m - 1) * s + 1, s) for o, d, m, s in zip(offs, wdil, out, strides))
        piece = x[key]
        acc = piece if acc is None else computation(acc, piece)
    if acc is None:  # an empty window: every output is init_value
        return _loom.full(out, init, dtype=x.dtype, device=x.device)
    return computation(acc, _loom.full((), init, dtype=x.dtype, device=x.device)).astype(x.dtype)


class ConvDimensionNumbers(tuple):
    """(lhs_spec, rhs_spec, out_spec): each a tuple of dimension indices, batch/feature first
    (lhs: N, C; rhs: O, I; out: N, C), then the spatial dimensions in rhs's order."""

    def __new__(cls, lhs_spec, rhs_spec, out_spec):
        return super().__new__(cls, (tuple(lhs_spec), tuple(rhs_spec), tuple(out_spec)))

    lhs_spec = property(lambda self: self[0])
    rhs_spec = property(lambda self: self[1])
    out_spec = property(lambda self: self[2])


def conv_dimension_numbers(lhs_shape, rhs_shape, dimension_numbers):
    """JAX's: dimension_numbers None (NCHW, OIHW, NCHW), strings ('NHWC', 'HWIO', 'NHWC') or a
    ConvDimensionNumbers, as a ConvDimensionNumbers."""
    nd = len(lhs_shape)
    if dimension_numbers is None:
        iota = tuple(range(nd))
        return ConvDimensionNumbers(iota, iota, iota)
    if isinstance(dimension_numbers, ConvDimensionNumbers):
        return dimension_numbers
    specs = tuple(dimension_numbers)
    if len(specs) != 3:
        raise TypeError("[conv_general_dilated] dimension_numbers must be None, 3 strings or a ConvDimensionNumbers")
    if not all(isinstance(s, str) for s in specs):
        return ConvDimensionNumbers(*specs)
    lhs, rhs, out = specs
    for spec, (a, b) in zip(specs, (("N", "C"), ("O", "I"), ("N", "C"))):
        if len(spec) != nd or spec.count(a) != 1 or spec.count(b) != 1:
            raise ValueError(f"[conv_general_dilated] dimension spec {spec!r} needs one {a}, one {b} and "
                             f"{nd - 2} spatial letters")
    rhs_perm = (rhs.index("O"), rhs.index("I")) + tuple(i for i, c in enumerate(rhs) if c not in "OI")
    spatial = [rhs[i] for i in rhs_perm[2:]]

    def perm(spec):
        if sorted(c for c in spec if c not in "NC") != sorted(spatial):
            raise ValueError(f"[conv_general_dilated] spec {spec!r} names other spatial dimensions than {rhs!r}")
        return (spec.index("N"), spec.index("C")) + tuple(spec.index(c) for c in spatial)

    return ConvDimensionNumbers(perm(lhs), rhs_perm, perm(out))


def conv_general_dilated(lhs, rhs, window_strides, padding, lhs_dilation=None, rhs_dilation=None,
                         dimension_numbers=None, feature_group_count=1, batch_group_count=1, precision=None,
                         preferred_element_type=None):
    """lax.conv_general_dilated: a cross-correlation (no kernel flip) of lhs with rhs; padding
    'SAME', 'VALID' or (low, high) pairs (negative ones crop); lhs_dilation spreads the input
    (a transposed convolution), rhs_dilation the kernel (atrous); feature_group_count groups.
    On loom's conv2d (cuDNN on a GPU), so jit, vmap and grad go through."""
    who = "conv_general_dilated"
    x = lhs if isinstance(lhs, _ndarray) else _loom.asarray(lhs)
    w = rhs if isinstance(rhs, _ndarray) else _loom.asarray(rhs, device=x.device)
    if x.ndim != w.ndim:
        raise ValueError(f"[{who}] lhs has rank {x.ndim} and rhs {w.ndim}; they must agree")
    ns = x.ndim - 2
    if ns not in (1, 2):
        raise NotImplementedError(f"[{who}] {ns} spatial dimensions: loom has a 2-d convolution primitive "
                                  "(conv2d); 1 or 2 spatial dimensions are supported")
    if int(batch_group_count) != 1:
        raise NotImplementedError(f"[{who}] batch_group_count {batch_group_count} is not supported (only 1)")
    dn = conv_dimension_numbers(x.shape, w.shape, dimension_numbers)
    x = _loom.transpose(x, dn.lhs_spec)
    w = _loom.transpose(w, dn.rhs_spec)
    strides = tuple(int(s) for s in window_strides)
    ldil = tuple(int(d) for d in (lhs_dilation or (1,) * ns))
    rdil = tuple(int(d) for d in (rhs_dilation or (1,) * ns))
    if not len(strides) == len(ldil) == len(rdil) == ns:
        raise ValueError(f"[{who}] window_strides and the dilations need {ns} entries (one per spatial dimension)")
    g = int(feature_group_count)
    if x.shape[1] != w.shape[1] * g:
        raise ValueError(f"[{who}] lhs has {x.shape[1]} features but rhs expects {w.shape[1]} x "
                         f"feature_group_count {g}")
    x = _dilate(x, ldil, 0, first_dim=2)
    eff = tuple((k - 1) * d + 1 for k, d in zip(w.shape[2:], rdil))
    x = _pad_crop(x, _pads(padding, x.shape[2:], eff, strides, who), 0, first_dim=2)
    if ns == 1:
        x, w = x[:, :, None, :], w[:, :, None, :]
        strides, rdil = (1,) + strides, (1,) + rdil
    if any(n < e for n, e in zip(x.shape[2:], ((w.shape[2] - 1) * rdil[0] + 1, (w.shape[3] - 1) * rdil[1] + 1))):
        raise ValueError(f"[{who}] the padded input {tuple(x.shape[2:])} is smaller than the dilated kernel")
    y = _loom.conv2d(x, w.astype(x.dtype), stride=list(strides), padding=[0, 0], dilation=list(rdil), groups=g)
    if ns == 1:
        y = y[:, :, 0, :]
    inv = [0] * y.ndim
    for i, d in enumerate(dn.out_spec):
        inv[d] = i
    y = _loom.transpose(y, tuple(inv))
    return y.astype(preferred_element_type) if preferred_element_type is not None else y


def conv(lhs, rhs, window_strides, padding, precision=None, preferred_element_type=None):
    """lax.conv: conv_general_dilated with NCHW / OIHW and no dilation."""
    return conv_general_dilated(lhs, rhs, window_strides, padding, precision=precision,
                                preferred_element_type=preferred_element_type)


def conv_with_general_padding(lhs, rhs, window_strides, padding, lhs_dilation, rhs_dilation, precision=None,
                              preferred_element_type=None):
    return conv_general_dilated(lhs, rhs, window_strides, padding, lhs_dilation, rhs_dilation,
                                precision=precision, preferred_element_type=preferred_element_type)
