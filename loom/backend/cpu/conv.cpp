// CPU convolutions: im2col + the BLAS GEMM (backend/cpu/linalg.cpp), as Caffe and PyTorch's
// CPU fallback do. For a chunk of images the patches of one group are unrolled into columns
// (nb, C/g*KH*KW, OH*OW), so that the convolution is one batched product with the weight,
// its input gradient a product with the transposed weight folded back (col2im), and its
// weight gradient a product with the transposed columns summed over the chunk.
// float16/bfloat16 run in float32 and are rounded once at the end (cpu/float_staging.h).
#include "loom/backend/conv.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "loom/backend/cpu/float_staging.h"
#include "loom/backend/linalg.h"
#include "loom/core/error.h"
#include "loom/runtime/cpu/thread_pool.h"

namespace loom::cpu_backend {
namespace {

// Columns of one chunk stay under this many bytes (a few L2-sized panels per image and a
// bounded scratch for large batches).
constexpr int64_t kColumnBytes = int64_t{32} << 20;

struct Dims {
  int64_t n, c, h, w, o, kh, kw, oh, ow, groups, cg, og, ckk, ohw;
  Conv2dGeometry g;
  // A 1x1 kernel with stride 1 and no padding reads the input as its own columns.
  bool direct() const {
    return kh == 1 && kw == 1 && g.stride[0] == 1 && g.stride[1] == 1 && g.padding[0] == 0 && g.padding[1] == 0;
  }
  int64_t chunk(size_t item) const {
    return std::max<int64_t>(1, std::min(n, kColumnBytes / std::max<int64_t>(1, ckk * ohw * static_cast<int64_t>(item))));
  }
};

Dims dims_of(const Array& x, const Array& w, const Array& y, const Conv2dGeometry& g) {
  Dims d{};
  d.n = x.shape()[0], d.c = x.shape()[1], d.h = x.shape()[2], d.w = x.shape()[3];
  d.o = w.shape()[0], d.kh = w.shape()[2], d.kw = w.shape()[3];
  d.oh = y.shape()[2], d.ow = y.shape()[3];
  d.groups = g.groups, d.cg = d.c / g.groups, d.og = d.o / g.groups;
  d.ckk = d.cg * d.kh * d.kw, d.ohw = d.oh * d.ow;
  d.g = g;
  return d;
}

// The output columns [lo, hi) whose input column ow * stride - pad + k * dilation is inside [0, size).
void valid_range(int64_t size, int64_t out, int64_t stride, int64_t pad, int64_t off, int64_t& lo, int64_t& hi) {
  const int64_t first = pad - off;  // input index = o * stride - first
  lo = first <= 0 ? 0 : (first + stride - 1) / stride;
  hi = size + first <= 0 ? 0 : std::min(out, (size + first - 1) / stride + 1);
  lo = std::min(lo, hi);
}

// cols (nb, ckk, ohw) <- the patches of group `grp` of images [n0, n0 + nb).
template <class T>
void im2col(const Dims& d, const T* x, int64_t n0, int64_t nb, int64_t grp, T* cols) {
  const int64_t rows = nb * d.ckk;
  cpu_runtime::parallel_for(rows, 16, [&](int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r) {
      const int64_t img = r / d.ckk, k = r % d.ckk;
      const int64_t ch = k / (d.kh * d.kw), ki = k / d.kw % d.kh, kj = k % d.kw;
      const T* src = x + (((n0 + img) * d.c + grp * d.cg + ch) * d.h) * d.w;
      T* dst = cols + r * d.ohw;
      int64_t lo, hi;
      valid_range(d.w, d.ow, d.g.stride[1], d.g.padding[1], kj * d.g.dilation[1], lo, hi);
      const int64_t col0 = lo * d.g.stride[1] - d.g.padding[1] + kj * d.g.dilation[1];
      for (int64_t i = 0; i < d.oh; ++i, dst += d.ow) {
        const int64_t ih = i * d.g.stride[0] - d.g.padding[0] + ki * d.g.dilation[0];
        if (ih < 0 || ih >= d.h) {
          std::fill(dst, dst + d.ow, T(0));
          continue;
        }
        std::fill(dst, dst + lo, T(0));
        const T* row = src + ih * d.w + col0;
        if (d.g.stride[1] == 1) std::copy(row, row + (hi - lo), dst + lo);
        else
          for (int64_t j = lo; j < hi; ++j) dst[j] = row[(j - lo) * d.g.stride[1]];
        std::fill(dst + hi, dst + d.ow, T(0));
      }
    }
  });
}

// dx[group grp of images n0..] += the columns folded back onto the input (the adjoint of im2col).
// One task per (image, channel): the kernel offsets that land on one input plane add in turn.
template <class T>
void col2im_add(const Dims& d, const T* cols, int64_t n0, int64_t nb, int64_t grp, T* dx) {
  cpu_runtime::parallel_for(nb * d.cg, 4, [&](int64_t p0, int64_t p1) {
    for (int64_t p = p0; p < p1; ++p) {
      const int64_t img = p / d.cg, ch = p % d.cg;
      T* plane = dx + (((n0 + img) * d.c + grp * d.cg + ch) * d.h) * d.w;
      for (int64_t ki = 0; ki < d.kh; ++ki)
        for (int64_t kj = 0; kj < d.kw; ++kj) {
          const T* src = cols + (img * d.ckk + (ch * d.kh + ki) * d.kw + kj) * d.ohw;
          int64_t lo, hi;
          valid_range(d.w, d.ow, d.g.stride[1], d.g.padding[1], kj * d.g.dilation[1], lo, hi);
          const int64_t col0 = lo * d.g.stride[1] - d.g.padding[1] + kj * d.g.dilation[1];
          for (int64_t i = 0; i < d.oh; ++i) {
            const int64_t ih = i * d.g.stride[0] - d.g.padding[0] + ki * d.g.dilation[0];
            if (ih < 0 || ih >= d.h) continue;
            T* row = plane + ih * d.w + col0;
            const T* s = src + i * d.ow;
            for (int64_t j = lo; j < hi; ++j) row[(j - lo) * d.g.stride[1]] += s[j];
          }
        }
    }
  });
}

// Views for the batched GEMMs: (nb, rows, cols) with element strides (sb, sr, sc).
Array view3(const Array& base, int64_t elem_offset, int64_t nb, int64_t rows, int64_t cols, int64_t sb, int64_t sr,
            int64_t sc) {
  const int64_t item = static_cast<int64_t>(base.itemsize());
  return base.view({nb, rows, cols}, {sb * item, sr * item, sc * item}, base.offset() + elem_offset * item);
}

// The group's columns for a chunk: x itself for a direct (1x1) convolution, else unrolled into `scratch`.
template <class T>
Array columns(const Dims& d, const Array& x, int64_t n0, int64_t nb, int64_t grp, const Array& scratch) {
  if (d.direct())
    return view3(x, (n0 * d.c + grp * d.cg) * d.ohw, nb, d.ckk, d.ohw, d.c * d.ohw, d.ohw, 1);
  im2col<T>(d, static_cast<const T*>(x.data()), n0, nb, grp, static_cast<T*>(scratch.data()));
  return view3(scratch, 0, nb, d.ckk, d.ohw, d.ckk * d.ohw, d.ohw, 1);
}

template <class T>
void forward(const Dims& d, const Array& x, const Array& w, const Array& y) {
  const int64_t chunk = d.chunk(sizeof(T));
  const Array scratch = d.direct() ? Array() : Array::allocate({chunk * d.ckk * d.ohw}, x.dtype(), x.device());
  const Array staged = d.groups > 1 ? Array::allocate({chunk * d.og * d.ohw}, x.dtype(), x.device()) : Array();
  for (int64_t n0 = 0; n0 < d.n; n0 += chunk) {
    const int64_t nb = std::min(chunk, d.n - n0);
    for (int64_t grp = 0; grp < d.groups; ++grp) {
      const Array cols = columns<T>(d, x, n0, nb, grp, scratch);
      const Array wg = view3(w, grp * d.og * d.ckk, nb, d.og, d.ckk, 0, d.ckk, 1);
      if (d.groups == 1) {
        gemm(wg, cols, view3(y, n0 * d.o * d.ohw, nb, d.o, d.ohw, d.o * d.ohw, d.ohw, 1), false);
        continue;
      }
      const Array out = view3(staged, 0, nb, d.og, d.ohw, d.og * d.ohw, d.ohw, 1);
      gemm(wg, cols, out, false);
      const T* s = static_cast<const T*>(staged.data());
      T* dst = static_cast<T*>(y.data());
      for (int64_t i = 0; i < nb; ++i)
        std::copy(s + i * d.og * d.ohw, s + (i + 1) * d.og * d.ohw, dst + ((n0 + i) * d.o + grp * d.og) * d.ohw);
    }
  }
}

template <class T>
void input_grad(const Dims& d, const Array& dy, const Array& w, const Array& dx) {
  const int64_t chunk = d.chunk(sizeof(T));
  const Array dcols = Array::allocate({chunk * d.ckk * d.ohw}, dx.dtype(), dx.device());
  T* out = static_cast<T*>(dx.data());
  std::fill(out, out + dx.size(), T(0));
  for (int64_t n0 = 0; n0 < d.n; n0 += chunk) {
    const int64_t nb = std::min(chunk, d.n - n0);
    for (int64_t grp = 0; grp < d.groups; ++grp) {
      const Array wt = view3(w, grp * d.og * d.ckk, nb, d.ckk, d.og, 0, 1, d.ckk);
      const Array dyg = view3(dy, (n0 * d.o + grp * d.og) * d.ohw, nb, d.og, d.ohw, d.o * d.ohw, d.ohw, 1);
      gemm(wt, dyg, view3(dcols, 0, nb, d.ckk, d.ohw, d.ckk * d.ohw, d.ohw, 1), false);
      col2im_add<T>(d, static_cast<const T*>(dcols.data()), n0, nb, grp, out);
    }
  }
}

template <class T>
void weight_grad(const Dims& d, const Array& x, const Array& dy, const Array& dw) {
  const int64_t chunk = d.chunk(sizeof(T));
  const Array scratch = d.direct() ? Array() : Array::allocate({chunk * d.ckk * d.ohw}, x.dtype(), x.device());
  const Array parts = Array::allocate({chunk * d.og * d.ckk}, dw.dtype(), dw.device());
  T* acc = static_cast<T*>(dw.data());
  std::fill(acc, acc + dw.size(), T(0));
  const T* p = static_cast<const T*>(parts.data());
  for (int64_t n0 = 0; n0 < d.n; n0 += chunk) {
    const int64_t nb = std::min(chunk, d.n - n0);
    for (int64_t grp = 0; grp < d.groups; ++grp) {
      const Array cols = columns<T>(d, x, n0, nb, grp, scratch);
      const Array colst = cols.view({nb, d.ohw, d.ckk}, {cols.strides()[0], cols.strides()[2], cols.strides()[1]},
                                    cols.offset());
      const Array dyg = view3(dy, (n0 * d.o + grp * d.og) * d.ohw, nb, d.og, d.ohw, d.o * d.ohw, d.ohw, 1);
      gemm(dyg, colst, view3(parts, 0, nb, d.og, d.ckk, d.og * d.ckk, d.ckk, 1), false);
      T* dst = acc + grp * d.og * d.ckk;
      for (int64_t i = 0; i < nb; ++i)
        for (int64_t e = 0; e < d.og * d.ckk; ++e) dst[e] += p[i * d.og * d.ckk + e];
    }
  }
}

}  // namespace

void conv2d(const Array& x, const Array& w, const Array& y, const Conv2dGeometry& g) {
  in_float("conv2d", y, [&](const Array& out, auto t, const Array& a, const Array& b) {
    forward<decltype(t)>(dims_of(a, b, out, g), a, b, out);
  }, x, w);
}

void conv2d_input_grad(const Array& dy, const Array& w, const Array& dx, const Conv2dGeometry& g) {
  in_float("conv2d_input_grad", dx, [&](const Array& out, auto t, const Array& a, const Array& b) {
    input_grad<decltype(t)>(dims_of(out, b, a, g), a, b, out);
  }, dy, w);
}

void conv2d_weight_grad(const Array& x, const Array& dy, const Array& dw, const Conv2dGeometry& g) {
  in_float("conv2d_weight_grad", dw, [&](const Array& out, auto t, const Array& a, const Array& b) {
    weight_grad<decltype(t)>(dims_of(a, out, b, g), a, b, out);
  }, x, dy);
}

}  // namespace loom::cpu_backend
