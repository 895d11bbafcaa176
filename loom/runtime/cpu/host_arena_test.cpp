// cpu() array memory: size classes, alignment, blocks that never overlap, reuse, the
// loom.memory statistics, guard pages, and concurrent use.
#include "loom/runtime/cpu/host_arena.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <random>
#include <atomic>
#include <thread>
#include <utility>
#include <vector>

#include <sys/wait.h>

#include "loom/runtime/cpu/host_allocator.h"
#include "loom/core/error.h"

namespace loom::cpu_runtime {
namespace {

uintptr_t addr(const std::shared_ptr<Buffer>& b) { return reinterpret_cast<uintptr_t>(b->data()); }

TEST(HostArena, SizeClassesAreTightMultiplesOf64) {
  size_t last = 0;
  for (size_t n = 0; n <= host_arena::kSlabMax; n += (n < 100000 ? 1 : 997)) {
    const size_t c = host_arena::class_size(n);
    ASSERT_EQ(c % 64, 0u) << n;
    ASSERT_GE(c, std::max<size_t>(n, 1)) << n;
    ASSERT_LE(c, n <= 1024 ? std::max<size_t>(n, 1) + 63 : n + n / 4) << n;
    ASSERT_GE(c, last) << n;
    last = c;
  }
  EXPECT_EQ(host_arena::class_size(host_arena::kSlabMax), host_arena::kSlabMax);
}

TEST(HostArena, BlocksAreAlignedDistinctAndKeepTheirData) {
  std::mt19937_64 rng(19);
  std::vector<std::shared_ptr<Buffer>> blocks;
  for (int i = 0; i < 400; ++i) {
    const int kind = static_cast<int>(rng() % 20);  // mostly slab sizes, some mapped ones
    const size_t limit = kind < 16 ? (64 << 10) : kind < 19 ? (3 << 20) : (6 << 20);
    const size_t n = rng() % limit;
    blocks.push_back(allocate(n));
    ASSERT_EQ(addr(blocks.back()) % 64, 0u) << n;
    std::memset(blocks.back()->data(), i & 0xff, n);
    if (rng() % 4 == 0) blocks.erase(blocks.begin() + static_cast<long>(rng() % blocks.size()));
  }
  std::vector<std::pair<uintptr_t, uintptr_t>> ranges;
  for (const auto& b : blocks) ranges.emplace_back(addr(b), addr(b) + b->nbytes());
  std::sort(ranges.begin(), ranges.end());
  for (size_t i = 1; i < ranges.size(); ++i) ASSERT_LE(ranges[i - 1].second, ranges[i].first);
  // Every block still holds what was written to it: no block shares bytes with another.
  for (size_t i = 0; i < blocks.size(); ++i) {
    const auto* p = static_cast<const unsigned char*>(blocks[i]->data());
    for (size_t j = 0; j < blocks[i]->nbytes(); ++j) ASSERT_EQ(p[j], p[0]) << i << " " << j;
  }
}

TEST(HostArena, FreedBlocksAreReused) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "slab blocks come from malloc under AddressSanitizer";
#endif
  for (size_t n : {size_t{1}, size_t{1000}, size_t{70000}, size_t{1} << 20, size_t{3} << 20, size_t{12} << 20}) {
    void* p = allocate(n)->data();  // freed at once
    auto again = allocate(n);
    EXPECT_EQ(again->data(), p) << n;
    if (n < (size_t{4} << 20)) {  // another size of the same class gets the block too
      void* q = again->data();
      again.reset();
      const size_t other = host_arena::class_size(n) - (n > 1 ? 1 : 0);
      EXPECT_EQ(allocate(other)->data(), q) << n;
    }
  }
}

TEST(HostArena, StatsCountLiveBytes) {
  const size_t base = memory_stats().in_use;
  {
    auto a = allocate(1000);
    auto b = allocate(size_t{5} << 20);
    MemoryStats s = memory_stats();
    EXPECT_EQ(s.in_use, base + 1000 + (size_t{5} << 20));  // requested bytes, not class sizes
    EXPECT_GE(s.peak, s.in_use);
  }
  EXPECT_EQ(memory_stats().in_use, base);
  set_limit(base + 4096);
  EXPECT_THROW(allocate(8192), OutOfMemoryError);
  EXPECT_NO_THROW(allocate(4000));
  set_limit(0);
  EXPECT_EQ(memory_stats().in_use, base);
}

TEST(HostArena, EmptyCacheKeepsBlocksUsable) {
  std::vector<std::shared_ptr<Buffer>> blocks;
  for (int i = 0; i < 50; ++i) blocks.push_back(allocate(size_t{64} << 10));
  for (int i = 0; i < 5; ++i) blocks.push_back(allocate(size_t{6} << 20));
  for (auto& b : blocks) std::memset(b->data(), 7, b->nbytes());
  blocks.clear();
  empty_cache();  // unmaps the cached big blocks, returns the free slab blocks' pages
  EXPECT_EQ(memory_stats().cached, 0u);
  for (int i = 0; i < 50; ++i) blocks.push_back(allocate(size_t{64} << 10));
  for (auto& b : blocks) {
    std::memset(b->data(), 9, b->nbytes());
    EXPECT_EQ(static_cast<unsigned char*>(b->data())[b->nbytes() - 1], 9);
  }
}

TEST(HostArena, ConcurrentUseNeverSharesABlock) {
  std::vector<std::thread> threads;
  std::atomic<int> bad{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([t, &bad] {
      std::mt19937 rng(t);
      std::vector<std::shared_ptr<Buffer>> live;
      for (int i = 0; i < 20000; ++i) {
        live.push_back(allocate(8 + rng() % 5000));
        std::memset(live.back()->data(), t + 1, live.back()->nbytes());
        if (live.size() > 30) {
          size_t k = rng() % live.size();
          const auto* p = static_cast<const unsigned char*>(live[k]->data());
          for (size_t j = 0; j < live[k]->nbytes(); ++j) bad += p[j] != t + 1;
          live.erase(live.begin() + static_cast<long>(k));
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(bad.load(), 0);
}

// Running off a slab or a mapped block, either way, faults (a KernelFaultError inside a
// kernel) instead of reaching unrelated memory. The death tests re-run this binary, so the
// arena starts empty there: the first 8 blocks of 896 KiB fill the first slab of their class.
// A write to a guard page ends the process with SIGSEGV; under ThreadSanitizer (make
// tsan-test), whose handler reports the SEGV and exits with its error code, 66.
bool died_of_segv(int status) {
  if (WIFSIGNALED(status)) return WTERMSIG(status) == SIGSEGV;
#if defined(__SANITIZE_THREAD__)
  return WIFEXITED(status) && WEXITSTATUS(status) == 66;
#else
  return false;
#endif
}
#if defined(__SANITIZE_THREAD__)
constexpr const char* kSegvReport = "ThreadSanitizer: SEGV on unknown address";
#else
constexpr const char* kSegvReport = "";
#endif

TEST(HostArenaDeathTest, GuardPagesSurroundSlabsAndMappedBlocks) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "under AddressSanitizer slab blocks come from malloc and a SIGSEGV ends in ASan's report";
#endif
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  constexpr size_t kMapped = size_t{6} << 20;
  auto mapped = [] {
    static auto block = allocate(kMapped);
    return static_cast<volatile char*>(block->data());
  };
  EXPECT_EXIT(mapped()[kMapped] = 1, died_of_segv, kSegvReport);
  EXPECT_EXIT(mapped()[-1] = 1, died_of_segv, kSegvReport);
  constexpr size_t kBlock = size_t{896} << 10;
  static_assert(host_arena::class_size(kBlock) == kBlock);
  auto fill_slab = [] {
    std::vector<char*> b;
    for (int i = 0; i < 8; ++i) b.push_back(static_cast<char*>(host_arena::take(kBlock)));
    return b;
  };
  EXPECT_EXIT(static_cast<volatile char*>(fill_slab()[7])[kBlock] = 1, died_of_segv, kSegvReport);
  EXPECT_EXIT(static_cast<volatile char*>(fill_slab()[0])[-1] = 1, died_of_segv, kSegvReport);
  EXPECT_EXIT(static_cast<volatile char*>(fill_slab()[7])[kBlock + 60000] = 1, died_of_segv, kSegvReport);
}

}  // namespace
}  // namespace loom::cpu_runtime
