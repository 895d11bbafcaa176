// The dispatch point's mechanics on a primitive of its own: the eval of the operands'
// device runs, hooks see each call before and after (not after a throw), a hook can be
// removed, and operands on two devices raise DeviceMismatchError naming the op.
#include "loom/dispatch/dispatch.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "loom/core/error.h"
#include "loom/ops/creation.h"

namespace loom {
namespace {

int g_cpu_calls = 0, g_gpu_calls = 0;
int cpu_eval(const Array& a, int k) { ++g_cpu_calls; return static_cast<int>(a.size()) * k; }
int gpu_eval(const Array& a, int k) { ++g_gpu_calls; return -1; }
void throwing_eval(const Array&) { throw std::invalid_argument("[probe] bad"); }

const Primitive<int(const Array&, int)> kProbe{{"probe", "test"}, cpu_eval, gpu_eval};
const Primitive<void(const Array&)> kThrowing{{"throwing", "test", false}, throwing_eval, throwing_eval};

struct Log : DispatchHook {
  std::vector<std::string> seen;
  void before(const OpEvent& e) override {
    seen.push_back(std::string("before ") + e.op.name + " " + e.device.str() + " " +
                   std::to_string(e.inputs.size()) + "/" + std::to_string(e.outputs.size()));
  }
  void after(const OpEvent& e) override { seen.push_back(std::string("after ") + e.op.name); }
};

TEST(Dispatch, RunsTheEvalOfTheOperandsDevice) {
  Array a = zeros({5}, float32, cpu());
  g_cpu_calls = g_gpu_calls = 0;
  EXPECT_EQ(dispatch(kProbe, {a}, {}, a, 3), 15);
  EXPECT_EQ(g_cpu_calls, 1);
  EXPECT_EQ(g_gpu_calls, 0);
  EXPECT_EQ(dispatch_on(kProbe, cpu(), {}, {}, a, 2), 10);
}

TEST(Dispatch, HooksSeeEachCallBeforeAndAfter) {
  Array a = zeros({4}, float32, cpu()), out = zeros({4}, float32, cpu());
  Log log;
  add_dispatch_hook(&log);
  dispatch(kProbe, {a}, {out}, a, 1);
  EXPECT_THROW(dispatch(kThrowing, {a}, {}, a), std::invalid_argument);
  remove_dispatch_hook(&log);
  dispatch(kProbe, {a}, {}, a, 1);  // not seen any more
  const std::vector<std::string> want = {"before probe cpu() 1/1", "after probe", "before throwing cpu() 1/0"};
  EXPECT_EQ(log.seen, want);
}

TEST(Dispatch, OperandsOnTwoDevicesRaiseNamingTheOp) {
  Array a = zeros({4}, float32, cpu());
  Array b = Array(a.buffer(), a.dtype(), a.shape(), a.strides(), 0);
  EXPECT_EQ(dispatch(kProbe, {a, b}, {}, a, 1), 4);
  // An absent GPU's array cannot be allocated; a Buffer that claims gpu(0) stands in for one.
  auto fake = std::make_shared<Buffer>(a.data(), a.nbytes(), gpu(0), std::function<void()>());
  Array g(fake, a.dtype(), a.shape(), a.strides(), 0);
  try {
    dispatch(kProbe, {a}, {g}, a, 1);
    FAIL() << "no DeviceMismatchError";
  } catch (const DeviceMismatchError& e) {
    EXPECT_NE(std::string(e.what()).find("[probe] operands are on cpu() and gpu(0)"), std::string::npos) << e.what();
  }
}

TEST(Dispatch, NoOperandIsAValueError) {
  EXPECT_THROW(dispatch(kProbe, {}, {}, zeros({1}, float32, cpu()), 1), std::invalid_argument);
}

}  // namespace
}  // namespace loom
