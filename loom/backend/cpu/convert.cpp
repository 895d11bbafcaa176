// dst (contiguous) = src (any layout) cast to dst's dtype, and host copies into arrays.
#include <cstring>

#include "loom/core/cast.h"
#include "loom/backend/creation.h"
#include "loom/backend/cpu/strided.h"
#include "loom/runtime/cpu/thread_pool.h"

namespace loom::cpu_backend {
namespace {

template <class S, class D>
void convert_typed(const Array& src, D* out) {
  const char* base = static_cast<const char*>(src.data());
  const CollapsedLayout l = collapse_dims(src.shape(), src.strides());
  if (l.shape.size() <= 1 && (l.shape.empty() || l.strides[0] == static_cast<int64_t>(sizeof(S)))) {
    const S* in = reinterpret_cast<const S*>(base);
    const int64_t n = src.size();
    // Large copies are split over cores: one thread cannot saturate memory bandwidth.
    cpu_runtime::parallel_for(n, 1 << 16, [&](int64_t b, int64_t e) {
      if constexpr (std::is_same_v<S, D>) {
        std::memcpy(out + b, in + b, (e - b) * sizeof(S));
      } else {
        for (int64_t i = b; i < e; ++i) out[i] = cast<D>(in[i]);
      }
    });
    return;
  }
  for_each_strided(base, src.shape(), src.strides(), [&](const char* p, int64_t i) {
    S x;
    std::memcpy(&x, p, sizeof(S));
    out[i] = cast<D>(x);
  });
}

}  // namespace

void convert(const Array& src, const Array& dst) {
  if (src.size() == 0) return;
  dispatch_any_dtype(src.dtype(), [&](auto s) {
    dispatch_any_dtype(dst.dtype(), [&](auto d) {
      using S = decltype(s);
      using D = decltype(d);
      convert_typed<S, D>(src, static_cast<D*>(dst.data()));
    });
  });
}

void copy_from_host(const HostView& src, const Array& dst) {
  // Wrap the host memory as a borrowed cpu() array; the caller keeps it alive.
  auto borrowed = std::make_shared<Buffer>(const_cast<void*>(src.data), 0, Device{}, std::function<void()>());
  convert(Array(borrowed, src.dtype, src.shape, src.strides, 0), dst);
}

}  // namespace loom::cpu_backend
