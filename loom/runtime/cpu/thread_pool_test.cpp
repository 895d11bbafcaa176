#include "loom/runtime/cpu/thread_pool.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
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

namespace {

// Back-to-back jobs of alternating sizes, each checked to run every index exactly once;
// exits 0 when all are right, 1 at the first wrong one.
void many_jobs_of_changing_size() {
  alarm(300);  // a pool that lost a chunk's completion waits for ever: make that a failure
  for (int rep = 0; rep < 40000; ++rep) {
    const int64_t n = rep % 2 ? 64 : 8 + rep % 50;
    auto hits = std::make_unique<std::atomic<int>[]>(n);  // freed at once: a late chunk writes freed memory
    parallel_for(n, 1, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) hits[i]++;
    });
    for (int64_t i = 0; i < n; ++i)
      if (hits[i].load() != 1) std::exit(1);
  }
  std::exit(0);
}

}  // namespace

// More workers than cores, as under a parallel test run on a many-core machine: a worker
// preempted between two jobs must not touch the next one with the last one's counters (the
// pool hung after a few thousand jobs before each job kept its own state).
TEST(ThreadPool, OversubscribedWorkersKeepToTheirJob) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");  // re-executes the binary: a fresh pool
  const char* before = std::getenv("LOOM_NUM_THREADS");
  const std::string saved = before ? before : "";
  setenv("LOOM_NUM_THREADS", "16", 1);
  EXPECT_EXIT(many_jobs_of_changing_size(), ::testing::ExitedWithCode(0), "");
  if (before) setenv("LOOM_NUM_THREADS", saved.c_str(), 1);
  else unsetenv("LOOM_NUM_THREADS");
}

}  // namespace loom::cpu_runtime
