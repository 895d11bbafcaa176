// select_ranks on cpu(): sort(a)[ranks] bit for bit (ties, +-0.0 and NaN payloads in the
// stable order) for every real dtype, its argument checks, and which path quantile and
// median take (a single slice selects, several slices sort).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "loom/backend/sorting.h"
#include "loom/dispatch/dispatch.h"
#include "loom/loom.h"

namespace loom {
namespace {

std::mt19937_64& gen() {
  static std::mt19937_64 g{std::random_device{}()};
  return g;
}

Array ints(const std::vector<int64_t>& v) {
  return from_host(HostView{v.data(), int64, {static_cast<int64_t>(v.size())}, {8}}, cpu());
}

std::vector<unsigned char> bytes_of(const Array& a) {
  std::vector<unsigned char> b(a.nbytes());
  a.copy_to_host(b.data());
  return b;
}

// n float64 values from a pool of `pool` random ones with +-0.0, NaNs of both signs,
// +-inf among them, cast to dt; float64 and float32 also get NaN payloads of their own.
Array random_input(DType dt, int64_t n, int64_t pool) {
  std::mt19937_64& g = gen();
  std::normal_distribution<double> normal(0.0, 50.0);
  std::vector<double> base(static_cast<size_t>(std::max<int64_t>(pool, 6)));
  for (double& v : base) v = std::round(normal(g) * 8) / 8;
  base[0] = 0.0;
  base[1] = -0.0;
  base[2] = std::nan("");
  base[3] = -std::nan("");
  base[4] = INFINITY;
  base[5] = -INFINITY;
  if (dt == float64) {
    uint64_t u = 0x7ff8000000000123ull;
    std::memcpy(&base[2], &u, 8);
  }
  std::vector<double> v(static_cast<size_t>(n));
  for (double& x : v) x = base[g() % base.size()];
  const Array a = from_host(HostView{v.data(), float64, {n}, {8}}, cpu());
  if (!is_floating(dt)) return where(isfinite(a), a, 3.0).astype(dt);
  return a.astype(dt);
}

TEST(SelectRanks, MatchesTheStableSortBitForBit) {
  for (int t = 0; t < kNumRealDTypes; ++t) {
    const DType dt = static_cast<DType>(t);
    for (int64_t n : {1, 2, 3, 10, 1000, 70001}) {
      for (int64_t pool : {int64_t{5}, n}) {
        const Array a = random_input(dt, n, pool);
        std::vector<int64_t> r = {0, n - 1, n / 2, (n - 1) / 2};
        for (int i = 0; i < 20; ++i) r.push_back(static_cast<int64_t>(gen()() % n));
        const Array got = select_ranks(a, ints(r));
        const Array want = getitem(sort(a, std::nullopt), {ints(r)});
        EXPECT_EQ(bytes_of(got), bytes_of(want)) << dtype_name(dt) << " n=" << n << " pool=" << pool;
      }
    }
  }
}

TEST(SelectRanks, ReadsAnyLayoutFlattened) {
  const Array a = transpose(reshape(random_input(float32, 600, 600), {20, 30}));
  const std::vector<int64_t> r = {599, 0, 300, 300, 17};
  EXPECT_EQ(bytes_of(select_ranks(a, ints(r))), bytes_of(getitem(sort(a, std::nullopt), {ints(r)})));
}

TEST(SelectRanks, ChecksItsArguments) {
  const Array a = random_input(float64, 10, 10);
  EXPECT_THROW(select_ranks(a, ints({1}).astype(int32)), std::invalid_argument);
  EXPECT_THROW(select_ranks(a, ints(std::vector<int64_t>(kMaxSelectRanks + 1, 0))), std::invalid_argument);
  EXPECT_THROW(select_ranks(Array::allocate({0}, float32, cpu()), ints({0})), std::invalid_argument);
  EXPECT_THROW(select_ranks(a.astype(complex64), ints({0})), DTypeError);
  EXPECT_EQ(select_ranks(a, ints({})).size(), 0);
}

struct Names : DispatchHook {
  std::vector<std::string> names;
  void before(const OpEvent& e) override {
    if (!std::strcmp(e.op.family, "sorting")) names.push_back(e.op.name);
  }
};

TEST(SelectRanks, QuantileSelectsForOneSliceAndSortsForMany) {
  const Array a = reshape(random_input(float32, 60, 60), {1, 6, 10});
  Names h;
  add_dispatch_hook(&h);
  median(a);
  median(a, std::vector<int64_t>{1, 2});
  quantile(a, {0.1, 0.9}, {2}, std::nullopt, "linear");
  nanquantile(a, {0.3}, {}, std::nullopt, "nearest");
  const std::vector<std::string> one = h.names;
  h.names.clear();
  median(a, std::vector<int64_t>{2});
  quantile(a, {0.5}, {}, std::vector<int64_t>{1});
  std::vector<double> many(kMaxSelectRanks, 0.0);
  for (size_t i = 0; i < many.size(); ++i) many[i] = static_cast<double>(i) / 40.0;
  quantile(a, many, {static_cast<int64_t>(many.size())});  // more ranks than one call takes
  remove_dispatch_hook(&h);
  EXPECT_EQ(one, std::vector<std::string>(4, "select_ranks"));
  EXPECT_EQ(h.names, std::vector<std::string>(3, "sort"));
}

}  // namespace
}  // namespace loom
