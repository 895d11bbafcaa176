#include "loom/kernel/emulator/collectives.h"

#include <cstdio>
#include <stdexcept>
#include <string>

#include "loom/kernel/emulator/thread_errors.h"

namespace loom::cpu_emulator {
namespace {

using loom_emu::Collective;
using loom_emu::Idx3;

std::string thread_str(const BlockShape& b, size_t k) {
  const Idx3 d = b.block_dim;
  return idx_str(Idx3{static_cast<unsigned>(k % d.x), static_cast<unsigned>(k / d.x % d.y),
                      static_cast<unsigned>(k / (size_t{d.x} * d.y))});
}

std::string hex(unsigned v) {
  char s[16];
  snprintf(s, sizeof s, "0x%08x", v);
  return s;
}

const char* kind_name(int kind) {
  switch (kind) {
    case Collective::kShuffle: return "a warp shuffle";
    case Collective::kVote: return "a warp vote";
    case Collective::kSyncWarp: return "__syncwarp";
    case Collective::kMatchAny:
    case Collective::kMatchAll: return "a warp match";
    default: return "__activemask";
  }
}

// Where lane `l` of the warp at `base` waits, for messages.
std::string lane_str(const BlockShape& b, size_t base, unsigned l) {
  return "thread " + thread_str(b, base + l) + " (lane " + std::to_string(l) + " of warp " +
         std::to_string(base / 32) + ") of block " + idx_str(b.block_idx);
}

[[noreturn]] void fail(const std::string& what) { throw std::runtime_error(what); }

// Debug mode: what a GPU leaves undefined about the group `need` that lane `l` meets.
void check_group(const Wait* w, size_t base, unsigned l, unsigned need, const BlockShape& b) {
  const Collective* op = w[base + l].op;
  const int line = w[base + l].line;
  if (!(op->mask >> l & 1u))
    fail("warp collective at line " + std::to_string(line) + " of the kernel source: " + lane_str(b, base, l) +
         " calls it with mask " + hex(op->mask) + ", which leaves the caller out (undefined on a GPU; reported in "
         "debug mode)");
  for (unsigned k = 0; k < 32; ++k) {
    if (!(need >> k & 1u)) continue;
    const Wait& o = w[base + k];
    if (o.op->mask != op->mask || o.op->kind != op->kind)
      fail("warp collective at line " + std::to_string(line) + " of the kernel source: " + lane_str(b, base, l) +
           " meets lane " + std::to_string(k) + " (at line " + std::to_string(o.line) + ") with " +
           (o.op->kind != op->kind ? std::string(kind_name(op->kind)) + " against " + kind_name(o.op->kind)
                                   : "mask " + hex(op->mask) + " against " + hex(o.op->mask)) +
           "; the lanes named in a mask must call the same collective with the same mask (undefined on a GPU; "
           "reported in debug mode)");
  }
}

}  // namespace

size_t release_warps(Wait* w, size_t n, const BlockShape& b, bool debug) {
  size_t released = 0;
  for (size_t base = 0; base < n; base += 32) {
    const unsigned lanes = static_cast<unsigned>(n - base < 32 ? n - base : 32);
    unsigned live = 0, at_warp = 0, at_active = 0, preds = 0;
    for (unsigned l = 0; l < lanes; ++l) {
      const Wait& t = w[base + l];
      if (t.kind == Wait::kDone) continue;
      live |= 1u << l;
      if (t.kind != Wait::kWarp) continue;
      if (t.op->kind == Collective::kActiveMask) {
        at_active |= 1u << l;
      } else {
        at_warp |= 1u << l;
        if (t.op->value) preds |= 1u << l;
      }
    }
    if (!(at_warp | at_active)) continue;
    // __activemask: every other lane has run to its next wait or returned by now (rounds
    // run each runnable thread until it waits). The active lanes are those at the same
    // __activemask call (its line): lanes waiting anywhere else took another path, which a
    // GPU runs apart (Volta's independent scheduling), and returned lanes are gone.
    unsigned release = at_active;
    for (unsigned l = 0; l < lanes; ++l)
      if (at_active >> l & 1u) {
        unsigned same = 0;
        for (unsigned k = 0; k < lanes; ++k)
          if ((at_active >> k & 1u) && w[base + k].line == w[base + l].line) same |= 1u << k;
        w[base + l].op->result = same;
        w[base + l].op->group = same;
      }
    // Every other result is written before any released lane runs again, and only into
    // `result` and `group`: the values read here stay as their lanes posted them.
    for (unsigned l = 0; l < lanes; ++l) {
      if (!(at_warp >> l & 1u)) continue;
      Collective* op = w[base + l].op;
      const unsigned need = (op->mask | 1u << l) & live;  // the live lanes it waits for
      if (need & ~at_warp) continue;                      // some have not arrived yet
      if (debug) check_group(w, base, l, need, b);
      if (op->kind == Collective::kShuffle) {
        const int src = op->src;
        if (src >= 0 && src < 32 && (need >> src & 1u)) {
          op->result = w[base + static_cast<unsigned>(src)].op->value;
        } else if (debug) {
          const bool absent = static_cast<unsigned>(src) >= lanes;
          const bool returned = !absent && !(live >> src & 1u);
          fail("warp shuffle at line " + std::to_string(w[base + l].line) + " of the kernel source: " +
               lane_str(b, base, l) + " reads lane " + std::to_string(src) + ", which " +
               (absent ? "is past the end of the block's last, partial warp"
                       : returned ? "has returned"
                                  : "is not in the mask " + hex(op->mask)) +
               "; a GPU returns an undefined value (normal mode: the caller's own; reported in debug mode)");
        } else {
          op->result = op->value;
        }
      } else if (op->kind == Collective::kVote) {
        op->result = preds & need;
      } else if (op->kind == Collective::kMatchAny || op->kind == Collective::kMatchAll) {
        unsigned same = 0;
        for (unsigned k = 0; k < lanes; ++k)
          if ((need >> k & 1u) && w[base + k].op->value == op->value) same |= 1u << k;
        op->result = op->kind == Collective::kMatchAny ? same : (same == need ? need : 0u);
      }
      op->group = need;
      release |= 1u << l;
    }
    for (unsigned l = 0; l < lanes; ++l)
      if (release >> l & 1u) w[base + l].kind = Wait::kRunnable;
    released += static_cast<size_t>(__builtin_popcount(release));
  }
  return released;
}

void release_block(Wait* w, size_t n, const BlockShape& b, bool debug, BlockTally& t) {
  if (t.at_warp > 0) {
    // Every live lane of its mask is live and waiting, yet the collective cannot complete:
    // some wait at a block barrier. A GPU hangs or misbehaves.
    size_t stuck = 0;
    while (w[stuck].kind != Wait::kWarp) ++stuck;
    const Wait& s = w[stuck];
    const size_t base = stuck / 32 * 32;
    const unsigned l = static_cast<unsigned>(stuck - base);
    size_t blocked = stuck;
    for (unsigned k = 0; k < 32 && base + k < n; ++k)
      if ((s.op->mask >> k & 1u) && w[base + k].kind == Wait::kBlock) blocked = base + k;
    fail("divergent warp collective at line " + std::to_string(s.line) + " of the kernel source: " +
         lane_str(b, base, l) + " waits there for the lanes of mask " + hex(s.op->mask) + ", but thread " +
         thread_str(b, blocked) + " waits at a block barrier (line " + std::to_string(w[blocked].line) +
         "); every live lane named in the mask must reach a warp collective");
  }
  if (debug && t.other == 0 && t.done > 0) {
    // Debug mode: threads that returned never reach the barrier the others wait at, which
    // a GPU leaves undefined (Volta and later release it; compute-sanitizer's synccheck
    // reports it).
    fail("divergent __syncthreads at line " + std::to_string(t.line) + " of the kernel source: in block " +
         idx_str(b.block_idx) + ", " + std::to_string(t.at_block) + " threads wait there and " +
         std::to_string(t.done) + " returned without reaching it (reported in debug mode, as compute-sanitizer "
         "--tool synccheck does; normal mode lets the others pass, as Volta and later GPUs do)");
  }
  if (t.other > 0)
    fail("divergent __syncthreads: in block " + idx_str(b.block_idx) + ", " + std::to_string(t.at_block - t.other) +
         " threads wait at line " + std::to_string(t.line) + " and " + std::to_string(t.other) +
         " at another barrier (line " + std::to_string(t.other_line) + "); every live thread must reach the same one");
  if (t.counting) {
    unsigned long long count = 0;
    for (size_t k = 0; k < n; ++k) count += w[k].kind == Wait::kBlock && w[k].op && w[k].op->value;
    for (size_t k = 0; k < n; ++k)
      if (w[k].kind == Wait::kBlock && w[k].op) {
        w[k].op->result = count;
        w[k].op->group = static_cast<unsigned>(t.at_block);
      }
  }
  t.at_block = t.other = 0;
  t.counting = false;
}

}  // namespace loom::cpu_emulator
