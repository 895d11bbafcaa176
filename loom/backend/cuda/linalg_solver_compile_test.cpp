// NVRTC compiles the layout kernels around cuSOLVER (kernels/loom_solver.cuh) for Ampere
// and Hopper; no GPU needed.
#include <gtest/gtest.h>

#include "loom/backend/cuda/linalg_solver.h"
#include "loom/runtime/cuda/compile_test_util.h"

namespace loom::cuda {
namespace {

class SolverCompile : public ::testing::TestWithParam<int> {};

TEST_P(SolverCompile, LayoutKernels) {
  const Program& p = solver_program();
  EXPECT_EQ(p.name_expressions().size(), 25u);  // pointers; 3 x 4 element types; 6 x 2 part types
  expect_compiles(p, GetParam());
}

INSTANTIATE_TEST_SUITE_P(Archs, SolverCompile, ::testing::Values(80, 90),
                         [](const auto& info) { return "sm_" + std::to_string(info.param); });

}  // namespace
}  // namespace loom::cuda
