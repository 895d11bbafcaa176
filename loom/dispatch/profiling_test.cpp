// The recorder below Python: compile outcomes from the cache's observer, spans whose end
// never came, ranges, and sessions that do not nest.
#include "loom/dispatch/profiling.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "loom/cache/compile_cache.h"

namespace loom::profiler {
namespace {

std::vector<Record> of(const std::vector<Record>& all, Category c) {
  std::vector<Record> out;
  for (const Record& r : all)
    if (r.category == c) out.push_back(r);
  return out;
}

TEST(Profiler, CompileOutcomesAreMarkedAndNamedByTheirOp) {
  CompileCache cache{std::string()};  // memory only
  const Hash128 key = murmur3_128("profiling_test: one program");
  const Hash128 bad = murmur3_128("profiling_test: a program that fails");
  start_session();
  int op = 0;
  begin_span(&op, Category::kernel, "my_op", "test", cpu(), nullptr);
  cache.get_or_compile("nvrtc", key, [] { return std::string("image"); });
  end_span(&op);
  cache.get_or_compile("nvrtc", key, [] { return std::string("never"); });
  EXPECT_THROW(cache.get_or_compile("host", bad, []() -> std::string { throw std::runtime_error("no"); }),
               std::runtime_error);
  const auto compiles = of(stop_session(), Category::compile);
  ASSERT_EQ(compiles.size(), 3u);
  EXPECT_EQ(compiles[0].name, "nvrtc: my_op");
  EXPECT_STREQ(compiles[0].detail, "miss");
  EXPECT_EQ(compiles[1].name, "nvrtc: (outside an op)");
  EXPECT_STREQ(compiles[1].detail, "memory hit");
  EXPECT_STREQ(compiles[2].detail, "failed");
  for (const Record& r : compiles) EXPECT_GE(r.dur_us, 0);
  // Off: the observer is gone, nothing is recorded.
  cache.get_or_compile("nvrtc", key, [] { return std::string("never"); });
  EXPECT_TRUE(stop_session().empty());
}

TEST(Profiler, ASpanWhoseEndNeverCameIsDropped) {
  start_session();
  int outer = 0, failed = 0;
  begin_span(&outer, Category::kernel, "outer", "test", cpu(), nullptr);
  begin_span(&failed, Category::kernel, "threw", "test", cpu(), nullptr);  // its op threw: no end
  EXPECT_EQ(current_span_name(), "threw");
  end_span(&outer);
  EXPECT_EQ(current_span_name(), "");
  instant(Category::alloc, "alloc", cpu(), 64);
  const auto all = stop_session();
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].name, "outer");
  EXPECT_EQ(all[1].category, Category::alloc);
  EXPECT_EQ(all[1].bytes, 64);
  EXPECT_GE(all[1].start_us, all[0].start_us);
}

TEST(Profiler, RangesNestAndSessionsDoNot) {
  range_push("before");  // begun while off: closes quietly inside the session
  start_session();
  EXPECT_THROW(start_session(), std::runtime_error);
  range_pop();
  range_push("a");
  range_push("b");
  range_pop();
  range_pop();
  const auto ranges = of(stop_session(), Category::range);
  ASSERT_EQ(ranges.size(), 2u);
  EXPECT_EQ(ranges[0].name, "a");
  EXPECT_EQ(ranges[0].depth, 0);
  EXPECT_EQ(ranges[1].name, "b");
  EXPECT_EQ(ranges[1].depth, 1);
  EXPECT_LE(ranges[0].start_us, ranges[1].start_us);
  EXPECT_GE(ranges[0].start_us + ranges[0].dur_us, ranges[1].start_us + ranges[1].dur_us);
  EXPECT_FALSE(active());
}

}  // namespace
}  // namespace loom::profiler
