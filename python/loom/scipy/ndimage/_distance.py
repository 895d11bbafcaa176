"""scipy.ndimage.distance_transform_edt: the exact Euclidean distance from every element to
the nearest background (zero) element, and optionally where that element is.

The squared distance is separable: one pass per axis of the 1-D transform
d(p) = min_r s^2 (p - r)^2 + f(r), f being the previous pass's result (0 at background and
infinity elsewhere before the first). Each pass is the lower envelope of parabolas
(Felzenszwalb and Huttenlocher, "Distance transforms of sampled functions", 2012): one kernel
thread per line, linear in the line's length, written as CUDA C so that it runs on a GPU and,
through the CPU kernel emulator, on cpu(). The pass also returns the r it chose; the nearest
element's index along earlier axes is then read at that r (take_along_axis), so the indices
come with no extra search. Equidistant candidates resolve to the later parabola, so indices
may differ from SciPy's where several background elements are equally near."""
import numpy as np

import loom

from .. import _util

# `inf` is a parameter: neither NVRTC nor the emulator needs a math header for it then.
_PASS_SOURCE = r"""
extern "C" __global__ void edt_pass(const double* f, double* d, long long* arg, long long* verts, double* cuts,
                                    long long lines, long long n, double s2, double inf) {
  const long long line = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (line >= lines) return;
  const double* fl = f + line * n;
  double* dl = d + line * n;
  long long* al = arg + line * n;
  long long* v = verts + line * n;        // the parabolas of the lower envelope, left to right
  double* z = cuts + line * (n + 1);      // where each one takes over
  long long k = -1;
  for (long long p = 0; p < n; ++p) {
    const double fp = fl[p];
    if (fp == inf) continue;
    if (k < 0) {
      k = 0;
      v[0] = p;
      z[0] = -inf;
      z[1] = inf;
      continue;
    }
    double cut;
    while (true) {
      const long long r = v[k];
      cut = ((fp + s2 * (double)p * p) - (fl[r] + s2 * (double)r * r)) / (2.0 * s2 * (double)(p - r));
      if (cut > z[k]) break;
      --k;  // the new parabola hides v[k] entirely (z[0] is -inf: k stays >= 0)
    }
    ++k;
    v[k] = p;
    z[k] = cut;
    z[k + 1] = inf;
  }
  if (k < 0) {  // no finite value on this line: nothing is reachable along it
    for (long long p = 0; p < n; ++p) {
      dl[p] = inf;
      al[p] = 0;
    }
    return;
  }
  long long j = 0;
  for (long long p = 0; p < n; ++p) {
    while (z[j + 1] < (double)p) ++j;
    const long long r = v[j];
    dl[p] = s2 * (double)(p - r) * (p - r) + fl[r];
    al[p] = r;
  }
}
"""
_kernels = {}
_THREADS = 128


def _pass_kernel():
    if "edt" not in _kernels:
        _kernels["edt"] = loom.RawKernel(_PASS_SOURCE, "edt_pass")
    return _kernels["edt"]


def _one_axis(f, axis, spacing):
    """The 1-D pass along axis: (squared distances, the index along axis each came from)."""
    moved = loom.ascontiguousarray(loom.moveaxis(f, axis, -1))
    n = moved.shape[-1]
    lines = moved.size // n if n else 0
    dev = f.device
    out = loom.empty(moved.shape, dtype=loom.float64, device=dev)
    arg = loom.empty(moved.shape, dtype=loom.int64, device=dev)
    if lines:
        verts = loom.empty((lines * n,), dtype=loom.int64, device=dev)
        cuts = loom.empty((lines * (n + 1),), dtype=loom.float64, device=dev)
        _pass_kernel()(((lines + _THREADS - 1) // _THREADS,), (_THREADS,),
                       (moved, out, arg, verts, cuts, lines, n, float(spacing) ** 2, np.inf))
    return loom.moveaxis(out, -1, axis), loom.moveaxis(arg, -1, axis)


def _sampling(sampling, ndim):
    if sampling is None:
        return [1.0] * ndim
    s = np.atleast_1d(np.asarray(sampling, dtype=np.float64))
    if s.size == 1:
        return [float(s[0])] * ndim
    if s.size != ndim:
        raise RuntimeError("sequence argument must have length equal to input rank")
    return [float(v) for v in s]


def _check_outputs(shape, ndim, return_distances, return_indices, distances, indices, float64_distances):
    if not (return_distances or return_indices):
        raise RuntimeError("at least one of return_distances/return_indices must be True")
    if distances is not None:
        if not return_distances:
            raise RuntimeError("return_distances must be True if distances is supplied")
        if distances.shape != tuple(shape):
            raise RuntimeError("distances array has wrong shape")
        want = loom.float64 if float64_distances else loom.float32
        if distances.dtype != want:
            raise RuntimeError(f"distances array must be {want}")
    if indices is not None:
        if not return_indices:
            raise RuntimeError("return_indices must be True if indices is supplied")
        if indices.shape != (ndim,) + tuple(shape):
            raise RuntimeError("indices array has wrong shape")
        # SciPy takes int32 only, CuPy any integer type of 16 bits or more: loom as CuPy,
        # provided the type holds every index
        if indices.dtype.kind not in "iu" or indices.dtype.itemsize < 2 or \
                max(shape, default=0) - 1 > np.iinfo(np.dtype(indices.dtype.name)).max:
            raise RuntimeError(f"indices array must be an integer type of at least 16 bits that holds every index, "
                               f"not {indices.dtype}")


def distance_transform_edt(input, sampling=None, return_distances=True, return_indices=False, distances=None,
                           indices=None, *, block_params=None, float64_distances=True):
    """The Euclidean distance of each element to the nearest zero element (with `sampling`
    the spacing along each axis), and with return_indices that element's index
    (shape (ndim,) + input.shape, int32). distances=/indices= arrays are written in place and
    their slot of the result is left out, as SciPy does; indices= may be any integer type of
    16 bits or more that holds the indices (CuPy's rule; SciPy's is int32). float64_distances=False gives
    float32 distances (CuPy's option); block_params (CuPy's kernel tiling) is accepted and
    has no effect."""
    x = _util.asarray(input)
    x = x.reshape((1,)) if x.ndim == 0 else x
    _check_outputs(x.shape, x.ndim, return_distances, return_indices, distances, indices, float64_distances)
    spacing = _sampling(sampling, x.ndim)
    background = x == 0
    f = loom.where(background, 0.0, np.inf).astype(loom.float64)
    feats = []
    if not bool(loom.any(background)):
        # SciPy's answer without any background: distances to the element just before
        # index 0 along the first axis
        f = loom.full(x.shape, np.inf, dtype=loom.float64, device=x.device)
        idx0 = loom.arange(x.shape[0], dtype=loom.float64, device=x.device).reshape((-1,) + (1,) * (x.ndim - 1))
        sq = (spacing[0] * (idx0 + 1.0)) ** 2
        grids = [loom.full(x.shape, -1 if d == 0 else 0, dtype=loom.int64, device=x.device) for d in range(x.ndim)]
        for d in range(1, x.ndim):
            idx = loom.arange(x.shape[d], dtype=loom.float64, device=x.device).reshape(
                [x.shape[d] if k == d else 1 for k in range(x.ndim)])
            sq = sq + (spacing[d] * idx) ** 2
        f, feats = loom.broadcast_to(sq, x.shape), grids
    else:
        for axis in range(x.ndim):
            f, arg = _one_axis(f, axis, spacing[axis])
            if return_indices:
                feats = [loom.take_along_axis(fk, arg, axis=axis) for fk in feats] + [arg]
    results = []
    if return_distances:
        dist = loom.sqrt(f)
        if not float64_distances:
            dist = dist.astype(loom.float32)
        if distances is not None:
            distances[...] = dist.astype(distances.dtype)
        else:
            results.append(dist)
    if return_indices:
        ind = loom.stack(feats).astype(loom.int32)
        if indices is not None:
            indices[...] = ind.astype(indices.dtype)
        else:
            results.append(ind)
    if not results:
        return None
    return results[0] if len(results) == 1 else tuple(results)
