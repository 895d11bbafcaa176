// The CPU kernel emulator's robustness: stacks sized from the kernel's locals, assert and
// __trap ending a launch with an error (and the next launch working), attributes on
// cpu(), and the precompiled-header folder's pruning policy.
#include <gtest/gtest.h>

#include <stdlib.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include <cstring>
#include <ctime>
#include <fstream>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "loom/kernel/emulator/emulator.h"
#include "loom/kernel/emulator/emulator_test_util.h"
#include "loom/kernel/emulator/host_compiler.h"
#include "loom/kernel/emulator/pch_prune.h"
#include "loom/kernel/emulator/stack_usage.h"
#include "loom/core/error.h"
#include "loom/kernel/raw_module.h"

namespace loom {
namespace {

using cpu_emulator::StackNeed;

// int32 arrays throughout.
Array from(const std::vector<int32_t>& v) { return emulator_test::from(v, int32); }
std::vector<int32_t> values(const Array& a) { return emulator_test::values<int32_t>(a); }
std::vector<int32_t> random_ints(size_t n, unsigned seed) {
  std::mt19937 g(seed);
  std::uniform_int_distribution<int32_t> d(-1000, 1000);
  std::vector<int32_t> v(n);
  for (auto& x : v) x = d(g);
  return v;
}

// Sets LOOM_EMULATOR_FIBERS for one scope ("" = the default, boost.context where built).
struct Fibers {
  explicit Fibers(const char* kind) {
    if (*kind) setenv("LOOM_EMULATOR_FIBERS", kind, 1);
  }
  ~Fibers() { unsetenv("LOOM_EMULATOR_FIBERS"); }
};

// ---------------------------------------------------------------- call-graph parsing

std::string node(const std::string& t, const std::string& size) {
  return "node: { title: \"" + t + "\" label: \"void " + t + "()\\nloom_kernel.cu:1:1" +
         (size.empty() ? "\" shape : ellipse }\n" : "\\n" + size + "\" }\n");
}
std::string edge(const std::string& s, const std::string& t, const std::string& where = "loom_kernel.cu:3:4") {
  return "edge: { sourcename: \"" + s + "\" targetname: \"" + t + "\" label: \"" + where + "\" }\n";
}

TEST(CpuEmulatorStack, DeepestChainOfFramesBelowTheEntry) {
  const std::string ci = "graph: { title: \"module.cpp\"\n" + node("loom_emu_thread_0", "32 bytes (static)") +
                         node("kernel", "1000 bytes (static)") + node("module.cpp:_ZL5smalli", "100 bytes (static)") +
                         node("_Z3bigv", "5000 bytes (static)") + node("printf", "") +
                         edge("loom_emu_thread_0", "kernel") + edge("kernel", "module.cpp:_ZL5smalli.localalias") +
                         edge("kernel", "_Z3bigv") + edge("_Z3bigv", "printf") + "}\n";
  const StackNeed n = cpu_emulator::stack_need(ci, "loom_emu_thread_0");
  EXPECT_TRUE(n.known);
  EXPECT_TRUE(n.bounded);
  EXPECT_EQ(n.bytes, 32u + 1000u + 5000u);  // the longer branch; printf is outside (headroom)
  EXPECT_EQ(cpu_emulator::stack_need(ci, "_ZL5smalli").bytes, 100u);
  EXPECT_FALSE(cpu_emulator::stack_need(ci, "loom_emu_thread_7").known);
}

TEST(CpuEmulatorStack, RecursionAndVariableFramesAreUnbounded) {
  const std::string rec = node("e", "16 bytes (static)") + node("f", "64 bytes (static)") + edge("e", "f") + edge("f", "f");
  StackNeed n = cpu_emulator::stack_need(rec, "e");
  EXPECT_FALSE(n.bounded);
  EXPECT_EQ(n.bytes, 80u);
  const std::string vla = node("e", "16 bytes (static)") + node("g", "48 bytes (dynamic)") + edge("e", "g");
  EXPECT_FALSE(cpu_emulator::stack_need(vla, "e").bounded);
  const std::string bounded = node("e", "16 bytes (static)") + node("g", "48 bytes (dynamic,bounded)") + edge("e", "g");
  EXPECT_TRUE(cpu_emulator::stack_need(bounded, "e").bounded);
}

TEST(CpuEmulatorStack, IndirectCallsCountTheDeepestFunctionExceptTheBarrier) {
  const std::string g = node("e", "16 bytes (static)") + node("k", "100 bytes (static)") +
                        node("_Z4deepv", "9000 bytes (static)") + node("__indirect_call", "") + edge("e", "k") +
                        edge("k", "__indirect_call", "loom_cuda_emu.h:82:16");
  EXPECT_EQ(cpu_emulator::stack_need(g, "e").bytes, 116u);  // the barrier: headroom covers it
  const std::string scratch = node("e", "16 bytes (static)") + node("k", "100 bytes (static)") +
                              node("_Z4deepv", "9000 bytes (static)") + edge("e", "k") +
                              edge("k", "__indirect_call", "/tmp/loom-cxx-AbC123/loom_cuda_emu.h:82:16");
  EXPECT_EQ(cpu_emulator::stack_need(scratch, "e").bytes, 116u);  // where the compile found the header
  const std::string user = g + edge("k", "__indirect_call", "loom_kernel.cu:5:3");
  EXPECT_EQ(cpu_emulator::stack_need(user, "e").bytes, 116u + 9000u);  // a function pointer: any function
}

TEST(CpuEmulatorStack, SizesArePowersOfTwoAboveNeedPlusHeadroom) {
  using cpu_emulator::fiber_stack_bytes;
  StackNeed n;
  EXPECT_EQ(fiber_stack_bytes(n), cpu_emulator::kUnboundedStackExtra);  // unknown
  n.known = true;
  EXPECT_EQ(fiber_stack_bytes(n), cpu_emulator::kMinFiberStack);
  n.bytes = 512 * 1024;
  EXPECT_EQ(fiber_stack_bytes(n), size_t{1} << 20);  // 512 KiB + 64 KiB headroom
  n.bounded = false;
  EXPECT_EQ(fiber_stack_bytes(n), size_t{2} << 20);
}

// ---------------------------------------------------------------- big locals

constexpr const char* kBigLocal = R"(
extern "C" __global__ void big_local(const int* x, int* out, int n) {
  __shared__ int s[128];
  int buf[131072];  // 512 KiB: more than the old fixed 128 KiB fiber stack
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  int v = i < n ? x[i] : 0;
  for (int j = 0; j < 131072; ++j) buf[j] = v + (j & 7);
  s[t] = buf[(t * 7) % 131072] + buf[131071];
  __syncthreads();
  if (i < n) out[i] = s[(t + 1) % blockDim.x];
})";

void check_big_local(const char* fibers) {
  Fibers env(fibers);
  Kernel k = RawModule(kBigLocal).get_function("big_local");
  const int n = 1000, threads = 128, blocks = (n + threads - 1) / threads;
  const auto x = random_ints(n, 11);
  Array xa = from(x), out = from(std::vector<int32_t>(n, -1));
  k.launch(LaunchConfig{Dim3(blocks), Dim3(threads)}, {xa, out, Scalar(int64_t{n})});
  const auto v = values(out);
  for (int i = 0; i < n; ++i) {
    const int b = i / threads, u = (i % threads + 1) % threads, src = b * threads + u;
    const int xv = src < n ? x[src] : 0;
    ASSERT_EQ(v[i], 2 * xv + ((u * 7) & 7) + 7) << i << " with fibers '" << fibers << "'";
  }
  EXPECT_GE(k.attributes(cpu()).local_size_bytes, 512u * 1024);
}

TEST(CpuEmulatorStack, BigLocalArrayWithBarriersBoostFibers) { check_big_local(""); }
TEST(CpuEmulatorStack, BigLocalArrayWithBarriersUcontextFibers) { check_big_local("ucontext"); }

// Without barriers the block loop runs on the worker's stack (8 MiB by default), unless it
// needs more than a fraction of it (256 KiB): 400 KiB of locals run on a fiber stack.
TEST(CpuEmulatorStack, BarrierFreeKernelWithLocalsBeyondAThreadStack) {
  for (const char* fibers : {"", "ucontext"}) {
    Fibers env(fibers);
    Kernel k = RawModule(R"(extern "C" __global__ void huge_local(int* out, int n) {
      int buf[100 << 10];  // 400 KiB
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      for (int j = 0; j < (100 << 10); j += 4096) buf[j] = i + j;
      if (i < n) out[i] = buf[(i * 4096) % (100 << 10)] - i;
    })").get_function("huge_local");
    Array out = from(std::vector<int32_t>(8, -1));
    k.launch(LaunchConfig{Dim3(2), Dim3(4)}, {out, Scalar(int64_t{8})});
    const auto v = values(out);
    for (int i = 0; i < 8; ++i) ASSERT_EQ(v[i], (i * 4096) % (100 << 10)) << i;
  }
}

// More than CUDA's 512 KiB of local memory per thread: NVRTC compiles it, a GPU refuses
// the launch, and so does the emulator (before its own stack limit could matter).
TEST(CpuEmulatorStack, AKernelNeedingTooMuchStackIsRefusedNamingIt) {
  Kernel k = RawModule(R"(extern "C" __global__ void enormous(char* out) {
    char buf[100 << 20];
    for (int j = 0; j < (100 << 20); j += 4096) buf[j] = (char)j;
    __syncthreads();
    out[threadIdx.x] = buf[threadIdx.x * 4096];
  })").get_function("enormous");
  Array out = Array::allocate({4}, int8, cpu());
  try {
    k.launch(LaunchConfig{Dim3(1), Dim3(4)}, {out});
    FAIL() << "no error";
  } catch (const CudaError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("[RawKernel enormous]"), std::string::npos) << m;
    EXPECT_NE(m.find("local memory"), std::string::npos) << m;
    EXPECT_NE(m.find("524288"), std::string::npos) << m;
  }
  EXPECT_GE(k.attributes(cpu()).local_size_bytes, size_t{100} << 20);
}

// ---------------------------------------------------------------- assert and __trap

constexpr const char* kAsserts = R"(
extern "C" __global__ void loop_assert(int* a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  assert(i < n);
  a[i] = 1;
}
extern "C" __global__ void fiber_assert(int* a, int n) {
  __shared__ int s[64];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i;
  __syncthreads();
  assert(s[threadIdx.x] < n);
  a[i] = 1;
}
extern "C" __global__ void fiber_trap(int* a, int n) {
  __syncthreads();
  if (blockIdx.x * blockDim.x + threadIdx.x == n) __trap();
}
extern "C" __global__ void doublify(int* a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] *= 2;
})";

void expect_error(const Kernel& k, int n, const std::string& want) {
  Array a = from(std::vector<int32_t>(4 * 64, 0));
  try {
    k.launch(LaunchConfig{Dim3(4), Dim3(64)}, {a, Scalar(int64_t{n})});
    FAIL() << k.name() << ": no error";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(dynamic_cast<const CompileError*>(&e), nullptr) << e.what();
    const std::string m = e.what();
    EXPECT_NE(m.find("[RawKernel " + k.name() + "] " + want), std::string::npos) << m;
  }
}

void check_asserts(const char* fibers) {
  Fibers env(fibers);
  RawModule m(kAsserts);
  // Thread 200 is the only one failing in its block: (200 % 64, 0, 0) of block (3, 0, 0).
  expect_error(m.get_function("loop_assert"), 200,
               "device-side assert `i < n` failed at line 4 of the kernel source, in thread (8, 0, 0) of block (3, 0, 0)");
  expect_error(m.get_function("fiber_assert"), 200,
               "device-side assert `s[threadIdx.x] < n` failed at line 12 of the kernel source, in thread (8, 0, 0) "
               "of block (3, 0, 0)");
  expect_error(m.get_function("fiber_trap"), 70,
               "the kernel called __trap() at line 17 of the kernel source, in thread (6, 0, 0) of block (1, 0, 0)");
  // The failed launches left nothing behind.
  for (const char* name : {"fiber_assert", "loop_assert"}) {
    Array a = from(std::vector<int32_t>(256, 0));
    m.get_function(name).launch(LaunchConfig{Dim3(4), Dim3(64)}, {a, Scalar(int64_t{256})});
    for (int32_t v : values(a)) ASSERT_EQ(v, 1) << name;
  }
  const auto x = random_ints(1000, 5);
  Array a = from(x);
  m.get_function("doublify").launch(LaunchConfig{Dim3(4), Dim3(256)}, {a, Scalar(int64_t{1000})});
  const auto y = values(a);
  for (size_t i = 0; i < x.size(); ++i) ASSERT_EQ(y[i], 2 * x[i]) << i;
}

TEST(CpuEmulatorAssert, FailedAssertAndTrapRaiseAndTheNextLaunchWorksBoost) {
#if defined(__SANITIZE_ADDRESS__)
  // ASan cannot follow a throw across boost.context's stack switches (google/sanitizers#189);
  // make asan-test runs the emulator on ucontext fibers, which it intercepts.
  GTEST_SKIP() << "boost.context fibers under AddressSanitizer";
#endif
  check_asserts("");
}
TEST(CpuEmulatorAssert, FailedAssertAndTrapRaiseAndTheNextLaunchWorksUcontext) { check_asserts("ucontext"); }

TEST(CpuEmulatorAssert, IncludesAndNdebugBehaveAsInC) {
  const std::string body = R"(
extern "C" __global__ void k(int* a, int n) {
  int i = threadIdx.x;
  assert(i < n);
  a[i] = 7;
})";
  Array a = from(std::vector<int32_t>(8, 0));
  // get_function(.., false) throughout: on a GPU machine it would compile for the GPU now,
  // and NVRTC has no <assert.h> to include (its assert needs none).
  for (const char* include : {"#include <assert.h>\n", "#include <cassert>\n"}) {
    Kernel k = RawModule(include + body).get_function("k", false);
    EXPECT_THROW(k.launch(LaunchConfig{Dim3(1), Dim3(8)}, {a, Scalar(int64_t{4})}), std::runtime_error) << include;
  }
  // NDEBUG from the options or defined before the include: assert does nothing.
  RawModule(body, {"-DNDEBUG"}).get_function("k", false).launch(LaunchConfig{Dim3(1), Dim3(8)}, {a, Scalar(int64_t{4})});
  for (int32_t v : values(a)) ASSERT_EQ(v, 7);
  Array b = from(std::vector<int32_t>(8, 0));
  RawModule("#define NDEBUG\n#include <cassert>\n" + body).get_function("k", false).launch(LaunchConfig{Dim3(1), Dim3(8)},
                                                                                      {b, Scalar(int64_t{4})});
  for (int32_t v : values(b)) ASSERT_EQ(v, 7);
}

// ---------------------------------------------------------------- attributes

TEST(CpuEmulatorAttributes, LimitsAndCompiledFacts) {
  Kernel k = RawModule(R"(
__shared__ float tile[16][16];
extern "C" __global__ void k(const float* x, double y, char c, float* out) {
  __shared__ int counts[100];
  counts[threadIdx.x % 100] = (int)c;
  tile[threadIdx.y][threadIdx.x] = x[threadIdx.x] * (float)y;
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x % 16][0] + counts[0];
})").get_function("k");
  const KernelAttributes a = k.attributes(cpu());
  EXPECT_EQ(a.max_threads_per_block, 1024);
  EXPECT_EQ(a.num_regs, 0);
  EXPECT_EQ(a.param_sizes, (std::vector<size_t>{8, 8, 1, 8}));
  EXPECT_EQ(a.static_shared_bytes, 16u * 16 * 4 + 100 * 4);  // its own and the file-scope one it names
  EXPECT_EQ(a.max_dynamic_shared_bytes, cpu_emulator::kMaxDynamicShared - a.static_shared_bytes);
  EXPECT_EQ(a.const_size_bytes, 0u);
  EXPECT_EQ(a.ptx_version, 0);
  EXPECT_EQ(a.binary_version, 0);
}

// ---------------------------------------------------------------- PCH pruning

struct Folder {
  cpu_emulator::TempDir dir;
  void file(const std::string& name, time_t mtime) {
    std::ofstream(dir.path + "/" + name) << "x";
    const timeval tv[2] = {{mtime, 0}, {mtime, 0}};
    ASSERT_EQ(utimes((dir.path + "/" + name).c_str(), tv), 0);
  }
  std::set<std::string> names() {
    std::set<std::string> s;
    std::string out;
    cpu_emulator::run_command("ls -A " + cpu_emulator::shell_quote(dir.path), &out);
    size_t b = 0;
    for (size_t e; (e = out.find('\n', b)) != std::string::npos; b = e + 1) s.insert(out.substr(b, e - b));
    return s;
  }
};

TEST(CpuEmulatorPch, OldUnusedHeadersGoAndAtMostFourStay) {
  const time_t now = 1700000000, day = 24 * 3600;
  Folder f;
  f.file("current.gch", now - 30 * day);  // just built or used: never deleted, whatever its mtime
  f.file("idle8d.gch", now - 8 * day);    // unused for more than 7 days
  f.file("a1d.gch", now - 1 * day);
  f.file("b2d.gch", now - 2 * day);
  f.file("c3d.gch", now - 3 * day);
  f.file("d4d.gch", now - 4 * day);       // the oldest of 5 recent ones: over the limit of 4
  f.file("x.gch.tmp123", now - 2 * 3600);  // a killed build's leftover
  f.file("y.gch.tmp456", now - 60);        // a build running now
  f.file("notes.txt", now - 100 * day);    // not ours
  cpu_emulator::prune_precompiled_headers(f.dir.path, "current.gch", now);
  EXPECT_EQ(f.names(), (std::set<std::string>{"current.gch", "a1d.gch", "b2d.gch", "c3d.gch", "y.gch.tmp456", "notes.txt"}));
  // A missing folder is not an error.
  cpu_emulator::prune_precompiled_headers(f.dir.path + "/missing", "current.gch", now);
}

}  // namespace
}  // namespace loom
