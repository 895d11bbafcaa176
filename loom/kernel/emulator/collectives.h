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

/// Called when no warp collective could complete: releases the block barrier (counting
/// the predicates of a counting one) when every live thread waits at the same one and
/// returns true; returns false when every thread has returned. Raises std::runtime_error
/// for a divergent barrier (live threads at different barriers, or waiting at a warp
/// collective for lanes that wait at a barrier), and in debug mode for threads that
/// returned without reaching the barrier the others wait at.
bool release_block(Wait* w, size_t n, const BlockShape& b, bool debug);

}  // namespace loom::cpu_emulator
