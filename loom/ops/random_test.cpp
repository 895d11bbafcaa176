// loom.random on the CPU: Philox4x32-10 against the Random123 known answers, the portable
// log/sin/cos against libm, the element -> counter mapping, keys, the global generator's
// state, and argument errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>
#include <vector>

#include "loom/common/loom_philox.cuh"
#include "loom/core/error.h"
#include "loom/ops/creation.h"
#include "loom/ops/random.h"

namespace loom::random {
namespace {

template <class T>
std::vector<T> values(const Array& a) {
  std::vector<T> v(static_cast<size_t>(a.size()));
  a.copy_to_host(v.data());
  return v;
}

int64_t ulps(double a, double b) {
  int64_t x, y;
  std::memcpy(&x, &a, 8);
  std::memcpy(&y, &b, 8);
  return std::llabs(x - y);
}

// kat_vectors of Random123: counter (4 words), key (2 words), result (4 words).
TEST(Philox, KnownAnswers) {
  struct Kat { unsigned ctr[4], key[2], out[4]; };
  const Kat kats[] = {
      {{0, 0, 0, 0}, {0, 0}, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
      {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, {0xffffffff, 0xffffffff},
       {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
      {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, {0xa4093822, 0x299f31d0},
       {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
  };
  for (const Kat& k : kats) {
    const loom_philox_out o = loom_philox4x32_10(k.ctr[0], k.ctr[1], k.ctr[2], k.ctr[3], k.key[0], k.key[1]);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(o.v[i], k.out[i]) << std::hex << k.ctr[0] << " word " << i;
  }
}

TEST(PhiloxMath, LogWithinOneUlp) {
  int64_t worst = 0;
  for (uint64_t i = 1; i <= (1u << 20); ++i) {  // the (0, 1] grid of 32-bit uniforms, and finer
    const double x = static_cast<double>(i * 4093 % (1ull << 32) + 1) * std::ldexp(1.0, -32);
    worst = std::max(worst, ulps(loom_log_positive(x), std::log(x)));
    const double y = static_cast<double>((i * 0x9E3779B97F4A7C15ull) >> 11 | 1) * std::ldexp(1.0, -53);
    worst = std::max(worst, ulps(loom_log_positive(y), std::log(y)));
  }
  EXPECT_LE(worst, 1);
  EXPECT_EQ(loom_log_positive(1.0), 0.0);
  EXPECT_EQ(loom_log_positive(0.5), -std::log(2.0));
}

TEST(PhiloxMath, SinCosOfTwoPiUAccurate) {
  double worst = 0;
  for (uint64_t i = 0; i < (1u << 20); ++i) {
    const double u = static_cast<double>((i * 0x9E3779B97F4A7C15ull) >> 11) * std::ldexp(1.0, -53);
    double s, c;
    loom_sincos_2pi(u, &s, &c);
    const long double a = 2.0L * 3.14159265358979323846264338327950288L * u;
    worst = std::max(worst, static_cast<double>(std::fabs(s - std::sin(a))));
    worst = std::max(worst, static_cast<double>(std::fabs(c - std::cos(a))));
    ASSERT_LE(s * s + c * c, 1.0 + 1e-15);
  }
  EXPECT_LT(worst, 4e-16);  // a few ulps of 1: absolute error is what Box-Muller feeds on
  double s, c;
  loom_sincos_2pi(0.25, &s, &c);
  EXPECT_EQ(s, 1.0);
  EXPECT_EQ(c, 0.0);
}

TEST(Random, ElementsComeFromTheirBlockAndWord) {
  const Key k = key(12345);
  const Array a = uniform(k, {10}, float32, 0.0, 1.0, cpu());
  const std::vector<float> v = values<float>(a);
  for (int i = 0; i < 10; ++i) {
    const loom_philox_out o = loom_philox_block(k.hi, k.lo, static_cast<uint64_t>(i / 4), loom_rng_samples);
    EXPECT_EQ(v[i], static_cast<float>(o.v[i % 4] >> 8) * std::ldexp(1.0f, -24)) << i;
  }
  // A prefix of a longer draw is the shorter draw: counters, not thread chunks, decide.
  const std::vector<double> big = values<double>(normal(k, {300001}, float64, cpu()));
  const std::vector<double> small = values<double>(normal(k, {1001}, float64, cpu()));
  for (size_t i = 0; i < small.size(); ++i) ASSERT_EQ(big[i], small[i]) << i;
}

TEST(Random, UniformNeverReachesOne) {
  for (DType dt : {float16, bfloat16, float32, float64}) {
    const Array a = uniform(key(7), {200000}, dt, 0.0, 1.0, cpu()).astype(float64);
    const std::vector<double> v = values<double>(a);
    for (double x : v) ASSERT_TRUE(x >= 0.0 && x < 1.0) << dtype_name(dt) << " " << x;
  }
}

TEST(Random, KeysSplitFoldIn) {
  EXPECT_EQ(key(42), (Key{0, 42}));
  EXPECT_EQ(key(static_cast<uint64_t>(-1)), (Key{0xffffffff, 0xffffffff}));
  const std::vector<Key> a = split(key(0), 4), b = split(key(0), 4);
  ASSERT_EQ(a.size(), 4u);
  EXPECT_EQ(a, b);
  std::set<std::pair<uint32_t, uint32_t>> seen{{0, 0}};
  for (const Key& k : a) EXPECT_TRUE(seen.insert({k.hi, k.lo}).second);
  EXPECT_EQ(split(key(0), 2)[1], a[1]);  // key i does not depend on num
  EXPECT_NE(fold_in(key(0), 1), fold_in(key(0), 2));
  EXPECT_EQ(fold_in(key(3), 9), fold_in(key(3), 9));
  EXPECT_EQ(key(42).str(), "Key(0x00000000, 0x0000002a)");
  EXPECT_THROW(split(key(0), -1), std::invalid_argument);
}

TEST(Random, GlobalGeneratorAdvancesByBlocks) {
  seed(99);
  const Array a = rand({10}, float32, cpu());
  EXPECT_EQ(get_state().offset, 3u);  // ceil(10 / 4)
  const Array b = rand({3}, float64, cpu());
  EXPECT_EQ(get_state().offset, 5u);  // + ceil(3 / 2)
  EXPECT_EQ(values<float>(a), values<float>(uniform(key(99), {10}, float32, 0.0, 1.0, cpu())));
  seed(99);
  EXPECT_EQ(values<float>(rand({10}, float32, cpu())), values<float>(a));
  const GeneratorState s = get_state();
  const std::vector<double> x = values<double>(randn({5}, float64, cpu()));
  set_state(s);
  EXPECT_EQ(values<double>(randn({5}, float64, cpu())), x);
}

TEST(Random, RandintRangesAndErrors) {
  const std::vector<int64_t> v = values<int64_t>(randint(key(1), {100000}, Scalar(-3), Scalar(4), int64, cpu()));
  std::vector<int> counts(7, 0);
  for (int64_t x : v) {
    ASSERT_TRUE(x >= -3 && x < 4) << x;
    ++counts[x + 3];
  }
  for (int c : counts) EXPECT_NEAR(c, 100000 / 7, 600);
  // The full int64 and uint64 ranges, and a range just above 2^32 (128-bit path).
  const Scalar lo(static_cast<long long>(INT64_MIN)), hi(static_cast<unsigned long long>(1) << 63);
  const std::vector<int64_t> full = values<int64_t>(randint(key(2), {1000}, lo, hi, int64, cpu()));
  int negative = 0;
  for (int64_t x : full) negative += x < 0;
  EXPECT_GT(negative, 400);
  EXPECT_LT(negative, 600);
  const unsigned long long big = (1ull << 32) + 5;
  for (uint64_t x : values<uint64_t>(randint(key(3), {1000}, Scalar(0), Scalar(big), uint64, cpu())))
    ASSERT_LT(x, big);
  EXPECT_THROW(randint(key(1), {3}, Scalar(5), Scalar(5), int64, cpu()), std::invalid_argument);
  EXPECT_THROW(randint(key(1), {3}, Scalar(0), Scalar(300), int8, cpu()), std::invalid_argument);
  EXPECT_THROW(randint(key(1), {3}, Scalar(-1), Scalar(3), uint8, cpu()), std::invalid_argument);
  EXPECT_THROW(randint(key(1), {3}, Scalar(0), Scalar(3), float32, cpu()), DTypeError);
  EXPECT_THROW(randint(key(1), {3}, Scalar(0.5), Scalar(3), int32, cpu()), DTypeError);
  EXPECT_NO_THROW(randint(key(1), {3}, Scalar(0), Scalar(256), uint8, cpu()));
}

TEST(Random, OtherErrors) {
  EXPECT_THROW(uniform(key(0), {3}, int32, 0.0, 1.0, cpu()), DTypeError);
  EXPECT_THROW(normal(key(0), {3}, int64, cpu()), DTypeError);
  EXPECT_THROW(normal(0.0, -1.0, {3}, float64, cpu()), std::invalid_argument);
  EXPECT_THROW(uniform(0.0, INFINITY, {3}, float64, cpu()), std::overflow_error);
  EXPECT_THROW(bernoulli(key(0), 1.5, {3}, cpu()), std::invalid_argument);
  EXPECT_THROW(permutation(loom::zeros({}, float32, cpu())), std::out_of_range);
}

TEST(Random, PermutationIsAPermutation) {
  std::vector<int64_t> p = values<int64_t>(permutation(key(5), 1001, cpu()));
  std::vector<int64_t> sorted = p;
  std::sort(sorted.begin(), sorted.end());
  for (int64_t i = 0; i < 1001; ++i) ASSERT_EQ(sorted[i], i);
  EXPECT_NE(p, sorted);
  EXPECT_EQ(permutation(key(5), 0, cpu()).size(), 0);
}

}  // namespace
}  // namespace loom::random
