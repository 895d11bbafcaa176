// CUDA C kernels run by the CPU kernel emulator on CPU arrays (no GPU needed), compared
// with values computed here.
#include <gtest/gtest.h>

#include <stdlib.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "loom/kernel/emulator/emulator_test_util.h"
#include "loom/core/error.h"
#include "loom/kernel/raw_module.h"

namespace loom {
namespace {

using emulator_test::from;
using emulator_test::values;

std::vector<float> random_floats(size_t n, unsigned seed) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<float> d(-2.0f, 2.0f);
  std::vector<float> v(n);
  for (auto& x : v) x = d(g);
  return v;
}

TEST(CpuEmulator, Doublify1D) {
  Kernel k = RawModule(R"(extern "C" __global__ void doublify(float* a, int n) {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < n) a[i] *= 2.0f;
  })").get_function("doublify");
  const auto x = random_floats(1000, 1);
  Array a = from(x, float32);
  k.launch(LaunchConfig{Dim3(4), Dim3(256)}, {a, Scalar(int64_t{1000})});
  const auto y = values<float>(a);
  for (size_t i = 0; i < x.size(); ++i) ASSERT_EQ(y[i], 2.0f * x[i]) << i;
}

TEST(CpuEmulator, Indexing2D) {
  Kernel k = RawModule(R"(extern "C" __global__ void idx2(int* out, int w, int h) {
    int x = blockDim.x * blockIdx.x + threadIdx.x, y = blockDim.y * blockIdx.y + threadIdx.y;
    if (x < w && y < h) out[y * w + x] = 1000 * y + x + 7 * (int)threadIdx.y;
  })").get_function("idx2");
  const int w = 37, h = 21;
  Array out = from(std::vector<int32_t>(w * h, -1), int32);
  k.launch(LaunchConfig{Dim3(3, 6), Dim3(16, 4)}, {out, Scalar(int64_t{w}), Scalar(int64_t{h})});
  const auto v = values<int32_t>(out);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) ASSERT_EQ(v[y * w + x], 1000 * y + x + 7 * (y % 4)) << x << "," << y;
}

constexpr const char* kReduce = R"(
extern "C" __global__ void block_sum(const float* x, float* out, int n) {
  __shared__ float s[256];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  s[t] = i < n ? x[i] : 0.0f;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
})";

TEST(CpuEmulator, SharedMemoryTreeReductionWithBarriers) {
  Kernel k = RawModule(kReduce).get_function("block_sum");
  const int n = 256 * 37 - 11, blocks = 37;
  const auto x = random_floats(n, 2);
  Array xa = from(x, float32), out = from(std::vector<float>(blocks, -1.0f), float32);
  k.launch(LaunchConfig{Dim3(blocks), Dim3(256)}, {xa, out, Scalar(int64_t{n})});
  const auto v = values<float>(out);
  for (int b = 0; b < blocks; ++b) {
    // The same tree order as the kernel, so the sums are bit-exact.
    std::vector<float> s(256);
    for (int t = 0; t < 256; ++t) s[t] = b * 256 + t < n ? x[b * 256 + t] : 0.0f;
    for (int stride = 128; stride > 0; stride >>= 1)
      for (int t = 0; t < stride; ++t) s[t] += s[t + stride];
    ASSERT_EQ(v[b], s[0]) << b;
  }
}

TEST(CpuEmulator, UcontextFibersGiveTheSameAnswers) {
  // The fallback for builds without boost.context, chosen here by the environment.
  setenv("LOOM_EMULATOR_FIBERS", "ucontext", 1);
  Kernel k = RawModule(kReduce).get_function("block_sum");
  const int n = 256 * 9;
  const auto x = random_floats(n, 4);
  Array xa = from(x, float32), out = from(std::vector<float>(9, -1.0f), float32);
  k.launch(LaunchConfig{Dim3(9), Dim3(256)}, {xa, out, Scalar(int64_t{n})});
  unsetenv("LOOM_EMULATOR_FIBERS");
  const auto v = values<float>(out);
  for (int b = 0; b < 9; ++b) {
    std::vector<float> s(x.begin() + b * 256, x.begin() + (b + 1) * 256);
    for (int stride = 128; stride > 0; stride >>= 1)
      for (int t = 0; t < stride; ++t) s[t] += s[t + stride];
    ASSERT_EQ(v[b], s[0]) << b;
  }
}

TEST(CpuEmulator, AtomicsFromManyBlocks) {
  Kernel k = RawModule(R"(extern "C" __global__ void count(const int* x, unsigned long long* total,
                                                             int* hits, float* fsum, int* mx, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    atomicAdd(total, (unsigned long long)x[i]);
    atomicAdd(hits, 1);
    atomicAdd(fsum, 0.5f);
    atomicMax(mx, x[i]);
  })").get_function("count");
  const int n = 50000;
  std::mt19937 g(3);
  std::vector<int32_t> x(n);
  unsigned long long expect = 0;
  int mx = 0;
  for (auto& v : x) v = static_cast<int32_t>(g() % 1000), expect += v, mx = std::max(mx, v);
  Array xa = from(x, int32), total = from(std::vector<uint64_t>{0}, uint64), hits = from(std::vector<int32_t>{0}, int32);
  Array fsum = from(std::vector<float>{0.0f}, float32), amax = from(std::vector<int32_t>{-1}, int32);
  k.launch(LaunchConfig{Dim3((n + 127) / 128), Dim3(128)}, {xa, total, hits, fsum, amax, Scalar(int64_t{n})});
  EXPECT_EQ(values<uint64_t>(total)[0], expect);
  EXPECT_EQ(values<int32_t>(hits)[0], n);
  EXPECT_EQ(values<float>(fsum)[0], 0.5f * n);  // exact: multiples of 0.5 below 2^24
  EXPECT_EQ(values<int32_t>(amax)[0], mx);
}

TEST(CpuEmulator, DynamicSharedMemoryReversesEachBlock) {
  Kernel k = RawModule(R"(extern "C" __global__ void rev(const double* x, double* y) {
    extern __shared__ double buf[];
    int t = threadIdx.x, base = blockIdx.x * blockDim.x;
    buf[t] = x[base + t];
    __syncthreads();
    y[base + t] = buf[blockDim.x - 1 - t] + blockIdx.x;
  })").get_function("rev");
  const int bs = 96, blocks = 5, n = bs * blocks;
  std::vector<double> x(n);
  for (int i = 0; i < n; ++i) x[i] = 0.25 * i - 3;
  Array xa = from(x, float64), ya = from(std::vector<double>(n, 0.0), float64);
  k.launch(LaunchConfig{Dim3(blocks), Dim3(bs), bs * sizeof(double)}, {xa, ya});
  const auto y = values<double>(ya);
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < bs; ++t) ASSERT_EQ(y[b * bs + t], x[b * bs + bs - 1 - t] + b);
}

TEST(CpuEmulator, DivergentBarrierRaisesNamingKernelAndLines) {
  Kernel k = RawModule(R"(extern "C" __global__ void bad(float* a) {
    if (threadIdx.x % 2) {
      __syncthreads();
    } else {
      a[threadIdx.x] = 1.0f;
      __syncthreads();
    }
  })").get_function("bad");
  Array a = from(std::vector<float>(128, 0.0f), float32);
  try {
    k.launch(LaunchConfig{Dim3(2), Dim3(128)}, {a});
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("[RawKernel bad]"), std::string::npos) << m;
    EXPECT_NE(m.find("divergent __syncthreads"), std::string::npos) << m;
    EXPECT_NE(m.find("64 threads wait at line 6 and 64 at another barrier (line 3)"), std::string::npos) << m;
  }
}

TEST(CpuEmulator, ThreadsThatReturnBeforeABarrierAreNotWaitedFor) {
  // `if (i >= n) return;` before __syncthreads works on Volta and later GPUs, so here too.
  Kernel k = RawModule(R"(extern "C" __global__ void half_reverse(float* a) {
    __shared__ float s[128];
    int t = threadIdx.x;
    if (t >= 64) return;
    s[t] = a[t];
    __syncthreads();
    a[t] = s[63 - t];
  })").get_function("half_reverse");
  std::vector<float> host(128);
  for (int i = 0; i < 128; ++i) host[i] = static_cast<float>(i);
  Array a = from(host, float32);
  k.launch(LaunchConfig{Dim3(1), Dim3(128)}, {a});
  std::vector<float> out(128);
  a.copy_to_host(out.data());
  for (int i = 0; i < 64; ++i) ASSERT_EQ(out[i], static_cast<float>(63 - i));
  for (int i = 64; i < 128; ++i) ASSERT_EQ(out[i], static_cast<float>(i));
}

TEST(CpuEmulator, TemplateKernels3DBlocksAndBarriersInHelpers) {
  RawModule m(R"(
template <typename T> __global__ void scale(T* a, T s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] *= s;
}
__device__ void wait_all() { __syncthreads(); }  // a barrier outside any kernel body
// __global__ void commented_out(int x) {}
extern "C" __global__ void rev3(float* a) {
  __shared__ float s[4][4][4];
  const int z = threadIdx.z, y = threadIdx.y, x = threadIdx.x, base = 64 * blockIdx.x;
  s[z][y][x] = a[base + z * 16 + y * 4 + x];
  wait_all();
  a[base + z * 16 + y * 4 + x] = s[3 - z][3 - y][3 - x] + blockDim.z;
})",
              {}, {"scale<double>"});
  std::vector<double> d(100);
  for (int i = 0; i < 100; ++i) d[i] = 0.5 * i;
  Array da = from(d, float64);
  m.get_function("scale<double>").launch(LaunchConfig{Dim3(4), Dim3(32)}, {da, Scalar(3.0), Scalar(int64_t{100})});
  const auto dv = values<double>(da);
  for (int i = 0; i < 100; ++i) ASSERT_EQ(dv[i], 1.5 * i);
  const auto x = random_floats(128, 5);
  Array xa = from(x, float32);
  m.get_function("rev3").launch(LaunchConfig{Dim3(2), Dim3(4, 4, 4)}, {xa});
  const auto v = values<float>(xa);
  for (int b = 0; b < 2; ++b)
    for (int i = 0; i < 64; ++i) ASSERT_EQ(v[64 * b + i], x[64 * b + 63 - i] + 4.0f) << b << " " << i;
}

TEST(CpuEmulator, ArgumentsAndLimitsAreCheckedAndUnsupportedFeaturesNamed) {
  Kernel k = RawModule(R"(extern "C" __global__ void f(float* a, int n) { a[0] = n; })").get_function("f");
  Array a = from(std::vector<float>{0.0f}, float32);
  EXPECT_THROW(k.launch(LaunchConfig{Dim3(1), Dim3(1)}, {a}), DTypeError);  // one argument short
  EXPECT_THROW(k.launch(LaunchConfig{Dim3(1), Dim3(2048)}, {a, Scalar(int64_t{1})}), std::invalid_argument);
  k.launch(LaunchConfig{Dim3(1), Dim3(1)}, {a, Scalar(int64_t{5})});
  EXPECT_EQ(values<float>(a)[0], 5.0f);
  Kernel s = RawModule(R"(extern "C" __global__ void w(float* a) {
    float v = a[threadIdx.x];
    v += __reduce_add_sync(0xffffffffu, (unsigned)v);
    a[threadIdx.x] = v;
  })").get_function("w", false);  // lazily: the GPU (NVRTC) would compile it fine
  try {
    s.launch(LaunchConfig{Dim3(1), Dim3(1)}, {a});
    FAIL() << "no error";
  } catch (const UnsupportedError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("__reduce_add_sync"), std::string::npos) << m;
    EXPECT_NE(m.find("line 3"), std::string::npos) << m;
  }
  // compile_now=false: with a GPU, get_function would compile for it (NVRTC) and fail here.
  Kernel bad = RawModule(R"(extern "C" __global__ void g(float* a) { a[0] = undefined_name; })").get_function("g", false);
  EXPECT_THROW(bad.launch(LaunchConfig{Dim3(1), Dim3(1)}, {a}), CompileError);
}

// ---------------------------------------------------------------- debug mode

// `mode` picks which access goes out of bounds (by `off` elements past the end), each on its
// own line: subscript, pointer arithmetic, ->, a pointer moved by ++ and +=, a template
// kernel's parameter. A __device__ helper taking T* and casts of every kind still compile
// (unchecked from there; mode 4).
constexpr const char* kDebugAccesses = R"(struct Pair { float a, b; };
__device__ float first(const float* p) { return p[0]; }
extern "C" __global__ void access(float* x, const Pair* pairs, int n, int mode, int off);
extern "C" __global__ void access(float* x, const Pair* __restrict__ pairs, int n, int mode, int off) {
  int i = threadIdx.x;
  if (mode == 0) x[i + (i == 3 ? off : 0)] = 1.0f;
  if (mode == 1) *(x + i + (i == 0 ? off : 0)) = first(x);
  if (mode == 2 && i == 1) x[0] = (pairs + 4 + off)->b;
  if (mode == 3 && i == 2) {
    const Pair* p = pairs;  // a plain pointer: unchecked
    auto q = x; q += n - 1; ++q;  // auto keeps the checked pointer
    x[0] = p[0].a + *q;
  }
  if (mode == 4 && i == 0) x[1] = reinterpret_cast<const float2*>(x)[1].y + ((const float*)x)[2] + (float)(const_cast<const float*>(static_cast<float*>(x)) - x);
}
template <class T> __global__ void tscale(T* y, T s) { y[threadIdx.x] *= s; }
)";

std::string launch_error(const Kernel& k, const LaunchConfig& cfg, const std::vector<KernelArg>& args) {
  try {
    k.launch(cfg, args);
  } catch (const std::out_of_range& e) {
    return e.what();
  }
  return "no error";
}

TEST(CpuEmulatorDebug, OutOfBoundsAccessesRaiseOutOfRangeNamingTheLine) {
  RawModule m(kDebugAccesses, {}, {"tscale<double>"});
  Kernel k = m.get_function("access", false);
  Array x = from(std::vector<float>(8, 0.0f), float32);
  Array pairs = from(std::vector<float>(8, 0.0f), float32);  // 4 Pairs
  LaunchConfig cfg{Dim3(1), Dim3(4)};
  cfg.debug = true;
  auto args = [&](int mode, int off) {
    return std::vector<KernelArg>{x, pairs, Scalar(int64_t{8}), Scalar(int64_t{mode}), Scalar(int64_t{off})};
  };
  // In bounds, every access runs (mode 3 always steps one past the end).
  for (int mode : {0, 1, 2, 4}) EXPECT_EQ(launch_error(k, cfg, args(mode, mode == 2 ? -1 : 0)), "no error") << mode;
  std::string e = launch_error(k, cfg, args(0, 5));
  EXPECT_EQ(e, "[RawKernel access] out-of-bounds access at line 6 of the kernel source: byte offset 32 (element 8) "
               "of a 8-element float32 array argument 0 (x), in thread (3, 0, 0) of block (0, 0, 0)");
  e = launch_error(k, cfg, args(1, 8));
  EXPECT_NE(e.find("at line 7 of the kernel source: byte offset 32 (element 8) of a 8-element float32 array "
                   "argument 0 (x), in thread (0, 0, 0)"), std::string::npos) << e;
  // A Pair read from a float32 array: the access is 8 bytes, not one element.
  e = launch_error(k, cfg, args(2, 0));
  EXPECT_NE(e.find("at line 8 of the kernel source: a 8-byte access at byte offset 32 (element 8) of a 8-element "
                   "float32 array argument 1 (pairs)"), std::string::npos) << e;
  e = launch_error(k, cfg, args(3, 0));
  EXPECT_NE(e.find("at line 12 of the kernel source: byte offset 32 (element 8)"), std::string::npos) << e;
  // Template kernels are checked too; in bounds they compute as usual.
  Kernel t = m.get_function("tscale<double>", false);
  Array y = from(std::vector<double>{1, 2, 3}, float64);
  e = launch_error(t, LaunchConfig{Dim3(1), Dim3(4), 0, nullptr, false, true}, {y, Scalar(2.0)});
  EXPECT_NE(e.find("[RawKernel tscale<double>] out-of-bounds access at line 16 of the kernel source: byte offset 24 "
                   "(element 3) of a 3-element float64 array argument 0 (y), in thread (3, 0, 0)"),
            std::string::npos) << e;
  y = from(std::vector<double>{1, 2, 3}, float64);  // threads before the failing one scaled theirs
  t.launch(LaunchConfig{Dim3(1), Dim3(3), 0, nullptr, false, true}, {y, Scalar(2.0)});
  EXPECT_EQ(values<double>(y), (std::vector<double>{2, 4, 6}));
}

TEST(CpuEmulatorDebug, EnvironmentSwitchesItOnPerLaunchAndSharedMemoryStartsAsJunk) {
  Kernel k = RawModule(R"(extern "C" __global__ void unwritten(int* a, float* b) {
    __shared__ int s[32];
    extern __shared__ float d[];
    a[blockIdx.x * 32 + threadIdx.x] = s[threadIdx.x];
    b[blockIdx.x * 32 + threadIdx.x] = d[threadIdx.x];
  })").get_function("unwritten", false);
  Array a = from(std::vector<int32_t>(64, 7), int32), b = from(std::vector<float>(64, 7.0f), float32);
  setenv("LOOM_EMULATOR_DEBUG", "1", 1);
  k.launch(LaunchConfig{Dim3(2), Dim3(32), 32 * sizeof(float)}, {a, b});
  unsetenv("LOOM_EMULATOR_DEBUG");
  for (int32_t v : values<int32_t>(a)) ASSERT_EQ(v, -1);  // 0xFF bytes
  for (float v : values<float>(b)) ASSERT_TRUE(std::isnan(v));
}

TEST(CpuEmulatorDebug, CorrectKernelsGiveTheSameAnswersWithBothFiberKinds) {
  Kernel k = RawModule(kReduce).get_function("block_sum", false);
  const int n = 256 * 9 - 5;
  const auto x = random_floats(n, 6);
  for (const char* fibers : {"", "ucontext"}) {
    setenv("LOOM_EMULATOR_FIBERS", fibers, 1);
    Array xa = from(x, float32), out = from(std::vector<float>(9, -1.0f), float32);
    LaunchConfig cfg{Dim3(9), Dim3(256)};
    cfg.debug = true;
    k.launch(cfg, {xa, out, Scalar(int64_t{n})});
    const auto v = values<float>(out);
    for (int b = 0; b < 9; ++b) {
      std::vector<float> s(256);
      for (int t = 0; t < 256; ++t) s[t] = b * 256 + t < n ? x[b * 256 + t] : 0.0f;
      for (int stride = 128; stride > 0; stride >>= 1)
        for (int t = 0; t < stride; ++t) s[t] += s[t + stride];
      ASSERT_EQ(v[b], s[0]) << fibers << " " << b;
    }
  }
  unsetenv("LOOM_EMULATOR_FIBERS");
}

TEST(CpuEmulatorDebug, ShuffledThreadsExposeAMissingBarrier) {
  // Thread t reads slot t - 1 without a barrier: right in x order, NaN (junk) whenever
  // thread t runs before t - 1, which a random order of 128 threads all but always does.
  Kernel k = RawModule(R"(extern "C" __global__ void racy(float* out) {
    __shared__ float s[128];
    int t = threadIdx.x;
    s[t] = t;
    out[t] = t > 0 ? s[t - 1] : -1.0f;
  })").get_function("racy", false);
  Array out = from(std::vector<float>(128, 0.0f), float32);
  k.launch(LaunchConfig{Dim3(1), Dim3(128)}, {out});
  auto v = values<float>(out);
  for (int t = 0; t < 128; ++t) ASSERT_EQ(v[t], t - 1.0f);  // unseen without debug mode
  LaunchConfig cfg{Dim3(1), Dim3(128)};
  cfg.debug = true;
  k.launch(cfg, {out});
  v = values<float>(out);
  int junk = 0;
  for (int t = 0; t < 128; ++t) {
    if (std::isnan(v[t])) ++junk;
    else ASSERT_EQ(v[t], t - 1.0f);
  }
  EXPECT_GT(junk, 0);
}


// Cooperative groups: grid.sync() makes every block's writes of one round visible to every
// block before the next round (each thread reads its mirror column, written by another
// block). Without the grid barrier the blocks, each on a thread of its own, race.
constexpr const char* kGridRows = R"(
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void rows(int* m, int nrows, int ncols) {
  cg::grid_group g = cg::this_grid();
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  for (int r = 1; r < nrows; ++r) {
    m[r * ncols + col] = m[(r - 1) * ncols + (ncols - 1 - col)] + 1;
    g.sync();
  }
  if (g.thread_rank() == 0) m[0] = (int)g.size();
}
extern "C" __global__ void early_exit(int* m) {
  if (blockIdx.x == 1) return;  // a GPU would hang at the grid barrier below
  cg::this_grid().sync();
  m[0] = 1;
}
)";

TEST(CpuEmulator, GridSyncMakesEveryBlockWaitForTheGrid) {
  RawModule mod(kGridRows);
  Kernel k = mod.get_function("rows");
  EXPECT_TRUE(k.cooperative());
  const int nrows = 40, ncols = 8 * 32;
  Array m = from(std::vector<int32_t>(nrows * ncols, 0), int32);
  k.launch(LaunchConfig{Dim3(8), Dim3(32)}, {m, Scalar(int64_t{nrows}), Scalar(int64_t{ncols})});
  const auto v = values<int32_t>(m);
  EXPECT_EQ(v[0], 8 * 32);
  for (int r = 1; r < nrows; ++r)
    for (int c = 0; c < ncols; ++c) ASSERT_EQ(v[r * ncols + c], r) << r << "," << c;
  EXPECT_EQ(k.max_cooperative_blocks(cpu(), 32), 256);
  EXPECT_EQ(k.max_cooperative_blocks(cpu(), 1024), 16);
  EXPECT_THROW(k.launch(LaunchConfig{Dim3(300), Dim3(32)}, {m, Scalar(int64_t{2}), Scalar(int64_t{300 * 32})}),
               std::invalid_argument);
}

TEST(CpuEmulator, BlockLeavingBeforeAGridBarrierIsAnErrorNotAHang) {
  Kernel k = RawModule(kGridRows).get_function("early_exit");
  Array m = from(std::vector<int32_t>(1, 0), int32);
  try {
    k.launch(LaunchConfig{Dim3(4), Dim3(16)}, {m});
    FAIL() << "expected an error";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("returned while others wait at a grid barrier"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(RawModule("extern \"C\" __global__ void k(int* a) { a[0] = 1; }").get_function("k").cooperative());
}

}  // namespace
}  // namespace loom
