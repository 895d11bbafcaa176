// Autotuning: size classes, candidate blocks, and the search (memo, disk entry, selection,
// failing candidates) with a fake timer, so everything but event timing runs without a
// GPU; the last test times a real launch on the GPU.
#include "loom/kernel/autotune.h"

#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <set>
#include <stdexcept>
#include <thread>

#include "loom/backend/cuda/test_gpu.h"
#include "loom/cache/test_util.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"

namespace loom::autotune {
namespace {

using testing_util::TempDir;

std::string dims(const Dim3& b) {
  return std::to_string(b.x) + "," + std::to_string(b.y) + "," + std::to_string(b.z);
}

// A timer with a made-up time per block that counts its calls; `fail` blocks throw.
struct FakeTimer {
  std::map<std::string, double> ms;  // by dims(); blocks not listed take 1.0 + x / 1e4
  std::set<std::string> fail;
  std::map<std::string, int> calls;
  int total = 0;
  detail::TimeFn fn() {
    return [this](Dim3 b) {
      ++total;
      ++calls[dims(b)];
      if (fail.count(dims(b))) throw std::invalid_argument("[test] block " + dims(b) + " cannot run");
      auto it = ms.find(dims(b));
      return it != ms.end() ? it->second : 1.0 + b.x / 1e4;
    };
  }
};

const Hash128 kKernel{0x1234, 0x5678};
const detail::DeviceId kDev{"Fake GPU sm_90", "gpu(0) Fake GPU (sm_90)"};

class AutotuneSearch : public ::testing::Test {
 protected:
  void SetUp() override { clear_memory(); }
  void TearDown() override { clear_memory(); }
  TempDir tmp;
};

TEST(AutotuneSizeClass, PowerOfTwoAtOrAbovePerDimension) {
  EXPECT_EQ(size_class(Dim3(1000000)), "1048576x1x1");
  EXPECT_EQ(size_class(Dim3(1024, 3, 5)), "1024x4x8");
  EXPECT_EQ(size_class(Dim3(1, 1, 1)), "1x1x1");
  EXPECT_EQ(size_class(Dim3(0, 1, 1)), "1x1x1");
  EXPECT_EQ(size_class(Dim3(0x80000001u)), "4294967296x1x1");  // no 32-bit overflow
  EXPECT_EQ(size_class(Dim3(1000)), size_class(Dim3(513)));
  EXPECT_NE(size_class(Dim3(1000)), size_class(Dim3(1025)));
}

void expect_valid(const std::vector<Dim3>& c, Dim3 extent, int max_threads) {
  SCOPED_TRACE("extent " + dims(extent) + ", max_threads " + std::to_string(max_threads));
  ASSERT_FALSE(c.empty());
  std::set<std::string> seen;
  for (const Dim3& b : c) {
    EXPECT_TRUE(seen.insert(dims(b)).second) << "duplicate " << dims(b);
    EXPECT_GE(b.x, 1u);
    EXPECT_LE(b.count(), uint64_t(max_threads)) << dims(b);
    EXPECT_LE(b.x, 1024u);
    EXPECT_LE(b.y, 1024u);
    EXPECT_LE(b.z, 64u);
    if (max_threads >= 32) EXPECT_EQ(b.count() % 32, 0u) << dims(b) << " is not whole warps";
    if (extent.y == 1 && extent.z == 1) EXPECT_EQ(b.y * b.z, 1u) << "1-d extent, block " << dims(b);
    EXPECT_LE(b.y, std::max(1u, 2 * extent.y)) << dims(b);
    EXPECT_LE(b.z, std::max(1u, 2 * extent.z)) << dims(b);
  }
  EXPECT_LE(c.size(), 10u);
}

TEST(AutotuneCandidates, OneDimensional) {
  const std::vector<Dim3> all = candidate_blocks(Dim3(1 << 20), 1024);
  ASSERT_EQ(all.size(), 5u);
  for (size_t i = 0; i < all.size(); ++i) EXPECT_EQ(all[i], Dim3(64u << i)) << i;
  const auto limited = candidate_blocks(Dim3(1 << 20), 256);
  ASSERT_EQ(limited.size(), 3u);
  EXPECT_EQ(limited.back(), Dim3(256));
  // Not far beyond the extent, but at least a warp.
  const auto small = candidate_blocks(Dim3(100), 1024);
  ASSERT_EQ(small.size(), 2u);
  EXPECT_EQ(small[1], Dim3(128));
  ASSERT_EQ(candidate_blocks(Dim3(10), 1024).size(), 1u);
  EXPECT_EQ(candidate_blocks(Dim3(10), 1024)[0], Dim3(32));
  EXPECT_EQ(candidate_blocks(Dim3(40), 1024), std::vector<Dim3>{Dim3(64)});
  for (int mt : {1024, 768, 512, 256, 128, 64, 32}) {
    for (unsigned e : {1u, 7u, 33u, 100u, 5000u, 1u << 30}) expect_valid(candidate_blocks(Dim3(e), mt), Dim3(e), mt);
  }
  // A kernel limited below a warp still gets a block it can run.
  EXPECT_EQ(candidate_blocks(Dim3(1000), 1), std::vector<Dim3>{Dim3(1)});
  EXPECT_EQ(candidate_blocks(Dim3(1000), 0).size(), 5u);  // 0: unknown, the device's 1024
}

TEST(AutotuneCandidates, TwoAndThreeDimensional) {
  const auto two = candidate_blocks(Dim3(4096, 4096), 1024);
  EXPECT_GE(two.size(), 6u);
  for (Dim3 want : {Dim3(32, 8), Dim3(16, 16), Dim3(32, 32), Dim3(128, 2)}) {
    EXPECT_NE(std::find(two.begin(), two.end(), want), two.end()) << dims(want);
  }
  const auto three = candidate_blocks(Dim3(256, 256, 256), 1024);
  EXPECT_GE(three.size(), 6u);
  for (Dim3 want : {Dim3(8, 8, 4), Dim3(16, 8, 4), Dim3(32, 4, 2), Dim3(8, 8, 8), Dim3(32, 8, 4)}) {
    EXPECT_NE(std::find(three.begin(), three.end(), want), three.end()) << dims(want);
  }
  for (int mt : {1024, 512, 256, 128, 32}) {
    for (Dim3 e : {Dim3(4096, 4096), Dim3(1000, 3), Dim3(3, 1000), Dim3(20, 2), Dim3(64, 64, 64),
                   Dim3(1000, 1000, 2), Dim3(2, 2, 1000), Dim3(8, 8, 8)}) {
      expect_valid(candidate_blocks(e, mt), e, mt);
    }
  }
  // A thin 2-d extent gets no block taller than it.
  for (const Dim3& b : candidate_blocks(Dim3(5000, 2), 1024)) EXPECT_LE(b.y, 2u) << dims(b);
}

TEST_F(AutotuneSearch, PicksTheFastestAndRemembersIt) {
  CompileCache cache(tmp.path());
  FakeTimer t;
  t.ms = {{"64,1,1", 3.0}, {"128,1,1", 2.0}, {"256,1,1", 0.5}, {"512,1,1", 0.7}, {"1024,1,1", 0.9}};
  const Dim3 b = detail::choose_block(cache, kKernel, "my_kernel", Dim3(1 << 20), kDev, 1024, t.fn());
  EXPECT_EQ(b, Dim3(256));
  EXPECT_EQ(t.total, 5);
  for (const auto& [k, n] : t.calls) EXPECT_EQ(n, 1) << k;
  std::vector<Record> r = report();
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].kernel, "my_kernel");
  EXPECT_EQ(r[0].device, kDev.label);
  EXPECT_EQ(r[0].size_class, "1048576x1x1");
  EXPECT_EQ(r[0].block, Dim3(256));
  EXPECT_DOUBLE_EQ(r[0].best_ms, 0.5);
  EXPECT_EQ(r[0].candidates, 5);
  EXPECT_FALSE(r[0].from_disk);
  EXPECT_EQ(cache.stats().disk_writes, 1u);

  // The same size class: answered from memory, nothing timed, no second record.
  EXPECT_TRUE(detail::known(cache, kKernel, Dim3(1000000), kDev));
  EXPECT_EQ(detail::choose_block(cache, kKernel, "my_kernel", Dim3(1000000), kDev, 1024, t.fn()), Dim3(256));
  EXPECT_EQ(t.total, 5);
  EXPECT_EQ(report().size(), 1u);
}

TEST_F(AutotuneSearch, KeyedByKernelSizeClassAndDevice) {
  CompileCache cache(tmp.path());
  FakeTimer t;
  detail::choose_block(cache, kKernel, "k", Dim3(1 << 20), kDev, 1024, t.fn());
  const int once = t.total;
  detail::choose_block(cache, kKernel, "k", Dim3(1 << 10), kDev, 1024, t.fn());  // another size class
  EXPECT_GT(t.total, once);
  const int twice = t.total;
  detail::choose_block(cache, kKernel, "k", Dim3(1 << 20), {"Other GPU sm_80", "gpu(1) Other GPU (sm_80)"}, 1024,
                       t.fn());
  EXPECT_GT(t.total, twice);
  const int thrice = t.total;
  detail::choose_block(cache, Hash128{1, 2}, "other", Dim3(1 << 20), kDev, 1024, t.fn());
  EXPECT_GT(t.total, thrice);
  EXPECT_EQ(report().size(), 4u);
  EXPECT_FALSE(detail::known(cache, Hash128{3, 4}, Dim3(1 << 20), kDev));
}

TEST_F(AutotuneSearch, DiskEntryIsReusedAfterClearMemory) {
  FakeTimer t;
  t.ms = {{"32,8,1", 0.25}};
  const Dim3 extent(2000, 1000);
  {
    CompileCache cache(tmp.path());
    EXPECT_EQ(detail::choose_block(cache, kKernel, "k2", extent, kDev, 1024, t.fn()), Dim3(32, 8));
  }
  const int timed = t.total;
  ASSERT_GE(timed, 6);
  clear_memory();
  EXPECT_TRUE(report().empty());
  // A second cache on the folder stands for a fresh process.
  CompileCache fresh(tmp.path());
  EXPECT_EQ(detail::choose_block(fresh, kKernel, "k2", extent, kDev, 1024, t.fn()), Dim3(32, 8));
  EXPECT_EQ(t.total, timed);
  EXPECT_EQ(fresh.stats().disk_hits, 1u);
  std::vector<Record> r = report();
  ASSERT_EQ(r.size(), 1u);
  EXPECT_TRUE(r[0].from_disk);
  EXPECT_DOUBLE_EQ(r[0].best_ms, 0.25);
  EXPECT_EQ(r[0].candidates, timed);
  EXPECT_EQ(r[0].kernel, "k2");
}

TEST_F(AutotuneSearch, KnownLoadsFromDiskSoChooseNeverTimes) {
  FakeTimer t;
  {
    CompileCache cache(tmp.path());
    detail::choose_block(cache, kKernel, "k", Dim3(300), kDev, 1024, t.fn());
  }
  const int timed = t.total;
  clear_memory();
  CompileCache fresh(tmp.path());
  EXPECT_TRUE(detail::known(fresh, kKernel, Dim3(300), kDev));
  EXPECT_EQ(fresh.stats().failed_compiles, 0u);
  ASSERT_EQ(report().size(), 1u);
  EXPECT_TRUE(report()[0].from_disk);
  detail::choose_block(fresh, kKernel, "k", Dim3(300), kDev, 1024, t.fn());
  EXPECT_EQ(t.total, timed);
  EXPECT_EQ(report()[0].kernel, "k");  // named by the first choose_block
  // Nothing on disk: false, without a failed compile in the cache's statistics.
  EXPECT_FALSE(detail::known(fresh, kKernel, Dim3(5000), kDev));
  EXPECT_EQ(fresh.stats().failed_compiles, 0u);
  clear_memory();
  CompileCache memory_only("");
  EXPECT_FALSE(detail::known(memory_only, kKernel, Dim3(300), kDev));
}

TEST_F(AutotuneSearch, GlobalCacheFollowsLoomCacheDir) {
  testing_util::ScopedEnv env("LOOM_CACHE_DIR", tmp.path().c_str());
  testing_util::ScopedEnv on("LOOM_DISABLE_DISK_CACHE", nullptr);
  const Hash128 key{0xabc, 0xdef};  // unique to this test: the global cache is shared
  FakeTimer t;
  EXPECT_EQ(detail::choose_block(CompileCache::global(), key, "g", Dim3(7000), kDev, 1024, t.fn()), Dim3(64));
  const int timed = t.total;
  clear_memory();
  CompileCache::global().clear_memory();
  EXPECT_EQ(detail::choose_block(CompileCache::global(), key, "g", Dim3(7000), kDev, 1024, t.fn()), Dim3(64));
  EXPECT_EQ(t.total, timed);
  EXPECT_EQ(testing_util::list_dir(tmp.path() + "/autotune").size(), 1u);
}

TEST_F(AutotuneSearch, FailingCandidatesAreSkipped) {
  CompileCache cache(tmp.path());
  FakeTimer t;
  t.ms = {{"1024,1,1", 0.1}, {"512,1,1", 0.2}, {"64,1,1", 0.9}};
  t.fail = {"1024,1,1", "128,1,1"};  // e.g. too many registers for 1024 threads
  EXPECT_EQ(detail::choose_block(cache, kKernel, "k", Dim3(1 << 20), kDev, 1024, t.fn()), Dim3(512));
  EXPECT_EQ(t.total, 5);
  EXPECT_EQ(report().at(0).candidates, 3);
}

TEST_F(AutotuneSearch, AllFailingRethrowsTheFirstErrorAndRemembersNothing) {
  CompileCache cache(tmp.path());
  FakeTimer t;
  for (unsigned b : {64u, 128u, 256u, 512u, 1024u}) t.fail.insert(dims(Dim3(b)));
  try {
    detail::choose_block(cache, kKernel, "k", Dim3(1 << 20), kDev, 1024, t.fn());
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "[test] block 64,1,1 cannot run");
  }
  EXPECT_TRUE(report().empty());
  EXPECT_FALSE(detail::known(cache, kKernel, Dim3(1 << 20), kDev));
  t.fail.clear();
  EXPECT_EQ(detail::choose_block(cache, kKernel, "k", Dim3(1 << 20), kDev, 1024, t.fn()), Dim3(64));
  EXPECT_EQ(t.total, 10);
}

TEST_F(AutotuneSearch, AbortStopsTheSearch) {
  CompileCache cache(tmp.path());
  int calls = 0;
  auto time = [&](Dim3 b) -> double {
    ++calls;
    if (b == Dim3(128)) throw detail::Abort{std::make_exception_ptr(std::runtime_error("device lost"))};
    return 1.0;
  };
  EXPECT_THROW(detail::choose_block(cache, kKernel, "k", Dim3(1 << 20), kDev, 1024, time), std::runtime_error);
  EXPECT_EQ(calls, 2);
  EXPECT_TRUE(report().empty());
}

TEST_F(AutotuneSearch, DiskEntryBeyondTheKernelLimitIsRejected) {
  FakeTimer t;
  t.ms = {{"1024,1,1", 0.1}};
  {
    CompileCache cache(tmp.path());
    EXPECT_EQ(detail::choose_block(cache, kKernel, "k", Dim3(1 << 20), kDev, 1024, t.fn()), Dim3(1024));
  }
  clear_memory();
  CompileCache fresh(tmp.path());
  const int before = t.total;
  const Dim3 b = detail::choose_block(fresh, kKernel, "k", Dim3(1 << 20), kDev, 256, t.fn());
  EXPECT_LE(b.count(), 256u);
  EXPECT_GT(t.total, before);
  EXPECT_EQ(fresh.stats().bad_entries, 1u);
}

TEST_F(AutotuneSearch, ConcurrentCallersShareOneChoice) {
  CompileCache cache(tmp.path());
  std::atomic<int> timed{0};
  std::vector<std::thread> threads;
  std::vector<Dim3> got(8);
  for (int i = 0; i < 8; ++i) {
    threads.emplace_back([&, i] {
      got[i] = detail::choose_block(cache, kKernel, "k", Dim3(1u << (10 + i % 2)), kDev, 1024, [&](Dim3 b) {
        ++timed;
        return 1.0 / b.x;  // the largest block wins
      });
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(report().size(), 2u);  // two size classes
  EXPECT_EQ(timed.load(), 10);     // five candidates each, timed once
  for (const Dim3& b : got) EXPECT_EQ(b, Dim3(1024));
}

// Event timing on a real GPU: each "launch" is an add on the given stream.
TEST(AutotuneGpu, TimesWithEventsAndRemembers) {
  LOOM_REQUIRE_GPU_OR_SKIP();
  clear_memory();
  TempDir tmp;
  testing_util::ScopedEnv env("LOOM_CACHE_DIR", tmp.path().c_str());
  const Device d = gpu(0);
  const Stream s = Stream::create(d);
  Array x = ones({1 << 20}, float32, d);
  int launches = 0;
  auto run = [&](Dim3 b) {
    if (b.count() > 256) throw std::invalid_argument("[test] too many threads");
    StreamScope scope(s);
    x = add(x, x);
    ++launches;
  };
  const Hash128 key{0x9a7, 0x1};
  const Dim3 b = choose_block(key, "gpu_test", Dim3(1 << 20), d, s, 1024, run);
  EXPECT_LE(b.count(), 256u);
  EXPECT_GT(launches, 0);
  const int first = launches;
  EXPECT_TRUE(known(key, Dim3(1 << 20), d));
  EXPECT_EQ(choose_block(key, "gpu_test", Dim3(1 << 20), d, s, 1024, run), b);
  EXPECT_EQ(launches, first);
  std::vector<Record> r = report();
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].candidates, 3);  // 64, 128, 256
  EXPECT_GT(r[0].best_ms, 0.0);
  EXPECT_NE(r[0].device.find("gpu(0) "), std::string::npos) << r[0].device;
  EXPECT_NE(r[0].device.find("(sm_"), std::string::npos) << r[0].device;
  s.synchronize();
  clear_memory();
}

}  // namespace
}  // namespace loom::autotune
