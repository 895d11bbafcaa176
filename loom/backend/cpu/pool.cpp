// CPU pooling: direct loops over each output element's window, one task per (image,
// channel) plane. float16/bfloat16 run in float32 and are rounded once at the end.
#include "loom/backend/pool.h"

#include <algorithm>
#include <cmath>

#include "loom/backend/cpu/float_staging.h"
#include "loom/core/error.h"
#include "loom/runtime/cpu/thread_pool.h"

namespace loom::cpu_backend {
namespace {

struct Plane {
  int64_t planes, h, w, oh, ow;
  Pool2dGeometry g;
  // The window of output (i, j), clipped to the input: rows [r0, r1), columns [c0, c1).
  void window(int64_t i, int64_t j, int64_t& r0, int64_t& r1, int64_t& c0, int64_t& c1) const {
    r0 = i * g.stride[0] - g.padding[0], c0 = j * g.stride[1] - g.padding[1];
    r1 = std::min(r0 + g.kernel[0], h), c1 = std::min(c0 + g.kernel[1], w);
    r0 = std::max<int64_t>(r0, 0), c0 = std::max<int64_t>(c0, 0);
  }
};

Plane plane_of(const Array& x, const Array& y, const Pool2dGeometry& g) {
  return {x.shape()[0] * x.shape()[1], x.shape()[2], x.shape()[3], y.shape()[2], y.shape()[3], g};
}

// The index (within the plane) of the window's maximum: the first NaN, else the first largest.
template <class T>
int64_t argmax(const Plane& p, const T* in, int64_t i, int64_t j) {
  int64_t r0, r1, c0, c1;
  p.window(i, j, r0, r1, c0, c1);
  int64_t best = r0 * p.w + c0;
  for (int64_t r = r0; r < r1; ++r)
    for (int64_t c = c0; c < c1; ++c) {
      const T v = in[r * p.w + c];
      if (std::isnan(v)) return r * p.w + c;
      if (v > in[best]) best = r * p.w + c;
    }
  return best;
}

template <class T>
void max_forward(const Plane& p, const T* x, T* y) {
  cpu_runtime::parallel_for(p.planes, 1, [&](int64_t lo, int64_t hi) {
    for (int64_t q = lo; q < hi; ++q)
      for (int64_t i = 0; i < p.oh; ++i)
        for (int64_t j = 0; j < p.ow; ++j) {
          const T* in = x + q * p.h * p.w;
          y[(q * p.oh + i) * p.ow + j] = in[argmax(p, in, i, j)];
        }
  });
}

template <class T>
void max_backward(const Plane& p, const T* x, const T* dy, T* dx) {
  std::fill(dx, dx + p.planes * p.h * p.w, T(0));
  cpu_runtime::parallel_for(p.planes, 1, [&](int64_t lo, int64_t hi) {
    for (int64_t q = lo; q < hi; ++q)
      for (int64_t i = 0; i < p.oh; ++i)
        for (int64_t j = 0; j < p.ow; ++j)
          dx[q * p.h * p.w + argmax(p, x + q * p.h * p.w, i, j)] += dy[(q * p.oh + i) * p.ow + j];
  });
}

template <class T>
void avg_forward(const Plane& p, const T* x, T* y) {
  const T scale = T(1) / static_cast<T>(p.g.kernel[0] * p.g.kernel[1]);
  cpu_runtime::parallel_for(p.planes, 1, [&](int64_t lo, int64_t hi) {
    for (int64_t q = lo; q < hi; ++q)
      for (int64_t i = 0; i < p.oh; ++i)
        for (int64_t j = 0; j < p.ow; ++j) {
          int64_t r0, r1, c0, c1;
          p.window(i, j, r0, r1, c0, c1);
          T s = 0;
          for (int64_t r = r0; r < r1; ++r)
            for (int64_t c = c0; c < c1; ++c) s += x[(q * p.h + r) * p.w + c];
          y[(q * p.oh + i) * p.ow + j] = s * scale;
        }
  });
}

template <class T>
void avg_backward(const Plane& p, const T* dy, T* dx) {
  const T scale = T(1) / static_cast<T>(p.g.kernel[0] * p.g.kernel[1]);
  std::fill(dx, dx + p.planes * p.h * p.w, T(0));
  cpu_runtime::parallel_for(p.planes, 1, [&](int64_t lo, int64_t hi) {
    for (int64_t q = lo; q < hi; ++q)
      for (int64_t i = 0; i < p.oh; ++i)
        for (int64_t j = 0; j < p.ow; ++j) {
          int64_t r0, r1, c0, c1;
          p.window(i, j, r0, r1, c0, c1);
          const T v = dy[(q * p.oh + i) * p.ow + j] * scale;
          for (int64_t r = r0; r < r1; ++r)
            for (int64_t c = c0; c < c1; ++c) dx[(q * p.h + r) * p.w + c] += v;
        }
  });
}

template <class T>
const T* cdata(const Array& a) { return static_cast<const T*>(a.data()); }
template <class T>
T* mdata(const Array& a) { return static_cast<T*>(a.data()); }

}  // namespace

void max_pool2d(const Array& x, const Array& y, const Pool2dGeometry& g) {
  in_float("max_pool2d", y, [&](const Array& out, auto t, const Array& xa) {
    using T = decltype(t);
    max_forward<T>(plane_of(xa, out, g), cdata<T>(xa), mdata<T>(out));
  }, x);
}

void max_pool2d_grad(const Array& x, const Array& y, const Array& dy, const Array& dx, const Pool2dGeometry& g) {
  in_float("max_pool2d_grad", dx, [&](const Array& out, auto t, const Array& xa, const Array& dya) {
    using T = decltype(t);
    max_backward<T>(plane_of(xa, dya, g), cdata<T>(xa), cdata<T>(dya), mdata<T>(out));
  }, x, dy);
}

void avg_pool2d(const Array& x, const Array& y, const Pool2dGeometry& g) {
  in_float("avg_pool2d", y, [&](const Array& out, auto t, const Array& xa) {
    using T = decltype(t);
    avg_forward<T>(plane_of(xa, out, g), cdata<T>(xa), mdata<T>(out));
  }, x);
}

void avg_pool2d_grad(const Array& dy, const Array& dx, const Pool2dGeometry& g) {
  in_float("avg_pool2d_grad", dx, [&](const Array& out, auto t, const Array& dya) {
    using T = decltype(t);
    avg_backward<T>(plane_of(out, dya, g), cdata<T>(dya), mdata<T>(out));
  }, dy);
}

}  // namespace loom::cpu_backend
