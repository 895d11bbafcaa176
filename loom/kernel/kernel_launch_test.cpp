// Every user kernel launch reaches its device through the dispatch point: a counting hook
// sees each launch of a RawModule kernel (as SourceModule makes them too), an
// ElementwiseKernel and a ReductionKernel on cpu(), as the "kernel_launch" primitive.
#include "loom/kernel/kernel_launch.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "loom/dispatch/dispatch.h"
#include "loom/kernel/elementwise_kernel.h"
#include "loom/kernel/emulator/emulator_test_util.h"
#include "loom/kernel/reduction_kernel.h"

namespace loom {
namespace {

using emulator_test::from;
using emulator_test::values;

struct CountLaunches : DispatchHook {
  int before_count = 0, after_count = 0;
  void before(const OpEvent& e) override {
    if (std::string(e.op.name) != "kernel_launch") return;
    EXPECT_STREQ(e.op.family, "kernel");
    EXPECT_EQ(e.device, cpu());
    ++before_count;
  }
  void after(const OpEvent& e) override {
    if (std::string(e.op.name) == "kernel_launch") ++after_count;
  }
};

struct HookScope {
  explicit HookScope(DispatchHook* h) : h(h) { add_dispatch_hook(h); }
  ~HookScope() { remove_dispatch_hook(h); }
  DispatchHook* h;
};

TEST(KernelLaunch, IsAPrimitive) {
  EXPECT_STREQ(kKernelLaunch.info.name, "kernel_launch");
  EXPECT_STREQ(kKernelLaunch.info.family, "kernel");
  EXPECT_TRUE(kKernelLaunch.info.traceable);
}

TEST(KernelLaunch, HookSeesEveryUserKernelOnCpu) {
  DeviceScope on_cpu(cpu());
  CountLaunches hook;
  HookScope scope(&hook);

  Kernel raw = RawModule(R"(extern "C" __global__ void add_one(float* a, int n) {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < n) a[i] += 1.0f;
  })").get_function("add_one");
  Array a = from(std::vector<float>{1, 2, 3}, float32);
  raw.launch(LaunchConfig{Dim3(1), Dim3(32)}, {a, Scalar(int64_t{3})});
  raw.launch(LaunchConfig{Dim3(1), Dim3(32)}, {a, Scalar(int64_t{3})});
  EXPECT_EQ(values<float>(a), (std::vector<float>{3, 4, 5}));
  EXPECT_EQ(hook.before_count, 2);

  ElementwiseKernel twice("T x", "T y", "y = 2 * x", "twice");
  const std::vector<Array> y = twice({a});
  EXPECT_EQ(values<float>(y[0]), (std::vector<float>{6, 8, 10}));
  EXPECT_EQ(hook.before_count, 3);

  ReductionKernel total("T x", "T y", "x", "a + b", "y = a", "0", "total");
  const std::vector<Array> s = total({a});
  EXPECT_EQ(values<float>(s[0]), (std::vector<float>{12}));
  EXPECT_GE(hook.before_count, 4);  // one pass or two
  EXPECT_EQ(hook.after_count, hook.before_count);

  // A launch that fails (a wrong argument count) is seen before, never after.
  const int seen = hook.before_count;
  EXPECT_ANY_THROW(raw.launch(LaunchConfig{Dim3(1), Dim3(32)}, {a}));
  EXPECT_EQ(hook.before_count, seen + 1);
  EXPECT_EQ(hook.after_count, seen);
}

}  // namespace
}  // namespace loom
