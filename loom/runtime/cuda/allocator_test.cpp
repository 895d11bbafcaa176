// The caching allocator: reuse, accounting, zero bytes, limits and out-of-memory.
#include <gtest/gtest.h>

#include <chrono>
#include <random>
#include <vector>

#include "loom/backend/cuda/test_gpu.h"
#include "loom/runtime/gpu_runtime.h"
#include "loom/backend/cuda/test_util.h"
#include "loom/backend/creation.h"
#include "loom/core/scalar.h"
#include "loom/core/error.h"
#include "loom/runtime/stream.h"

namespace loom::testing {
namespace {

namespace gb = loom::gpu_runtime;

TEST(CudaAllocator, ReusesFreedBlocks) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  const MemoryStats before = gb::memory_stats(0);
  void* first;
  {
    auto b = gb::allocate(0, 4000, nullptr);
    first = b->data();
    EXPECT_EQ(b->nbytes(), 4000u);
    EXPECT_EQ(b->device(), gpu0());
    EXPECT_EQ(gb::memory_stats(0).in_use, before.in_use + 4096);
  }
  EXPECT_EQ(gb::memory_stats(0).in_use, before.in_use);
  auto again = gb::allocate(0, 4000, nullptr);
  EXPECT_EQ(again->data(), first);  // same stream, same size: the cached block
  auto big = gb::allocate(0, 5 << 20, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(big->data()) % 512, 0u);
}

TEST(CudaAllocator, HundredThousandCyclesReturnInUseToStart) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  const MemoryStats before = gb::memory_stats(0);
  std::mt19937 g(1234);
  std::uniform_int_distribution<size_t> small(1, 1 << 20), large((1 << 20) + 1, 8 << 20);
  std::vector<std::shared_ptr<Buffer>> live(64);
  for (int i = 0; i < 100000; ++i) {
    const size_t n = i % 10 == 0 ? large(g) : small(g);
    live[g() % live.size()] = gb::allocate(0, n, nullptr);  // frees what was in the slot
  }
  EXPECT_GT(gb::memory_stats(0).in_use, before.in_use);
  live.clear();
  const MemoryStats after = gb::memory_stats(0);
  EXPECT_EQ(after.in_use, before.in_use);
  EXPECT_GE(after.peak, before.in_use);
  EXPECT_GT(after.cached, 0u);
  gb::empty_cache(0);
  EXPECT_LE(gb::memory_stats(0).cached, before.cached);
}

TEST(CudaAllocator, FastPathCost) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  void* stream = Stream::current(gpu0()).native();
  gb::allocate(0, 4000, stream);  // warm the pool
  constexpr int kIters = 200000;
  uintptr_t sink = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < kIters; ++i) {
    auto b = gb::allocate(0, 4000, stream);
    sink ^= reinterpret_cast<uintptr_t>(b->data());
  }
  const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / kIters;
  std::printf("[ info ] allocate + free of 4000 bytes: %.3f us (%zx)\n", us, static_cast<size_t>(sink & 1));
  EXPECT_LT(us, 20.0);  // a sanity bound, far above the ~0.1 us expected
}

TEST(CudaAllocator, ZeroBytes) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  const MemoryStats before = gb::memory_stats(0);
  auto b = gb::allocate(0, 0, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->nbytes(), 0u);
  EXPECT_EQ(gb::memory_stats(0).in_use, before.in_use);
  Array empty = Array::allocate({0, 3}, float32, gpu0());
  EXPECT_EQ(array_bytes(empty).size(), 0u);
}

TEST(CudaAllocator, OutOfMemoryThenKeepsWorking) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  const size_t total = gb::memory_stats(0).total;
  try {
    gb::allocate(0, 2 * total, nullptr);
    FAIL() << "expected OutOfMemoryError";
  } catch (const OutOfMemoryError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("[allocate]"), std::string::npos) << msg;
    EXPECT_NE(msg.find(std::to_string(2 * total)), std::string::npos) << msg;
    EXPECT_NE(msg.find("GiB"), std::string::npos) << msg;
    EXPECT_NE(msg.find("in use"), std::string::npos) << msg;
    EXPECT_NE(msg.find("cached"), std::string::npos) << msg;
    EXPECT_NE(msg.find("batches"), std::string::npos) << msg;
    std::printf("[ info ] %s\n", msg.c_str());
  }
  // The device still works: allocate, fill, read back.
  Array a = Array::allocate({1000}, int32, gpu0());
  gpu_backend::fill(a, Scalar(7));
  const Bytes got = array_bytes(a);
  EXPECT_EQ(reinterpret_cast<const int32_t*>(got.data())[999], 7);
}

TEST(CudaAllocator, LimitAndEmptyCache) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  gb::empty_cache(0);
  const MemoryStats s = gb::memory_stats(0);
  const size_t reserved = s.in_use + s.cached;
  gb::set_limit(0, reserved + (64 << 20));
  EXPECT_EQ(gb::memory_stats(0).limit, reserved + (64 << 20));
  {
    auto ok = gb::allocate(0, 32 << 20, nullptr);
    EXPECT_THROW(gb::allocate(0, 128 << 20, nullptr), OutOfMemoryError);
  }
  // The freed 32 MiB segment is cached; the limit frees it to make room for 60 MiB.
  EXPECT_NO_THROW(gb::allocate(0, 60 << 20, nullptr));
  gb::set_limit(0, 0);
  EXPECT_NO_THROW(gb::allocate(0, 128 << 20, nullptr));
  gb::empty_cache(0);
  EXPECT_EQ(gb::memory_stats(0).cached, 0u);
}

// What loom top polls: the statistics of a used GPU, and none (no allocator made) otherwise.
TEST(CudaAllocator, StatsIfUsed) {
  MemoryStats s;
  EXPECT_FALSE(gb::memory_stats_if_used(-1, s));
  EXPECT_FALSE(gb::memory_stats_if_used(1 << 20, s));
  LOOM_REQUIRE_GPU_OR_SKIP();
  auto b = gb::allocate(0, 3 << 20, nullptr);
  ASSERT_TRUE(gb::memory_stats_if_used(0, s));
  const MemoryStats expected = gb::memory_stats(0);
  EXPECT_EQ(s.in_use, expected.in_use);
  EXPECT_EQ(s.cached, expected.cached);
  EXPECT_GE(s.in_use, size_t{3} << 20);
}

TEST(CudaAllocator, BlockFreedAfterUseOnAnotherStreamWaitsForIt) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  const MemoryStats before = gb::memory_stats(0);
  Stream side = Stream::create(gpu0());
  {
    Array a = Array::allocate({256 << 20}, uint8, gpu0());  // allocated on the default stream
    StreamScope scope(side);
    gpu_backend::fill(a, Scalar(3));  // written on `side`: last_stream != alloc_stream
    EXPECT_EQ(a.buffer()->last_stream(), side.native());
  }
  EXPECT_EQ(gb::memory_stats(0).in_use, before.in_use);
  side.synchronize();
  Array b = Array::allocate({256 << 20}, uint8, gpu0());  // the block is back once the event is done
  gpu_backend::fill(b, Scalar(4));
  EXPECT_EQ(array_bytes(b)[12345], 4);
}

}  // namespace
}  // namespace loom::testing
