// The release rules of barriers and warp collectives, on hand-made waits (no kernels).
#include "loom/kernel/emulator/collectives.h"

#include <gtest/gtest.h>

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace loom::cpu_emulator {
namespace {

using loom_emu::Collective;

struct Block {
  std::vector<Wait> w;
  std::vector<Collective> ops;
  BlockShape shape{{0, 0, 0}, {0, 1, 1}};
  explicit Block(size_t n) : w(n), ops(n) { shape.block_dim.x = static_cast<unsigned>(n); }
  void at(size_t k, int kind, unsigned mask, unsigned long long value, int src = 0, int line = 7) {
    ops[k] = Collective{kind, mask, src, value, 0, 0};
    w[k] = Wait{kind == Collective::kBlockCount ? Wait::kBlock : Wait::kWarp, line, &ops[k]};
  }
  void done(size_t k) { w[k] = Wait{Wait::kDone, 0, nullptr}; }
  void barrier(size_t k, int line) { w[k] = Wait{Wait::kBlock, line, nullptr}; }
  size_t warps(bool debug = false) { return release_warps(w.data(), w.size(), shape, debug); }
  void block(bool debug = false) {
    BlockTally t = BlockTally::of(w.data(), w.size());
    release_block(w.data(), w.size(), shape, debug, t);
    EXPECT_EQ(t.at_block, 0u);  // cleared for the next barrier
  }
};

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST(EmulatorCollectives, ShufflesReadTheirSourceLanesAndVotesTheirGroup) {
  Block b(40);  // a full warp and one of 8 lanes
  for (size_t k = 0; k < 32; ++k) b.at(k, Collective::kShuffle, ~0u, 100 + k, static_cast<int>(k ^ 1));
  for (size_t k = 32; k < 40; ++k) k < 36 ? b.done(k) : b.at(k, Collective::kVote, ~0u, k % 2);
  EXPECT_EQ(b.warps(), 36u);
  for (size_t k = 0; k < 32; ++k) {
    EXPECT_EQ(b.ops[k].result, 100 + (k ^ 1)) << k;
    EXPECT_EQ(b.w[k].kind, Wait::kRunnable);
  }
  for (size_t k = 36; k < 40; ++k) {
    EXPECT_EQ(b.ops[k].result, 0xA0u) << k;  // lanes 5 and 7 of the live 4..7
    EXPECT_EQ(b.ops[k].group, 0xF0u) << k;
  }
}

TEST(EmulatorCollectives, AGroupWaitsForEveryLiveLaneOfItsMaskOnly) {
  Block b(32);
  for (size_t k = 0; k < 16; ++k) b.at(k, Collective::kSyncWarp, 0xffffu, 0);
  for (size_t k = 16; k < 31; ++k) b.at(k, Collective::kVote, 0xffff0000u, 1);
  b.barrier(31, 9);  // lane 31 is elsewhere: the upper group cannot complete
  EXPECT_EQ(b.warps(), 16u);
  EXPECT_EQ(b.ops[0].group, 0xffffu);
  EXPECT_EQ(b.w[16].kind, Wait::kWarp);
  for (size_t k = 0; k < 16; ++k) b.done(k);
  const std::string m = error_of([&] { b.block(); });
  EXPECT_NE(m.find("divergent warp collective at line 7"), std::string::npos) << m;
  EXPECT_NE(m.find("thread (31, 0, 0) waits at a block barrier (line 9)"), std::string::npos) << m;
  b.done(31);  // once lane 31 has returned, the group completes without it
  EXPECT_EQ(b.warps(), 15u);
  EXPECT_EQ(b.ops[16].result, 0x7fff0000u);
}

TEST(EmulatorCollectives, ActiveMaskIsTheLanesAtTheSameCallAndNeverWaitsForABarrier) {
  Block b(48);
  // Warp 1 (threads 32..47): lanes at __activemask on line 7 or line 8 (two branches of an
  // `if`), or at a block barrier; one has returned.
  for (size_t k = 32; k < 48; ++k)
    k % 3 ? b.at(k, Collective::kActiveMask, ~0u, 0, 0, k % 3 == 1 ? 7 : 8) : b.barrier(k, 4);
  for (size_t k = 0; k < 32; ++k) b.done(k);
  b.done(34);
  EXPECT_EQ(b.warps(), 10u);
  unsigned on7 = 0, on8 = 0;  // thread k is lane k - 32; thread 34 (line 7) returned
  for (size_t k = 32; k < 48; ++k) {
    if (k % 3 == 1 && k != 34) on7 |= 1u << (k - 32);
    if (k % 3 == 2) on8 |= 1u << (k - 32);
  }
  EXPECT_EQ(b.ops[37].result, on7);
  EXPECT_EQ(b.ops[38].result, on8);
  EXPECT_EQ(b.ops[38].group, on8);
}

TEST(EmulatorCollectives, UndefinedShufflesGiveTheCallersValueOrAnErrorInDebugMode) {
  Block b(32);
  for (size_t k = 0; k < 32; ++k) b.at(k, Collective::kShuffle, 0x0000ffffu, k, static_cast<int>(k + 16) % 32);
  for (size_t k = 16; k < 32; ++k) b.at(k, Collective::kShuffle, 0xffff0000u, k, static_cast<int>(k - 16));
  Block d = b;
  for (size_t k = 0; k < 32; ++k) d.w[k].op = &d.ops[k];
  EXPECT_EQ(b.warps(), 32u);
  for (size_t k = 0; k < 32; ++k) EXPECT_EQ(b.ops[k].result, k) << k;  // the other half is not in the mask
  const std::string m = error_of([&] { d.warps(true); });
  EXPECT_NE(m.find("reads lane 16, which is not in the mask 0x0000ffff"), std::string::npos) << m;
}

TEST(EmulatorCollectives, CountingBarriersCountTheLiveThreads) {
  Block b(70);
  for (size_t k = 0; k < 70; ++k) k % 7 == 0 ? b.done(k) : b.at(k, Collective::kBlockCount, 0, k % 2);
  b.barrier(3, 7);  // a plain __syncthreads at the same line: counts as false
  EXPECT_EQ(b.warps(), 0u);
  b.block();
  size_t odd = 0;
  for (size_t k = 0; k < 70; ++k) odd += k % 7 != 0 && k % 2 && k != 3;
  EXPECT_EQ(b.ops[1].result, odd);
  EXPECT_EQ(b.ops[1].group, 60u);
  // In debug mode, the threads that returned make it an error.
  for (size_t k = 0; k < 70; ++k)
    if (k % 7) b.at(k, Collective::kBlockCount, 0, 1);
  const std::string m = error_of([&] { b.block(true); });
  EXPECT_NE(m.find("60 threads wait there and 10 returned"), std::string::npos) << m;
}

}  // namespace
}  // namespace loom::cpu_emulator
