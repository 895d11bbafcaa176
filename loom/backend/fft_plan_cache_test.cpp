// The FFT plan cache (backend/fft_plan_cache.h): hits, least-recently-used eviction, plans
// kept alive by their users after eviction, and a failing make() leaving the cache as it was.
#include "loom/backend/fft_plan_cache.h"

#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>

namespace loom::fft_detail {
namespace {

struct Plan {
  Plan(int i, int* d) : id(i), destroyed(d) {}
  ~Plan() { ++*destroyed; }
  int id;
  int* destroyed;
};

TEST(FftPlanCache, HitsMissesAndLruEviction) {
  int made = 0, destroyed = 0;
  PlanCache<int, Plan> cache(2);
  auto make = [&](int id) { return [&, id] { ++made; return std::make_shared<Plan>(id, &destroyed); }; };
  EXPECT_EQ(cache.get(1, make(1))->id, 1);
  EXPECT_EQ(cache.get(2, make(2))->id, 2);
  EXPECT_EQ(cache.get(1, make(1))->id, 1);  // hit: 1 is now the most recent
  EXPECT_EQ(made, 2);
  EXPECT_EQ(cache.hits(), 1u);
  cache.get(3, make(3));  // evicts 2, the least recently used
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_EQ(destroyed, 1);
  cache.get(1, make(1));
  EXPECT_EQ(made, 3);  // 1 stayed
  cache.get(2, make(2));
  EXPECT_EQ(made, 4);  // 2 was gone
  EXPECT_EQ(cache.misses(), 4u);
}

TEST(FftPlanCache, EvictedPlanLivesWhileInUse) {
  int destroyed = 0;
  PlanCache<int, Plan> cache(1);
  std::shared_ptr<Plan> held = cache.get(1, [&] { return std::make_shared<Plan>(1, &destroyed); });
  cache.get(2, [&] { return std::make_shared<Plan>(2, &destroyed); });
  EXPECT_EQ(destroyed, 0);
  EXPECT_EQ(held->id, 1);
  held.reset();
  EXPECT_EQ(destroyed, 1);
}

TEST(FftPlanCache, FailedPlanIsNotCached) {
  int destroyed = 0;
  PlanCache<int, Plan> cache(4);
  EXPECT_THROW(cache.get(1, []() -> std::shared_ptr<Plan> { throw std::runtime_error("no plan"); }),
               std::runtime_error);
  EXPECT_EQ(cache.size(), 0u);
  EXPECT_EQ(cache.get(1, [&] { return std::make_shared<Plan>(7, &destroyed); })->id, 7);
}

}  // namespace
}  // namespace loom::fft_detail
