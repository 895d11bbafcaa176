// NVRTC compiles every generated reduction program (each kind over each dtype it serves,
// var's first pass included) for Hopper; no GPU needed, so this runs in CI.
#include <gtest/gtest.h>

#include "loom/runtime/cuda/module_cache.h"
#include "loom/backend/cuda/reduce_codegen.h"
#include "loom/core/error.h"

namespace loom::cuda {
namespace {

class ReduceCompile : public ::testing::TestWithParam<int> {};

void expect_compiles(const Program& p) {
  CompiledProgram c;
  try {
    c = compile_program(p, 90);
  } catch (const CompileError& e) {
    FAIL() << p.name() << ":\n" << e.log() << "\n" << p.source();
  }
  EXPECT_FALSE(c.is_ptx);
  ASSERT_EQ(c.lowered_names.size(), p.name_expressions().size()) << p.name();
  for (const auto& [expr, lowered] : c.lowered_names) EXPECT_FALSE(lowered.empty()) << expr;
}

// One test per kind (parameter), over every dtype the ops layer sends to it.
TEST_P(ReduceCompile, EveryDtype) {
  const auto kind = static_cast<ReduceKind>(GetParam());
  for (int t = 0; t < kNumDTypes; ++t) {
    const auto dt = static_cast<DType>(t);
    if (is_complex(dt) && kind != ReduceKind::sum && kind != ReduceKind::prod) continue;  // the complex kinds
    if (reduce_kind_float_only(kind) && (!is_floating(dt) || dt == bfloat16)) continue;
    expect_compiles(reduction_program(builtin_reduction_spec(kind, dt)));
    if (kind == ReduceKind::var) expect_compiles(reduction_program(builtin_reduction_spec(kind, dt, true)));
  }
}

INSTANTIATE_TEST_SUITE_P(Kinds, ReduceCompile, ::testing::Range(0, kNumReduceKinds),
                         [](const auto& info) { return std::string(reduce_kind_name(static_cast<ReduceKind>(info.param))); });

TEST(ReduceCodegen, SourceHoldsTheSpecAndScansOnlyForSumAndProd) {
  const ReductionSpec s = builtin_reduction_spec(ReduceKind::sum, float16);
  EXPECT_EQ(s.acc_type, "float");
  EXPECT_EQ(s.out_type, "loom_f16");
  EXPECT_TRUE(s.scans);
  EXPECT_FALSE(builtin_reduction_spec(ReduceKind::max, float32).scans);
  const std::string src = reduction_source(s);
  EXPECT_NE(src.find("#include \"loom_reduce.cuh\""), std::string::npos);
  EXPECT_NE(src.find("typedef float acc_t;"), std::string::npos);
  EXPECT_EQ(reduction_program(s).name_expressions().size(), 10u);
  EXPECT_EQ(reduction_program(builtin_reduction_spec(ReduceKind::max, float32)).name_expressions().size(), 7u);
}

TEST(ReduceCodegen, UserSpecCompiles) {
  // The shape issue 4's ReductionKernel will produce: sum of squares of int32 in int64.
  ReductionSpec s;
  s.name = "user_sumsq";
  s.in_type = "int";
  s.acc_type = "long long";
  s.out_type = "long long";
  s.map_expr = "(long long)x * x";
  s.reduce_expr = "a + b";
  s.identity = "0ll";
  s.post_expr = "a";
  expect_compiles(reduction_program(s));
}

}  // namespace
}  // namespace loom::cuda
