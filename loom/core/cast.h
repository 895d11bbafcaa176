// NumPy's element casts between the 15 dtypes (the GPU kernels in
// backend/cuda/kernels follow the same rules). Out-of-range and NaN float -> integer
// casts are undefined in NumPy too; here they give whatever the C cast gives.
#pragma once
#include <cstdint>
#include <string>
#include <type_traits>

#include "loom/common/loom_cast.cuh"
#include "loom/core/convert.h"
#include "loom/core/dtype.h"
#include "loom/core/error.h"

namespace loom {

/// complex64 and complex128 elements: the device code's type (common/loom_cast.cuh), so
/// the CPU backend and the GPU kernels share one layout and one set of functions.
using complex64_t = ::loom_complex64;
using complex128_t = ::loom_complex128;
template <class T>
constexpr bool is_complex_v = std::is_same_v<T, complex64_t> || std::is_same_v<T, complex128_t>;

template <class T>
constexpr bool is_f16 = std::is_same_v<T, half_bits> || std::is_same_v<T, bfloat16_bits>;

template <class T>
inline float f16_to_float(T x) {
  if constexpr (std::is_same_v<T, half_bits>) return half_to_float(x.bits);
  else return bfloat16_to_float(x.bits);
}

template <class D, class S>
inline D cast(S x) {
  if constexpr (std::is_same_v<D, S>) {
    return x;
  } else if constexpr (is_complex_v<S>) {
    // NumPy's complex -> real cast keeps the real part; -> bool asks for any nonzero part.
    if constexpr (is_complex_v<D>) return D(x);
    else if constexpr (std::is_same_v<D, bool>) return x.re != 0 || x.im != 0;
    else return cast<D>(x.re);
  } else if constexpr (is_complex_v<D>) {
    using R = decltype(D().re);
    return D(cast<R>(x), R(0));
  } else if constexpr (is_f16<S>) {
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
    case DType::complex64:
    case DType::complex128:
      break;
  }
  // Ops that take complex arrays opt in at the dispatch point (PrimitiveInfo::complex) and
  // use dispatch_any_dtype; dispatch() rejects complex operands of the others first.
  throw_dtype_error("dispatch", std::string(dtype_name(dt)) + " is not supported here");
}

/// dispatch_dtype over all 15 dtypes: complex64 -> complex64_t, complex128 -> complex128_t.
template <class F>
inline decltype(auto) dispatch_any_dtype(DType dt, F&& f) {
  if (dt == DType::complex64) return f(complex64_t{});
  if (dt == DType::complex128) return f(complex128_t{});
  return dispatch_dtype(dt, std::forward<F>(f));
}

}  // namespace loom
