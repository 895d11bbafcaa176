// Walks the elements of a strided array in C order, calling f(byte_pointer, flat_index).
// Dimensions are collapsed first, so a contiguous array is one tight loop.
#pragma once
#include <vector>

#include "loom/core/shape.h"

namespace loom::cpu_backend {

template <class F>
inline void for_each_strided(const char* base, const Shape& shape, const Strides& strides, F&& f) {
  const CollapsedLayout l = collapse_dims(shape, strides);
  const int nd = static_cast<int>(l.shape.size());
  if (nd == 0) {
    int64_t n = shape_size(shape);
    if (n == 1) f(base, int64_t{0});
    return;
  }
  for (int64_t d : l.shape)
    if (d == 0) return;
  const int64_t inner = l.shape[nd - 1], inner_stride = l.strides[nd - 1];
  std::vector<int64_t> idx(nd, 0);
  int64_t flat = 0;
  const char* p = base;
  while (true) {
    for (int64_t i = 0; i < inner; ++i) f(p + i * inner_stride, flat + i);
    flat += inner;
    int d = nd - 2;
    for (; d >= 0; --d) {
      p += l.strides[d];
      if (++idx[d] < l.shape[d]) break;
      p -= l.strides[d] * l.shape[d];
      idx[d] = 0;
    }
    if (d < 0) return;
  }
}

}  // namespace loom::cpu_backend
