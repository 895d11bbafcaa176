// The device casts of kernels/loom_cast.cuh, compiled here as host code, against the CPU
// backend's casts: every 16-bit pattern, a sweep of float patterns, double rounding ties
// and all 13 x 13 dtype pairs. Runs without a GPU.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "loom/core/cast.h"
#include "loom/common/loom_cast.cuh"
#include "loom/backend/cuda/test_util.h"
#include "loom/core/convert.h"

namespace loom::testing {
namespace {

uint32_t bits_of(float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; }
float float_of(uint32_t u) { float f; std::memcpy(&f, &u, 4); return f; }

TEST(CudaCastHost, SixteenBitFloatsToFloat) {
  for (uint32_t b = 0; b < 65536; ++b) {
    const uint16_t h = static_cast<uint16_t>(b);
    ASSERT_EQ(bits_of(loom_f16_to_float(loom_f16{h})), bits_of(half_to_float(h))) << std::hex << b;
    ASSERT_EQ(bits_of(loom_bf16_to_float(loom_bf16{h})), bits_of(bfloat16_to_float(h))) << std::hex << b;
  }
}

TEST(CudaCastHost, FloatToSixteenBitFloats) {
  // Every 61st float pattern (~70 million) plus the neighbourhood of each half tie.
  for (uint64_t u = 0; u <= 0xffffffffull; u += 61) {
    const float f = float_of(static_cast<uint32_t>(u));
    ASSERT_EQ(loom_float_to_f16(f).bits, float_to_half(f)) << std::hex << u;
    ASSERT_EQ(loom_float_to_bf16(f).bits, float_to_bfloat16(f)) << std::hex << u;
  }
  for (uint32_t h = 0; h < 0x7c00; ++h) {
    const float lo = half_to_float(static_cast<uint16_t>(h)), hi = half_to_float(static_cast<uint16_t>(h + 1));
    const float mid = (lo + hi) / 2;  // exact in float: a tie in half
    for (float f : {mid, std::nextafter(mid, 0.0f), std::nextafter(mid, 1e30f), -mid}) {
      ASSERT_EQ(loom_float_to_f16(f).bits, float_to_half(f)) << f;
    }
  }
}

TEST(CudaCastHost, DoubleToSixteenBitFloatsRoundsOnce) {
  auto& g = rng();
  for (int i = 0; i < 2000000; ++i) {
    uint64_t b = g();
    // Exponents where half and bfloat16 round, underflow or overflow.
    const uint64_t e = 1023 - 140 + g() % 280;
    b = (b & 0x800fffffffffffffull) | (e << 52);
    double d;
    std::memcpy(&d, &b, 8);
    ASSERT_EQ(loom_double_to_f16(d).bits, double_to_half(d)) << d;
    ASSERT_EQ(loom_double_to_bf16(d).bits, double_to_bfloat16(d)) << d;
  }
  // Ties of half, and values a hair off them, which a detour through float would round wrong.
  for (uint32_t h = 0; h < 0x7c00; ++h) {
    const double lo = half_to_float(static_cast<uint16_t>(h)), hi = half_to_float(static_cast<uint16_t>(h + 1));
    const double mid = (lo + hi) / 2;
    for (double d : {mid, std::nextafter(mid, 0.0), std::nextafter(mid, 1e300), -mid}) {
      ASSERT_EQ(loom_double_to_f16(d).bits, double_to_half(d)) << d;
    }
  }
  const double specials[] = {0.0, -0.0, 65504.0, 65519.99, 65520.0, 1e300, -1e300, std::nan(""),
                             -std::nan(""), INFINITY, -INFINITY, 5.960464477539063e-08, 2.98e-08,
                             4.9e-324, 3.4e38, 3.5e38};
  for (double d : specials) {
    EXPECT_EQ(loom_double_to_f16(d).bits, double_to_half(d)) << d;
    EXPECT_EQ(loom_double_to_bf16(d).bits, double_to_bfloat16(d)) << d;
  }
}

// Calls f(T{}) with the device code's type for `dt`.
template <class F>
void with_device_type(DType dt, F&& f) {
  switch (dt) {
    case DType::bool_: return f(bool{});
    case DType::int8: return f(static_cast<signed char>(0));
    case DType::int16: return f(short{});
    case DType::int32: return f(int{});
    case DType::int64: return f(static_cast<long long>(0));
    case DType::uint8: return f(static_cast<unsigned char>(0));
    case DType::uint16: return f(static_cast<unsigned short>(0));
    case DType::uint32: return f(0u);
    case DType::uint64: return f(0ull);
    case DType::float16: return f(loom_f16{});
    case DType::bfloat16: return f(loom_bf16{});
    case DType::float32: return f(0.0f);
    case DType::float64: return f(0.0);
    case DType::complex64: return f(loom_complex64{});
    case DType::complex128: return f(loom_complex128{});
  }
}

TEST(CudaCastHost, AllPairsMatchCpuBackend) {
  constexpr int64_t n = 4000;
  for (int s = 0; s < kNumDTypes; ++s) {
    for (int d = 0; d < kNumDTypes; ++d) {
      const DType sdt = static_cast<DType>(s), ddt = static_cast<DType>(d);
      const Bytes src = random_elements(sdt, n, is_integer(ddt));
      Bytes got(n * itemsize(ddt)), want(n * itemsize(ddt));
      with_device_type(sdt, [&](auto stag) {
        using S = decltype(stag);
        with_device_type(ddt, [&](auto dtag) {
          using D = decltype(dtag);
          for (int64_t i = 0; i < n; ++i) {
            S x;
            std::memcpy(&x, src.data() + i * sizeof(S), sizeof(S));
            const D y = loom_convert_element<D, S>(loom_load<S>(&x));
            std::memcpy(got.data() + i * sizeof(D), &y, sizeof(D));
          }
        });
      });
      dispatch_any_dtype(sdt, [&](auto stag) {
        using S = decltype(stag);
        dispatch_any_dtype(ddt, [&](auto dtag) {
          using D = decltype(dtag);
          for (int64_t i = 0; i < n; ++i) {
            S x;
            std::memcpy(&x, src.data() + i * sizeof(S), sizeof(S));
            const D y = cast<D>(x);
            std::memcpy(want.data() + i * sizeof(D), &y, sizeof(D));
          }
        });
      });
      LOOM_EXPECT_SAME_ELEMENTS(got, want, ddt, std::string(dtype_name(sdt)) + " -> " + dtype_name(ddt));
    }
  }
}

}  // namespace
}  // namespace loom::testing
