// NVRTC compiles the counting family's programs (kernels/loom_counting.cuh over
// common/loom_histogram.cuh) for Ampere and Hopper; no GPU needed.
#include <gtest/gtest.h>

#include "loom/backend/cuda/counting_programs.h"
#include "loom/runtime/cuda/compile_test_util.h"
#include "loom/runtime/cuda/module_cache.h"

namespace loom::cuda {
namespace {

class CountingCompile : public ::testing::TestWithParam<int> {};

TEST_P(CountingCompile, EveryProgram) {
  for (int t = 0; t < kNumRealDTypes; ++t) {
    const DType dt = static_cast<DType>(t);
    if (!counting_dtype(dt) || dt == bool_) continue;
    for (CountingGroup g : {CountingGroup::plain, CountingGroup::weighted, CountingGroup::bins}) {
      SCOPED_TRACE(std::string(dtype_name(dt)) + " group " + std::to_string(static_cast<int>(g)));
      expect_compiles(counting_program(dt, g), GetParam());
    }
  }
}

TEST(CountingNames, FollowDTypeAndMode) {
  EXPECT_FALSE(counting_dtype(bfloat16));
  EXPECT_FALSE(counting_dtype(complex64));
  EXPECT_TRUE(counting_dtype(bool_));
  EXPECT_EQ(&counting_program(bool_, CountingGroup::plain), &counting_program(uint8, CountingGroup::plain));
  EXPECT_EQ(minmax_partial_name(float16), "loom_minmax_partial<loom_f16>");
  EXPECT_EQ(minmax_final_name(bool_), "loom_minmax_final<unsigned char>");
  EXPECT_EQ(bincount_name(int32, 0), "loom_bincount<int, 0>");
  EXPECT_EQ(bincount_name(uint64, 2), "loom_bincount<unsigned long long, 2>");
  EXPECT_EQ(histogram_name(float32, true, 1), "loom_histogram<float, float, true, 1>");
  EXPECT_EQ(histogram_name(float64, true, 0), "loom_histogram<double, double, false, 0>");
  EXPECT_EQ(histogram_name(int16, true, 3), "loom_histogram<short, double, false, 3>");
  EXPECT_EQ(histogram_name(float16, false, 2), "loom_histogram<loom_f16, loom_f16, false, 2>");
  // Each program holds its group's kernels: min/max and counts; weighted sums; bins.
  EXPECT_EQ(counting_program(int32, CountingGroup::plain).name_expressions().size(), 4u);
  EXPECT_EQ(counting_program(float32, CountingGroup::plain).name_expressions().size(), 4u);
  EXPECT_EQ(counting_program(float64, CountingGroup::weighted).name_expressions().size(), 2u);
  EXPECT_EQ(counting_program(int8, CountingGroup::weighted).name_expressions().size(), 4u);
  EXPECT_EQ(counting_program(float16, CountingGroup::bins).name_expressions().size(), 2u);
}

INSTANTIATE_TEST_SUITE_P(Archs, CountingCompile, ::testing::Values(80, 90),
                         [](const auto& info) { return "sm_" + std::to_string(info.param); });

}  // namespace
}  // namespace loom::cuda
