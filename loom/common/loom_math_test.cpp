// The host float exp of loom_math.cuh (the CPU backend's exp for float32, float16 and
// bfloat16): within 1 ulp of exp computed in double over a sweep of every representable
// range, exact at the edges (overflow, subnormals, underflow), NaN and infinities as C's.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>

#include "loom/common/loom_math.cuh"

namespace {

float from_bits(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

// |got - want| in units of the float spacing at want (want rounded to float).
double ulps(float got, double want) {
  const float w = static_cast<float>(want);
  if (std::isinf(w) || std::isinf(got)) return got == w ? 0 : 1e9;
  const float next = std::nextafter(std::fabs(w), std::numeric_limits<float>::infinity());
  return std::fabs(static_cast<double>(got) - want) / (static_cast<double>(next) - std::fabs(w));
}

TEST(HostExpf, WithinOneUlpOfDoubleExp) {
  // Every 97th bit pattern, from a random start: about 44 million floats of both signs.
  std::mt19937 rng(std::random_device{}());
  double worst = 0;
  float worst_x = 0;
  for (uint64_t u = rng() % 97; u <= 0xffffffffu; u += 97) {
    const float x = from_bits(static_cast<uint32_t>(u));
    if (std::isnan(x)) continue;
    const double e = ulps(loom_host_expf(x), std::exp(static_cast<double>(x)));
    if (e > worst) {
      worst = e;
      worst_x = x;
    }
  }
  EXPECT_LT(worst, 1.0) << "at x = " << worst_x;
}

TEST(HostExpf, EdgesAndSpecialValues) {
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(loom_host_expf(0.0f), 1.0f);
  EXPECT_EQ(loom_host_expf(-0.0f), 1.0f);
  EXPECT_EQ(loom_host_expf(inf), inf);
  EXPECT_EQ(loom_host_expf(-inf), 0.0f);
  EXPECT_TRUE(std::isnan(loom_host_expf(std::nanf(""))));
  EXPECT_TRUE(std::isnan(loom_host_expf(-std::nanf(""))));
  EXPECT_EQ(loom_host_expf(88.73f), inf);  // the first overflow
  EXPECT_EQ(loom_host_expf(1e30f), inf);
  EXPECT_EQ(loom_host_expf(-1e30f), 0.0f);
  EXPECT_EQ(loom_host_expf(-104.0f), 0.0f);
  EXPECT_EQ(loom_host_expf(88.72f), std::exp(88.72f));
  // Subnormal results round once, as exp rounded to float does.
  for (float x : {-87.5f, -90.0f, -100.0f, -103.0f, -103.9f})
    EXPECT_LE(ulps(loom_host_expf(x), std::exp(static_cast<double>(x))), 1.0) << x;
}

}  // namespace
