// Tracing at the dispatch point and loom::jit on cpu(): a traced function's ops are
// recorded on abstract arrays and replayed on real ones with the eager results; a host read
// of a traced array is a ConcretizationError; plans are made once per signature; constants
// made while tracing stay constant across calls even when the function writes into them.
#include "loom/transforms/jit.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "loom/core/error.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/reduce.h"

namespace loom {
namespace {

std::vector<float> host(const Array& a) {
  std::vector<float> v(static_cast<size_t>(a.size()));
  a.copy_to_host(v.data());
  return v;
}

Array random_array(int64_t n, uint32_t seed) {
  std::mt19937 gen(seed);
  std::normal_distribution<float> d;
  std::vector<float> v(static_cast<size_t>(n));
  for (float& x : v) x = d(gen);
  return from_host(HostView{v.data(), float32, {n}, {4}}, cpu());
}

std::vector<Array> selu(const std::vector<Array>& in) {
  const Array& x = in[0];
  return {multiply(1.05, where(greater(x, 0), x, subtract(multiply(1.67, exp(x)), 1.67)))};
}

TEST(Jit, ReplaysTheTracedOpsWithTheEagerResults) {
  const Array x = random_array(1000, 1);
  Jitted f = jit(selu);
  const std::vector<float> want = host(selu({x})[0]);
  for (int call = 0; call < 2; ++call) EXPECT_EQ(host(f({x})[0]), want);  // bit for bit
  EXPECT_EQ(f.num_traces(), 1u);
  EXPECT_EQ(f.graph(0).ops.size(), 6u);  // greater, exp, multiply, subtract, where, multiply
  f({random_array(7, 2)});
  EXPECT_EQ(f.num_traces(), 2u);  // a new shape is a new signature
  f({x}, /*static_key=*/1);
  EXPECT_EQ(f.num_traces(), 3u);
}

TEST(Jit, AHostReadOfATracedArrayIsAConcretizationError) {
  Jitted f = jit([](const std::vector<Array>& in) {
    float v = 0;
    sum(in[0]).copy_to_host(&v);
    return std::vector<Array>{in[0]};
  });
  try {
    f({random_array(4, 3)});
    FAIL() << "no error";
  } catch (const ConcretizationError& e) {
    EXPECT_NE(std::string(e.what()).find("[copy_to_host]"), std::string::npos) << e.what();
  }
}

TEST(Jit, ConstantsWrittenByTheFunctionStartFreshEachCall) {
  // y = [1, 2, 3] made from host memory, then y += x in place: eagerly a new y each call.
  Jitted f = jit([](const std::vector<Array>& in) {
    const float init[3] = {1, 2, 3};
    Array y = from_host(HostView{init, float32, {3}, {4}}, cpu());
    add(y, in[0], UfuncArgs{y});
    return std::vector<Array>{y};
  });
  const float ones[3] = {1, 1, 1};
  const Array x = from_host(HostView{ones, float32, {3}, {4}}, cpu());
  for (int call = 0; call < 3; ++call) EXPECT_EQ(host(f({x})[0]), (std::vector<float>{2, 3, 4}));
}

TEST(Jit, ShapeErrorsAtTraceTimeNameTheOp) {
  Jitted f = jit([](const std::vector<Array>& in) { return std::vector<Array>{add(in[0], in[1])}; });
  try {
    f({random_array(3, 4), random_array(4, 5)});
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("[add]"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace loom
