// loom::vmap on cpu(): for each primitive family, vmap(f) equals f run on each example and
// stacked, with mapped and unmapped arguments and out_axes; the matrix times a batch of
// vectors is one matmul; vmap nests with itself and with jit; errors name the arguments.
#include "loom/transforms/vmap.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "loom/core/error.h"
#include "loom/dispatch/dispatch.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/indexing.h"
#include "loom/ops/linalg.h"
#include "loom/ops/reduce.h"
#include "loom/ops/shape_ops.h"
#include "loom/ops/sorting.h"
#include "loom/transforms/jit.h"

namespace loom {
namespace {

std::vector<double> host(const Array& a) {
  const Array c = a.astype(float64).contiguous();
  std::vector<double> v(static_cast<size_t>(c.size()));
  c.copy_to_host(v.data());
  return v;
}

Array random_array(const Shape& shape, uint32_t seed) {
  std::mt19937 gen(seed);
  std::normal_distribution<float> d;
  std::vector<float> v(static_cast<size_t>(shape_size(shape)));
  for (float& x : v) x = d(gen);
  return from_host(HostView{v.data(), float32, shape, contiguous_strides(shape, 4)}, cpu());
}

// Example b of `a` along `axis` (a view).
Array example(const Array& a, int axis, int64_t b) {
  const Array t = moveaxis(a, {axis}, {0});
  return t.view(Shape(t.shape().begin() + 1, t.shape().end()), Strides(t.strides().begin() + 1, t.strides().end()),
                t.offset() + b * t.strides()[0]);
}

// f on each example, stacked on out_axes.
std::vector<Array> loop(const ArrayFn& f, const std::vector<Array>& args,
                        const std::vector<std::optional<int>>& in_axes, const std::vector<int>& out_axes,
                        int64_t size) {
  std::vector<std::vector<Array>> per_out;
  for (int64_t b = 0; b < size; ++b) {
    std::vector<Array> ex;
    for (size_t i = 0; i < args.size(); ++i) ex.push_back(in_axes[i] ? example(args[i], *in_axes[i], b) : args[i]);
    const std::vector<Array> r = f(ex);
    per_out.resize(r.size());
    for (size_t j = 0; j < r.size(); ++j) per_out[j].push_back(r[j]);
  }
  std::vector<Array> outs;
  for (size_t j = 0; j < per_out.size(); ++j) outs.push_back(stack(per_out[j], out_axes.empty() ? 0 : out_axes[j]));
  return outs;
}

void expect_close(const Array& got, const Array& want) {
  ASSERT_EQ(got.shape(), want.shape());
  const std::vector<double> g = host(got), w = host(want);
  for (size_t i = 0; i < g.size(); ++i) ASSERT_NEAR(g[i], w[i], 1e-4 * (1 + std::abs(w[i]))) << "element " << i;
}

void check(const ArrayFn& f, const std::vector<Array>& args, const std::vector<std::optional<int>>& in_axes,
           const std::vector<int>& out_axes = {}) {
  int64_t size = 0;
  for (size_t i = 0; i < args.size(); ++i)
    if (in_axes[i]) size = args[i].shape()[*in_axes[i]];
  const std::vector<std::optional<int>> out(out_axes.begin(), out_axes.end());
  const std::vector<Array> got = vmap(f, in_axes, out)(args), want = loop(f, args, in_axes, out_axes, size);
  ASSERT_EQ(got.size(), want.size());
  for (size_t j = 0; j < got.size(); ++j) expect_close(got[j], want[j]);
}

std::vector<Array> selu(const std::vector<Array>& in) {
  const Array& x = in[0];
  return {multiply(1.05, where(greater(x, 0), x, subtract(multiply(1.67, exp(x)), 1.67)))};
}

std::vector<Array> affine(const std::vector<Array>& in) { return {add(multiply(in[0], in[1]), in[2])}; }

// Counts the dispatched ops named `name`.
class Counter : public DispatchHook {
 public:
  explicit Counter(std::string name) : name_(std::move(name)) { add_dispatch_hook(this); }
  ~Counter() override { remove_dispatch_hook(this); }
  void before(const OpEvent& e) override { count += name_ == e.op.name; }
  int count = 0;

 private:
  std::string name_;
};

TEST(Vmap, Elementwise) {
  check(selu, {random_array({5, 7}, 1)}, {0});
  check(selu, {random_array({5, 7}, 2)}, {1}, {1});
  check(affine, {random_array({4, 3}, 3), random_array({3}, 4), random_array({3, 4}, 5)}, {0, std::nullopt, 1});
  check(affine, {random_array({4, 3}, 3), random_array({3}, 4), random_array({3, 4}, 5)}, {0, std::nullopt, 1}, {1});
}

TEST(Vmap, MatrixTimesBatchOfVectorsIsOneMatmul) {
  const Array mat = random_array({150, 100}, 6), vs = random_array({10, 100}, 7);
  const ArrayFn f = [](const std::vector<Array>& in) { return std::vector<Array>{matmul(in[0], in[1])}; };
  Counter c("matmul");
  const Array got = vmap(f, {std::nullopt, 0})({mat, vs})[0];
  EXPECT_EQ(c.count, 1);
  expect_close(got, matmul(vs, mat.transpose()));
  check(f, {mat, random_array({100, 10}, 8)}, {std::nullopt, 1});
  check(f, {random_array({6, 4, 5}, 9), random_array({5, 3}, 10)}, {0, std::nullopt});
  check(f, {random_array({6, 4, 5}, 11), random_array({6, 5, 3}, 12)}, {0, 0}, {2});
  check(f, {random_array({2, 4, 5}, 13), random_array({5, 3, 4}, 14)}, {std::nullopt, 2});  // batched B
  check(f, {random_array({5}, 15), random_array({3, 5}, 16)}, {std::nullopt, 0});           // dot
}

TEST(Vmap, ReduceAndScan) {
  const ArrayFn s = [](const std::vector<Array>& in) {
    return std::vector<Array>{sum(in[0], std::vector<int64_t>{0}), max(in[0]), mean(in[0], std::vector<int64_t>{1})};
  };
  check(s, {random_array({4, 5, 6}, 20)}, {0});
  check(s, {random_array({4, 5, 6}, 21)}, {2}, {1, 0, 0});
  const ArrayFn cs = [](const std::vector<Array>& in) {
    return std::vector<Array>{cumsum(in[0], 0), cumsum(transpose(in[0]), 1)};
  };
  check(cs, {random_array({3, 4, 5}, 22)}, {1});
}

TEST(Vmap, SortRepeatCastAndCreation) {
  const ArrayFn f = [](const std::vector<Array>& in) {
    return std::vector<Array>{sort(in[0], 0), argsort(in[0]), repeat(in[0], std::vector<int64_t>{1, 2, 0, 3, 1}, 1),
                              in[0].astype(float64), add(in[0], ones({4, 5}, float32, cpu()))};
  };
  check(f, {random_array({3, 4, 5}, 30)}, {0});
  check(f, {random_array({4, 3, 5}, 31)}, {1}, {1, 0, 2, 0, 0});
}

// The batching rules run one op for the whole batch, not one per example.
TEST(Vmap, RulesDispatchOncePerBatch) {
  const Array x = random_array({6, 4, 5}, 35);
  for (const char* name : {"exp", "sum", "cumsum", "sort", "repeat", "astype"}) {
    const ArrayFn f = [](const std::vector<Array>& in) {
      return std::vector<Array>{exp(in[0]), sum(transpose(in[0]), std::vector<int64_t>{1}), cumsum(in[0], 1),
                                sort(in[0]), repeat(in[0], std::vector<int64_t>{1, 2, 0, 3}, 0), in[0].astype(float64)};
    };
    Counter c(name);
    vmap(f)({x});
    EXPECT_EQ(c.count, 1) << name;
  }
}

// Indices in [-n, n) (negative ones count from the end), int64.
Array random_indices(const Shape& shape, int64_t n, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int64_t> d(-n, n - 1);
  std::vector<int64_t> v(static_cast<size_t>(shape_size(shape)));
  for (int64_t& x : v) x = d(gen);
  return from_host(HostView{v.data(), int64, shape, contiguous_strides(shape, 8)}, cpu());
}

// Gathers, .at[] updates and searchsorted are one call for the whole batch (indexing_batch.cpp):
// the index offsets and the gather or scatter each dispatch once, with batched or shared
// sources and indices.
TEST(Vmap, IndexingDispatchesOncePerBatch) {
  const ArrayFn f = [](const std::vector<Array>& in) {
    return std::vector<Array>{getitem(in[0], {in[1]}), getitem(in[0], {Slice{}, in[1]}),
                              at_update(in[0], {in[1]}, ones({3, 5}, float32, cpu()), AtOp::add)};
  };
  const Array x = random_array({4, 5, 5}, 80), i = random_indices({4, 3}, 5, 81);
  for (const std::vector<std::optional<int>>& axes : std::vector<std::vector<std::optional<int>>>{
           {0, 0}, {0, std::nullopt}, {std::nullopt, 0}}) {
    const Array xa = axes[0] ? x : example(x, 0, 1), ia = axes[1] ? i : example(i, 0, 2);
    check(f, {xa, ia}, axes);
    Counter gathers("getitem"), scatters("at");
    vmap(f, axes)({xa, ia});
    EXPECT_EQ(gathers.count, 4);  // offsets + gather, twice
    EXPECT_EQ(scatters.count, 2);  // offsets + scatter
  }
  const ArrayFn ss = [](const std::vector<Array>& in) { return std::vector<Array>{searchsorted(in[0], in[1])}; };
  const Array a = sort(random_array({4, 6}, 82), 1), v = random_array({4, 3}, 83);
  check(ss, {a, v}, {0, 0});
  check(ss, {example(a, 0, 0), v}, {std::nullopt, 0});
  Counter c("searchsorted");
  vmap(ss, {std::nullopt, 0})({example(a, 0, 0), v});
  EXPECT_EQ(c.count, 1);
}

TEST(Vmap, UnbatchedResultIsBroadcast) {
  const ArrayFn f = [](const std::vector<Array>& in) { return std::vector<Array>{exp(in[1]), in[0]}; };
  const std::vector<Array> r = vmap(f, {0, std::nullopt})({random_array({3, 2}, 40), random_array({4}, 41)});
  EXPECT_EQ(r[0].shape(), (Shape{3, 4}));
  const Array y = vmap(f, {std::nullopt, std::nullopt}, {}, 5)({random_array({2}, 42), random_array({4}, 43)})[0];
  EXPECT_EQ(y.shape(), (Shape{5, 4}));
}

TEST(Vmap, Nests) {
  const Array x = random_array({3, 4, 5}, 50), w = random_array({5}, 51);
  const ArrayFn inner = vmap(affine, {0, std::nullopt, std::nullopt});
  const ArrayFn outer = vmap(inner, {1, std::nullopt, std::nullopt});
  const Array b = random_array({5}, 52);
  const Array got = outer({x, w, b})[0];  // (4, 3, 5)
  expect_close(got, moveaxis(add(multiply(x, w), b), {1}, {0}));

  Jitted jv = jit(vmap(selu));
  expect_close(jv({x})[0], selu({x})[0]);
  expect_close(jv({x})[0], selu({x})[0]);
  EXPECT_EQ(jv.num_traces(), 1u);
  Jitted js = jit(selu);
  const ArrayFn vj = vmap([js](const std::vector<Array>& in) { return js(in); }, {1});
  expect_close(vj({x})[0], moveaxis(selu({x})[0], {1}, {0}));
}

TEST(Vmap, JitOfMatrixTimesVectorsIsOneMatmul) {
  const ArrayFn f = [](const std::vector<Array>& in) { return std::vector<Array>{matmul(in[0], in[1])}; };
  Jitted j = jit(vmap(f, {std::nullopt, 0}));
  const Array mat = random_array({150, 100}, 60), vs = random_array({10, 100}, 61);
  expect_close(j({mat, vs})[0], matmul(vs, mat.transpose()));
  int matmuls = 0;
  for (const TracedOp& op : j.graph(0).ops) matmuls += std::string(op.op->name) == "matmul";
  EXPECT_EQ(matmuls, 1);
}

TEST(Vmap, Errors) {
  const ArrayFn v = vmap(affine);
  try {
    v({random_array({3, 2}, 70), random_array({4, 2}, 71), random_array({3, 2}, 72)});
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("argument 0 has size 3"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("argument 1 has size 4"), std::string::npos) << e.what();
  }
  EXPECT_THROW(vmap(selu, {2})({random_array({3, 2}, 73)}), std::invalid_argument);
  EXPECT_THROW(vmap(selu, {std::nullopt})({random_array({3}, 74)}), std::invalid_argument);
  EXPECT_THROW(vmap(selu, {0}, {2})({random_array({3}, 75)}), std::invalid_argument);
}

}  // namespace
}  // namespace loom
