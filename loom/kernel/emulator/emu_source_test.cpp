// Which kernels the emulator runs as fibers: those that may reach a barrier or a warp
// collective, in their own body or through the functions they call.
#include "loom/kernel/emulator/emu_source.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "loom/kernel/module_state.h"

namespace loom::cpu_emulator {
namespace {

std::map<std::string, bool> fibers(const std::string& code) {
  ModuleState m;
  m.code = code;
  std::map<std::string, bool> r;
  for (const PlannedKernel& k : plan(m).kernels) r[k.name] = k.uses_barrier;
  return r;
}

TEST(EmulatorSource, KernelsReachingWarpIntrinsicsOrBarriersRunAsFibers) {
  const auto r = fibers(R"(
__device__ float warp_sum(float v) {
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  return v;
}
__device__ float twice(float v) { return warp_sum(v) * 2; }
extern "C" __global__ void via_helpers(float* a) { a[0] = twice(a[0]); }
extern "C" __global__ void plain(float* a) { a[0] += 1; }
extern "C" __global__ void own_shfl(float* a) { a[0] = __shfl_xor_sync(0xffffffffu, a[0], 1); }
extern "C" __global__ void ballot(int* a) { a[0] = __ballot_sync(0xffffffffu, a[0]); }
extern "C" __global__ void vote_all(int* a) { a[0] = __all_sync(0xffffffffu, a[0]); }
extern "C" __global__ void vote_any(int* a) { a[0] = __any_sync(0xffffffffu, a[0]); }
extern "C" __global__ void active(unsigned* a) { a[0] = __activemask(); }
extern "C" __global__ void syncwarp(float* a) { __syncwarp(); }
extern "C" __global__ void counts(int* a) { a[0] = __syncthreads_count(a[0]); }
)");
  EXPECT_TRUE(r.at("via_helpers"));
  EXPECT_FALSE(r.at("plain"));
  for (const char* k : {"own_shfl", "ballot", "vote_all", "vote_any", "active", "syncwarp", "counts"})
    EXPECT_TRUE(r.at(k)) << k;
}

TEST(EmulatorSource, OneOutsideEveryFunctionMakesEveryKernelUseFibers) {
  const auto r = fibers(R"(
#define WARP_MAX(v) max(v, __shfl_xor_sync(0xffffffffu, v, 16))
extern "C" __global__ void plain(float* a) { a[0] += 1; }
)");
  EXPECT_TRUE(r.at("plain"));
}

// PyCUDA wraps its sources in extern "C" { }: a kernel right after "#include <stdio.h>" is
// still exported by its plain name (the '>' ending the include is no template's).
TEST(EmulatorSource, KernelAfterAnIncludeKeepsItsCLinkage) {
  ModuleState m;
  m.code = "extern \"C\" {\n#include <stdio.h>\n__global__ void after(int* a) { a[0] = 1; }\n"
           "template <class T>\n__global__ void tmpl(T* a) { a[0] = 1; }\n}\n";
  const Plan p = plan(m);
  ASSERT_EQ(p.kernels.size(), 1u);
  EXPECT_EQ(p.kernels[0].name, "after");
  EXPECT_EQ(p.unexported.count("tmpl"), 1u);
}

}  // namespace
}  // namespace loom::cpu_emulator
