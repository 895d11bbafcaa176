// What the GPU evals of eager elementwise ops (elementwise.cpp) and of jit's fused groups
// (elementwise_fused.cpp) share: the classification of operands into a kernel layout
// (contiguous with 16-byte vectors, contiguous unaligned, or strided over jointly collapsed
// dims; 32- or 64-bit indices), the per-key cache of compiled kernels with its lock-free
// last hit, and the launch with the generated kernel's parameter order.
#pragma once
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>

#include "loom/array/array.h"
#include "loom/backend/elementwise.h"
#include "loom/graph/cuda_codegen.h"
#include "loom/graph/fused_graph.h"
#include "loom/runtime/cuda/module_cache.h"

namespace loom::gpu_backend::ew {

constexpr int kMaxDims = 64;
constexpr int kMaxOperands = 50;  // inputs + outputs of one kernel

/// One kernel operand: an input (array, uniform or param) or an output (array).
struct Operand {
  const void* ptr;       // device pointer, or the param's bytes
  const Array* array;    // nullptr for a param
  FusedGraph::InputKind kind;
};

/// The kernel configuration of a launch and its layout parameter (strided kernels).
struct LaunchPlan {
  cuda::KernelConfig cfg;
  unsigned grid = 1;
  alignas(8) unsigned char layout[8 * kMaxDims * (kMaxOperands + 1)];
};

/// Classifies `ops` (nin inputs, then outputs of shape `shape`, n elements) for device
/// `dev`. Throws UnsupportedError (naming `who`) for misaligned data or strides.
void plan_launch(int dev, const char* who, const Operand* ops, int nin, int nops, const Shape& shape, int64_t n,
                 LaunchPlan& lp);

/// Launches `fn` with the generated kernel's parameters: inputs (pointer, or the param's
/// value), output pointers, n, and the layout for strided kernels.
void launch(int dev, CUfunction fn, const char* name, const Operand* ops, int nin, int nops, int64_t n,
            const LaunchPlan& lp, void* stream);

/// Waits for the last writer of `a` when it wrote on another stream than `stream`.
void wait_for(const Array& a, void* stream);

struct Kernel {
  CUfunction fn;
  std::string name;
};

/// Whether the eager kernel of `c` (elementwise.cpp) is loaded on its device already, so
/// that running `c` compiles nothing.
bool eager_kernel_loaded(const ElementwiseCall& c);

/// Runs a fused group node by node as eager kernels (elementwise_unfused.cpp) when every
/// one of them is loaded already; false, with nothing run, when one is not.
bool run_unfused(const FusedCall& c);

/// Compiled kernels by a 64-bit key (the device in the top byte). One per kind of
/// kernel (Tag): a miss calls make() (generate, compile through the compile cache).
template <int Tag>
class KernelCache {
 public:
  /// The kernel of `key` when it is compiled and loaded already; nullptr otherwise.
  static const Kernel* find(uint64_t key) {
    // Loops call one kernel again and again: a per-thread last hit skips the mutex and
    // the map. Entries are never erased and map nodes do not move.
    LastHit& last = last_hit();
    if (last.kernel && last.key == key) return last.kernel;
    std::lock_guard<std::mutex> lock(mu());
    auto it = map().find(key);
    if (it == map().end()) return nullptr;
    last = {key, &it->second};
    return &it->second;
  }

  template <class Make>
  static const Kernel& get(uint64_t key, Make&& make) {
    if (const Kernel* k = find(key)) return *k;
    Kernel k = make();
    std::lock_guard<std::mutex> lock(mu());
    const Kernel& added = map().emplace(key, std::move(k)).first->second;
    last_hit() = {key, &added};
    return added;
  }

 private:
  struct LastHit {
    uint64_t key = 0;
    const Kernel* kernel = nullptr;
  };
  static LastHit& last_hit() {
    thread_local LastHit h;
    return h;
  }
  static std::mutex& mu() {
    static std::mutex m;
    return m;
  }
  static std::unordered_map<uint64_t, Kernel>& map() {
    static auto* m = new std::unordered_map<uint64_t, Kernel>();
    return *m;
  }
};

}  // namespace loom::gpu_backend::ew
