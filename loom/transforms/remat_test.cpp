// loom::checkpoint on cpu(): the same values and derivatives as the function itself (first and
// second order, under jit and vmap), and reverse mode recomputing the function's forward values
// in the backward pass rather than keeping them.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/linalg.h"
#include "loom/ops/reduce.h"
#include "loom/transforms/autodiff.h"
#include "loom/transforms/control_flow.h"
#include "loom/transforms/transform_test_util.h"
#include "loom/transforms/jit.h"
#include "loom/transforms/vmap.h"

namespace loom {
namespace {

using namespace transform_test;

// A layer: sin(x W) closed over W's argument; the loss sums its square.
std::vector<Array> layer(const std::vector<Array>& a) { return {sin(matmul(a[0], a[1]))}; }

ArrayFn loss(bool remat) {
  return [remat](const std::vector<Array>& a) {
    const Array y = (remat ? checkpoint(layer) : ArrayFn(layer))(a)[0];
    return std::vector<Array>{sum(multiply(y, y))};
  };
}

size_t count_ops(const TracedGraph& g, const char* name) {
  size_t n = 0;
  for (const TracedOp& o : g.ops) n += std::string(o.op->name) == name;
  return n;
}

TEST(Checkpoint, SameValuesAndDerivatives) {
  const std::vector<Array> a{random_array({3, 4}, 1), random_array({4, 2}, 2)};
  expect_near(checkpoint(layer)(a)[0], layer(a)[0]);
  const auto got = grad(loss(true), {0, 1})(a), want = grad(loss(false), {0, 1})(a);
  expect_near(got[0], want[0]);
  expect_near(got[1], want[1]);
  const auto jitted = jit(grad(loss(true), {0, 1}))(a);
  expect_near(jitted[1], want[1]);
  // Second order: d/dW of sum(dL/dx).
  auto outer = [](bool remat) {
    return [remat](const std::vector<Array>& a) { return std::vector<Array>{sum(grad(loss(remat), {0})(a)[0])}; };
  };
  expect_near(grad(outer(true), {1})(a)[0], grad(outer(false), {1})(a)[0], 1e-10);
  // vmap over a batch of inputs, W shared.
  const Array xs = random_array({5, 3, 4}, 3);
  const auto v = vmap(checkpoint(layer), {0, std::nullopt})({xs, a[1]});
  const auto w = vmap(ArrayFn(layer), {0, std::nullopt})({xs, a[1]});
  expect_near(v[0], w[0]);
}

TEST(Checkpoint, TheBackwardPassRecomputesTheForwardValues) {
  // Under jit, grad of the plain function computes sin once (its cos comes from the stored
  // product); with checkpoint the forward is one remat op, and the backward pass replays the
  // layer: the product and sin appear again at the top level of the gradient's trace.
  const std::vector<Array> a{random_array({3, 4}, 4), random_array({4, 2}, 5)};
  const Jitted plain = jit(grad(loss(false), {1})), remat = jit(grad(loss(true), {1}));
  plain(a);
  remat(a);
  EXPECT_EQ(count_ops(plain.graph(0), "remat"), 0u);
  EXPECT_EQ(count_ops(remat.graph(0), "remat"), 1u);
  EXPECT_EQ(count_ops(plain.graph(0), "sin"), 1u);
  EXPECT_EQ(count_ops(remat.graph(0), "sin"), 1u);  // the recomputation; the forward's is inside remat
}

}  // namespace
}  // namespace loom
