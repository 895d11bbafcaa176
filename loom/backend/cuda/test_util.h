// Helpers shared by the CUDA backend's tests: fresh random element bytes of any dtype,
// byte comparison that lets NaN equal NaN, and host <-> GPU array plumbing.
#pragma once
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "loom/array/array.h"
#include "loom/runtime/gpu_runtime.h"
#include "loom/core/convert.h"
#include "loom/core/dtype.h"

namespace loom::testing {

using Bytes = std::vector<unsigned char>;

inline std::mt19937_64& rng() {
  static std::mt19937_64 g{std::random_device{}()};
  return g;
}

/// `n` random elements of `dt`. With `int_target`, floats stay finite and well inside
/// the int64 range, where a float -> integer cast is defined.
inline Bytes random_elements(DType dt, int64_t n, bool int_target = false) {
  auto& g = rng();
  const size_t isz = itemsize(dt);
  Bytes out(static_cast<size_t>(n) * isz);
  std::uniform_real_distribution<double> wide(-1e6, 1e6), unit(-2.0, 2.0);
  std::uniform_int_distribution<int> pick(0, 9);
  for (int64_t i = 0; i < n; ++i) {
    unsigned char* p = out.data() + i * isz;
    const uint64_t bits = g();
    const int kind = pick(g);
    double v = kind < 5 ? wide(g) : kind < 8 ? unit(g) : std::ldexp(unit(g), static_cast<int>(g() % 120) - 60);
    if (kind == 9 && !int_target) {  // raw bit patterns: NaN, inf, subnormals, huge
      std::memcpy(&v, &bits, 8);
    }
    switch (dt) {
      case DType::bool_: p[0] = static_cast<unsigned char>(bits & 1); break;
      case DType::float16: {
        uint16_t h = kind == 9 && !int_target ? static_cast<uint16_t>(bits)
                                              : float_to_half(static_cast<float>(std::fmod(v, 60000.0)));
        std::memcpy(p, &h, 2);
        break;
      }
      case DType::bfloat16: {
        uint16_t h = kind == 9 && !int_target ? static_cast<uint16_t>(bits)
                                              : float_to_bfloat16(static_cast<float>(v));
        std::memcpy(p, &h, 2);
        break;
      }
      case DType::float32: {
        float f = static_cast<float>(v);
        if (kind == 9 && !int_target) {
          const uint32_t b32 = static_cast<uint32_t>(bits);
          std::memcpy(&f, &b32, 4);
        }
        std::memcpy(p, &f, 4);
        break;
      }
      case DType::float64: std::memcpy(p, &v, 8); break;
      case DType::complex64: {  // the real part as float32 above, the imaginary part in [-2, 2)
        const float parts[2] = {static_cast<float>(v), static_cast<float>(unit(g))};
        std::memcpy(p, parts, 8);
        break;
      }
      case DType::complex128: {
        const double parts[2] = {v, unit(g)};
        std::memcpy(p, parts, 16);
        break;
      }
      default: std::memcpy(p, &bits, isz);  // integers: every bit pattern
    }
  }
  return out;
}

inline bool is_nan_element(const unsigned char* p, DType dt) {
  switch (dt) {
    case DType::float16: { uint16_t h; std::memcpy(&h, p, 2); return std::isnan(half_to_float(h)); }
    case DType::bfloat16: { uint16_t h; std::memcpy(&h, p, 2); return std::isnan(bfloat16_to_float(h)); }
    case DType::float32: { float f; std::memcpy(&f, p, 4); return std::isnan(f); }
    case DType::float64: { double d; std::memcpy(&d, p, 8); return std::isnan(d); }
    case DType::complex64: { float f[2]; std::memcpy(f, p, 8); return std::isnan(f[0]) || std::isnan(f[1]); }
    case DType::complex128: { double d[2]; std::memcpy(d, p, 16); return std::isnan(d[0]) || std::isnan(d[1]); }
    default: return false;
  }
}

/// Index of the first element that differs (NaN equals NaN), or -1.
inline int64_t first_mismatch(const Bytes& a, const Bytes& b, DType dt) {
  const size_t isz = itemsize(dt);
  if (a.size() != b.size()) return 0;
  for (size_t i = 0; i < a.size() / isz; ++i) {
    const unsigned char *x = a.data() + i * isz, *y = b.data() + i * isz;
    if (std::memcmp(x, y, isz) == 0) continue;
    if (is_nan_element(x, dt) && is_nan_element(y, dt)) continue;
    return static_cast<int64_t>(i);
  }
  return -1;
}

inline std::string element_hex(const Bytes& a, int64_t i, DType dt) {
  const size_t isz = itemsize(dt);
  std::string s = "0x";
  static const char* digits = "0123456789abcdef";
  for (size_t k = isz; k-- > 0;) {
    const unsigned char c = a[i * isz + k];
    s += digits[c >> 4];
    s += digits[c & 15];
  }
  return s;
}

#define LOOM_EXPECT_SAME_ELEMENTS(got, want, dt, what)                                     \
  do {                                                                                     \
    const int64_t loom_i_ = ::loom::testing::first_mismatch(got, want, dt);               \
    EXPECT_EQ(loom_i_, -1) << what << ": element " << loom_i_ << " is "                   \
                           << (loom_i_ >= 0 ? ::loom::testing::element_hex(got, loom_i_, dt) : "") \
                           << ", expected "                                                \
                           << (loom_i_ >= 0 ? ::loom::testing::element_hex(want, loom_i_, dt) : ""); \
  } while (0)

inline Device gpu0() { return Device{DeviceType::cuda, 0}; }

/// A contiguous array on `device` holding `bytes`.
inline Array array_from_bytes(const Bytes& bytes, DType dt, const Shape& shape, const Device& device) {
  Array a = Array::allocate(shape, dt, device);
  if (device.is_cpu()) {
    if (!bytes.empty()) std::memcpy(a.data(), bytes.data(), bytes.size());
  } else {
    gpu_runtime::upload(HostView{bytes.data(), dt, shape, contiguous_strides(shape, itemsize(dt))}, a);
  }
  return a;
}

/// The elements of `a` (any layout, CPU or GPU) in C order.
inline Bytes array_bytes(const Array& a) {
  Bytes out(a.nbytes());
  a.copy_to_host(out.data());
  return out;
}

}  // namespace loom::testing
