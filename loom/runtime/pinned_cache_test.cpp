#include "loom/runtime/pinned_cache.h"

#include <gtest/gtest.h>

#include <cstring>

namespace loom {

// The cache's bookkeeping; without a GPU its blocks are ordinary page-aligned memory.
TEST(PinnedCache, ReusesBlocksWithinItsLimit) {
  pinned_cache::empty();
  const pinned_cache::Stats before = pinned_cache::stats();
  EXPECT_EQ(before.cached, 0u);
  void* a = pinned_cache::take(3 << 20);  // rounded up to 4 MiB
  ASSERT_NE(a, nullptr);
  std::memset(a, 7, 3 << 20);
  EXPECT_EQ(pinned_cache::stats().in_use, before.in_use + (4u << 20));
  pinned_cache::give_back(a);
  EXPECT_EQ(pinned_cache::stats().cached, 4u << 20);
  EXPECT_EQ(pinned_cache::take(4 << 20), a);  // the same block back
  pinned_cache::give_back(a);
  void* big = pinned_cache::take(16 << 20);  // a 4 MiB block is too small, and 1.5x rule
  ASSERT_NE(big, nullptr);
  EXPECT_NE(big, a);
  pinned_cache::give_back(big);
  void* small = pinned_cache::take(1 << 20);  // 2 MiB: neither cached block (4, 16) is within 1.5x
  EXPECT_NE(small, a);
  EXPECT_NE(small, big);
  pinned_cache::give_back(small);
  pinned_cache::give_back(nullptr);
  pinned_cache::empty();
  EXPECT_EQ(pinned_cache::stats().cached, 0u);
}

TEST(PinnedCache, LimitBoundsHeldAndCachedMemory) {
  pinned_cache::empty();
  const size_t old = pinned_cache::stats().limit;
  pinned_cache::set_limit(8 << 20);
  void* a = pinned_cache::take(6 << 20);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(pinned_cache::take(4 << 20), nullptr);  // 6 + 4 > 8 MiB: the caller uses ordinary memory
  pinned_cache::give_back(a);
  EXPECT_EQ(pinned_cache::take(4 << 20), a);  // the cached 6 MiB block is within 1.5x: reused
  pinned_cache::give_back(a);
  pinned_cache::set_limit(4 << 20);  // a lower limit frees the cached blocks beyond it
  EXPECT_EQ(pinned_cache::stats().cached, 0u);
  pinned_cache::set_limit(0);  // off: nothing cached, nothing handed out
  EXPECT_EQ(pinned_cache::stats().cached, 0u);
  EXPECT_EQ(pinned_cache::take(1 << 20), nullptr);
  pinned_cache::set_limit(old);
}

}  // namespace loom
