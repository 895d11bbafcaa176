// NVRTC compiles the triangle-mirroring kernel of the rank-k updates (kernels/loom_rank_k.cuh)
// for Ampere and Hopper; no GPU needed.
#include <gtest/gtest.h>

#include "loom/backend/cuda/linalg_programs.h"
#include "loom/runtime/cuda/compile_test_util.h"

namespace loom::cuda {
namespace {

class RankKCompile : public ::testing::TestWithParam<int> {};

TEST_P(RankKCompile, MirrorKernels) {
  const Program& p = rank_k_program();
  EXPECT_EQ(p.name_expressions().size(), 8u);  // real, and complex in 3 modes, for float and double
  expect_compiles(p, GetParam());
}

INSTANTIATE_TEST_SUITE_P(Archs, RankKCompile, ::testing::Values(80, 90),
                         [](const auto& info) { return "sm_" + std::to_string(info.param); });

}  // namespace
}  // namespace loom::cuda
