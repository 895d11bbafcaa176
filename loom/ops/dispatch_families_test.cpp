// The ops of the creation, elementwise, reduce, random and linalg families reach their
// backends through dispatch(): a hook registered there sees each op under its public name.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "loom/core/error.h"
#include "loom/dispatch/dispatch.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/linalg.h"
#include "loom/ops/random.h"
#include "loom/ops/reduce.h"

namespace loom {
namespace {

struct Recorder : DispatchHook {
  std::vector<std::string> names;
  std::vector<size_t> inputs;
  void before(const OpEvent& e) override {
    names.push_back(e.op.name);
    inputs.push_back(e.inputs.size());
  }
};

// Registers a Recorder for the lifetime of the scope.
struct Recording {
  Recorder r;
  Recording() { add_dispatch_hook(&r); }
  ~Recording() { remove_dispatch_hook(&r); }
};

TEST(DispatchFamilies, EveryOpOfASampleProgramIsSeen) {
  Recording rec;
  const Array a = arange(Scalar(0), Scalar(6), Scalar(1), float32, cpu());
  const Array b = full({6}, Scalar(2.0), float32, cpu());
  const Array c = add(a, b);
  const Array s = sum(c);
  const Array cs = cumsum(c);
  const Array n = random::normal(random::key(1), {3, 3}, float32, cpu());
  const Array m = matmul(n, eye(3, std::nullopt, 0, float32, cpu()));
  const Array t = m.astype(int32);
  const Array sd = loom::std(c);
  const std::vector<std::string> want = {"arange", "full", "add",    "sum",    "cumsum",
                                         "normal", "eye",  "matmul", "astype", "std"};
  EXPECT_EQ(rec.r.names, want);
  EXPECT_EQ(rec.r.inputs[2], 2u);  // add: both arrays
  EXPECT_EQ(rec.r.inputs[1], 0u);  // full: no input array
}

TEST(DispatchFamilies, ScalarOperandsAreNotInputs) {
  Recording rec;
  const Array a = arange(Scalar(0), Scalar(4), Scalar(1), float64, cpu());
  rec.r.names.clear();
  rec.r.inputs.clear();
  const Array r = multiply(a, 3.0);
  ASSERT_EQ(rec.r.names, std::vector<std::string>{"multiply"});
  EXPECT_EQ(rec.r.inputs[0], 1u);
}

TEST(DispatchFamilies, IntegerPowerChecksOnTheDeviceThenReadsOneBool) {
  Recording rec;
  const Array x = arange(Scalar(1), Scalar(4), Scalar(1), int64, cpu());
  const Array e = arange(Scalar(-1), Scalar(2), Scalar(1), int64, cpu());
  rec.r.names.clear();
  // On the CPU the one bool comes back through copy_to_host's convert (on a GPU: a download).
  EXPECT_THROW(power(x, e), std::invalid_argument);
  EXPECT_EQ(rec.r.names, (std::vector<std::string>{"less", "any", "copy_to_host"}));
  rec.r.names.clear();
  power(x, x);
  EXPECT_EQ(rec.r.names, (std::vector<std::string>{"less", "any", "copy_to_host", "power"}));
}

}  // namespace
}  // namespace loom
