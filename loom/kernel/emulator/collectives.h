// Where the threads of a block run as fibers wait, and the rules that release them
// (collectives.cpp): a warp collective completes when every live lane of its mask waits at
// one, a block barrier when every live thread of the block waits at it. The executor runs
// every runnable thread to its next wait (a round), then asks these rules what to release.
// Pure bookkeeping over an array: no fibers here, so it is tested on its own.
#pragma once
#include <cstddef>
#include <cstdint>

#include "loom/kernel/emulator/emulator.h"

namespace loom::cpu_emulator {

/// One thread of a block, between rounds.
struct Wait {
  enum Kind : uint8_t {
    kRunnable,  // released: runs in the next round
    kDone,      // returned (or never started: not part of the block)
    kBlock,     // at __syncthreads (op null) or a counting barrier (op->kind kBlockCount)
    kWarp,      // at a warp collective (op)
    kGrid,      // at a grid barrier (cooperative groups' grid.sync(): the executor releases it)
  };
  Kind kind = kRunnable;
  int line = 0;                        // of the barrier or collective
  loom_emu::Collective* op = nullptr;  // on the waiting fiber's stack
};

/// The block the waits belong to, for messages.
struct BlockShape {
  loom_emu::Idx3 block_idx, block_dim;
};

/// Completes every warp collective that can complete, writing each released lane's result
/// and group and making it runnable; returns how many lanes it released. A lane waiting at
/// __activemask is released with the warp's live lanes. In debug mode, a lane whose mask
/// leaves it out, lanes meeting with different masks or at different kinds of collective,
/// and a shuffle reading a lane that takes no part raise std::runtime_error (normal mode:
/// the shuffle returns the caller's own value).
size_t release_warps(Wait* w, size_t n, const BlockShape& b, bool debug);

/// The threads of a block by where they wait, kept by the executor as each thread stops
/// (so that a block barrier costs no pass over the block): `add` each thread that stopped.
struct BlockTally {
  size_t at_block = 0, done = 0, at_warp = 0, at_grid = 0;
  int grid_line = 0;
  size_t other = 0;            // of those at_block, how many wait at another line than the first
  int line = 0, other_line = 0;
  bool counting = false;       // some wait at a counting barrier
  void add(const Wait& t) {
    if (t.kind == Wait::kDone) {
      ++done;
    } else if (t.kind == Wait::kWarp) {
      ++at_warp;
    } else if (t.kind == Wait::kGrid) {
      if (at_grid++ == 0) grid_line = t.line;
    } else if (t.kind == Wait::kBlock) {
      counting = counting || t.op;
      if (at_block++ == 0) line = t.line;
      else if (t.line != line && other++ == 0) other_line = t.line;
    }
  }
  static BlockTally of(const Wait* w, size_t n) {
    BlockTally t;
    for (size_t k = 0; k < n; ++k) t.add(w[k]);
    return t;
  }
};

/// Called when no warp collective could complete and some thread is live (`t.done` < n):
/// releases the block barrier, which every live thread then waits at (the executor runs
/// the threads at kBlock in the next round), counting the predicates of a counting one,
/// and clears `t`'s barrier counts. Raises std::runtime_error for a divergent barrier
/// (live threads at different barriers, or waiting at a warp collective for lanes that
/// wait at a barrier), and in debug mode for threads that returned without reaching the
/// barrier the others wait at.
void release_block(Wait* w, size_t n, const BlockShape& b, bool debug, BlockTally& t);

}  // namespace loom::cpu_emulator
