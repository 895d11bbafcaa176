// The order-preserving sort keys against NumPy's order written out directly (NaN last,
// all NaNs equal, -0.0 == 0.0), and the stable (key, index) sorter against
// std::stable_sort, on short rows, long rows and rows split over threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include "loom/backend/cpu/sorting_keys.h"
#include "loom/backend/cpu/sorting_values.h"
#include "loom/backend/cpu/sorting_radix.h"
#include "loom/core/convert.h"

namespace loom::cpu_backend {
namespace {

// NumPy's sort comparison: a < b, NaN greater than everything but NaN.
int numpy_cmp(double a, double b) {
  const bool na = std::isnan(a), nb = std::isnan(b);
  if (na || nb) return na == nb ? 0 : (na ? 1 : -1);
  return a < b ? -1 : (a > b ? 1 : 0);
}

template <class K>
int key_cmp(K a, K b) { return a < b ? -1 : (a > b ? 1 : 0); }

TEST(SortKeys, SixteenBitFloatsFollowNumpyOrder) {
  // Every pattern against a set of probes covering NaNs, infs, zeros, subnormals.
  const uint16_t probes[] = {0x0000, 0x8000, 0x0001, 0x8001, 0x3c00, 0xbc00, 0x7c00, 0xfc00,
                             0x7e00, 0xfe00, 0x7c01, 0x7bff, 0xfbff, 0x7f80, 0xff80, 0x7fc0, 0x3f80};
  for (uint32_t b = 0; b < 65536; ++b) {
    for (uint16_t p : probes) {
      const half_bits x{static_cast<uint16_t>(b)}, y{p};
      ASSERT_EQ(key_cmp(sort_key(x), sort_key(y)), numpy_cmp(half_to_float(x.bits), half_to_float(y.bits)))
          << std::hex << b << " vs " << p;
      const bfloat16_bits u{static_cast<uint16_t>(b)}, v{p};
      ASSERT_EQ(key_cmp(sort_key(u), sort_key(v)),
                numpy_cmp(bfloat16_to_float(u.bits), bfloat16_to_float(v.bits)))
          << std::hex << b << " vs " << p;
    }
  }
}

TEST(SortKeys, FloatAndDoubleFollowNumpyOrder) {
  std::mt19937_64 g(42);
  std::vector<double> vals = {0.0, -0.0, 1.0, -1.0, std::numeric_limits<double>::infinity(),
                              -std::numeric_limits<double>::infinity(), std::nan(""), -std::nan(""),
                              std::numeric_limits<double>::denorm_min(), -std::numeric_limits<double>::denorm_min(),
                              std::numeric_limits<double>::max(), std::numeric_limits<double>::lowest()};
  for (int i = 0; i < 2000; ++i) {
    uint64_t u = g();
    double d;
    std::memcpy(&d, &u, 8);
    vals.push_back(d);
    vals.push_back(std::ldexp(static_cast<double>(static_cast<int64_t>(g())), -70));
  }
  for (double a : vals)
    for (double b : vals) {
      ASSERT_EQ(key_cmp(sort_key(a), sort_key(b)), numpy_cmp(a, b)) << a << " " << b;
      const float fa = static_cast<float>(a), fb = static_cast<float>(b);
      ASSERT_EQ(key_cmp(sort_key(fa), sort_key(fb)), numpy_cmp(fa, fb)) << fa << " " << fb;
    }
  EXPECT_EQ(sort_key(std::nan("")), ~uint64_t{0});
  EXPECT_EQ(sort_key(-0.0f), sort_key(0.0f));
}

TEST(SortKeys, IntegersAndBool) {
  for (int a = -128; a < 128; ++a)
    for (int b = -128; b < 128; ++b)
      ASSERT_EQ(key_cmp(sort_key(static_cast<int8_t>(a)), sort_key(static_cast<int8_t>(b))), numpy_cmp(a, b));
  const int64_t big[] = {std::numeric_limits<int64_t>::min(), -1, 0, 1, std::numeric_limits<int64_t>::max()};
  for (int64_t a : big)
    for (int64_t b : big) EXPECT_EQ(key_cmp(sort_key(a), sort_key(b)), a < b ? -1 : (a > b ? 1 : 0));
  EXPECT_EQ(sort_key(uint64_t{7}), 7u);
  EXPECT_EQ(sort_key(true), 1u);
  EXPECT_EQ(sort_key(false), 0u);
}

template <class K>
void expect_stable_sort(int64_t n, int threads, K range) {
  std::mt19937_64 g(n * 31 + threads);
  PairSorter<K, uint32_t> s;
  s.reserve(n);
  std::vector<K> keys(n);
  for (int64_t i = 0; i < n; ++i) keys[i] = static_cast<K>(g() % range);
  std::copy(keys.begin(), keys.end(), s.keys());
  s.sort(n, threads);
  std::vector<uint32_t> want(n);
  std::iota(want.begin(), want.end(), 0u);
  std::stable_sort(want.begin(), want.end(), [&](uint32_t a, uint32_t b) { return keys[a] < keys[b]; });
  for (int64_t i = 0; i < n; ++i) {
    ASSERT_EQ(s.sorted_indices()[i], want[i]) << "n=" << n << " i=" << i;
    ASSERT_EQ(s.sorted_keys()[i], keys[want[i]]);
  }
}

TEST(PairSorter, StableOnShortLongAndThreadedRows) {
  for (int64_t n : {1, 2, 17, 256, 257, 1000, 70000}) {
    for (int threads : {1, 4}) {
      expect_stable_sort<uint8_t>(n, threads, 3);
      expect_stable_sort<uint16_t>(n, threads, 65535);
      expect_stable_sort<uint32_t>(n, threads, 1000);  // high bytes all equal: skipped passes
      expect_stable_sort<uint64_t>(n, threads, ~uint64_t{0});
    }
  }
  expect_stable_sort<uint32_t>(5000, 1, 1);  // every key equal
}

}  // namespace
}  // namespace loom::cpu_backend

namespace {
// Keys of random values (narrow and full range) sorted by KeySorter equal std::sort's.
template <class K>
void check_key_sorter(int64_t n, int threads, K span, std::mt19937_64& gen) {
  std::vector<K> keys(n);
  const K base = static_cast<K>(gen());
  for (auto& k : keys) k = static_cast<K>(base + (span ? static_cast<K>(gen() % span) : static_cast<K>(gen())));
  std::vector<K> expect = keys;
  std::sort(expect.begin(), expect.end());
  loom::cpu_backend::KeySorter<K> sorter;
  sorter.reserve(n);
  const K lo = n ? *std::min_element(keys.begin(), keys.end()) : 0;
  const K hi = n ? *std::max_element(keys.begin(), keys.end()) : 0;
  const K* got = sorter.sort(keys.data(), n, lo, hi, threads);
  ASSERT_TRUE(std::equal(expect.begin(), expect.end(), got)) << "n=" << n << " threads=" << threads;
}
}  // namespace

TEST(KeySorter, MatchesStdSortOnShortLongAndThreadedRows) {
  std::mt19937_64 gen(7);
  for (int64_t n : {0, 1, 5, 31, 33, 250, 4000, 70000, 300000, 1 << 20})
    for (int threads : {1, 3}) {
      check_key_sorter<uint32_t>(n, threads, 0, gen);
      check_key_sorter<uint32_t>(n, threads, 1000, gen);
      check_key_sorter<uint64_t>(n, threads, 0, gen);
      check_key_sorter<uint64_t>(n, threads, uint64_t{1} << 40, gen);
      check_key_sorter<uint16_t>(n, threads, 0, gen);
      check_key_sorter<uint8_t>(n, threads, 0, gen);
    }
}

TEST(KeySorter, ValueFromKeyInvertsSortKey) {
  using loom::cpu_backend::sort_key;
  using loom::cpu_backend::value_from_key;
  for (float x : {-3.5f, -1e-30f, 0.0f, 2.0f, std::numeric_limits<float>::infinity(),
                  -std::numeric_limits<float>::infinity()})
    EXPECT_EQ(value_from_key<float>(sort_key(x)), x);
  EXPECT_TRUE(std::isnan(value_from_key<float>(sort_key(std::nanf("")))));
  EXPECT_FALSE(std::signbit(value_from_key<double>(sort_key(-0.0))));  // -0.0 keys as +0.0
  for (int64_t v : {std::numeric_limits<int64_t>::min(), int64_t{-1}, int64_t{0}, int64_t{42}})
    EXPECT_EQ(value_from_key<int64_t>(sort_key(v)), v);
  for (uint16_t b : {0x3c00, 0xbc00, 0x7c00, 0x0001})
    EXPECT_EQ(value_from_key<loom::half_bits>(sort_key(loom::half_bits{b})).bits, b);
  EXPECT_EQ(value_from_key<loom::half_bits>(sort_key(loom::half_bits{0x7e00})).bits, 0x7e00);
}
