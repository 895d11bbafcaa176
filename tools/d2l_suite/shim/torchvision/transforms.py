"""transforms.Compose/Resize/ToTensor, applied by the shim's DataLoader to a whole batch of
uint8 images (N, H, W) at once: ToTensor gives float32 (N, 1, H, W) in [0, 1], Resize a
bilinear resize (as torchvision's default)."""
import numpy as np


class Compose:
    def __init__(self, transforms):
        self.transforms = list(transforms)

    def __call__(self, x):
        for t in self.transforms:
            x = t(x)
        return x


class ToTensor:
    def __call__(self, x):
        x = np.asarray(x)
        x = x.astype(np.float32) / 255.0 if x.dtype == np.uint8 else x.astype(np.float32)
        return x[:, None] if x.ndim == 3 else x


def _weights(n_in, n_out):
    """(n_out, n_in) bilinear interpolation matrix, half-pixel centres (align_corners=False)."""
    scale = n_in / n_out
    src = np.clip((np.arange(n_out) + 0.5) * scale - 0.5, 0, n_in - 1)
    lo = np.floor(src).astype(int)
    hi = np.minimum(lo + 1, n_in - 1)
    w = np.zeros((n_out, n_in), np.float32)
    w[np.arange(n_out), lo] += 1 - (src - lo)
    w[np.arange(n_out), hi] += src - lo
    return w


class Resize:
    def __init__(self, size, antialias=None):
        self.size = (size, size) if isinstance(size, int) else tuple(size)

    def __call__(self, x):
        """uint8 images stay uint8 (rounded), as torchvision's Resize of PIL images: ToTensor
        then scales them to [0, 1]."""
        h, w = self.size
        x = np.asarray(x)
        if x.shape[-2:] == (h, w):
            return x
        y = _weights(x.shape[-2], h) @ x.astype(np.float32) @ _weights(x.shape[-1], w).T
        return np.clip(np.rint(y), 0, 255).astype(np.uint8) if x.dtype == np.uint8 else y
