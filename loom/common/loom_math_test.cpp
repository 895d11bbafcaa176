// The host float exp and tanh of loom_math.cuh (the CPU backend's for float32, float16 and
// bfloat16): within 1 ulp (exp) and 1.5 ulp (tanh) of the function computed in double over a
// sweep of every representable range, exact at the edges (overflow, subnormals, underflow,
// signed zeros), NaN and infinities as C's.
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

// The largest distance of f from ref (in double) over every 97th bit pattern from a random
// start: about 44 million floats of both signs. Returns the distance, `at` the float.
template <typename F, typename R> double worst_ulps(F f, R ref, float* at) {
  std::mt19937 rng(std::random_device{}());
  double worst = 0;
  for (uint64_t u = rng() % 97; u <= 0xffffffffu; u += 97) {
    const float x = from_bits(static_cast<uint32_t>(u));
    if (std::isnan(x)) continue;
    const double e = ulps(f(x), ref(static_cast<double>(x)));
    if (e > worst) {
      worst = e;
      *at = x;
    }
  }
  return worst;
}

TEST(HostExpf, WithinOneUlpOfDoubleExp) {
  float at = 0;
  EXPECT_LT(worst_ulps(loom_host_expf, [](double x) { return std::exp(x); }, &at), 1.0) << "at x = " << at;
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

TEST(HostTanhf, WithinOneAndAHalfUlpOfDoubleTanh) {
  // Both of tanh's formulas and the switch between them at |x| = 0.625.
  float at = 0;
  EXPECT_LT(worst_ulps(loom_host_tanhf, [](double x) { return std::tanh(x); }, &at), 1.5) << "at x = " << at;
  for (float x : {0.6249999f, 0.625f, 0.6250001f, -0.625f, 1e-30f, -1e-30f, 1e-45f})  // the switch, tiny x
    EXPECT_LE(ulps(loom_host_tanhf(x), std::tanh(static_cast<double>(x))), 1.5) << x;
}

TEST(HostTanhf, EdgesAndSpecialValues) {
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(loom_host_tanhf(0.0f), 0.0f);
  EXPECT_FALSE(std::signbit(loom_host_tanhf(0.0f)));
  EXPECT_TRUE(std::signbit(loom_host_tanhf(-0.0f)));
  EXPECT_EQ(loom_host_tanhf(inf), 1.0f);
  EXPECT_EQ(loom_host_tanhf(-inf), -1.0f);
  EXPECT_EQ(loom_host_tanhf(44.0f), 1.0f);  // exp(2|x|) past float's range
  EXPECT_EQ(loom_host_tanhf(-1e30f), -1.0f);
  EXPECT_EQ(loom_host_tanhf(10.0f), 1.0f);
  EXPECT_TRUE(std::isnan(loom_host_tanhf(std::nanf(""))));
  EXPECT_TRUE(std::isnan(loom_host_tanhf(-std::nanf(""))));
  for (float x : {-3.0f, -0.3f, 0.1f, 0.7f, 2.5f})  // odd
    EXPECT_EQ(loom_host_tanhf(-x), -loom_host_tanhf(x)) << x;
}

}  // namespace
