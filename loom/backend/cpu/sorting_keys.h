// Order-preserving keys for sorting: every dtype maps to an unsigned integer of its own
// width whose unsigned order is NumPy's sort order. Floats: NaN (any sign, any payload)
// becomes the all-ones key above +inf, -0.0 becomes +0.0 (they compare equal), then
// negatives have every bit flipped and positives the sign bit set. Signed integers flip
// the sign bit; bool is 0/1. Equal keys <=> NumPy-equal values (NaNs all equal), so a
// stable sort of keys is NumPy's stable sort, and unique can compare keys.
// The GPU uses the same transform (backend/cuda/kernels/loom_sorting.cuh); sorting_test
// checks that both agree.
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "loom/core/convert.h"

namespace loom::cpu_backend {

/// The unsigned key type of storage type T (bool, integers, half_bits, bfloat16_bits,
/// float, double).
template <class T>
using sort_key_t = std::conditional_t<
    sizeof(T) == 1, uint8_t,
    std::conditional_t<sizeof(T) == 2, uint16_t, std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>>;

template <class U>
inline U float_bits_key(U u, U inf_bits) {
  constexpr U sign = U(1) << (8 * sizeof(U) - 1);
  const U mag = static_cast<U>(u & ~sign);
  if (mag > inf_bits) return static_cast<U>(~U(0));  // NaN: one key, above +inf
  if (mag == 0) u = 0;                               // -0.0 == +0.0
  return (u & sign) ? static_cast<U>(~u) : static_cast<U>(u | sign);
}

/// The sort key of one element.
template <class T>
inline sort_key_t<T> sort_key(T x) {
  using U = sort_key_t<T>;
  if constexpr (std::is_same_v<T, bool>) {
    return x ? 1 : 0;
  } else if constexpr (std::is_same_v<T, half_bits>) {
    return float_bits_key<uint16_t>(x.bits, 0x7c00);
  } else if constexpr (std::is_same_v<T, bfloat16_bits>) {
    return float_bits_key<uint16_t>(x.bits, 0x7f80);
  } else if constexpr (std::is_floating_point_v<T>) {
    U u;
    std::memcpy(&u, &x, sizeof(U));
    return float_bits_key<U>(u, sizeof(T) == 4 ? U(0x7f800000u) : U(0x7ff0000000000000ull));
  } else if constexpr (std::is_signed_v<T>) {
    return static_cast<U>(static_cast<U>(x) ^ (U(1) << (8 * sizeof(U) - 1)));
  } else {
    return static_cast<U>(x);
  }
}

template <class U>
inline U float_bits_from_key(U k, U default_nan) {
  constexpr U sign = U(1) << (8 * sizeof(U) - 1);
  if (k == static_cast<U>(~U(0))) return default_nan;
  return (k & sign) ? static_cast<U>(k & ~sign) : static_cast<U>(~k);
}

/// The element whose key is k: the inverse of sort_key except that every NaN key gives
/// the dtype's default NaN and a zero key gives +0.0 (values-only sorting checks that
/// its rows hold neither -0.0 nor another NaN).
template <class T>
inline T value_from_key(sort_key_t<T> k) {
  using U = sort_key_t<T>;
  if constexpr (std::is_same_v<T, bool>) {
    return k != 0;
  } else if constexpr (std::is_same_v<T, half_bits>) {
    return T{float_bits_from_key<uint16_t>(k, 0x7e00)};
  } else if constexpr (std::is_same_v<T, bfloat16_bits>) {
    return T{float_bits_from_key<uint16_t>(k, 0x7fc0)};
  } else if constexpr (std::is_floating_point_v<T>) {
    const U u = float_bits_from_key<U>(k, sizeof(T) == 4 ? U(0x7fc00000u) : U(0x7ff8000000000000ull));
    T x;
    std::memcpy(&x, &u, sizeof(U));
    return x;
  } else {
    return static_cast<T>(static_cast<U>(k ^ (std::is_signed_v<T> ? U(1) << (8 * sizeof(U) - 1) : U(0))));
  }
}

/// True for the dtypes whose all-ones key means NaN (floating point).
template <class T>
constexpr bool key_has_nan = std::is_floating_point_v<T> || std::is_same_v<T, half_bits> ||
                             std::is_same_v<T, bfloat16_bits>;

}  // namespace loom::cpu_backend
