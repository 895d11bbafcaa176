// NVRTC compiles the indexing family's programs (kernels/loom_indexing.cuh, loom_indexing_nonzero.cuh)
// for Ampere and Hopper; no GPU needed.
#include <gtest/gtest.h>

#include "loom/backend/cuda/indexing_programs.h"
#include "loom/runtime/cuda/compile_test_util.h"
#include "loom/runtime/cuda/module_cache.h"

namespace loom::cuda {
namespace {

class IndexCompile : public ::testing::TestWithParam<int> {};

TEST_P(IndexCompile, GatherScatterProgram) {
  const Program& p = index_program();
  // offsets; gather, one-pass gather and scatter for 1, 2, 4, 8 and 16 bytes; targets
  EXPECT_EQ(p.name_expressions().size(), 17u);
  EXPECT_EQ(index_gather_direct_name(4), "loom_index_gather_direct<unsigned int>");
  expect_compiles(p, GetParam());
}

TEST_P(IndexCompile, CombinePrograms) {
  for (int t = 0; t < kNumDTypes; ++t) {
    const DType dt = static_cast<DType>(t);
    const Program& p = index_combine_program(dt);
    EXPECT_EQ(p.name_expressions().size(), 4u);
    EXPECT_EQ(index_combine_name(dt, ScatterMode::add), p.name_expressions()[0]);
    EXPECT_EQ(index_combine_name(dt, ScatterMode::max), p.name_expressions()[3]);
    expect_compiles(p, GetParam());
  }
}

TEST_P(IndexCompile, NonzeroProgram) {
  const Program& p = nonzero_program();
  EXPECT_EQ(p.name_expressions().size(), 15u);
  expect_compiles(p, GetParam());
}

TEST(IndexNames, NonzeroVariantsFollowSizeAndKind) {
  EXPECT_EQ(nonzero_count_name(bool_), "loom_nonzero_count<unsigned char, false>");
  EXPECT_EQ(nonzero_count_name(int16), "loom_nonzero_count<unsigned short, false>");
  EXPECT_EQ(nonzero_count_name(bfloat16), "loom_nonzero_count<unsigned short, true>");
  EXPECT_EQ(nonzero_write_name(float32), "loom_nonzero_write<unsigned int, true>");
  EXPECT_EQ(nonzero_write_name(uint64), "loom_nonzero_write<unsigned long long, false>");
  EXPECT_EQ(nonzero_write_name(float64), "loom_nonzero_write<unsigned long long, true>");
  EXPECT_EQ(index_gather_name(2), "loom_index_gather<unsigned short>");
  EXPECT_EQ(index_combine_name(float16, ScatterMode::add), "loom_index_combine<loom_f16, 1>");
  EXPECT_EQ(index_combine_name(complex128, ScatterMode::add), "loom_index_combine<loom_complex128, 1>");
  EXPECT_EQ(index_combine_name(complex64, ScatterMode::multiply), "loom_index_combine<loom_complex64, 2>");
  // complex128's multiply, min and max fold sorted runs in order (no 16-byte atomics).
  EXPECT_EQ(index_combine_name(complex128, ScatterMode::min), "loom_index_combine_runs<loom_complex128, 3>");
  EXPECT_EQ(index_targets_name(), "loom_index_targets");
  EXPECT_THROW(index_combine_name(complex64, ScatterMode::set), std::logic_error);
}

INSTANTIATE_TEST_SUITE_P(Archs, IndexCompile, ::testing::Values(80, 90),
                         [](const auto& info) { return "sm_" + std::to_string(info.param); });

}  // namespace
}  // namespace loom::cuda
