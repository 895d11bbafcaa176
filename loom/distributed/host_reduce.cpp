#include "loom/distributed/host_reduce.h"

#include <algorithm>

#include "loom/core/cast.h"

namespace loom::distributed {
namespace {

// Storage type T, computed in C (float for the half types; bool's min/max are and/or).
template <class T>
using Compute = std::conditional_t<is_f16<T>, float, T>;

template <class T, ReduceOp Op>
void reduce(void* out, const void* a, const void* b, size_t n) {
  T* o = static_cast<T*>(out);
  const T* x = static_cast<const T*>(a);
  const T* y = static_cast<const T*>(b);
  for (size_t i = 0; i < n; ++i) {
    const Compute<T> u = cast<Compute<T>>(x[i]), v = cast<Compute<T>>(y[i]);
    Compute<T> r;
    if constexpr (Op == ReduceOp::sum || Op == ReduceOp::avg) r = static_cast<Compute<T>>(u + v);
    else if constexpr (Op == ReduceOp::prod) r = static_cast<Compute<T>>(u * v);
    // NaN wins, as in NumPy's maximum/minimum and in NCCL.
    else if constexpr (Op == ReduceOp::min) r = (u != u) ? u : (v != v) ? v : std::min(u, v);
    else r = (u != u) ? u : (v != v) ? v : std::max(u, v);
    o[i] = cast<T>(r);
  }
}

}  // namespace

HostReduceFn host_reduce_fn(DType t, ReduceOp op) {
  return dispatch_dtype(t, [&](auto tag) -> HostReduceFn {
    using T = decltype(tag);
    switch (op) {
      case ReduceOp::sum:
      case ReduceOp::avg: return &reduce<T, ReduceOp::sum>;
      case ReduceOp::prod: return &reduce<T, ReduceOp::prod>;
      case ReduceOp::min: return &reduce<T, ReduceOp::min>;
      case ReduceOp::max: return &reduce<T, ReduceOp::max>;
    }
    return nullptr;
  });
}

void scale_host(void* x, DType t, size_t n, double divisor) {
  dispatch_dtype(t, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (is_f16<T> || std::is_floating_point_v<T>) {
      T* p = static_cast<T*>(x);
      for (size_t i = 0; i < n; ++i) p[i] = cast<T>(cast<double>(p[i]) / divisor);
    }
  });
}

}  // namespace loom::distributed
