// loom::lax::switch_ and cond on cpu(): the branch the index picks (clamped), one op under
// jit for every index; grad through the branch taken (operands and captured arrays) against
// grad of that branch alone; vmap with a shared index (one branch) and a batched one (each
// example its own); the errors.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "loom/core/error.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/reduce.h"
#include "loom/ops/take.h"
#include "loom/transforms/autodiff.h"
#include "loom/transforms/control_flow.h"
#include "loom/transforms/transform_test_util.h"
#include "loom/transforms/jit.h"
#include "loom/transforms/vmap.h"

namespace loom {
namespace {

using namespace transform_test;

Array i32(int32_t v) { return full({}, Scalar(v), int32, cpu()); }

// Three branches of x (and w, closed over): sin(x) w, x^2, exp(x) + w.
std::vector<ArrayFn> branches(const Array& w) {
  return {[w](const std::vector<Array>& a) { return std::vector<Array>{multiply(sin(a[0]), w)}; },
          [](const std::vector<Array>& a) { return std::vector<Array>{multiply(a[0], a[0])}; },
          [w](const std::vector<Array>& a) { return std::vector<Array>{add(exp(a[0]), w)}; }};
}

TEST(Switch, RunsTheBranchTheClampedIndexPicks) {
  const Array x = random_array({4}, 1), w = random_array({4}, 2);
  const auto fns = branches(w);
  for (int32_t i : {-3, 0, 1, 2, 7}) {
    const int32_t k = i < 0 ? 0 : (i > 2 ? 2 : i);
    expect_near(lax::switch_(i32(i), fns, {x})[0], fns[static_cast<size_t>(k)]({x})[0]);
  }
  // cond: a bool or any nonzero integer is true.
  expect_near(lax::cond(full({}, Scalar(true), bool_, cpu()), fns[1], fns[0], {x})[0], fns[1]({x})[0]);
  expect_near(lax::cond(full({}, Scalar(int64_t{5}), int64, cpu()), fns[1], fns[0], {x})[0], fns[1]({x})[0]);
  expect_near(lax::cond(full({}, Scalar(false), bool_, cpu()), fns[1], fns[0], {x})[0], fns[0]({x})[0]);
}

TEST(Switch, JitTracesEveryBranchOnceAndRunsOne) {
  const Array x = random_array({4}, 3), w = random_array({4}, 4);
  const Jitted f = jit([w](const std::vector<Array>& a) { return lax::switch_(a[0], branches(w), {a[1]}); });
  const auto fns = branches(w);
  for (int32_t i : {0, 1, 2, 1}) expect_near(f({i32(i), x})[0], fns[static_cast<size_t>(i)]({x})[0]);
  EXPECT_EQ(f.num_traces(), 1u);
  ASSERT_EQ(f.graph(0).ops.size(), 1u);
  EXPECT_STREQ(f.graph(0).ops[0].op->name, "switch_branches");
}

TEST(Switch, GradFollowsTheBranchTakenForOperandsAndCapturedArrays) {
  const Array x = random_array({4}, 5), w = random_array({4}, 6);
  for (int32_t i : {0, 1, 2}) {
    SCOPED_TRACE("branch " + std::to_string(i));
    auto loss = [i](bool through_switch) {
      return [i, through_switch](const std::vector<Array>& a) {
        const auto fns = branches(a[1]);
        const Array y = through_switch ? lax::switch_(i32(i), fns, {a[0]})[0] : fns[static_cast<size_t>(i)]({a[0]})[0];
        return std::vector<Array>{sum(multiply(y, y))};
      };
    };
    const auto got = grad(loss(true), {0, 1})({x, w}), want = grad(loss(false), {0, 1})({x, w});
    expect_near(got[0], want[0]);
    expect_near(got[1], want[1]);
    const auto jitted = jit(grad(loss(true), {0, 1}))({x, w});
    expect_near(jitted[0], want[0]);
    expect_near(jitted[1], want[1]);
  }
}

TEST(Switch, VmapWithASharedOrABatchedIndex) {
  const Array xs = random_array({3, 4}, 7), w = random_array({4}, 8);
  const auto fns = branches(w);
  const ArrayFn f = [w](const std::vector<Array>& a) { return lax::switch_(a[0], branches(w), {a[1]}); };
  const auto shared = vmap(f, {std::nullopt, 0})({i32(2), xs});
  std::vector<int32_t> idx{1, 0, 2};
  const Array index = from_host(HostView{idx.data(), int32, {3}, {4}}, cpu());
  const auto batched = vmap(f)({index, xs});
  for (int64_t b = 0; b < 3; ++b) {
    const Array row = take(xs, full({}, Scalar(b), int64, cpu()), 0);
    const Array bi = full({}, Scalar(b), int64, cpu());
    expect_near(take(shared[0], bi, 0), fns[2]({row})[0]);
    expect_near(take(batched[0], bi, 0), fns[static_cast<size_t>(idx[static_cast<size_t>(b)])]({row})[0]);
  }
}

TEST(Switch, ErrorsNameTheOpAndTheProblem) {
  auto expect = [](const std::function<void()>& run, const std::string& op, const std::string& words) {
    try {
      run();
      ADD_FAILURE() << "no error; wanted " << words;
    } catch (const std::exception& e) {
      EXPECT_NE(std::string(e.what()).find(op), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
  };
  const Array x = random_array({4}, 9);
  const ArrayFn same = [](const std::vector<Array>& a) { return a; };
  const ArrayFn as_f32 = [](const std::vector<Array>& a) { return std::vector<Array>{a[0].astype(float32)}; };
  const ArrayFn none = [](const std::vector<Array>&) { return std::vector<Array>{}; };
  expect([&] { lax::switch_(x, {same}, {x}); }, "switch", "integer or bool scalar");
  expect([&] { lax::switch_(i32(0), {}, {x}); }, "switch", "no branches");
  expect([&] { lax::switch_(i32(0), {same, as_f32}, {x}); }, "switch", "output 0 is float64(4,) in branch 0 but float32(4,)");
  expect([&] { lax::switch_(i32(0), {same, none}, {x}); }, "switch", "branch 1 returns 0");
  expect([&] { lax::cond(x, same, same, {x}); }, "cond", "predicate");
}

}  // namespace
}  // namespace loom
