// Warp intrinsics and counting barriers in CUDA C kernels run by the CPU kernel emulator,
// compared with CUDA's documented rules computed here (no GPU needed).
#include <gtest/gtest.h>

#include <stdlib.h>

#include <cctype>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "loom/core/error.h"
#include "loom/kernel/emulator/emulator_test_util.h"
#include "loom/kernel/raw_module.h"

namespace loom {
namespace {

using emulator_test::from;
using emulator_test::values;

// CUDA's rules, as its programming guide states them, for a lane of a warp and a width.
int shfl_src(int lane, int src, int width) { return lane / width * width + (src & (width - 1)); }
int up_src(int lane, int delta, int width) { return lane % width >= delta ? lane - delta : lane; }
int down_src(int lane, int delta, int width) { return lane % width + delta < width ? lane + delta : lane; }
int xor_src(int lane, int mask, int width) {
  const int j = lane ^ mask;
  return j < (lane / width + 1) * width ? j : lane;  // earlier segments yes, later ones no
}

// Each thread writes what the four shuffles give it; one kernel per type (a macro would
// hide the kernels from loom's scan, as from a GPU's name lookup without name expressions).
std::string shuffles_source() {
  const std::string body = R"(
extern "C" __global__ void shuffles_N(const T* x, T* out, int src, int delta, int lm, int w) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  T v = x[i];
  out[4 * i + 0] = __shfl_sync(0xffffffffu, v, src, w);
  out[4 * i + 1] = __shfl_up_sync(0xffffffffu, v, delta, w);
  out[4 * i + 2] = __shfl_down_sync(0xffffffffu, v, delta, w);
  out[4 * i + 3] = __shfl_xor_sync(0xffffffffu, v, lm, w);
}
)";
  std::string src;
  for (auto [n, t] : {std::pair{"int", "int"}, {"uint", "unsigned int"}, {"ll", "long long"},
                      {"ull", "unsigned long long"}, {"float", "float"}, {"double", "double"}}) {
    std::string k = body;
    k.replace(k.find("_N"), 2, std::string("_") + n);
    for (size_t p = k.find("T"); p != std::string::npos; p = k.find("T", p + 1))
      if (!isalnum(static_cast<unsigned char>(k[p - 1])) && !isalnum(static_cast<unsigned char>(k[p + 1])))
        k.replace(p, 1, t);
    src += k;
  }
  return src;
}

template <class T>
void check_shuffles(const char* name, DType dt, unsigned seed, bool debug) {
  Kernel k = RawModule(shuffles_source()).get_function(name);
  std::mt19937_64 g(seed);
  const int n = 128;
  std::vector<T> x(n);
  for (auto& v : x) v = static_cast<T>(static_cast<int64_t>(g() % 2000001) - 1000000) / static_cast<T>(8);
  for (int w : {1, 2, 4, 8, 16, 32}) {
    const int src = static_cast<int>(g() % 40) - 4, delta = static_cast<int>(g() % 32), lm = static_cast<int>(g() % 32);
    Array xa = from(x, dt), out = from(std::vector<T>(4 * n), dt);
    LaunchConfig cfg{Dim3(2), Dim3(64)};
    cfg.debug = debug;
    k.launch(cfg, {xa, out, Scalar(int64_t{src}), Scalar(int64_t{delta}), Scalar(int64_t{lm}), Scalar(int64_t{w})});
    const auto v = values<T>(out);
    for (int i = 0; i < n; ++i) {
      const int lane = i % 32, base = i - lane;
      ASSERT_EQ(v[4 * i + 0], x[base + shfl_src(lane, src, w)]) << name << " w=" << w << " src=" << src << " i=" << i;
      ASSERT_EQ(v[4 * i + 1], x[base + up_src(lane, delta, w)]) << name << " w=" << w << " delta=" << delta << " i=" << i;
      ASSERT_EQ(v[4 * i + 2], x[base + down_src(lane, delta, w)]) << name << " w=" << w << " delta=" << delta;
      ASSERT_EQ(v[4 * i + 3], x[base + xor_src(lane, lm, w)]) << name << " w=" << w << " lm=" << lm << " i=" << i;
    }
  }
}

TEST(CpuEmulatorWarp, ShufflesFollowCudasRulesForEveryWidthAndType) {
  check_shuffles<int32_t>("shuffles_int", int32, 1, false);
  check_shuffles<uint32_t>("shuffles_uint", uint32, 2, false);
  check_shuffles<int64_t>("shuffles_ll", int64, 3, false);
  check_shuffles<uint64_t>("shuffles_ull", uint64, 4, false);
  check_shuffles<float>("shuffles_float", float32, 5, false);
  check_shuffles<double>("shuffles_double", float64, 6, false);
}

TEST(CpuEmulatorWarp, ShufflesInDebugModeWithBothFiberKinds) {
  check_shuffles<float>("shuffles_float", float32, 7, true);
  setenv("LOOM_EMULATOR_FIBERS", "ucontext", 1);
  check_shuffles<double>("shuffles_double", float64, 8, true);
  check_shuffles<int32_t>("shuffles_int", int32, 9, false);
  unsetenv("LOOM_EMULATOR_FIBERS");
}

// A 2-D block of 16 x 6: warps run across rows (x fastest), the last one partial (96 = 3
// warps, here 16 x 5 = 80: two full warps and one of 16 lanes).
constexpr const char* kVotes = R"(
__device__ unsigned lane_of() { return (threadIdx.x + blockDim.x * threadIdx.y) & 31; }
extern "C" __global__ void votes(const int* p, unsigned* out, int n_live) {
  int t = threadIdx.x + blockDim.x * threadIdx.y;
  int pred = p[t];
  unsigned b = __ballot_sync(0xffffffffu, pred);
  int all = __all_sync(0xffffffffu, pred), any = __any_sync(0xffffffffu, pred);
  unsigned half = __ballot_sync(0x0000ffffu << (lane_of() & 16), pred);  // two groups of 16
  __syncwarp();
  int count = __syncthreads_count(pred), land = __syncthreads_and(pred), lor = __syncthreads_or(pred);
  if (t >= n_live) return;  // the rest leave: __activemask sees it
  unsigned active = __activemask();
  out[8 * t + 0] = b; out[8 * t + 1] = all; out[8 * t + 2] = any; out[8 * t + 3] = half;
  out[8 * t + 4] = count; out[8 * t + 5] = land; out[8 * t + 6] = lor; out[8 * t + 7] = active;
})";

TEST(CpuEmulatorWarp, VotesCountingBarriersAndActiveMaskIn2DBlocksWithAPartialWarp) {
  Kernel k = RawModule(kVotes).get_function("votes");
  std::mt19937 g(11);
  const int nx = 16, ny = 5, n = nx * ny, n_live = 70;
  for (int round = 0; round < 6; ++round) {
    std::vector<int32_t> p(n);
    const unsigned density = round == 0 ? 0 : round == 1 ? 100 : 50;  // none, all, half
    for (auto& v : p) v = g() % 100 < density ? static_cast<int32_t>(g() % 5 + 1) : 0;
    Array pa = from(p, int32), out = from(std::vector<uint32_t>(8 * n, 7u), uint32);
    LaunchConfig cfg{Dim3(1), Dim3(nx, ny)};
    cfg.debug = round >= 3;
    k.launch(cfg, {pa, out, Scalar(int64_t{n_live})});
    const auto v = values<uint32_t>(out);
    int count = 0;
    for (int t = 0; t < n; ++t) count += p[t] != 0;
    for (int t = 0; t < n_live; ++t) {
      const int base = t / 32 * 32, lanes = std::min(32, n - base);
      uint32_t b = 0, half = 0;
      for (int l = 0; l < lanes; ++l)
        if (p[base + l]) b |= 1u << l;
      half = b & (0x0000ffffu << (t % 32 & 16));
      const uint32_t exists = lanes == 32 ? ~0u : (1u << lanes) - 1;
      uint32_t active = 0;
      for (int l = 0; l < lanes; ++l)
        if (base + l < n_live) active |= 1u << l;
      ASSERT_EQ(v[8 * t + 0], b) << t;
      ASSERT_EQ(v[8 * t + 1], uint32_t{b == exists}) << t;
      ASSERT_EQ(v[8 * t + 2], uint32_t{b != 0}) << t;
      ASSERT_EQ(v[8 * t + 3], half) << t;
      ASSERT_EQ(v[8 * t + 4], static_cast<uint32_t>(count)) << t;
      ASSERT_EQ(v[8 * t + 5], uint32_t{count == n}) << t;
      ASSERT_EQ(v[8 * t + 6], uint32_t{count != 0}) << t;
      ASSERT_EQ(v[8 * t + 7], active) << t;
    }
  }
}

// A block reduction: shuffles within warps, shared memory and __syncthreads across them,
// the shuffles in a __device__ helper (the kernel must still run as fibers).
constexpr const char* kBlockSum = R"(
__device__ double warp_sum(double v) {
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  return v;
}
extern "C" __global__ void block_sum(const double* x, double* out) {
  __shared__ double partial[32];
  int t = threadIdx.x, lane = t & 31, warp = t >> 5;
  double v = warp_sum(x[blockIdx.x * blockDim.x + t]);
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < blockDim.x / 32 ? partial[lane] : 0.0;
    v = warp_sum(v);
    if (lane == 0) out[blockIdx.x] = v;
  }
}
extern "C" __global__ void untouched(double* x) { x[threadIdx.x] += 1.0; }
)";

TEST(CpuEmulatorWarp, BlockReductionMixingBarriersAndShufflesInAHelper) {
  Kernel k = RawModule(kBlockSum).get_function("block_sum");
  const int blocks = 21, threads = 256;
  std::mt19937 g(12);
  std::vector<double> x(blocks * threads);
  for (auto& v : x) v = static_cast<double>(static_cast<int>(g() % 20001) - 10000) / 16;  // exact sums
  for (bool debug : {false, true}) {
    Array xa = from(x, float64), out = from(std::vector<double>(blocks, -1.0), float64);
    LaunchConfig cfg{Dim3(blocks), Dim3(threads)};
    cfg.debug = debug;
    k.launch(cfg, {xa, out});
    const auto v = values<double>(out);
    for (int b = 0; b < blocks; ++b) {
      double s = 0;
      for (int t = 0; t < threads; ++t) s += x[b * threads + t];
      ASSERT_EQ(v[b], s) << b;
    }
  }
  // A kernel of the same module that reaches no collective still runs (as a loop).
  Array y = from(std::vector<double>(32, 1.0), float64);
  RawModule(kBlockSum).get_function("untouched").launch(LaunchConfig{Dim3(1), Dim3(32)}, {y});
  EXPECT_EQ(values<double>(y)[31], 2.0);
}

std::string launch_error(const char* src, const char* name, Dim3 block, bool debug) {
  Kernel k = RawModule(src).get_function(name);
  Array a = from(std::vector<float>(block.x * block.y * block.z, 1.0f), float32);
  LaunchConfig cfg{Dim3(1), block};
  cfg.debug = debug;
  try {
    k.launch(cfg, {a});
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

TEST(CpuEmulatorWarp, UndefinedUsesAreDefinedHereOrReportedInDebugMode) {
  // Lanes 16..31 return; lane 15 reads lane 16 (returned): its own value in normal mode.
  const char* returned = R"(extern "C" __global__ void k(float* a) {
    int t = threadIdx.x;
    if (t >= 16) return;
    a[t] = __shfl_down_sync(0xffffffffu, a[t] + t, 1);
  })";
  Kernel k = RawModule(returned).get_function("k");
  Array a = from(std::vector<float>(32, 0.0f), float32);
  k.launch(LaunchConfig{Dim3(1), Dim3(32)}, {a});
  const auto v = values<float>(a);
  for (int t = 0; t < 15; ++t) EXPECT_EQ(v[t], t + 1.0f) << t;
  EXPECT_EQ(v[15], 15.0f);
  std::string m = launch_error(returned, "k", Dim3(32), true);
  EXPECT_NE(m.find("warp shuffle at line 4"), std::string::npos) << m;
  EXPECT_NE(m.find("reads lane 16, which has returned"), std::string::npos) << m;
  // A partial warp (a block of 48): lane 15 of warp 1 reads past the block's end.
  m = launch_error(R"(extern "C" __global__ void k(float* a) {
    a[threadIdx.x] = __shfl_down_sync(0xffffffffu, a[threadIdx.x], 1);
  })", "k", Dim3(48), true);
  EXPECT_NE(m.find("past the end of the block's last, partial warp"), std::string::npos) << m;
  // Lanes meeting with different masks.
  m = launch_error(R"(extern "C" __global__ void k(float* a) {
    unsigned mask = threadIdx.x == 3 ? 0xfu : 0xffffffffu;
    __syncwarp(mask);
  })", "k", Dim3(32), true);
  EXPECT_NE(m.find("with mask 0xffffffff against 0x0000000f"), std::string::npos) << m;
  // A warp collective waiting for lanes that wait at __syncthreads: an error in both modes.
  for (bool debug : {false, true}) {
    m = launch_error(R"(extern "C" __global__ void k(float* a) {
      if (threadIdx.x == 5) __syncthreads();
      else a[threadIdx.x] = __shfl_xor_sync(0xffffffffu, a[threadIdx.x], 1);
    })", "k", Dim3(64), debug);
    EXPECT_NE(m.find("divergent warp collective at line 3"), std::string::npos) << m;
    EXPECT_NE(m.find("waits at a block barrier (line 2)"), std::string::npos) << m;
  }
}

TEST(CpuEmulatorWarp, HalfAndBfloat16Shuffle) {
  // The headers, as CUDA C needs them: get_function compiles for the default device (a GPU
  // where there is one) before the launch on cpu().
  Kernel k = RawModule(R"(#include <cuda_fp16.h>
#include <cuda_bf16.h>
extern "C" __global__ void k(const float* x, float* out) {
    int t = threadIdx.x;
    __half h = __float2half(x[t]);
    __nv_bfloat16 b = __float2bfloat16(x[t]);
    out[2 * t] = __half2float(__shfl_xor_sync(0xffffffffu, h, 3));
    out[2 * t + 1] = __bfloat162float(__shfl_sync(0xffffffffu, b, 7, 16));
  })").get_function("k");
  std::vector<float> x(64);
  for (int i = 0; i < 64; ++i) x[i] = static_cast<float>(i) * 0.5f - 9.0f;  // exact in both
  Array xa = from(x, float32), out = from(std::vector<float>(128), float32);
  k.launch(LaunchConfig{Dim3(1), Dim3(64)}, {xa, out});
  const auto v = values<float>(out);
  for (int t = 0; t < 64; ++t) {
    EXPECT_EQ(v[2 * t], x[t ^ 3]) << t;
    EXPECT_EQ(v[2 * t + 1], x[t / 16 * 16 + 7]) << t;
  }
}

}  // namespace
}  // namespace loom
