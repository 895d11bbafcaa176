#include "loom/core/scalar.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>

#include "loom/core/cast.h"

namespace loom {

void scalar_to_bytes(const Scalar& v, DType dt, void* dst) {
  dispatch_any_dtype(dt, [&](auto tag) {
    using D = decltype(tag);
    D out;
    switch (v.kind) {
      case Scalar::Kind::boolean: out = cast<D>(v.b); break;
      case Scalar::Kind::int_: out = cast<D>(v.i); break;
      case Scalar::Kind::uint_: out = cast<D>(v.u); break;
      case Scalar::Kind::complex_: out = cast<D>(complex128_t(v.f, v.im)); break;
      default: out = cast<D>(v.f); break;
    }
    std::memcpy(dst, &out, sizeof(D));
  });
}

void check_fill_value(const char* op, const Scalar& v, DType dt) {
  if (v.kind != Scalar::Kind::float_ || !is_integer(dt) || dt == bool_) return;
  const std::string where = std::string("[") + op + "] ";
  if (std::isnan(v.f)) throw std::invalid_argument(where + "cannot convert float NaN to integer");
  if (std::isinf(v.f)) throw std::overflow_error(where + "cannot convert float infinity to integer");
  const double t = std::trunc(v.f);
  const int bits = static_cast<int>(itemsize(dt) * 8);
  const bool is_unsigned = dtype_kind(dt) == DTypeKind::unsigned_int;
  // Bounds as exact powers of two: [lo, hi) holds exactly the representable values.
  const double lo = is_unsigned ? 0.0 : -std::ldexp(1.0, bits - 1);
  const double hi = std::ldexp(1.0, is_unsigned ? bits : bits - 1);
  if (t < lo || t >= hi) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.0f", t);
    throw std::overflow_error(where + "fill value " + buf + " is out of bounds for " + dtype_name(dt));
  }
}

Scalar scalar_from_bytes(const void* src, DType dt) {
  return dispatch_any_dtype(dt, [&](auto tag) -> Scalar {
    using T = decltype(tag);
    T x;
    std::memcpy(&x, src, sizeof(T));
    if constexpr (is_complex_v<T>) {
      return Scalar::complex(static_cast<double>(x.re), static_cast<double>(x.im));
    } else if constexpr (is_f16<T>) {
      return Scalar(static_cast<double>(f16_to_float(x)));
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
