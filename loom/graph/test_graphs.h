// Multi-node graphs shared by the CPU evaluator's test (graph/cpu_eval_test.cpp) and the
// NVRTC compile test of their generated CUDA (graph/cuda/cuda_codegen_test.cpp).
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "loom/graph/fused_graph.h"

namespace loom::test_graphs {

using IK = FusedGraph::InputKind;

/// hypot(a, b) * exp(c) + one, where `one` is a scalar parameter of dtype `one`.
inline FusedGraph hypot_exp(DType a, DType b, DType c, DType one) {
  FusedGraph g;
  g.add_input(a);
  g.add_input(b);
  g.add_input(c);
  g.add_input(one, IK::param);
  const int h = g.add_op(OpId::hypot, {0, 1});
  const int e = g.add_op(OpId::exp, {2});
  const int m = g.add_op(OpId::multiply, {h, e});
  g.add_output(g.add_op(OpId::add, {m, 3}));
  return g;
}

/// where(a < b, sqrt(|a|), -b).
inline FusedGraph where_sqrt(DType dt) {
  FusedGraph g;
  g.add_input(dt);
  g.add_input(dt);
  const int cond = g.add_op(OpId::less, {0, 1});
  const int s = g.add_op(OpId::sqrt, {g.add_op(OpId::absolute, {0})});
  const int n = g.add_op(OpId::negative, {1});
  g.add_output(g.add_op(OpId::where, {cond, s, n}));
  return g;
}

/// remainder((a << b) ^ (a // c), c) over integers (mixed dtypes promote).
inline FusedGraph int_mix(DType a, DType b, DType c) {
  FusedGraph g;
  g.add_input(a);
  g.add_input(b);
  g.add_input(c);
  const int sh = g.add_op(OpId::left_shift, {0, 1});
  const int fd = g.add_op(OpId::floor_divide, {0, 2});
  g.add_output(g.add_op(OpId::remainder, {g.add_op(OpId::bitwise_xor, {sh, fd}), 2}));
  return g;
}

/// (a > b and not isnan(c)) or d, with d a bool array; stored as `out`.
inline FusedGraph bool_mix(DType dt, DType out) {
  FusedGraph g;
  g.add_input(dt);
  g.add_input(dt);
  g.add_input(dt);
  g.add_input(bool_);
  const int gt = g.add_op(OpId::greater, {0, 1});
  const int ok = g.add_op(OpId::logical_not, {g.add_op(OpId::isnan, {2})});
  g.add_output(g.add_op(OpId::logical_or, {g.add_op(OpId::logical_and, {gt, ok}), 3}), out);
  return g;
}

/// (a + b) * c with `a` uniform: every node rounds to the dtype (float16 shows it).
inline FusedGraph add_mul(DType dt) {
  FusedGraph g;
  g.add_input(dt, IK::uniform);
  g.add_input(dt);
  g.add_input(dt);
  g.add_output(g.add_op(OpId::multiply, {g.add_op(OpId::add, {0, 1}), 2}));
  return g;
}

/// where(a < b, expm1(a) * s - s + tanh(b), where(b > s, log1p(|b|), sin(a)) * tanh(b)), s a
/// scalar parameter: both branches of the outer where are costly and used by nothing
/// else (the CPU evaluator runs them lazily), the inner where sits in one of them, and
/// tanh(b) is shared by both (so it is not lazy).
inline FusedGraph lazy_branches(DType dt) {
  FusedGraph g;
  g.add_input(dt);
  g.add_input(dt);
  g.add_input(dt, IK::param);
  const int cond = g.add_op(OpId::less, {0, 1});
  const int shared = g.add_op(OpId::tanh, {1});
  const int e = g.add_op(OpId::subtract, {g.add_op(OpId::multiply, {g.add_op(OpId::expm1, {0}), 2}), 2});
  const int t = g.add_op(OpId::add, {e, shared});
  const int inner = g.add_op(OpId::where, {g.add_op(OpId::greater, {1, 2}),
                                           g.add_op(OpId::log1p, {g.add_op(OpId::absolute, {1})}),
                                           g.add_op(OpId::sin, {0})});
  const int f = g.add_op(OpId::multiply, {inner, shared});
  g.add_output(g.add_op(OpId::where, {cond, t, f}));
  return g;
}

/// where(a, expm1(a) * s, log1p(|b|) * s), s a float64 parameter: the condition is `a`
/// itself, cast to bool, and both lazy branches cast their values to float64 on the way
/// (the evaluator must keep the cast condition apart from the casts of the branches).
inline FusedGraph lazy_cast_condition(DType dt) {
  FusedGraph g;
  g.add_input(dt);
  g.add_input(dt);
  g.add_input(DType::float64, IK::param);
  const int t = g.add_op(OpId::multiply, {g.add_op(OpId::expm1, {0}), 2});
  const int f = g.add_op(OpId::multiply, {g.add_op(OpId::log1p, {g.add_op(OpId::absolute, {1})}), 2});
  g.add_output(g.add_op(OpId::where, {0, t, f}));
  return g;
}

/// Every graph above in the dtypes the tests use, named.
inline std::vector<std::pair<std::string, FusedGraph>> all_graphs() {
  return {
      {"hypot_exp_f32", hypot_exp(float32, float32, float32, float32)},
      {"hypot_exp_f16", hypot_exp(float16, float16, float16, float16)},
      {"hypot_exp_mixed", hypot_exp(float16, float32, int16, float32)},
      {"hypot_exp_f64", hypot_exp(float64, float64, float64, float64)},
      {"where_sqrt_f32", where_sqrt(float32)},
      {"where_sqrt_i16", where_sqrt(int16)},
      {"where_sqrt_bf16", where_sqrt(bfloat16)},
      {"int_mix_i32", int_mix(int32, int32, int32)},
      {"int_mix_mixed", int_mix(int8, uint8, int64)},
      {"bool_mix_f32", bool_mix(float32, bool_)},
      {"bool_mix_f16_to_i32", bool_mix(float16, int32)},
      {"add_mul_f16", add_mul(float16)},
      {"add_mul_u8", add_mul(uint8)},
      {"lazy_branches_f32", lazy_branches(float32)},
      {"lazy_branches_f16", lazy_branches(float16)},
  };
}

}  // namespace loom::test_graphs
