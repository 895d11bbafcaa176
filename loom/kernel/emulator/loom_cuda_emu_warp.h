// The CPU kernel emulator's warp intrinsics and counting barriers (part of loom_cuda_emu.h,
// split out by purpose): inlined into that header where it says
// `#include "loom_cuda_emu_warp.h"  // loom:inline` when the header is embedded
// (cmake/embed_file_run.cmake). Not a header of its own: it relies on what
// loom_cuda_emu.h and loom_cuda_emu_half.h declare before it.
// ---------------------------------------------------------------- warps
// A warp is 32 consecutive linear thread indices of the block (x fastest, then y, then z),
// as on NVIDIA GPUs; the last warp of a block may be partial. Each intrinsic below is a
// collective (loom_emu::Collective): the calling thread's fiber waits until every live
// (not returned) lane of its warp named in the mask has reached a warp collective, then
// each reads the exchanged values (executor: collectives.h). A kernel that names any of
// them runs its threads as fibers, as for __syncthreads (emu_source.cpp).
//
// Where a GPU leaves it undefined:
// - Lanes named in the mask that have returned (or lie past the end of a partial warp) take
//   no part, as CUDA documents for the votes ("non-exited threads in mask"); a shuffle that
//   reads such a lane, or a lane not in the mask, gets the caller's own value here, and an
//   error in debug mode.
// - In debug mode, lanes that meet with different masks, or a caller outside its own
//   mask, are errors; lanes waiting at a warp collective for lanes that wait at
//   __syncthreads are an error in both modes (a GPU would hang or misbehave).
namespace loom_emu {

// The calling thread's lane: its linear index in the block modulo 32.
inline unsigned int lane_id(const ThreadCtx* c) {
  return (c->thread_idx.x + c->block_dim.x * (c->thread_idx.y + c->block_dim.y * c->thread_idx.z)) & 31u;
}

inline void run_collective(Collective* op, int line) {
  ThreadCtx* self = loom_emu_current;  // on this fiber's stack (see syncthreads)
  self->collective(self, op, line);
  loom_emu_current = self;
}

// The lane a shuffle reads, as PTX's shfl.sync computes it from its b operand (lane,
// delta or lane mask: 5 bits) and c operand (CUDA's headers pass ((32 - width) << 8) | 31,
// or (32 - width) << 8 for shfl_up): a source outside the caller's width segment is the
// caller itself, so shfl_up/down return the caller's own value there, shfl_xor too for a
// later segment, and shfl_sync reads srcLane modulo width within the segment.
enum ShuffleMode { kIdx, kUp, kDown, kBfly };
inline int shuffle_source(ShuffleMode mode, int lane, unsigned int b, unsigned int c) {
  const int bval = static_cast<int>(b & 31u), cval = static_cast<int>(c & 31u), seg = static_cast<int>((c >> 8) & 31u);
  const int max_lane = (lane & seg) | (cval & ~seg), min_lane = lane & seg;
  int j;
  bool ok;
  switch (mode) {
    case kIdx: j = min_lane | (bval & ~seg), ok = j <= max_lane; break;
    case kUp: j = lane - bval, ok = j >= max_lane; break;
    case kDown: j = lane + bval, ok = j <= max_lane; break;
    default: j = lane ^ bval, ok = j <= max_lane; break;
  }
  return ok ? j : lane;
}

// CUDA overloads the shuffles for int, unsigned int, long, unsigned long, long long,
// unsigned long long, float, double, __half and __nv_bfloat16; narrower integers (and
// bool) promote to int, as CUDA's overload resolution does.
template <class T>
using IfShuffled = std::enable_if_t<(std::is_arithmetic<T>::value || std::is_same<T, __half>::value ||
                                     std::is_same<T, __nv_bfloat16>::value) && sizeof(T) <= 8, int>;
template <class T>
using Shuffled = std::conditional_t<std::is_integral<T>::value && (sizeof(T) < sizeof(int)), int, T>;

template <class T>
inline T shuffle(int line, unsigned int mask, T var, ShuffleMode mode, unsigned int b, unsigned int c) {
  Collective op{};
  op.kind = Collective::kShuffle;
  op.mask = mask;
  op.src = shuffle_source(mode, static_cast<int>(lane_id(loom_emu_current)), b, c);
  memcpy(&op.value, &var, sizeof(T));
  run_collective(&op, line);
  T r;
  memcpy(&r, &op.result, sizeof(T));
  return r;
}

inline Collective vote(int line, int kind, unsigned int mask, bool pred) {
  Collective op{};
  op.kind = kind;
  op.mask = mask;
  op.value = pred;
  run_collective(&op, line);
  return op;
}

// The intrinsics take the line of their call (for the executor's messages) through this:
// `__shfl_sync(m, v, 0)` is `loom_emu::Site{__LINE__}.shfl_sync(m, v, 0)`.
struct Site {
  int line;
  template <class T, IfShuffled<T> = 0>
  Shuffled<T> shfl_sync(unsigned int mask, T var, int src_lane, int width = 32) const {
    return shuffle<Shuffled<T>>(line, mask, var, kIdx, static_cast<unsigned int>(src_lane),
                                (static_cast<unsigned int>(32 - width) << 8) | 31u);
  }
  template <class T, IfShuffled<T> = 0>
  Shuffled<T> shfl_up_sync(unsigned int mask, T var, unsigned int delta, int width = 32) const {
    return shuffle<Shuffled<T>>(line, mask, var, kUp, delta, static_cast<unsigned int>(32 - width) << 8);
  }
  template <class T, IfShuffled<T> = 0>
  Shuffled<T> shfl_down_sync(unsigned int mask, T var, unsigned int delta, int width = 32) const {
    return shuffle<Shuffled<T>>(line, mask, var, kDown, delta, (static_cast<unsigned int>(32 - width) << 8) | 31u);
  }
  template <class T, IfShuffled<T> = 0>
  Shuffled<T> shfl_xor_sync(unsigned int mask, T var, int lane_mask, int width = 32) const {
    return shuffle<Shuffled<T>>(line, mask, var, kBfly, static_cast<unsigned int>(lane_mask),
                                (static_cast<unsigned int>(32 - width) << 8) | 31u);
  }
  // Votes: over the lanes that take part (`group`, the live lanes of the mask).
  unsigned int ballot_sync(unsigned int mask, int pred) const {
    return static_cast<unsigned int>(vote(line, Collective::kVote, mask, pred != 0).result);
  }
  int all_sync(unsigned int mask, int pred) const {
    const Collective op = vote(line, Collective::kVote, mask, pred != 0);
    return op.result == op.group;
  }
  int any_sync(unsigned int mask, int pred) const { return vote(line, Collective::kVote, mask, pred != 0).result != 0; }
  int uni_sync(unsigned int mask, int pred) const {
    const Collective op = vote(line, Collective::kVote, mask, pred != 0);
    return op.result == 0 || op.result == op.group;
  }
  // match.sync: the values compared bit for bit (float too), as PTX's .b32/.b64 operands;
  // 32-bit values are zero-extended, so they compare as their own bits.
  template <class T, std::enable_if_t<(std::is_integral<T>::value || std::is_floating_point<T>::value) &&
                                          (sizeof(T) == 4 || sizeof(T) == 8), int> = 0>
  unsigned int match_any_sync(unsigned int mask, T value) const {
    return static_cast<unsigned int>(match(Collective::kMatchAny, mask, value).result);
  }
  template <class T, std::enable_if_t<(std::is_integral<T>::value || std::is_floating_point<T>::value) &&
                                          (sizeof(T) == 4 || sizeof(T) == 8), int> = 0>
  unsigned int match_all_sync(unsigned int mask, T value, int* pred) const {
    const unsigned int r = static_cast<unsigned int>(match(Collective::kMatchAll, mask, value).result);
    *pred = r != 0;
    return r;
  }
  template <class T>
  Collective match(int kind, unsigned int mask, T value) const {
    Collective op{};
    op.kind = kind;
    op.mask = mask;
    memcpy(&op.value, &value, sizeof(T));
    run_collective(&op, line);
    return op;
  }
  void syncwarp(unsigned int mask = 0xffffffffu) const { vote(line, Collective::kSyncWarp, mask, false); }
  // The lanes of the caller's warp at this same call (source line), once each live lane
  // waits at a collective or a barrier or has returned: lanes that took the other branch of
  // an `if` wait elsewhere and are left out, as a GPU leaves them out.
  unsigned int activemask() const {
    return static_cast<unsigned int>(vote(line, Collective::kActiveMask, 0xffffffffu, false).result);
  }
  // Counting block barriers: __syncthreads that also counts the true predicates of the
  // block's live threads.
  int syncthreads_count(int pred) const {
    return static_cast<int>(vote(line, Collective::kBlockCount, 0, pred != 0).result);
  }
  int syncthreads_and(int pred) const {
    const Collective op = vote(line, Collective::kBlockCount, 0, pred != 0);
    return op.result == op.group;
  }
  int syncthreads_or(int pred) const { return vote(line, Collective::kBlockCount, 0, pred != 0).result != 0; }
};

}  // namespace loom_emu

#define __shfl_sync loom_emu::Site{__LINE__}.shfl_sync
#define __shfl_up_sync loom_emu::Site{__LINE__}.shfl_up_sync
#define __shfl_down_sync loom_emu::Site{__LINE__}.shfl_down_sync
#define __shfl_xor_sync loom_emu::Site{__LINE__}.shfl_xor_sync
#define __ballot_sync loom_emu::Site{__LINE__}.ballot_sync
#define __all_sync loom_emu::Site{__LINE__}.all_sync
#define __any_sync loom_emu::Site{__LINE__}.any_sync
#define __uni_sync loom_emu::Site{__LINE__}.uni_sync
#define __match_any_sync loom_emu::Site{__LINE__}.match_any_sync
#define __match_all_sync loom_emu::Site{__LINE__}.match_all_sync
#define __syncwarp loom_emu::Site{__LINE__}.syncwarp
#define __activemask loom_emu::Site{__LINE__}.activemask
#define __syncthreads_count loom_emu::Site{__LINE__}.syncthreads_count
#define __syncthreads_and loom_emu::Site{__LINE__}.syncthreads_and
#define __syncthreads_or loom_emu::Site{__LINE__}.syncthreads_or
