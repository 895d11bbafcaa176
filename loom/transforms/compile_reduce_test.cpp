// The jit compiler's reduction fusion (transforms/compile_reduce.h) on cpu(): which
// reductions absorb their elementwise prologue and epilogue, what is left unfused, and
// that every fused plan gives the eager results bit for bit (the CPU engine combines the
// computed elements in the order it combines stored ones).
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "loom/dispatch/dispatch.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/reduce.h"
#include "loom/transforms/compile.h"
#include "loom/transforms/compile_test_util.h"
#include "loom/transforms/jit.h"

namespace loom {
namespace {

using compile_test::bytes;
using compile_test::random_array;

// f eagerly and jitted (twice: the second call runs the cached plan): equal bytes,
// dtypes and shapes. Returns the plan's stats.
CompiledPlan::Stats expect_same(const ArrayFn& f, const std::vector<Array>& args) {
  const std::vector<Array> want = f(args);
  Jitted j = jit(f);
  for (int call = 0; call < 2; ++call) {
    const std::vector<Array> got = j(args);
    EXPECT_EQ(got.size(), want.size());
    for (size_t k = 0; k < got.size() && k < want.size(); ++k) {
      EXPECT_EQ(got[k].dtype(), want[k].dtype()) << "result " << k;
      EXPECT_EQ(got[k].shape(), want[k].shape()) << "result " << k;
      EXPECT_EQ(bytes(got[k]), bytes(want[k])) << "result " << k << " call " << call;
    }
  }
  return j.plan(0).stats();
}

struct Counter : DispatchHook {
  std::vector<std::string> names;
  void before(const OpEvent& e) override { names.emplace_back(e.op.name); }
};

ArrayFn one(std::function<Array(const std::vector<Array>&)> f) {
  return [f](const std::vector<Array>& in) { return std::vector<Array>{f(in)}; };
}

TEST(JitReduceFusion, SumOfSquaresIsOneOp) {
  auto f = one([](const std::vector<Array>& in) { return sum(multiply(in[0], in[0])); });
  // Long enough for the engine's parallel chunks (2 * 2^15 and more).
  const CompiledPlan::Stats s = expect_same(f, {random_array({200003}, float32, 1)});
  EXPECT_EQ(s.traced_ops, 2u);
  EXPECT_EQ(s.reduce_fusions, 1u);
  EXPECT_EQ(s.steps, 1u);
  Jitted j = jit(f);
  const Array x = random_array({100}, float32, 2);
  j({x});
  Counter c;
  add_dispatch_hook(&c);
  j({x});
  remove_dispatch_hook(&c);
  EXPECT_EQ(c.names, std::vector<std::string>{"fused_reduce"});
}

TEST(JitReduceFusion, PrologueGroupsOverAxesAndKinds) {
  const Array a = random_array({37, 129}, float32, 3), b = random_array({37, 129}, float32, 4);
  for (int axis : {0, 1}) {
    for (bool keep : {false, true}) {
      auto mse = one([=](const std::vector<Array>& in) {
        return mean(power(subtract(in[0], in[1]), 2), std::vector<int64_t>{axis}, keep);
      });
      CompiledPlan::Stats s = expect_same(mse, {a, b});
      EXPECT_EQ(s.steps, 1u) << axis;
      auto mx = one([=](const std::vector<Array>& in) { return max(absolute(in[0]), std::vector<int64_t>{axis}, keep); });
      EXPECT_EQ(expect_same(mx, {a}).steps, 1u);
      auto mn = one([=](const std::vector<Array>& in) { return min(add(in[0], in[1]), std::vector<int64_t>{axis}, keep); });
      EXPECT_EQ(expect_same(mn, {a, b}).steps, 1u);
      auto pr = one([=](const std::vector<Array>& in) { return prod(multiply(in[0], 0.25), std::vector<int64_t>{axis}, keep); });
      EXPECT_EQ(expect_same(pr, {a}).steps, 1u);
      auto am = one([=](const std::vector<Array>& in) { return argmax(subtract(in[0], in[1]), axis, keep); });
      EXPECT_EQ(expect_same(am, {a, b}).steps, 1u);
      auto an = one([=](const std::vector<Array>& in) { return any(greater(in[0], 8.0), std::vector<int64_t>{axis}, keep); });
      EXPECT_EQ(expect_same(an, {a}).steps, 1u);
      auto va = one([=](const std::vector<Array>& in) { return var(multiply(in[0], in[1]), std::vector<int64_t>{axis}, keep); });
      EXPECT_EQ(expect_same(va, {a, b}).steps, 1u);
      auto sd = one([=](const std::vector<Array>& in) { return loom::std(exp(in[0]), std::vector<int64_t>{axis}, keep); });
      EXPECT_EQ(expect_same(sd, {a}).steps, 1u);
    }
  }
  // The middle axis of three: outer, len and inner all above one; and every axis.
  const Array c = random_array({5, 300, 270}, float32, 5);
  auto mid = one([](const std::vector<Array>& in) { return sum(square(in[0]), std::vector<int64_t>{1}); });
  EXPECT_EQ(expect_same(mid, {c}).steps, 1u);
  auto all_axes = one([](const std::vector<Array>& in) { return sum(square(in[0])); });
  EXPECT_EQ(expect_same(all_axes, {c}).steps, 1u);
}

TEST(JitReduceFusion, DtypesAndWeakScalars) {
  // int32 * weak float -> float64; float16 and bfloat16 intermediates; integer sums.
  for (DType dt : {float64, float16, bfloat16, int32, int8, uint8, bool_}) {
    const Array x = random_array({64, 33}, dt, 6);
    auto f = one([](const std::vector<Array>& in) { return sum(add(in[0], in[0]), std::vector<int64_t>{1}); });
    EXPECT_EQ(expect_same(f, {x}).steps, 1u) << dtype_name(dt);
    auto g = one([](const std::vector<Array>& in) { return max(multiply(in[0], 3), std::vector<int64_t>{0}); });
    EXPECT_EQ(expect_same(g, {x}).steps, 1u) << dtype_name(dt);
  }
}

TEST(JitReduceFusion, Epilogues) {
  const Array x = random_array({40, 70}, float32, 7), y = random_array({40}, float32, 8);
  auto norm = one([](const std::vector<Array>& in) { return sqrt(sum(multiply(in[0], in[0]))); });
  CompiledPlan::Stats s = expect_same(norm, {x});
  EXPECT_EQ(s.steps, 1u);
  EXPECT_EQ(s.reduce_fused_ops, 3u);
  auto affine = one([](const std::vector<Array>& in) {
    return add(multiply(mean(in[0], std::vector<int64_t>{1}), 2), 1);  // mean(...) * 2 + 1
  });
  EXPECT_EQ(expect_same(affine, {x}).steps, 1u);
  // An epilogue with another array of the result's shape, and keepdims.
  auto with_y = one([](const std::vector<Array>& in) {
    return subtract(sum(exp(in[0]), std::vector<int64_t>{1}), in[1]);
  });
  EXPECT_EQ(expect_same(with_y, {x, y}).steps, 1u);
  auto keep = one([](const std::vector<Array>& in) { return log(sum(exp(in[0]), std::vector<int64_t>{1}, true)); });
  EXPECT_EQ(expect_same(keep, {x}).steps, 1u);
  // Epilogue only: the reduction reads an argument.
  auto plain = one([](const std::vector<Array>& in) { return greater(max(in[0], std::vector<int64_t>{0}), 1.0); });
  EXPECT_EQ(expect_same(plain, {x}).steps, 1u);
}

TEST(JitReduceFusion, WhatStaysUnfused) {
  const Array x = random_array({16, 24}, float32, 9);
  // The intermediate is also a result: stored, so the reduction reads it.
  auto also_result = [](const std::vector<Array>& in) {
    Array e = exp(in[0]);
    return std::vector<Array>{sum(e), e};
  };
  EXPECT_EQ(expect_same(also_result, {x}).reduce_fusions, 0u);
  // Broadcast along one axis only (x - mean(x, keepdims)): the group reads a (16, 1) view.
  auto centered = one([](const std::vector<Array>& in) {
    Array m = mean(in[0], std::vector<int64_t>{1}, true);
    return sum(square(subtract(in[0], m)), std::vector<int64_t>{1});
  });
  // Neither reduction fuses: the mean's result is read broadcast, the sum's prologue reads it so.
  EXPECT_EQ(expect_same(centered, {x}).reduce_fusions, 0u);
  // A transposed argument read by the prologue.
  auto transposed = one([](const std::vector<Array>& in) {
    const Array t = in[0].view({24, 16}, {4, 96}, 0);
    return sum(exp(t), std::vector<int64_t>{1});
  });
  EXPECT_EQ(expect_same(transposed, {x}).reduce_fusions, 0u);
  // An epilogue that broadcasts the result against a bigger array.
  auto softmaxish = one([](const std::vector<Array>& in) {
    return subtract(in[0], max(in[0], std::vector<int64_t>{1}, true));
  });
  EXPECT_EQ(expect_same(softmaxish, {x}).reduce_fusions, 0u);
}

TEST(JitReduceFusion, ChainsOfReductions) {
  // sum(sum(x * x, 1) * 2): the first absorbs both sides; the second then has no prologue.
  auto f = one([](const std::vector<Array>& in) {
    return sum(multiply(sum(multiply(in[0], in[0]), std::vector<int64_t>{1}), 2));
  });
  const CompiledPlan::Stats s = expect_same(f, {random_array({30, 50}, float64, 10)});
  EXPECT_EQ(s.reduce_fusions, 1u);
  EXPECT_EQ(s.steps, 2u);
}

}  // namespace
}  // namespace loom
