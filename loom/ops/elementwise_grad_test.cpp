// The op table's derivative rules (ops/elementwise_grad*.cpp), called as the engine would
// (grad_test_util.h), for every op of the table that has a derivative: the VJP against
// central finite differences in float64 on fresh random inputs in the op's domain, and the
// JVP against the VJP (<J t, u> = <t, J^T u>); broadcasting, weak scalars, mixed dtypes,
// integer operands, and the ops without a derivative.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/elementwise_grad.h"
#include "loom/ops/grad_test_util.h"
#include "loom/ops/grad_util.h"
#include "loom/ops/shape_ops.h"
#include "loom/ops/elementwise_primitives.h"

namespace loom {
namespace {

using grad_test::concrete_op;

std::vector<double> host(const Array& a) {
  const Array c = cast_to(a, float64).contiguous();
  std::vector<double> v(static_cast<size_t>(c.size()));
  c.copy_to_host(v.data());
  return v;
}

Array array_of(const std::vector<double>& v, const Shape& shape, DType dtype = float64) {
  const Array a = from_host(HostView{v.data(), float64, shape, contiguous_strides(shape, 8)}, cpu());
  return cast_to(a, dtype);
}

double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

class Rng {
 public:
  Rng() : seed_(std::random_device{}()), gen_(seed_) {}
  unsigned seed() const { return seed_; }
  double uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(gen_); }
  // |x| in [0.5, 2] with a random sign: away from zero, where most kinks are.
  double signed_mag() { return (uniform(0, 1) < 0.5 ? -1 : 1) * uniform(0.5, 2); }
  std::vector<double> values(int64_t n, OpId op, int operand) {
    std::vector<double> v(static_cast<size_t>(n));
    for (double& x : v) x = value(op, operand);
    return v;
  }

 private:
  double value(OpId op, int i) {
    switch (op) {
      case OpId::log: case OpId::log2: case OpId::log10: case OpId::log1p: case OpId::sqrt:
        return uniform(0.5, 2);
      case OpId::power: return i == 0 ? uniform(0.5, 2) : uniform(-2, 2);
      case OpId::arcsin: case OpId::arccos: case OpId::arctanh: return uniform(-0.9, 0.9);
      case OpId::arccosh: return uniform(1.2, 3);
      case OpId::tan: return uniform(-1.2, 1.2);
      case OpId::where: return i == 0 ? (uniform(0, 1) < 0.5 ? 0 : 1) : signed_mag();
      // The special rows, inside their domains and away from poles.
      case OpId::erfinv: return uniform(-0.9, 0.9);
      case OpId::erfcinv: return uniform(0.1, 1.9);
      case OpId::ndtri: case OpId::logit: return uniform(0.1, 0.9);
      case OpId::gamma: case OpId::gammaln: case OpId::digamma: case OpId::beta: case OpId::betaln:
      case OpId::gammainc: case OpId::gammaincc: case OpId::entr: case OpId::rel_entr: case OpId::kl_div:
      case OpId::y0: case OpId::y1:
        return uniform(0.5, 3);
      case OpId::polygamma: return i == 0 ? static_cast<double>(static_cast<int>(uniform(0, 3))) : uniform(0.5, 3);
      case OpId::zeta: return i == 0 ? uniform(1.5, 4) : uniform(0.5, 3);
      case OpId::riemann_zeta: return uniform(1.5, 4);
      case OpId::betainc: return i < 2 ? uniform(0.5, 3) : uniform(0.1, 0.9);
      case OpId::xlogy: return i == 0 ? signed_mag() : uniform(0.5, 3);
      case OpId::xlog1py: return i == 0 ? signed_mag() : uniform(-0.5, 2);
      default: return signed_mag();
    }
  }
  unsigned seed_;
  std::mt19937 gen_;
};

// One application of `op`: operand i is `arrays[k]` (in order) or, where `scalar[i]`, a weak
// scalar of `scalars[i]`. where's condition is a bool array.
struct Application {
  OpId op;
  std::vector<bool> scalar;
  std::vector<double> scalars;
  std::vector<Array> run(const std::vector<Array>& arrays) const {
    const int n = op_info(op).arity;
    Operand in[3];
    size_t k = 0;
    for (int i = 0; i < n; ++i) {
      if (scalar[i]) in[i] = Operand(scalars[i]);
      else in[i] = Operand(arrays[k++]);
    }
    return {apply(op, in, n)};
  }
};

// The operand number (in the op's C expression) of the j-th array argument of `app`.
int operand_of(const Application& app, size_t j) {
  size_t k = 0;
  for (int i = 0; i < op_info(app.op).arity; ++i)
    if (!app.scalar[static_cast<size_t>(i)] && k++ == j) return i;
  return -1;
}

// The VJP against finite differences and the JVP against the VJP, for `app` on `args`
// (float64 arrays, where's condition bool).
void check_rule(const Application& app, const std::vector<Array>& args, Rng& rng) {
  const std::string name = op_info(app.op).name;
  SCOPED_TRACE(name + " seed " + std::to_string(rng.seed()));
  const ArrayFn f = [&app](const std::vector<Array>& in) { return app.run(in); };
  const TracedOp op = concrete_op(f, args);
  const Array y = op.outputs[0];
  std::vector<double> u(static_cast<size_t>(y.size()));
  for (double& x : u) x = rng.uniform(-1, 1);
  const std::vector<Array> in_cts = grad_test::vjp(op, array_of(u, y.shape()));
  ASSERT_EQ(in_cts.size(), args.size());
  const bool is_where = app.op == OpId::where;
  for (size_t j = 0; j < args.size(); ++j) {
    const bool is_condition = is_where && !app.scalar[0] && j == 0;
    if (is_condition) {
      EXPECT_FALSE(in_cts[j].valid()) << "where's condition has no cotangent";
      continue;
    }
    if (!((ew_grad::derivative(app.op).operands >> operand_of(app, j)) & 1u)) {
      EXPECT_FALSE(in_cts[j].valid()) << "operand " << j << " is a constant to grad (polygamma's n, gammainc's a)";
      continue;
    }
    ASSERT_TRUE(in_cts[j].valid()) << "operand " << j;
    EXPECT_EQ(in_cts[j].dtype(), op.inputs[j].dtype());
    EXPECT_EQ(in_cts[j].shape(), op.inputs[j].shape());
    const std::vector<double> got = host(sum_to_shape(in_cts[j], args[j].shape()));
    // Central differences of <u, f(x)> along each element of args[j].
    std::vector<double> x = host(args[j]);
    for (size_t k = 0; k < x.size(); ++k) {
      const double h = 1e-6 * std::max(1.0, std::abs(x[k]));
      double fx[2];
      for (int s = 0; s < 2; ++s) {
        std::vector<double> xs = x;
        xs[k] += s == 0 ? h : -h;
        std::vector<Array> a = args;
        a[j] = array_of(xs, args[j].shape());
        fx[s] = dot(u, host(app.run(a)[0]));
      }
      const double want = (fx[0] - fx[1]) / (2 * h);
      EXPECT_NEAR(got[k], want, 1e-6 * std::max(1.0, std::abs(want))) << "operand " << j << " element " << k;
    }
  }
}

class ElementwiseGrad : public ::testing::Test {};

TEST_F(ElementwiseGrad, EveryOpIsClassified) {
  for (int k = 0; k < kNumOps; ++k)
    EXPECT_TRUE(ew_grad::derivative(static_cast<OpId>(k)).known) << kOpTable[k].name;
  for (int k = 0; k < kNumOps; ++k) EXPECT_TRUE(primitives::elementwise[k].info.vjp) << kOpTable[k].name;
  EXPECT_TRUE(primitives::copyto_strided.info.vjp);
}

// Every op with a derivative, on arrays of one shape and on broadcast shapes.
TEST_F(ElementwiseGrad, EveryOpMatchesFiniteDifferences) {
  Rng rng;
  const std::vector<std::vector<Shape>> layouts = {{{2, 3}, {2, 3}, {2, 3}}, {{2, 3}, {3}, {2, 1}}, {{1, 3}, {2, 1}, {}}};
  for (int k = 0; k < kNumOps; ++k) {
    const OpId id = static_cast<OpId>(k);
    if (!ew_grad::derivative(id).apply) continue;
    const int n = op_info(id).arity;
    for (const auto& shapes : layouts) {
      std::vector<Array> args;
      for (int i = 0; i < n; ++i) {
        const Shape s = n == 1 ? shapes[0] : shapes[static_cast<size_t>(i)];
        args.push_back(array_of(rng.values(shape_size(s), id, i), s, id == OpId::where && i == 0 ? bool_ : float64));
      }
      check_rule(Application{id, std::vector<bool>(static_cast<size_t>(n), false), std::vector<double>(3, 0)}, args, rng);
    }
  }
}

// Every op with a derivative and two or three operands, with each operand in turn a weak
// scalar (kept in the array's dtype, NEP 50): no cotangent for it, the others as before.
TEST_F(ElementwiseGrad, WeakScalarOperands) {
  Rng rng;
  for (int k = 0; k < kNumOps; ++k) {
    const OpId id = static_cast<OpId>(k);
    const int n = op_info(id).arity;
    if (!ew_grad::derivative(id).apply || n < 2) continue;
    for (int s = 0; s < n; ++s) {
      Application app{id, std::vector<bool>(static_cast<size_t>(n), false), std::vector<double>(3, 0)};
      app.scalar[static_cast<size_t>(s)] = true;
      app.scalars[static_cast<size_t>(s)] = rng.values(1, id, s)[0];
      if (id == OpId::power && s == 1 && app.scalars[1] == 2) app.scalars[1] = 1.5;  // x**2 runs as square
      std::vector<Array> args;
      for (int i = 0; i < n; ++i)
        if (i != s) args.push_back(array_of(rng.values(6, id, i), {2, 3}, id == OpId::where && i == 0 ? bool_ : float64));
      check_rule(app, args, rng);
    }
  }
}

// The rules are written with public ops only: run under a trace (grad of grad, jit of
// grad) they record, read no values, and the replayed record gives the eager cotangents.
TEST_F(ElementwiseGrad, RulesTraceAndReplay) {
  Rng rng;
  for (int k = 0; k < kNumOps; ++k) {
    const OpId id = static_cast<OpId>(k);
    if (!ew_grad::derivative(id).apply) continue;
    SCOPED_TRACE(kOpTable[k].name);
    const int n = op_info(id).arity;
    std::vector<Array> args;
    for (int i = 0; i < n; ++i)
      args.push_back(array_of(rng.values(6, id, i), {2, 3}, id == OpId::where && i == 0 ? bool_ : float64));
    const Application app{id, std::vector<bool>(static_cast<size_t>(n), false), std::vector<double>(3, 0)};
    const TracedOp op = concrete_op([&app](const std::vector<Array>& in) { return app.run(in); }, args);
    const Array ct = array_of(rng.values(6, OpId::add, 0), {2, 3});
    const std::vector<Array> want = grad_test::vjp(op, ct);
    // The rule traced on abstract stand-ins of the record's inputs, output and cotangent.
    std::vector<Array> values = args;
    values.push_back(op.outputs[0]);
    values.push_back(ct);
    std::vector<ArraySpec> specs;
    for (const Array& a : values) specs.push_back(ArraySpec::of(a));
    const TracedGraph g = trace(
        [&](const std::vector<Array>& in) {
          BufferMap m;
          for (size_t j = 0; j + 1 < in.size(); ++j) m[values[j].buffer().get()] = {in[j].buffer(), -values[j].offset()};
          std::vector<Array> cts = grad_test::vjp(grad_test::rebound(op, m), in.back());
          std::vector<Array> out;
          for (const Array& c : cts)
            if (c.valid()) out.push_back(c);
          return out;
        },
        specs);
    const std::vector<Array> got = replay(g, values);
    size_t r = 0;
    for (const Array& w : want) {
      if (!w.valid()) continue;
      ASSERT_LT(r, got.size());
      EXPECT_EQ(host(got[r++]), host(w));
    }
    EXPECT_EQ(r, got.size());
  }
}

// copyto into a strided view casts: the cotangent of its source is cast back.
TEST_F(ElementwiseGrad, CopytoStrided) {
  const Array src = array_of({1, 2, 3, 4, 5, 6}, {2, 3});
  const TracedOp op = concrete_op(
      [](const std::vector<Array>& in) {
        const Array dst = empty({3, 2}, float32, cpu()).transpose();
        copyto(dst, in[0]);
        return std::vector<Array>{dst};
      },
      {src});
  EXPECT_STREQ(op.op->name, "copyto");
  const std::vector<Array> cts = grad_test::vjp(op, array_of({1, 0, 2, 0, 3, 0}, {2, 3}, float32));
  ASSERT_TRUE(cts[0].valid());
  EXPECT_EQ(cts[0].dtype(), float64);
  EXPECT_EQ(host(cts[0]), (std::vector<double>{1, 0, 2, 0, 3, 0}));
}

// float32 times float64 computes in float64: each cotangent comes back in its operand's
// dtype.
TEST_F(ElementwiseGrad, MixedDtypesGiveEachOperandItsDtype) {
  const Array x = array_of({1.5, -2.0, 0.25}, {3}, float32);
  const Array y = array_of({2.0, 3.0, -4.0}, {3});
  const TracedOp op = concrete_op([](const std::vector<Array>& in) { return std::vector<Array>{multiply(in[0], in[1])}; },
                                  {x, y});
  EXPECT_EQ(op.outputs[0].dtype(), float64);
  const std::vector<Array> cts = grad_test::vjp(op, array_of({1, 10, 100}, {3}));
  ASSERT_TRUE(cts[0].valid() && cts[1].valid());
  EXPECT_EQ(cts[0].dtype(), float32);
  EXPECT_EQ(cts[1].dtype(), float64);
  EXPECT_EQ(host(cts[0]), (std::vector<double>{2, 30, -400}));
  EXPECT_EQ(host(cts[1]), (std::vector<double>{1.5, -20, 25}));
}

// out= of another dtype: the derivative reads the output recomputed in the loop dtype, the
// cotangent of the output is cast to it, and float16 cotangents stay float16.
TEST_F(ElementwiseGrad, OutOfAnotherDtypeAndHalfPrecision) {
  const Array x = array_of({0.5, -1.0, 2.0}, {3});
  const TracedOp op = concrete_op(
      [](const std::vector<Array>& in) {
        const Array out = empty({3}, float32, cpu());
        exp(in[0], UfuncArgs{out, std::nullopt, std::nullopt});
        return std::vector<Array>{out};
      },
      {x});
  EXPECT_EQ(op.outputs[0].dtype(), float32);
  const std::vector<Array> cts = grad_test::vjp(op, array_of({1, 1, 1}, {3}, float32));
  ASSERT_TRUE(cts[0].valid());
  EXPECT_EQ(cts[0].dtype(), float64);
  EXPECT_EQ(host(cts[0]), (std::vector<double>{std::exp(0.5), std::exp(-1.0), std::exp(2.0)}));

  const Array h = array_of({0.5, -1.0, 2.0}, {3}, float16);
  const TracedOp sq =
      concrete_op([](const std::vector<Array>& in) { return std::vector<Array>{square(in[0])}; }, {h});
  const std::vector<Array> hct = grad_test::vjp(sq, array_of({1, 1, 1}, {3}, float16));
  ASSERT_TRUE(hct[0].valid());
  EXPECT_EQ(hct[0].dtype(), float16);
  EXPECT_EQ(host(hct[0]), (std::vector<double>{1, -2, 4}));
}

// Integer operands have no cotangent; an integer loop has none at all.
TEST_F(ElementwiseGrad, IntegerOperandsHaveNoCotangent) {
  const Array i = array_of({1, 2, 3}, {3}, int32);
  const Array x = array_of({0.5, 1.5, 2.5}, {3});
  const auto mul = [](const std::vector<Array>& in) { return std::vector<Array>{multiply(in[0], in[1])}; };
  const TracedOp op = concrete_op(mul, {i, x});
  std::vector<Array> cts = grad_test::vjp(op, array_of({1, 1, 1}, {3}));
  EXPECT_FALSE(cts[0].valid());
  ASSERT_TRUE(cts[1].valid());
  EXPECT_EQ(host(cts[1]), (std::vector<double>{1, 2, 3}));

  const TracedOp ints = concrete_op(mul, {i, i});
  cts = grad_test::vjp(ints, array_of({1, 1, 1}, {3}, int32));
  EXPECT_FALSE(cts[0].valid() || cts[1].valid());
  const TracedOp s = concrete_op([](const std::vector<Array>& in) { return std::vector<Array>{sin(in[0])}; }, {i});
  EXPECT_FALSE(grad_test::vjp(s, array_of({1, 1, 1}, {3}))[0].valid());  // float result, integer input
}

// Comparisons, logical and bitwise ops and isnan... have no cotangent; floor and the other
// piecewise-constant ops give zeros (JAX's choice).
TEST_F(ElementwiseGrad, OpsWithoutDerivative) {
  const Array x = array_of({0.5, -1.5, 2.5}, {3});
  for (int k = 0; k < kNumOps; ++k) {
    const OpId id = static_cast<OpId>(k);
    const ew_grad::Derivative& d = ew_grad::derivative(id);
    if (d.apply || op_info(id).arity > 2) continue;
    const bool float_ok = dtype_allowed(id, float64);
    const Array a = float_ok ? x : cast_to(x, int64);
    const Application app{id, {false, false}, {0, 0}};
    const TracedOp op = concrete_op([&app](const std::vector<Array>& in) { return app.run(in); },
                                    std::vector<Array>(static_cast<size_t>(op_info(id).arity), a));
    for (const Array& ct : grad_test::vjp(op, ones(op.outputs[0].shape(), float64, cpu()))) EXPECT_FALSE(ct.valid()) << kOpTable[k].name;
  }
  for (OpId id : {OpId::floor, OpId::ceil, OpId::trunc, OpId::rint, OpId::sign}) {
    const Application app{id, {false}, {0}};
    const TracedOp op = concrete_op([&app](const std::vector<Array>& in) { return app.run(in); }, {x});
    const std::vector<Array> cts = grad_test::vjp(op, ones({3}, float64, cpu()));
    ASSERT_TRUE(cts[0].valid()) << op_info(id).name;
    EXPECT_EQ(host(cts[0]), (std::vector<double>{0, 0, 0}));
  }
}

// JAX's choices at the kinks: |x|'(0) = 0; a tie of maximum splits the cotangent in halves.
TEST_F(ElementwiseGrad, Kinks) {
  const Array x = array_of({0.0, 1.0, -1.0}, {3});
  const Array y = array_of({0.0, 2.0, -1.0}, {3});
  const TracedOp abs_op = concrete_op([](const std::vector<Array>& in) { return std::vector<Array>{absolute(in[0])}; }, {x});
  EXPECT_EQ(host(grad_test::vjp(abs_op, ones({3}, float64, cpu()))[0]), (std::vector<double>{0, 1, -1}));
  const TracedOp max_op =
      concrete_op([](const std::vector<Array>& in) { return std::vector<Array>{maximum(in[0], in[1])}; }, {x, y});
  const std::vector<Array> cts = grad_test::vjp(max_op, ones({3}, float64, cpu()));
  EXPECT_EQ(host(cts[0]), (std::vector<double>{0.5, 0, 0.5}));
  EXPECT_EQ(host(cts[1]), (std::vector<double>{0.5, 1, 0.5}));
}

// The cotangent of an operand broadcast by the op is summed over the broadcast axes.
TEST_F(ElementwiseGrad, SumToShape) {
  const Array ct = array_of({1, 2, 3, 4, 5, 6}, {2, 3});
  EXPECT_EQ(host(sum_to_shape(ct, {3})), (std::vector<double>{5, 7, 9}));
  EXPECT_EQ(host(sum_to_shape(ct, {2, 1})), (std::vector<double>{6, 15}));
  EXPECT_EQ(host(sum_to_shape(ct, {})), (std::vector<double>{21}));
  EXPECT_EQ(sum_to_shape(ct, {1, 1}).shape(), (Shape{1, 1}));
  EXPECT_THROW(sum_to_shape(ct, {2}), std::invalid_argument);
}

}  // namespace
}  // namespace loom
