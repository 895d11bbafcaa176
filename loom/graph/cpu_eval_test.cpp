// The CPU graph evaluator gives the same bits as running the graph's ops one by one
// through loom's public ops, on fresh random data, for contiguous, broadcast, strided and
// in-place operands, several dtypes (float16 included) and sizes split over threads. Each
// test runs twice: with the evaluator's own block loops, and with graphs of any size run
// as loops compiled for this CPU where their layout allows (graph/cpu_compiled.h).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>

#include "loom/graph/cpu_compiled.h"
#include "loom/graph/cpu_eval.h"
#include "loom/graph/test_graphs.h"
#include "loom/loom.h"
#include "loom/runtime/background_compile.h"
#include "loom/runtime/cpu/host_compiler.h"

namespace loom {
namespace {

using namespace test_graphs;

std::mt19937_64& rng() {
  static std::mt19937_64 r = [] {
    const uint64_t seed = std::random_device{}();
    std::printf("cpu_eval_test seed %llu\n", static_cast<unsigned long long>(seed));
    return std::mt19937_64(seed);
  }();
  return r;
}

// Random elements: floats in [-4, 4) with a few NaNs and infinities, integers in
// [lo, hi] (wrapping into unsigned dtypes), bools half and half.
void fill(const Array& a, int64_t lo = -100, int64_t hi = 100) {
  std::uniform_real_distribution<double> real(-4.0, 4.0);
  std::uniform_int_distribution<int64_t> integer(lo, hi);
  std::uniform_int_distribution<int> special(0, 40);
  char* p = static_cast<char*>(a.data());
  for (int64_t i = 0; i < a.size(); ++i) {
    Scalar s;
    if (a.dtype() == bool_) s = Scalar(integer(rng()) % 2 == 0);
    else if (!is_floating(a.dtype())) s = Scalar(static_cast<long long>(integer(rng())));
    else {
      const int k = special(rng());
      s = Scalar(k == 0 ? NAN : k == 1 ? -INFINITY : k == 2 ? INFINITY : real(rng()));
    }
    scalar_to_bytes(s, a.dtype(), p + i * a.itemsize());
  }
}

enum class Layout { contiguous, strided, broadcast };

// A random input of `shape` in `layout`: strided takes every other element of a larger
// array along the last dim, reversed along the first; broadcast has size 1 in every
// other dim (NumPy broadcasting restores `shape`).
Array input(const Shape& shape, DType dt, Layout layout, int64_t lo = -100, int64_t hi = 100) {
  if (layout == Layout::contiguous || shape.empty()) {
    Array a = empty(shape, dt, cpu());
    fill(a, lo, hi);
    return a;
  }
  if (layout == Layout::broadcast) {
    Shape s = shape;
    for (size_t d = 0; d < s.size(); d += 2) s[d] = 1;
    Array a = empty(s, dt, cpu());
    fill(a, lo, hi);
    return a;
  }
  Shape big = shape;
  big.back() *= 2;
  Array a = empty(big, dt, cpu());
  fill(a, lo, hi);
  Strides st = a.strides();
  st.back() *= 2;
  int64_t offset = 0;
  if (shape.size() > 1 && shape[0] > 1) {
    offset = (shape[0] - 1) * st[0];
    st[0] = -st[0];
  }
  return a.view(shape, st, offset);
}

// NaN's sign and payload are not results: which NaN an operation on two NaNs returns
// follows operand order, which a compiler may swap in a commutative op (the compiled
// loops' AVX code and the eager loops' SSE code differ there).
bool both_nan(const char* a, const char* b, DType dt) {
  return is_floating(dt) && std::isnan(scalar_from_bytes(a, dt).as_double()) &&
         std::isnan(scalar_from_bytes(b, dt).as_double());
}

void expect_same_bits(const Array& got, const Array& want, const std::string& what) {
  ASSERT_EQ(got.dtype(), want.dtype()) << what;
  ASSERT_EQ(got.shape(), want.shape()) << what;
  const Array g = got.contiguous(), w = want.contiguous();
  const char *pg = static_cast<const char*>(g.data()), *pw = static_cast<const char*>(w.data());
  const size_t item = g.itemsize();
  for (int64_t i = 0; i < g.size(); ++i)
    if (std::memcmp(pg + i * item, pw + i * item, item) != 0 && !both_nan(pg + i * item, pw + i * item, g.dtype())) {
      FAIL() << what << ": element " << i << " is " << scalar_from_bytes(pg + i * item, g.dtype()).as_double()
             << ", one by one gives " << scalar_from_bytes(pw + i * item, w.dtype()).as_double();
    }
}

// Evaluates g into a fresh array (or `out`) and compares with `want`.
void check(const FusedGraph& g, const std::vector<GraphArg>& args, const Array& want, const std::string& what,
           Array out = Array()) {
  if (!out.valid()) out = empty(want.shape(), g.outputs[0].dtype, cpu());
  eval_graph_cpu(g, args, {out});
  expect_same_bits(out, want, what);
}

// Evaluator: never compile. Compiled: compile from one element (the first call of each
// graph and layout compiles it).
enum class Mode { evaluator, compiled };
class CpuEval : public ::testing::TestWithParam<Mode> {
 protected:
  void SetUp() override {
    // A machine that builds loom has a host compiler, as the emulator's tests assume too.
    if (GetParam() == Mode::compiled)
      ASSERT_FALSE(cpu_runtime::compiler_identity(cpu_runtime::compiler()).empty())
          << "no host C++ compiler runs ($CXX, or g++): compiled CPU loops cannot be built";
    saved_ = cpu_compiled::set_min_elements(GetParam() == Mode::compiled ? 1 : INT64_MAX);
    background_ = background_compile::set_enabled(false);  // each first call compiles: deterministic
    runs_ = cpu_compiled::stats().runs;
  }
  void TearDown() override {
    if (saved_ >= 0) {
      cpu_compiled::set_min_elements(saved_);
      background_compile::set_enabled(background_);
    }
  }
  // How many graph evaluations ran a compiled loop since the test began.
  uint64_t compiled_runs() const { return cpu_compiled::stats().runs - runs_; }
  bool compiled() const { return GetParam() == Mode::compiled; }

 private:
  int64_t saved_ = -1;
  bool background_ = true;
  uint64_t runs_ = 0;
};
INSTANTIATE_TEST_SUITE_P(Loops, CpuEval, ::testing::Values(Mode::evaluator, Mode::compiled),
                         [](const auto& info) { return info.param == Mode::compiled ? "Compiled" : "Evaluator"; });

const std::vector<Shape> kShapes = {{5, 6, 7}, {(1 << 16) + 13}, {3, 1, 300, 37}, {}, {0, 3}};

TEST_P(CpuEval, HypotExpPlusOne) {
  const DType dts[][3] = {{float32, float32, float32}, {float16, float16, float16}, {float16, float32, int16},
                          {float64, float64, float64}, {bfloat16, bfloat16, bfloat16}};
  for (const auto& dt : dts)
    for (const Shape& shape : kShapes)
      for (Layout layout : {Layout::contiguous, Layout::strided, Layout::broadcast}) {
        const Array a = input(shape, dt[0], layout), b = input(shape, dt[1], Layout::contiguous);
        const Array c = input(shape, dt[2], layout == Layout::broadcast ? Layout::strided : layout);
        const Array want = add(multiply(hypot(a, b), exp(c)), 1);
        const FusedGraph g = hypot_exp(dt[0], dt[1], dt[2], want.dtype());
        check(g, {a, b, c, Scalar(1)}, want, std::string("hypot_exp ") + dtype_name(dt[0]) + " " + shape_str(shape));
      }
  if (compiled()) EXPECT_GT(compiled_runs(), 0u);
}

TEST_P(CpuEval, WhereSqrtAbsNegative) {
  for (DType dt : {float32, float16, bfloat16, int16, int64, float64})
    for (const Shape& shape : kShapes)
      for (Layout layout : {Layout::contiguous, Layout::strided, Layout::broadcast}) {
        const Array a = input(shape, dt, layout), b = input(shape, dt, Layout::strided);
        const Array want = where(less(a, b), sqrt(absolute(a)), negative(b));
        check(where_sqrt(dt), {a, b}, want, std::string("where_sqrt ") + dtype_name(dt) + " " + shape_str(shape));
      }
}

TEST_P(CpuEval, IntegerShiftsDivisionsRemainders) {
  const DType dts[][3] = {{int32, int32, int32}, {int8, uint8, int64}, {uint16, uint16, uint16}, {int64, int64, int8}};
  for (const auto& dt : dts)
    for (const Shape& shape : kShapes)
      for (Layout layout : {Layout::contiguous, Layout::strided, Layout::broadcast}) {
        // Shift counts beyond the width, and divisors that are zero.
        const Array a = input(shape, dt[0], layout), b = input(shape, dt[1], Layout::contiguous, 0, 70);
        const Array c = input(shape, dt[2], Layout::strided, -3, 3);
        const Array want = remainder(bitwise_xor(left_shift(a, b), floor_divide(a, c)), c);
        check(int_mix(dt[0], dt[1], dt[2]), {a, b, c}, want,
              std::string("int_mix ") + dtype_name(dt[0]) + " " + shape_str(shape));
      }
}

TEST_P(CpuEval, BoolLogicStoredAsAnotherDtype) {
  for (DType dt : {float32, float16, int8})
    for (DType out : {bool_, int32, float16})
      for (const Shape& shape : kShapes) {
        const Array a = input(shape, dt, Layout::strided), b = input(shape, dt, Layout::broadcast);
        const Array c = input(shape, dt, Layout::contiguous), d = input(shape, bool_, Layout::strided);
        const Array want = logical_or(logical_and(greater(a, b), logical_not(isnan(c))), d).astype(out);
        check(bool_mix(dt, out), {a, b, c, d}, want, std::string("bool_mix ") + dtype_name(dt) + " -> " + dtype_name(out));
      }
}

TEST_P(CpuEval, UniformInputStridedAndInPlaceOutputs) {
  for (DType dt : {float16, uint8, float32})
    for (const Shape& shape : kShapes) {
      const Array a = input({}, dt, Layout::contiguous), b = input(shape, dt, Layout::strided);
      const Array c = input(shape, dt, Layout::contiguous);
      const Array want = multiply(add(a, b), c);
      const std::string what = std::string("add_mul ") + dtype_name(dt) + " " + shape_str(shape);
      // Output in a transposed (non-contiguous) view.
      Shape rev(shape.rbegin(), shape.rend());
      check(add_mul(dt), {a, b, c}, want, what + " strided out", empty(rev, dt, cpu()).transpose());
      // In place: the output is input c.
      const Array c2 = c.copy();
      check(add_mul(dt), {a, b, c2}, want, what + " in place", c2);
    }
}

TEST_P(CpuEval, SeveralOutputs) {
  const Shape shape{40000};
  const Array a = input(shape, float32, Layout::strided), b = input(shape, float32, Layout::contiguous);
  const Array c = input(shape, float32, Layout::contiguous);
  FusedGraph g = hypot_exp(float32, float32, float32, float32);
  g.add_output(4, float16);  // hypot(a, b), stored as float16
  g.add_output(1);           // input b itself
  const Array o0 = empty(shape, float32, cpu()), o1 = empty(shape, float16, cpu()), o2 = empty(shape, float32, cpu());
  eval_graph_cpu(g, {a, b, c, Scalar(1)}, {o0, o1, o2});
  expect_same_bits(o0, add(multiply(hypot(a, b), exp(c)), 1), "output 0");
  expect_same_bits(o1, hypot(a, b).astype(float16), "output 1");
  expect_same_bits(o2, b, "output 2");
}

// The layouts a compiled loop takes: contiguous arrays, a 0-d array and a scalar read by
// every element, an output in place of an input (aliased by a second input), several
// outputs of other dtypes, a view whose rows are contiguous.
TEST_P(CpuEval, ContiguousLayoutsInPlaceAndSeveralOutputs) {
  for (DType dt : {float32, float16, bfloat16, float64, int32, uint8, int64, bool_})
    for (const Shape& shape : {Shape{100000}, Shape{7}, Shape{3, 50, 11}}) {
      const std::string what = std::string("contiguous ") + dtype_name(dt) + " " + shape_str(shape);
      const uint64_t runs0 = compiled_runs();
      const Array a = input({}, dt, Layout::contiguous), b = input(shape, dt, Layout::contiguous);
      const Array c = input(shape, dt, Layout::contiguous);
      const Array want = multiply(add(a, b), c);
      check(add_mul(dt), {a, b, c}, want, what);
      Array c2 = c.copy();
      check(add_mul(dt), {a, b, c2}, want, what + " in place", c2);
      c2 = c.copy();
      check(add_mul(dt), {a, c2, c2}, multiply(add(a, c), c), what + " in place, read twice", c2);
      const Array sum = add(multiply(hypot(b, c), exp(a)), Scalar(1.5));
      FusedGraph g = hypot_exp(dt, dt, dt, sum.dtype());
      g.add_output(g.num_values() - 1, float16);  // the sum again, stored as float16
      g.add_output(1);                            // input 1 (c) itself
      const Array o0 = empty(shape, sum.dtype(), cpu()), o1 = empty(shape, float16, cpu());
      const Array o2 = empty(shape, dt, cpu());
      eval_graph_cpu(g, {b, c, broadcast_to(a, shape), Scalar(1.5)}, {o0, o1, o2});
      expect_same_bits(o0, sum, what + " output 0");
      expect_same_bits(o1, sum.astype(float16), what + " output 1");
      expect_same_bits(o2, c, what + " output 2");
      if (compiled()) EXPECT_EQ(compiled_runs() - runs0, 4u) << what;
    }
}

// Without a host compiler, or when it fails, the evaluator computes the graph: the same
// bits, a failure counted (and said once on stderr), never retried for that graph.
TEST(CpuEvalFallback, NoCompilerOrAFailingOneLeavesTheEvaluator) {
  const char* was = std::getenv("CXX");
  const std::string saved = was ? was : "";
  const int64_t min_was = cpu_compiled::set_min_elements(1);
  const bool background_was = background_compile::set_enabled(false);
  const Shape shape{5000};
  const Array a = input(shape, uint16, Layout::contiguous), b = input(shape, uint16, Layout::contiguous);
  const Array want = where(less(a, b), sqrt(absolute(a)), negative(b));
  const cpu_compiled::Stats s0 = cpu_compiled::stats();
  setenv("CXX", "/nonexistent/c++", 1);  // --version fails: no compiler
  check(where_sqrt(uint16), {a, b}, want, "no compiler");
  EXPECT_EQ(cpu_compiled::stats().runs, s0.runs);
  EXPECT_EQ(cpu_compiled::stats().failed, s0.failed);
  if (!cpu_runtime::compiler_identity("g++").empty()) {
    setenv("CXX", "g++ -include /nonexistent/loom.h", 1);  // answers --version, fails every compile
    const Array c = input(shape, int8, Layout::contiguous), d = input(shape, int8, Layout::contiguous);
    check(where_sqrt(int8), {c, d}, where(less(c, d), sqrt(absolute(c)), negative(d)), "failing compiler");
    check(where_sqrt(int8), {d, c}, where(less(d, c), sqrt(absolute(d)), negative(c)), "failing compiler again");
    EXPECT_EQ(cpu_compiled::stats().runs, s0.runs);
    EXPECT_EQ(cpu_compiled::stats().failed, s0.failed + 1);  // remembered, not retried
  }
  if (was) setenv("CXX", saved.c_str(), 1);
  else unsetenv("CXX");
  cpu_compiled::set_min_elements(min_was);
  background_compile::set_enabled(background_was);
}

// With background compiles on, the first call of a new graph runs the evaluator while its
// loop compiles; once the worker is idle the next call runs the loop. Same bits both times.
TEST(CpuEvalBackground, TheFirstCallDoesNotWaitForTheCompile) {
  ASSERT_FALSE(cpu_runtime::compiler_identity(cpu_runtime::compiler()).empty()) << "no host C++ compiler runs";
  const int64_t min_was = cpu_compiled::set_min_elements(1);
  const bool background_was = background_compile::set_enabled(true);
  const Shape shape{3000};
  const Array a = input(shape, int16, Layout::contiguous), b = input(shape, int16, Layout::contiguous);
  const Array want = where(less(a, b), sqrt(absolute(a)), negative(b));
  const uint64_t runs0 = cpu_compiled::stats().runs;
  check(where_sqrt(int16), {a, b}, want, "first call");
  EXPECT_EQ(cpu_compiled::stats().runs, runs0);  // the evaluator ran it
  background_compile::wait_idle();
  check(where_sqrt(int16), {a, b}, want, "after the compile");
  EXPECT_EQ(cpu_compiled::stats().runs, runs0 + 1);
  cpu_compiled::set_min_elements(min_was);
  background_compile::set_enabled(background_was);
}

// Branches computed only on the lanes that take them give the bits of computing every
// lane: mixed conditions, every lane one way (no gathering) and none (the branch skipped).
TEST_P(CpuEval, LazyWhereBranches) {
  for (DType dt : {float32, float16, float64})
    for (const Shape& shape : kShapes)
      for (Layout layout : {Layout::contiguous, Layout::strided, Layout::broadcast}) {
        const Array a = input(shape, dt, layout), b = input(shape, dt, Layout::strided);
        const Scalar s(0.75);
        auto want_of = [&](const Array& x, const Array& y) {
          const Array sh = tanh(y);
          const Array t = add(subtract(multiply(expm1(x), s), s), sh);
          const Array inner = where(greater(y, s), log1p(absolute(y)), sin(x));
          return where(less(x, y), t, multiply(inner, sh));
        };
        const std::string what = std::string("lazy_branches ") + dtype_name(dt) + " " + shape_str(shape);
        check(lazy_branches(dt), {a, b, s}, want_of(a, b), what);
        const Array all = full(shape, Scalar(5.0), dt, cpu()), none = full(shape, Scalar(-5.0), dt, cpu());
        const Array a_finite = where(isfinite(a), a, zeros_like(a));  // a NaN lane would not take branch 1
        check(lazy_branches(dt), {a_finite, all, s}, want_of(a_finite, all), what + " all lanes");
        check(lazy_branches(dt), {a_finite, none, s}, want_of(a_finite, none), what + " no lane");
      }
}

TEST_P(CpuEval, LazyBranchesWithACastCondition) {
  for (DType dt : {float32, float16})
    for (const Shape& shape : kShapes) {
      Array a = input(shape, dt, Layout::strided), b = input(shape, dt, Layout::contiguous);
      a = where(greater(a, Scalar(0.5)), a, zeros_like(a));  // zeros: lanes of both branches
      const Array s = full({}, Scalar(2.0), float64, cpu());
      const Array want = where(a, multiply(expm1(a), s), multiply(log1p(absolute(b)), s));
      check(lazy_cast_condition(dt), {a, b, Scalar(2.0)}, want,
            std::string("lazy_cast_condition ") + dtype_name(dt) + " " + shape_str(shape));
    }
}

TEST_P(CpuEval, RejectsMismatchedArguments) {
  const FusedGraph g = where_sqrt(float32);
  const Array a = input({4, 3}, float32, Layout::contiguous), out = empty({4, 3}, float32, cpu());
  EXPECT_THROW(eval_graph_cpu(g, {a}, {out}), std::invalid_argument);                                 // too few
  EXPECT_THROW(eval_graph_cpu(g, {a, a.astype(float64)}, {out}), DTypeError);                        // dtype
  EXPECT_THROW(eval_graph_cpu(g, {a, Scalar(1.0)}, {out}), std::invalid_argument);                   // kind
  EXPECT_THROW(eval_graph_cpu(g, {a, input({5}, float32, Layout::contiguous)}, {out}), std::invalid_argument);
  EXPECT_THROW(eval_graph_cpu(g, {a, a}, {empty({4, 3}, float16, cpu())}), DTypeError);
  FusedGraph bad = g;
  bad.nodes[0].args[0] = 5;  // reads a value computed later
  EXPECT_THROW(eval_graph_cpu(bad, {a, a}, {out}), std::invalid_argument);
}

TEST(FusedGraph, BuildersPickNumpyLoopsAndCheckArity) {
  FusedGraph g;
  const int i8 = g.add_input(int8), u8 = g.add_input(uint8);
  EXPECT_EQ(g.value_dtype(g.add_op(OpId::add, {i8, u8})), int16);
  EXPECT_EQ(g.value_dtype(g.add_op(OpId::arctan2, {i8, u8})), float16);  // per input, as NumPy
  EXPECT_EQ(g.value_dtype(g.add_op(OpId::less, {i8, u8})), bool_);
  EXPECT_THROW(g.add_op(OpId::add, {i8}), std::invalid_argument);
  EXPECT_THROW(g.add_op(OpId::bitwise_and, {g.add_op(OpId::sqrt, {i8}), i8}), DTypeError);
  EXPECT_THROW(g.add_input(float32), std::invalid_argument);  // inputs come first
}

TEST(FusedGraph, HashAndEquality) {
  const auto graphs = all_graphs();
  for (size_t i = 0; i < graphs.size(); ++i)
    for (size_t j = 0; j < graphs.size(); ++j) {
      EXPECT_EQ(graphs[i].second == graphs[j].second, i == j);
      if (i != j) EXPECT_NE(graph_hash(graphs[i].second), graph_hash(graphs[j].second));
    }
  EXPECT_EQ(graph_hash(where_sqrt(float32)), graph_hash(where_sqrt(float32)));
}

}  // namespace
}  // namespace loom
