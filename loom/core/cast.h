// NumPy's element casts between the 13 dtypes (the GPU kernels in
// backend/cuda/kernels follow the same rules). Out-of-range and NaN float -> integer
// casts are undefined in NumPy too; here they give whatever the C cast gives.
#pragma once
#include <cstdint>
#include <type_traits>

#include "loom/core/convert.h"
#include "loom/core/dtype.h"
#include "loom/core/error.h"

namespace loom {

template <class T>
constexpr bool is_f16 = std::is_same_v<T, half_bits> || std::is_same_v<T, bfloat16_bits>;

template <class T>
inline float f16_to_float(T x) {
  if constexpr (std::is_same_v<T, half_bits>) return half_to_float(x.bits);
  else return bfloat16_to_float(x.bits);
}

template <class D, class S>
inline D cast(S x) {
  if constexpr (is_f16<S>) {
    return cast<D>(f16_to_float(x));
  } else if constexpr (std::is_same_v<D, half_bits>) {
    if constexpr (std::is_same_v<S, double>) return D{double_to_half(x)};
    else return D{float_to_half(static_cast<float>(x))};
  } else if constexpr (std::is_same_v<D, bfloat16_bits>) {
    if constexpr (std::is_same_v<S, double>) return D{double_to_bfloat16(x)};
    else return D{float_to_bfloat16(static_cast<float>(x))};
  } else if constexpr (std::is_same_v<D, bool>) {
    return x != 0;
  } else if constexpr (std::is_integral_v<D> && std::is_floating_point_v<S>) {
    // Through int64 as NumPy does on x86-64, so that -1.0 -> uint8 gives 255.
    if constexpr (std::is_same_v<D, uint64_t>) {
      return x < 0 ? static_cast<uint64_t>(static_cast<int64_t>(x)) : static_cast<uint64_t>(x);
    } else {
      return static_cast<D>(static_cast<int64_t>(x));
    }
  } else {
    return static_cast<D>(x);
  }
}

/// Calls f(T{}) with the storage type of `dt`.
template <class F>
inline decltype(auto) dispatch_dtype(DType dt, F&& f) {
  switch (dt) {
    case DType::bool_: return f(bool{});
    case DType::int8: return f(int8_t{});
    case DType::int16: return f(int16_t{});
    case DType::int32: return f(int32_t{});
    case DType::int64: return f(int64_t{});
    case DType::uint8: return f(uint8_t{});
    case DType::uint16: return f(uint16_t{});
    case DType::uint32: return f(uint32_t{});
    case DType::uint64: return f(uint64_t{});
    case DType::float16: return f(half_bits{});
    case DType::bfloat16: return f(bfloat16_bits{});
    case DType::float32: return f(float{});
    case DType::float64: return f(double{});
  }
  throw_dtype_error("dispatch", "unknown dtype");
}

}  // namespace loom
