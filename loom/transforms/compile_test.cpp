// The jit compiler (transforms/compile.h) on cpu(): which elementwise records fuse into
// one op, what dead code elimination drops and keeps, and that every compiled plan gives
// the eager results bit for bit (mixed dtypes, broadcasting, weak scalars, intermediates
// stored in another dtype, in-place writes, writes into arguments between group members).
#include "loom/transforms/compile.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "loom/dispatch/dispatch.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/reduce.h"
#include "loom/transforms/compile_test_util.h"
#include "loom/transforms/jit.h"

namespace loom {
namespace {

using compile_test::bytes;
using compile_test::random_array;

// Runs f eagerly and jitted (twice: the second call runs the cached plan) on fresh copies
// of args and expects equal bytes, dtypes and shapes of every result.
void expect_same(const ArrayFn& f, const std::vector<Array>& args, Jitted* out = nullptr) {
  auto copies = [&] {
    std::vector<Array> c;
    for (const Array& a : args) c.push_back(a.copy());
    return c;
  };
  const std::vector<Array> want = f(copies());
  Jitted j = jit(f);
  for (int call = 0; call < 2; ++call) {
    const std::vector<Array> got = j(copies());
    ASSERT_EQ(got.size(), want.size());
    for (size_t k = 0; k < got.size(); ++k) {
      EXPECT_EQ(got[k].dtype(), want[k].dtype()) << "result " << k;
      EXPECT_EQ(got[k].shape(), want[k].shape()) << "result " << k;
      EXPECT_EQ(bytes(got[k]), bytes(want[k])) << "result " << k << " call " << call;
    }
  }
  if (out) *out = j;
}

std::vector<Array> selu(const std::vector<Array>& in) {
  const Array& x = in[0];
  return {multiply(1.0507, where(greater(x, 0), x, subtract(multiply(1.6733, exp(x)), 1.6733)))};
}

// Counts the ops that reach dispatch (hooks see the fused op as one).
struct Counter : DispatchHook {
  std::vector<std::string> names;
  void before(const OpEvent& e) override { names.emplace_back(e.op.name); }
};

TEST(JitCompile, SeluIsOneFusedOp) {
  Jitted j(selu);
  expect_same(selu, {random_array({1000}, float32, 1)}, &j);
  const CompiledPlan::Stats& s = j.plan(0).stats();
  EXPECT_EQ(s.traced_ops, 6u);
  EXPECT_EQ(s.groups, 1u);
  EXPECT_EQ(s.fused_ops, 6u);
  EXPECT_EQ(s.steps, 1u);
  ASSERT_EQ(j.plan(0).fused_graphs().size(), 1u);
  EXPECT_EQ(j.plan(0).fused_graphs()[0]->outputs.size(), 1u);
  const Array x = random_array({1000}, float32, 2);
  Counter c;
  add_dispatch_hook(&c);
  j({x});
  remove_dispatch_hook(&c);
  EXPECT_EQ(c.names, std::vector<std::string>{"fused"});
}

TEST(JitCompile, DeadCodeIsDroppedButWritesToCapturedArraysStay) {
  Array captured = zeros({4}, float32, cpu());
  auto f = [&captured](const std::vector<Array>& in) {
    Array unused = exp(in[0]);              // dead
    add(captured, in[0], UfuncArgs{captured});  // writes memory the plan does not own
    return std::vector<Array>{multiply(in[0], 2)};
  };
  Jitted j = jit(f);
  const Array x = random_array({4}, float32, 3);
  const Array y = j({x})[0];
  EXPECT_EQ(j.plan(0).stats().dead_ops, 1u);
  EXPECT_EQ(j.plan(0).stats().steps, 2u);
  EXPECT_EQ(bytes(captured), bytes(x));  // 0 + x
  EXPECT_EQ(bytes(y), bytes(multiply(x, 2)));
}

TEST(JitCompile, MixedDtypesAndStoredIntermediatesRoundAsEager) {
  // int8 * float16 -> float16; + int32 array -> float32 (NumPy 2); an intermediate
  // stored into a float16 out= from a float32 result; sqrt of int16 -> float32.
  auto f = [](const std::vector<Array>& in) {
    Array a = multiply(in[0], in[1]);
    Array b = add(a, in[2]);
    Array c = empty({64}, float16, cpu());
    multiply(b, 1.1, UfuncArgs{c});  // float32 result rounded to float16 in c
    Array d = add(c, sqrt(in[3]));
    return std::vector<Array>{subtract(d, 0.3), b};
  };
  Jitted j = jit(f);
  expect_same(f,
              {random_array({64}, int8, 4), random_array({64}, float16, 5), random_array({64}, int32, 6),
               random_array({64}, int16, 7)},
              &j);
  EXPECT_EQ(j.plan(0).stats().groups, 1u);
  EXPECT_EQ(j.plan(0).stats().steps, 1u);  // one fused op storing two results
}

TEST(JitCompile, BroadcastingAndWeakScalars) {
  auto f = [](const std::vector<Array>& in) {
    Array t = add(in[0], in[1]);                 // (3, 5) + (5,)
    Array u = multiply(t, 3);                    // weak int: stays float32
    Array v = power(u, 2.0);                     // square
    return std::vector<Array>{where(greater(v, in[2]), v, -1.5)};  // in[2]: (3, 1) float64
  };
  expect_same(f, {random_array({3, 5}, float32, 8), random_array({5}, float32, 9), random_array({3, 1}, float64, 10)});
  auto g = [](const std::vector<Array>& in) {
    return std::vector<Array>{add(multiply(in[0], 3), 7)};  // uint8 with weak ints wraps as uint8
  };
  expect_same(g, {random_array({100}, uint8, 11)});
}

TEST(JitCompile, InPlaceWritesInsideAGroup) {
  auto f = [](const std::vector<Array>& in) {
    Array y = add(in[0], 1);
    add(y, 2, UfuncArgs{y});
    multiply(y, y, UfuncArgs{y});
    return std::vector<Array>{subtract(y, in[0])};
  };
  Jitted j = jit(f);
  expect_same(f, {random_array({50}, float32, 12)}, &j);
  EXPECT_EQ(j.plan(0).stats().steps, 1u);
}

TEST(JitCompile, WritesIntoAnArgumentAreNotReordered) {
  // t reads x before x is written in place; u reads t and the new x. Moving t's op
  // below the write would read the new x.
  auto f = [](const std::vector<Array>& in) {
    const Array& x = in[0];
    Array t = multiply(x, 2);
    Array s = sum(x);                  // not elementwise: between t and u
    add(x, 1, UfuncArgs{x});           // in place on the argument
    Array u = add(t, x);
    return std::vector<Array>{u, s};
  };
  expect_same(f, {random_array({20}, float32, 13)});
}

TEST(JitCompile, IntermediatesReadByOtherOpsAreStored) {
  auto f = [](const std::vector<Array>& in) {
    Array e = exp(multiply(in[0], 0.5));
    Array s = sum(e);  // reads e: e is stored
    return std::vector<Array>{add(e, s)};
  };
  Jitted j = jit(f);
  expect_same(f, {random_array({8, 8}, float32, 14)}, &j);
  EXPECT_EQ(j.plan(0).stats().groups, 1u);  // multiply+exp; add reads s of another shape
}

TEST(JitCompile, AViewWithAnotherLayoutIsNotFused) {
  auto f = [](const std::vector<Array>& in) {
    Array a = exp(in[0]);                                   // (4, 6)
    Array t = a.view({6, 4}, {4, 24}, 0);                   // a transposed
    return std::vector<Array>{add(t, 1.0f)};
  };
  Jitted j = jit(f);
  expect_same(f, {random_array({4, 6}, float32, 15)}, &j);
  EXPECT_EQ(j.plan(0).stats().groups, 0u);
}

TEST(JitCompile, ResultsThatAreArgumentsOrConstants) {
  auto f = [](const std::vector<Array>& in) {
    return std::vector<Array>{in[0], full({3}, 2.5, float32, cpu()), negative(in[0])};
  };
  expect_same(f, {random_array({3}, float32, 16)});
}

TEST(JitCompile, UnderAnEnclosingTraceTheRawOpsAreRecorded) {
  Jitted inner(selu);
  auto outer = [&inner](const std::vector<Array>& in) { return inner({add(in[0], 1)}); };
  Jitted j = jit(outer);
  expect_same(outer, {random_array({100}, float32, 17)}, &j);
  EXPECT_EQ(j.graph(0).ops.size(), 7u);  // add + selu's six: no fused record inside a trace
  EXPECT_EQ(j.plan(0).stats().steps, 1u);
}

}  // namespace
}  // namespace loom
