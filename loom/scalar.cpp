#include "loom/scalar.h"

#include <cstring>

#include "loom/backend/cpu/cast.h"

namespace loom {

void scalar_to_bytes(const Scalar& v, DType dt, void* dst) {
  cpu_backend::dispatch_dtype(dt, [&](auto tag) {
    using D = decltype(tag);
    D out;
    switch (v.kind) {
      case Scalar::Kind::boolean: out = cpu_backend::cast<D>(v.b); break;
      case Scalar::Kind::int_: out = cpu_backend::cast<D>(v.i); break;
      case Scalar::Kind::uint_: out = cpu_backend::cast<D>(v.u); break;
      default: out = cpu_backend::cast<D>(v.f); break;
    }
    std::memcpy(dst, &out, sizeof(D));
  });
}

Scalar scalar_from_bytes(const void* src, DType dt) {
  return cpu_backend::dispatch_dtype(dt, [&](auto tag) -> Scalar {
    using T = decltype(tag);
    T x;
    std::memcpy(&x, src, sizeof(T));
    if constexpr (cpu_backend::is_f16<T>) {
      return Scalar(static_cast<double>(cpu_backend::f16_to_float(x)));
    } else if constexpr (std::is_same_v<T, bool>) {
      return Scalar(x);
    } else if constexpr (std::is_floating_point_v<T>) {
      return Scalar(static_cast<double>(x));
    } else if constexpr (std::is_signed_v<T>) {
      return Scalar(static_cast<long long>(x));
    } else {
      return Scalar(static_cast<unsigned long long>(x));
    }
  });
}

}  // namespace loom
