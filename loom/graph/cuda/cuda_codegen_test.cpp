// Generated elementwise kernels: every op x every loop dtype of the op table compiles
// with NVRTC in each layout class, and multi-node graphs do (no GPU needed; runs in CI).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <vector>

#include "loom/graph/cuda_codegen.h"
#include "loom/graph/test_graphs.h"
#include "loom/runtime/cuda/module_cache.h"

namespace loom::cuda {
namespace {

using IK = FusedGraph::InputKind;

// The kernels an op gets at `loop`: contiguous with a uniform pointer and a scalar
// parameter (every loop dtype); with `all_layouts` also contiguous vectorized, strided
// 32- and 64-bit, and one with casts on the way in and out (float64 in, int8 out).
std::vector<std::pair<FusedGraph, KernelConfig>> variants(OpId op, DType loop, bool all_layouts) {
  const int n = op_info(op).arity;
  std::vector<DType> dts;
  for (int i = 0; i < n; ++i) dts.push_back(input_loop_dtype(op, i, loop));
  const DType out = result_dtype(op_info(op).rule, loop);
  std::vector<IK> arrays(n, IK::array), mixed(n, IK::array);
  mixed[n - 1] = IK::param;
  if (n > 1) mixed[0] = IK::uniform;
  std::vector<std::pair<FusedGraph, KernelConfig>> v = {{single_op_graph(op, loop, dts, mixed, out), KernelConfig{}}};
  if (!all_layouts) return v;
  KernelConfig vec, s32, s64;
  vec.vec = static_cast<int>(16 / std::max(itemsize(loop), itemsize(out)));
  s32.strided = s64.strided = true;
  s32.ndim = 3;
  s64.ndim = 2;
  s64.index32 = false;
  v.push_back({single_op_graph(op, loop, dts, arrays, out), vec});
  v.push_back({single_op_graph(op, loop, dts, arrays, out), s32});
  v.push_back({single_op_graph(op, loop, dts, arrays, out), s64});
  v.push_back({single_op_graph(op, loop, std::vector<DType>(n, float64), arrays, int8), KernelConfig{}});
  return v;
}

// Many generated kernels in one NVRTC program: each in its own namespace (their helper
// names repeat), the includes at the top (loom_complex.cuh's operators must be global).
Program batch(const std::string& name, const std::vector<std::string>& sources, const std::vector<std::string>& names) {
  std::string src = "#include \"loom_elementwise.cuh\"\n#include \"loom_complex.cuh\"\n#include \"loom_special.cuh\"\n";
  for (size_t i = 0; i < sources.size(); ++i) {
    std::string s = sources[i];
    while (s.rfind("#include", 0) == 0) s.erase(0, s.find('\n') + 1);  // the include lines
    src += "namespace k" + std::to_string(i) + " {\n" + s + "}\n";
  }
  std::vector<std::string> exprs;  // qualified, for NVRTC's lookup; lowered to the C names
  for (size_t i = 0; i < names.size(); ++i) exprs.push_back("k" + std::to_string(i) + "::" + names[i]);
  return Program(name + ".cu", src, exprs, {"--fmad=false"});
}

TEST(ElementwiseCodegen, EveryOpAndLoopDtypeCompiles) {
  int kernels = 0;
  for (int o = 0; o < kNumOps; ++o) {
    const OpId op = static_cast<OpId>(o);
    std::vector<std::string> sources, names;
    bool first = true;
    for (int d = kNumDTypes - 1; d >= 0; --d) {
      const DType loop = static_cast<DType>(d);
      if (!loop_exists(op, loop)) continue;
      int v = 0;
      for (const auto& [g, cfg] : variants(op, loop, first)) {
        names.push_back(std::string("loom_") + op_info(op).name + "_" + dtype_name(loop) + "_" + std::to_string(v++));
        sources.push_back(elementwise_source(g, cfg, names.back()));
      }
      first = false;
    }
    ASSERT_FALSE(sources.empty()) << op_info(op).name;
    const CompiledProgram c = compile_program(batch(op_info(op).name, sources, names), 90);
    EXPECT_FALSE(c.is_ptx);
    ASSERT_EQ(c.lowered_names.size(), names.size());
    for (size_t i = 0; i < names.size(); ++i) EXPECT_EQ(c.lowered_names[i].second, names[i]);  // extern "C"
    kernels += static_cast<int>(names.size());
  }
  EXPECT_GT(kernels, 600);
}

TEST(ElementwiseCodegen, SingleKernelIsSmallAndCompilesAlone) {
  const FusedGraph g = single_op_graph(OpId::add, float32, {float32, float32}, {IK::array, IK::array}, float32);
  KernelConfig cfg;
  cfg.vec = 4;
  const std::string src = elementwise_source(g, cfg, "loom_add_test");
  EXPECT_LT(src.size(), 3000u) << src;
  EXPECT_NE(src.find("loom_vec<float, 4>"), std::string::npos) << src;
  const auto t0 = std::chrono::steady_clock::now();
  const CompiledProgram c = compile_program(Program("loom_add_test.cu", src, {"loom_add_test"}, {"--fmad=false"}), 90);
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  RecordProperty("nvrtc_ms", std::to_string(ms));
  std::printf("NVRTC cold compile of one elementwise kernel: %.1f ms\n", ms);
  EXPECT_GT(c.image.size(), 500u);
}

TEST(ElementwiseCodegen, FusedGraphOfTwoNodes) {
  // cos(x)**2 + sin(x)**2 style graphs for loom.jit: nodes read earlier values.
  FusedGraph g;
  g.inputs.push_back({float16, IK::array});
  g.nodes.push_back({OpId::sin, float16, {0, 0, 0}});
  g.nodes.push_back({OpId::multiply, float32, {1, 0, 0}});
  g.outputs.push_back({2, float32});
  const std::string src = elementwise_source(g, KernelConfig{}, "loom_fused_test");
  const CompiledProgram c = compile_program(Program("f.cu", src, {"loom_fused_test"}), 90);
  EXPECT_EQ(c.lowered_names[0].second, "loom_fused_test");
  g.nodes[0].args[0] = 2;  // reads a value computed later
  EXPECT_THROW(elementwise_source(g, KernelConfig{}, "bad"), std::invalid_argument);
}

TEST(ElementwiseCodegen, SeveralOutputsCompileInEveryLayout) {
  // loom.jit's fused groups store every value something outside the group reads.
  FusedGraph g;
  g.add_input(float32);
  g.add_input(int8, IK::param);
  const int e = g.add_op(OpId::exp, {0});
  const int m = g.add_node(OpId::multiply, float32, {e, 1});
  g.add_output(e, float16);
  g.add_output(m);
  g.add_output(g.add_op(OpId::greater, {m, 0}));
  KernelConfig vec, s32, s64;
  vec.vec = 4;
  s32.strided = s64.strided = true;
  s32.ndim = 2;
  s64.index32 = false;
  std::vector<std::string> sources, names;
  int v = 0;
  for (const KernelConfig& cfg : {KernelConfig{}, vec, s32, s64}) {
    names.push_back("loom_multi_" + std::to_string(v++));
    sources.push_back(elementwise_source(g, cfg, names.back()));
    EXPECT_NE(sources.back().find("w2"), std::string::npos) << sources.back();
  }
  const CompiledProgram c = compile_program(batch("loom_multi", sources, names), 90);
  EXPECT_EQ(c.lowered_names.size(), names.size());
}

TEST(ElementwiseCodegen, SharedTestGraphsCompile) {
  // The graphs graph/cpu_eval_test.cpp evaluates on the CPU, in every layout class.
  std::vector<std::string> sources, names;
  for (const auto& [name, g] : test_graphs::all_graphs()) {
    KernelConfig vec, s32, s64;
    vec.vec = 2;
    s32.strided = s64.strided = true;
    s32.ndim = 3;
    s64.ndim = 2;
    s64.index32 = false;
    int v = 0;
    for (const KernelConfig& cfg : {KernelConfig{}, vec, s32, s64}) {
      names.push_back("loom_graph_" + name + "_" + std::to_string(v++));
      sources.push_back(elementwise_source(g, cfg, names.back()));
    }
  }
  const CompiledProgram c = compile_program(batch("loom_test_graphs", sources, names), 90);
  ASSERT_EQ(c.lowered_names.size(), names.size());
  for (size_t i = 0; i < names.size(); ++i) EXPECT_EQ(c.lowered_names[i].second, names[i]);
}

}  // namespace
}  // namespace loom::cuda
