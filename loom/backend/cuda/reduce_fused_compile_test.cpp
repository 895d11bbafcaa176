// NVRTC compiles the programs of jit-fused reductions (reduce_codegen.h,
// fused_reduction_spec) for Hopper: prologues with arrays, broadcast elements and
// scalars, epilogues, every kind, var's first pass. No GPU needed.
#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "loom/backend/cuda/reduce_codegen.h"
#include "loom/core/error.h"
#include "loom/runtime/cuda/module_cache.h"

namespace loom::cuda {
namespace {

void expect_compiles(const Program& p) {
  CompiledProgram c;
  try {
    c = compile_program(p, 90);
  } catch (const CompileError& e) {
    FAIL() << p.name() << ":\n" << e.log() << "\n" << p.source();
  }
  ASSERT_EQ(c.lowered_names.size(), p.name_expressions().size()) << p.name();
}

// (a - b) ** 2 * s over float32 arrays a, b (b one broadcast element) and a weak scalar s,
// computed into `elem`.
FusedGraph prologue(DType in, DType elem) {
  FusedGraph g;
  const int a = g.add_input(in), b = g.add_input(in), s = g.add_input(float32, FusedGraph::InputKind::param);
  const int d = g.add_op(OpId::subtract, {a, b});
  const int q = g.add_op(OpId::multiply, {d, d});
  const int r = g.add_op(OpId::multiply, {q, s});
  g.add_output(r, elem);
  return g;
}

// sqrt(r) * y + 1 with the reduction's result r, an array y, a scalar.
FusedGraph epilogue(DType red) {
  FusedGraph g;
  const int r = g.add_input(red), y = g.add_input(float32), one = g.add_input(float32, FusedGraph::InputKind::param);
  const int t = g.add_op(OpId::sqrt, {r});
  g.add_output(g.add_op(OpId::add, {g.add_op(OpId::multiply, {t, y}), one}));
  return g;
}

// Every kind over float32, and the kinds whose spec depends most on the dtype over
// float16, int32 and bool (a compile is about a second: the list is kept short).
TEST(ReduceFusedCompile, KindsWithPrologueAndEpilogue) {
  std::vector<std::pair<ReduceKind, DType>> cases;
  for (int k = 0; k < kNumReduceKinds; ++k) cases.emplace_back(static_cast<ReduceKind>(k), float32);
  for (DType dt : {float16, int32, bool_})
    for (ReduceKind kind : {ReduceKind::sum, ReduceKind::max, ReduceKind::argmin}) cases.emplace_back(kind, dt);
  for (const auto& [kind, elem] : cases) {
    {
      const FusedGraph pre = prologue(float32, elem);
      const FusedGraph post = epilogue(reduce_out_dtype(kind, elem));
      FusedReductionGraphs f;
      f.pre = &pre;
      f.pre_uniform = {false, true, false};
      f.post = &post;
      f.post_value = 0;
      f.post_uniform = {false, false, false};
      const std::string name = std::string("test_fused_") + reduce_kind_name(kind) + "_" + dtype_name(elem);
      const ReductionSpec s = fused_reduction_spec(kind, elem, false, f, name);
      EXPECT_NE(reduction_source(s).find("loom_pre("), std::string::npos);
      EXPECT_NE(reduction_source(s).find("loom_post("), std::string::npos);
      expect_compiles(reduction_program(s));
      if (kind == ReduceKind::var) expect_compiles(reduction_program(fused_reduction_spec(kind, elem, true, f, name + "_m")));
    }
  }
}

TEST(ReduceFusedCompile, PrologueOnlyAndEpilogueOnly) {
  const FusedGraph pre = prologue(int16, float32);
  FusedReductionGraphs a;
  a.pre = &pre;
  a.pre_uniform = {false, false, false};
  expect_compiles(reduction_program(fused_reduction_spec(ReduceKind::mean, float32, false, a, "test_fused_pre")));
  const FusedGraph post = epilogue(float32);
  FusedReductionGraphs b;
  b.post = &post;
  b.post_value = 0;
  b.post_uniform = {false, true, false};
  const ReductionSpec s = fused_reduction_spec(ReduceKind::sum, float32, false, b, "test_fused_post");
  EXPECT_EQ(s.element_expr, "");
  expect_compiles(reduction_program(s));
}

}  // namespace
}  // namespace loom::cuda
