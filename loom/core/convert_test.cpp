#include "loom/core/convert.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

namespace loom {

TEST(Convert, HalfKnownValues) {
  EXPECT_EQ(float_to_half(1.0f), 0x3c00);
  EXPECT_EQ(float_to_half(-2.0f), 0xc000);
  EXPECT_EQ(float_to_half(65504.0f), 0x7bff);
  EXPECT_EQ(float_to_half(65520.0f), 0x7c00);  // rounds up to inf
  EXPECT_EQ(float_to_half(65519.0f), 0x7bff);
  EXPECT_EQ(float_to_half(std::ldexp(1.0f, -24)), 0x0001);  // smallest subnormal
  EXPECT_EQ(float_to_half(std::ldexp(1.0f, -25)), 0x0000);  // tie to even -> 0
  EXPECT_EQ(float_to_half(std::ldexp(1.5f, -25)), 0x0001);
  EXPECT_EQ(float_to_half(1.0f + std::ldexp(1.0f, -11)), 0x3c00);  // tie to even
  EXPECT_EQ(float_to_half(1.0f + std::ldexp(3.0f, -11)), 0x3c02);
  EXPECT_TRUE(std::isnan(half_to_float(float_to_half(NAN))));
  EXPECT_EQ(half_to_float(0x0001), std::ldexp(1.0f, -24));
  EXPECT_EQ(half_to_float(0x7c00), std::numeric_limits<float>::infinity());
}

TEST(Convert, DoubleRoundsOnce) {
  // 1 + 2^-11 + 2^-40 is just above a half tie: direct rounding goes up, while a
  // detour through float (which drops the 2^-40) would tie to even and go down.
  const double d = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  EXPECT_EQ(double_to_half(d), 0x3c01);
  const double b = 1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40);
  EXPECT_EQ(double_to_bfloat16(b), 0x3f81);
}

TEST(Convert, HalfRoundTripAllPatterns) {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    const float f = half_to_float(static_cast<uint16_t>(h));
    if (std::isnan(f)) continue;
    EXPECT_EQ(float_to_half(f), h);
    EXPECT_EQ(double_to_half(f), h);
  }
}

TEST(Convert, BFloat16MatchesReferenceRounding) {
  std::mt19937 rng(std::random_device{}());
  std::uniform_int_distribution<uint32_t> bits;
  for (int i = 0; i < 100000; ++i) {
    uint32_t u = bits(rng);
    float f;
    std::memcpy(&f, &u, 4);
    if (std::isnan(f)) continue;
    // float -> bfloat16 through the bit trick and through the generic double path agree.
    EXPECT_EQ(float_to_bfloat16(f), double_to_bfloat16(f)) << std::hex << u;
    const float back = bfloat16_to_float(float_to_bfloat16(f));
    if (std::isfinite(back)) EXPECT_LE(std::fabs(back - f), std::fabs(f) * (1.0f / 256.0f) + 1e-38f);
  }
}

}  // namespace loom
