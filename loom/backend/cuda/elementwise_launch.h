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

/// Compiled kernels by a 64-bit key (the device in the top byte). One per kind of
/// kernel (Tag): a miss calls make() (generate, compile through the compile cache).
template <int Tag>
class KernelCache {
 public:
  template <class Make>
  static const Kernel& get(uint64_t key, Make&& make) {
    // Loops call one kernel again and again: a per-thread last hit skips the mutex and
    // the map. Entries are never erased and map nodes do not move.
    thread_local uint64_t t_key = 0;
    thread_local const Kernel* t_kernel = nullptr;
    if (t_kernel && t_key == key) return *t_kernel;
    {
      std::lock_guard<std::mutex> lock(mu());
      auto it = map().find(key);
      if (it != map().end()) {
        t_key = key;
        t_kernel = &it->second;
        return it->second;
      }
    }
    Kernel k = make();
    std::lock_guard<std::mutex> lock(mu());
    const Kernel& added = map().emplace(key, std::move(k)).first->second;
    t_key = key;
    t_kernel = &added;
    return added;
  }

 private:
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
