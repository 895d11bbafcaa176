#include "loom/runtime/cpu/thread_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <vector>

namespace loom::cpu_runtime {

TEST(ThreadPool, CoversEveryIndexOnce) {
  for (int64_t n : {0, 1, 7, 1000, 1000003}) {
    std::vector<std::atomic<int>> hits(n);
    parallel_for(n, 100, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) hits[i]++;
    });
    for (int64_t i = 0; i < n; ++i) ASSERT_EQ(hits[i].load(), 1) << i;
  }
}

TEST(ThreadPool, RethrowsAndStaysUsable) {
  EXPECT_THROW(parallel_for(100000, 10, [](int64_t b, int64_t) {
                 if (b > 0) throw std::runtime_error("chunk failed");
               }),
               std::runtime_error);
  std::atomic<int64_t> sum{0};
  parallel_for(100000, 10, [&](int64_t b, int64_t e) { sum += e - b; });
  EXPECT_EQ(sum.load(), 100000);
}

TEST(ThreadPool, NestedCallsRunSerially) {
  std::atomic<int64_t> sum{0};
  parallel_for(64, 1, [&](int64_t b, int64_t e) {
    parallel_for(1000, 10, [&](int64_t b2, int64_t e2) { sum += (e - b) * (e2 - b2); });
  });
  EXPECT_EQ(sum.load(), 64 * 1000);
}

}  // namespace loom::cpu_runtime
