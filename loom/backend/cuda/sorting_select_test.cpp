// select_ranks on the GPU side: the device inverse key transform (kernels/loom_sorting.cuh,
// compiled here as host code) against the CPU's value_from_key; NVRTC compiles of the
// selection programs (kernels/loom_select.cuh, no GPU needed); and, on a GPU, select_ranks
// against the CPU's sort on random data with ties, +-0.0, NaN payloads and every dtype.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>

#include "loom/backend/cpu/sorting_keys.h"
#include "loom/backend/cuda/kernels/loom_select.cuh"
#include "loom/backend/cuda/sorting_programs.h"
#include "loom/backend/cuda/test_gpu.h"
#include "loom/backend/cuda/test_util.h"
#include "loom/backend/sorting.h"
#include "loom/ops/creation.h"
#include "loom/ops/indexing.h"
#include "loom/ops/sorting.h"
#include "loom/runtime/cuda/module_cache.h"

namespace loom::testing {
namespace {

TEST(CudaSelectHost, KeysGoBackToTheirElements) {
  for (uint32_t b = 0; b < 65536; ++b) {
    const uint16_t k = static_cast<uint16_t>(b);
    ASSERT_EQ(loom_key_traits<loom_f16>::bits_of(k), cpu_backend::value_from_key<half_bits>(k).bits) << std::hex << b;
    ASSERT_EQ(loom_key_traits<loom_bf16>::bits_of(k), cpu_backend::value_from_key<bfloat16_bits>(k).bits)
        << std::hex << b;
    ASSERT_EQ(static_cast<int16_t>(loom_key_traits<short>::bits_of(k)), cpu_backend::value_from_key<int16_t>(k));
    ASSERT_EQ(loom_key_traits<short>::key(loom_key_traits<short>::bits_of(k)), k);
    ASSERT_EQ(loom_key_traits<unsigned short>::bits_of(k), k);
  }
  std::mt19937_64 g(11);
  for (int i = 0; i < 1000000; ++i) {
    const uint64_t k = g();
    float f = cpu_backend::value_from_key<float>(static_cast<uint32_t>(k));
    uint32_t fb;
    std::memcpy(&fb, &f, 4);
    ASSERT_EQ(loom_key_traits<float>::bits_of(static_cast<uint32_t>(k)), fb) << std::hex << k;
    double d = cpu_backend::value_from_key<double>(k);
    uint64_t db;
    std::memcpy(&db, &d, 8);
    ASSERT_EQ(loom_key_traits<double>::bits_of(k), db) << std::hex << k;
    ASSERT_EQ(loom_key_traits<long long>::key(loom_key_traits<long long>::bits_of(k)), k);
    ASSERT_EQ(loom_key_traits<int>::key(loom_key_traits<int>::bits_of(static_cast<uint32_t>(k))),
              static_cast<uint32_t>(k));
  }
  // Every key but the shared ones (+-0.0, NaN) round-trips.
  const uint32_t zero_key = 0x80000000u;
  EXPECT_EQ(loom_key_traits<float>::bits_of(zero_key), 0u);
  EXPECT_EQ(loom_key_traits<float>::key(0x80000000u), zero_key);  // -0.0
  EXPECT_EQ(loom_key_traits<float>::bits_of(0xffffffffu), 0x7fc00000u);
}

TEST(CudaSelectHost, StateHoldsEveryRank) {
  EXPECT_EQ(LOOM_SELECT_MAX_RANKS, kMaxSelectRanks);
  EXPECT_EQ(LOOM_SELECT_BINS, 256);
  EXPECT_EQ(sizeof(loom_select_state), 1032u);  // python/tests/test_select_emulated.py allocates it
}

class CudaSelectCompile : public ::testing::TestWithParam<int> {};

TEST_P(CudaSelectCompile, EveryDtype) {
  for (int t = 0; t < kNumRealDTypes; ++t) {
    const DType dt = static_cast<DType>(t);
    const cuda::Program& p = cuda::select_program(dt);
    const cuda::SelectNames n = cuda::select_names(dt);
    ASSERT_EQ(p.name_expressions().size(), 6u);
    EXPECT_EQ(p.name_expressions()[2], n.hist);
    const cuda::CompiledProgram c = cuda::compile_program(p, GetParam());
    EXPECT_FALSE(c.is_ptx);
    ASSERT_EQ(c.lowered_names.size(), 6u) << dtype_name(dt);
    for (const auto& [expr, lowered] : c.lowered_names) {
      EXPECT_FALSE(lowered.empty()) << expr;
      EXPECT_EQ(lowered.rfind("_Z", 0), 0u) << expr << " -> " << lowered;
    }
  }
}
INSTANTIATE_TEST_SUITE_P(Archs, CudaSelectCompile, ::testing::Values(80, 90),
                         [](const auto& info) { return "sm_" + std::to_string(info.param); });

TEST(CudaSelectNames, FollowTheElementType) {
  EXPECT_EQ(cuda::select_names(float32).hist, "loom_select_hist<float>");
  EXPECT_EQ(cuda::select_names(float16).resolve, "loom_select_resolve<loom_f16>");
  EXPECT_EQ(cuda::select_names(bool_).finish, "loom_select_finish<bool>");
  EXPECT_EQ(cuda::select_names(int64).init, "loom_select_init");
}

// ---- on a GPU -------------------------------------------------------------------------

// n elements drawn from `pool` random ones (many ties); floats get +-0.0 and NaNs of both
// signs and two payloads among them.
Bytes select_input(DType dt, int64_t n, int64_t pool) {
  pool = std::max<int64_t>(pool, 6);
  Bytes base = random_elements(dt, pool);
  const size_t w = itemsize(dt);
  if (is_floating(dt)) {
    const Array specials = Array::allocate({6}, float64, cpu());
    double* s = static_cast<double*>(specials.data());
    s[0] = std::nan("");
    s[1] = -std::nan("");
    s[2] = 0.0;
    s[3] = -0.0;
    s[4] = -INFINITY;
    s[5] = INFINITY;
    const Bytes sb = array_bytes(specials.astype(dt));
    std::memcpy(base.data(), sb.data(), 6 * w);
    base[w] ^= 1;  // another payload for the second NaN
  }
  Bytes out(static_cast<size_t>(n) * w);
  std::mt19937_64& g = rng();
  for (int64_t i = 0; i < n; ++i) std::memcpy(&out[i * w], &base[(g() % pool) * w], w);
  return out;
}

Array ranks_array(const std::vector<int64_t>& r, const Device& dev) {
  Array a = Array::allocate({static_cast<int64_t>(r.size())}, int64, cpu());
  if (!r.empty()) std::memcpy(a.data(), r.data(), r.size() * 8);
  return a.to(dev);
}

TEST(CudaSelect, MatchesTheSortBitForBit) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  std::mt19937_64& g = rng();
  for (int t = 0; t < kNumRealDTypes; ++t) {
    const DType dt = static_cast<DType>(t);
    for (int64_t n : {int64_t{1}, int64_t{2}, int64_t{3}, int64_t{1000}, int64_t{70001}, int64_t{1} << 20}) {
      for (int64_t pool : {int64_t{5}, n}) {
        const Array host = array_from_bytes(select_input(dt, n, pool), dt, {n}, cpu());
        const Array sorted = sort(host, std::nullopt);
        std::vector<int64_t> r = {0, n - 1, n / 2, (n - 1) / 2};
        for (int i = 0; i < 12; ++i) r.push_back(static_cast<int64_t>(g() % n));
        const Array want = getitem(sorted, {ranks_array(r, cpu())});
        const std::string what = std::string(dtype_name(dt)) + " n=" + std::to_string(n) +
                                 " pool=" + std::to_string(pool);
        const Bytes c = array_bytes(select_ranks(host, ranks_array(r, cpu())));
        const Bytes w = array_bytes(want);
        EXPECT_EQ(c, w) << what << " (cpu)";
        const Bytes d = array_bytes(select_ranks(host.copy_to(gpu0()), ranks_array(r, gpu0())));
        EXPECT_EQ(d, w) << what << " (gpu)";
      }
    }
  }
}

TEST(CudaSelect, ZerosAndNansComeOutInIndexOrder) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  // 3000 zeros of random signs and 3000 NaNs of random payloads among 4000 numbers: every
  // rank among them is resolved by index, as the stable sort orders them.
  const int64_t n = 10000;
  Array host = Array::allocate({n}, float32, cpu());
  uint32_t* p = static_cast<uint32_t*>(host.data());
  std::mt19937_64& g = rng();
  for (int64_t i = 0; i < n; ++i) {
    const int kind = static_cast<int>(g() % 10);
    p[i] = kind < 3 ? (g() % 2 ? 0x80000000u : 0u) : kind < 6 ? (0x7fc00000u | (g() & 0x803fffffu)) : static_cast<uint32_t>(g()) & 0x3fffffffu;
  }
  std::vector<int64_t> r;
  for (int i = 0; i < kMaxSelectRanks; ++i) r.push_back(static_cast<int64_t>(g() % n));
  const Bytes want = array_bytes(getitem(sort(host, std::nullopt), {ranks_array(r, cpu())}));
  EXPECT_EQ(array_bytes(select_ranks(host, ranks_array(r, cpu()))), want);
  EXPECT_EQ(array_bytes(select_ranks(host.copy_to(gpu0()), ranks_array(r, gpu0()))), want);
}

}  // namespace
}  // namespace loom::testing
