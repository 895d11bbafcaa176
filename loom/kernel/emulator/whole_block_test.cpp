// A kernel with barriers whose source gives a whole-block form (LOOM_EMU_WHOLE_BLOCK, the
// Python translator's loop fission): the plan marks it, the emulator calls the form once per
// block instead of running fibers, LOOM_EMULATOR_FISSION=0 brings the fibers back, and NVRTC's
// view of the program (no LOOM_EMU_WHOLE_BLOCK) is the plain kernel.
#include <gtest/gtest.h>

#include <cstdlib>
#include <numeric>
#include <string>
#include <vector>

#include "loom/kernel/emulator/emu_source.h"
#include "loom/kernel/emulator/emulator_test_util.h"
#include "loom/kernel/module_state.h"
#include "loom/kernel/raw_module.h"

namespace loom {
namespace {

using emulator_test::from;
using emulator_test::values;

// out[block] = the block's sum, by a shared-memory tree; `calls[block]` counts how often the
// whole-block form ran for that block (the fiber form leaves it 0).
constexpr const char* kSource = R"(
extern "C" __global__ void tree(const int* x, int* out, int* calls) {
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = x[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (int h = blockDim.x / 2; h > 0; h /= 2) {
    if (t < h) s[t] += s[t + h];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}
#ifdef LOOM_EMU_WHOLE_BLOCK
static void tree_block(const int* x, int* out, int* calls) {
  __shared__ int s[64];
  const unsigned n = loom_emu::fission_threads();
  for (unsigned t = 0; t < n; ++t) loom_emu::fission_thread(t), s[t] = x[blockIdx.x * blockDim.x + t];
  for (unsigned h = n / 2; h > 0; h /= 2)
    for (unsigned t = 0; t < n; ++t) loom_emu::fission_thread(t), (t < h ? s[t] += s[t + h] : 0);
  out[blockIdx.x] = s[0];
  calls[blockIdx.x] += 1;
}
LOOM_EMU_WHOLE_BLOCK(tree, tree_block)
#endif
)";

TEST(EmulatorWholeBlock, ThePlanMarksTheKernelThatHasAForm) {
  ModuleState m;
  m.code = std::string(kSource) + R"(extern "C" __global__ void other(int* a) { __syncthreads(); a[0] = 1; })";
  const cpu_emulator::Plan p = cpu_emulator::plan(m);
  ASSERT_EQ(p.kernels.size(), 2u);
  for (const cpu_emulator::PlannedKernel& k : p.kernels) {
    EXPECT_TRUE(k.uses_barrier) << k.name;  // debug mode still takes the fibers
    EXPECT_EQ(k.whole_block, k.name == "tree") << k.name;
  }
}

void run_tree(bool fission, std::vector<int>* sums, std::vector<int>* calls) {
  if (fission) unsetenv("LOOM_EMULATOR_FISSION");
  else setenv("LOOM_EMULATOR_FISSION", "0", 1);
  std::vector<int> x(64 * 5);
  std::iota(x.begin(), x.end(), -100);
  Array xa = from(x, int32), out = from(std::vector<int>(5, 0), int32), c = from(std::vector<int>(5, 0), int32);
  RawModule(kSource).get_function("tree").launch(LaunchConfig{Dim3(5), Dim3(64)}, {xa, out, c});
  unsetenv("LOOM_EMULATOR_FISSION");
  *sums = values<int>(out);
  *calls = values<int>(c);
  for (int b = 0; b < 5; ++b) EXPECT_EQ((*sums)[b], std::accumulate(x.begin() + 64 * b, x.begin() + 64 * b + 64, 0)) << b;
}

TEST(EmulatorWholeBlock, TheFormRunsOncePerBlockAndTheSwitchBringsBackTheFibers) {
  std::vector<int> sums, calls;
  run_tree(true, &sums, &calls);
  EXPECT_EQ(calls, std::vector<int>(5, 1));
  run_tree(false, &sums, &calls);
  EXPECT_EQ(calls, std::vector<int>(5, 0));
}

}  // namespace
}  // namespace loom
