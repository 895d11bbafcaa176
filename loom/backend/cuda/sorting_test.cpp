// The sorting family on the GPU side: the device key transform (kernels/loom_sorting.cuh,
// compiled here as host code) against the CPU's keys; NVRTC compiles of every sorting
// program (no GPU needed); and, on a GPU, sort/argsort/unique/searchsorted against the
// CPU backend on random data with duplicates, long rows, batches and odd layouts.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "loom/backend/cpu/sorting_keys.h"
#include "loom/backend/cuda/kernels/loom_sorting.cuh"
#include "loom/runtime/cuda/module_cache.h"
#include "loom/backend/cuda/sorting_programs.h"
#include "loom/backend/cuda/test_gpu.h"
#include "loom/backend/cuda/test_util.h"
#include "loom/ops/sorting.h"

namespace loom::testing {
namespace {

TEST(CudaSortKeysHost, SixteenBitPatternsMatchCpu) {
  for (uint32_t b = 0; b < 65536; ++b) {
    const uint16_t u = static_cast<uint16_t>(b);
    ASSERT_EQ(loom_key_traits<loom_f16>::key(u), cpu_backend::sort_key(half_bits{u})) << std::hex << b;
    ASSERT_EQ(loom_key_traits<loom_bf16>::key(u), cpu_backend::sort_key(bfloat16_bits{u})) << std::hex << b;
    ASSERT_EQ(loom_key_traits<short>::key(u), cpu_backend::sort_key(static_cast<int16_t>(u)));
    ASSERT_EQ(loom_key_traits<unsigned short>::key(u), cpu_backend::sort_key(u));
  }
  for (uint32_t b = 0; b < 256; ++b) {
    const unsigned char u = static_cast<unsigned char>(b);
    ASSERT_EQ(loom_key_traits<signed char>::key(u), cpu_backend::sort_key(static_cast<int8_t>(u)));
    ASSERT_EQ(loom_key_traits<unsigned char>::key(u), u);
    ASSERT_EQ(loom_key_traits<bool>::key(u), u != 0 ? 1 : 0);
  }
}

TEST(CudaSortKeysHost, WidePatternsMatchCpu) {
  std::mt19937_64 g(7);
  for (uint64_t step = 0; step <= 0xffffffffull; step += 4099) {  // ~1M float patterns
    const uint32_t u = static_cast<uint32_t>(step);
    float f;
    std::memcpy(&f, &u, 4);
    ASSERT_EQ(loom_key_traits<float>::key(u), cpu_backend::sort_key(f)) << std::hex << u;
    ASSERT_EQ(loom_key_traits<int>::key(u), cpu_backend::sort_key(static_cast<int32_t>(u)));
  }
  for (int i = 0; i < 1000000; ++i) {
    const uint64_t u = i < 8 ? (uint64_t{0x7ff0000000000000ull} | (i < 4 ? 0 : 1)) ^ (i % 2 ? 1ull << 63 : 0) : g();
    double d;
    std::memcpy(&d, &u, 8);
    ASSERT_EQ(loom_key_traits<double>::key(u), cpu_backend::sort_key(d)) << std::hex << u;
    ASSERT_EQ(loom_key_traits<long long>::key(u), cpu_backend::sort_key(static_cast<int64_t>(u)));
  }
}

// NumPy's complex sort comparison (npysort_common.h's CDOUBLE_LT), written out.
bool numpy_complex_less(double ar, double ai, double br, double bi) {
  if (ar < br) return ai == ai || bi != bi;
  if (ar > br) return bi != bi && ai == ai;
  if (ar == br || (ar != ar && br != br)) return ai < bi || (bi != bi && ai == ai);
  return br != br;
}

TEST(CudaSortKeysHost, ComplexSearchKeysFollowNumpyOrder) {
  const double parts[] = {-INFINITY, -2.0, -0.0, 0.0, 1.5, INFINITY, std::nan(""), -std::nan("")};
  typedef loom_search_traits<loom_complex64> S;
  for (double ar : parts)
    for (double ai : parts)
      for (double br : parts)
        for (double bi : parts) {
          S::elem a, b;
          const float f[4] = {static_cast<float>(ar), static_cast<float>(ai), static_cast<float>(br),
                              static_cast<float>(bi)};
          std::memcpy(&a, f, 8);
          std::memcpy(&b, f + 2, 8);
          ASSERT_EQ(S::key_of(a) < S::key_of(b), numpy_complex_less(ar, ai, br, bi))
              << ar << "+" << ai << "j < " << br << "+" << bi << "j";
        }
}

class CudaSortCompile : public ::testing::TestWithParam<int> {};

void expect_compiles(const cuda::Program& p, int arch) {
  const cuda::CompiledProgram c = cuda::compile_program(p, arch);
  EXPECT_FALSE(c.is_ptx);
  ASSERT_EQ(c.lowered_names.size(), p.name_expressions().size());
  for (const auto& [expr, lowered] : c.lowered_names) {
    EXPECT_FALSE(lowered.empty()) << expr;
    EXPECT_EQ(lowered.rfind("_Z", 0), 0u) << expr << " -> " << lowered;
  }
}

TEST_P(CudaSortCompile, DtypePrograms) {
  for (int t = 0; t < kNumDTypes; ++t) {
    const cuda::Program& p = cuda::sort_dtype_program(static_cast<DType>(t));
    EXPECT_EQ(p.name_expressions().size(), is_complex(static_cast<DType>(t)) ? 1u : 3u);  // complex: searchsorted
    expect_compiles(p, GetParam());
  }
}
TEST_P(CudaSortCompile, IndexPrograms) {
  expect_compiles(cuda::sort_index_program(false), GetParam());
  expect_compiles(cuda::sort_index_program(true), GetParam());
  expect_compiles(cuda::unique_program(false), GetParam());
  expect_compiles(cuda::unique_program(true), GetParam());
}
INSTANTIATE_TEST_SUITE_P(Archs, CudaSortCompile, ::testing::Values(80, 90),
                         [](const auto& info) { return "sm_" + std::to_string(info.param); });

// ---- on a GPU -------------------------------------------------------------------------

// Random elements with many duplicates (and, for floats, NaN/inf/-0.0 among them).
Bytes sort_input(DType dt, int64_t n) {
  const int64_t pool = std::max<int64_t>(2, n / 8);
  Bytes base = random_elements(dt, pool);
  const size_t w = itemsize(dt);
  if (is_floating(dt) && pool >= 4) {
    // NaN, +inf, -0.0 from float64 patterns cast like NumPy.
    const Array specials = array_from_bytes(Bytes(4 * 8, 0), float64, {4}, cpu());
    double* s = static_cast<double*>(specials.data());
    s[0] = std::nan("");
    s[1] = -std::nan("");
    s[2] = INFINITY;
    s[3] = -0.0;
    const Bytes sb = array_bytes(specials.astype(dt));
    std::memcpy(base.data(), sb.data(), 4 * w);
  }
  Bytes out(static_cast<size_t>(n) * w);
  std::mt19937_64& g = rng();
  for (int64_t i = 0; i < n; ++i) std::memcpy(&out[i * w], &base[(g() % pool) * w], w);
  return out;
}

void expect_same(const Array& gpu_result, const Array& cpu_result, const std::string& what) {
  ASSERT_EQ(gpu_result.shape(), cpu_result.shape()) << what;
  ASSERT_EQ(gpu_result.dtype(), cpu_result.dtype()) << what;
  const Bytes g = array_bytes(gpu_result), c = array_bytes(cpu_result);
  const int64_t i = first_mismatch(g, c, cpu_result.dtype());
  EXPECT_EQ(i, -1) << what << ": element " << i << " gpu " << element_hex(g, i, cpu_result.dtype()) << " cpu "
                   << element_hex(c, i, cpu_result.dtype());
}

TEST(CudaSorting, SortAndArgsortMatchCpu) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  const Shape shapes[] = {{1}, {1000}, {70000}, {37, 300}, {5, 4, 33}, {3000, 3}};
  for (int t = 0; t < kNumRealDTypes; ++t) {
    const DType dt = static_cast<DType>(t);
    for (const Shape& shape : shapes) {
      const Array host = array_from_bytes(sort_input(dt, shape_size(shape)), dt, shape, cpu());
      const Array dev = host.copy_to(gpu0());
      const std::string what = std::string(dtype_name(dt)) + " " + shape_str(shape);
      for (int64_t axis : {-1, 0}) {
        expect_same(argsort(dev, axis), argsort(host, axis), what + " argsort");
        expect_same(sort(dev, axis), sort(host, axis), what + " sort");
      }
      expect_same(sort(dev, std::nullopt), sort(host, std::nullopt), what + " sort flat");
      if (shape.size() == 2)
        expect_same(argsort(dev.transpose(), -1), argsort(host.transpose(), -1), what + " argsort .T");
    }
  }
}

TEST(CudaSorting, UniqueMatchesCpu) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  for (int t = 0; t < kNumRealDTypes; ++t) {
    const DType dt = static_cast<DType>(t);
    for (int64_t n : {1, 7, 5000, 100000}) {
      const Array host = array_from_bytes(sort_input(dt, n), dt, {n}, cpu());
      const Array dev = host.copy_to(gpu0());
      for (bool equal_nan : {true, false}) {
        const UniqueArrays g = unique(dev, true, true, true, std::nullopt, equal_nan);
        const UniqueArrays c = unique(host, true, true, true, std::nullopt, equal_nan);
        const std::string what = std::string(dtype_name(dt)) + " n=" + std::to_string(n);
        expect_same(g.values, c.values, what + " values");
        expect_same(g.index, c.index, what + " index");
        expect_same(g.inverse, c.inverse, what + " inverse");
        expect_same(g.counts, c.counts, what + " counts");
      }
      const UniqueArrays only = unique(dev, false, false, false);
      EXPECT_FALSE(only.index.valid());
      expect_same(only.values, unique(host).values, "values only");
    }
  }
}

TEST(CudaSorting, SearchsortedMatchesCpu) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  for (int t = 0; t < kNumRealDTypes; ++t) {
    const DType dt = static_cast<DType>(t);
    const Array a_host = array_from_bytes(sort_input(dt, 500), dt, {500}, cpu());
    const Array v_host = array_from_bytes(sort_input(dt, 300), dt, {20, 15}, cpu());
    const Array sorted_host = sort(a_host);
    const Array order_host = argsort(a_host);
    const Array a_dev = a_host.copy_to(gpu0()), v_dev = v_host.copy_to(gpu0());
    for (const char* side : {"left", "right"}) {
      expect_same(searchsorted(sorted_host.copy_to(gpu0()), v_dev, side), searchsorted(sorted_host, v_host, side),
                  std::string(dtype_name(dt)) + " " + side);
      expect_same(searchsorted(a_dev, v_dev, side, order_host.copy_to(gpu0())),
                  searchsorted(a_host, v_host, side, order_host), std::string(dtype_name(dt)) + " sorter " + side);
    }
  }
  const Array a = array_from_bytes(sort_input(int32, 4), int32, {4}, cpu()).copy_to(gpu0());
  const Array minus = array_from_bytes(Bytes(32, 0xff), int64, {4}, cpu()).copy_to(gpu0());  // all -1
  EXPECT_THROW(searchsorted(a, a, "left", minus), std::invalid_argument);
}

}  // namespace
}  // namespace loom::testing
