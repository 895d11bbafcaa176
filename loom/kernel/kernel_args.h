// Turning launch arguments into the bytes a compiled kernel's parameters take, checked
// against the parameter sizes the driver reports and, where known, the parameters' C types
// (param_types.h). Internal to loom/kernel and the backends.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "loom/kernel/param_types.h"
#include "loom/kernel/raw_module.h"

namespace loom {
struct ModuleState;
}

namespace loom::kernel_detail {

/// "[RawKernel name]", the start of every launch error; built only when one is raised.
inline std::string prefix(const std::string& kernel) { return "[RawKernel " + kernel + "]"; }

/// The packed parameters of one launch: `pointers()` is what cuLaunchKernel takes.
class PackedArgs {
 public:
  /// Packs `args` for parameters of `sizes` (bytes; when `sizes_known` is false the
  /// parameter list is unknown and each argument takes its natural size: 8-byte pointers,
  /// int64 and float64 for Python scalars). `types` (may be null) are the parameters' C
  /// types as far as known: a known type whose size disagrees with `sizes` is ignored (a
  /// macro changed it). Raises TypeError (or OverflowError, for an integer that does not
  /// fit) naming the kernel (`kernel`) and the parameter on any mismatch.
  PackedArgs(const std::string& kernel, const std::vector<KernelArg>& args,
             const std::vector<size_t>& sizes, bool sizes_known, const KernelParamTypes* types = nullptr);
  PackedArgs(const PackedArgs&) = delete;  // pointers() points into this object
  PackedArgs& operator=(const PackedArgs&) = delete;
  void** pointers() { return ptrs_; }
  /// Replaces the pointer passed for argument `i` (an array or a pointer argument; for an
  /// array view parameter, the view's data pointer).
  void set_pointer(size_t i, void* p);

 private:
  // 16 bytes per argument for values that fit; inline for the common short lists, so a
  // launch allocates nothing here.
  static constexpr size_t kInline = 12;
  // Array views (LoomArray, 8 + 16 * ndim bytes) take words of their own: inline for
  // kInline views of up to 4 dimensions, on the heap beyond.
  static constexpr size_t kInlineViewWords = kInline * (1 + 2 * 4);
  uint64_t inline_storage_[2 * kInline];
  void* inline_ptrs_[kInline];
  uint64_t inline_views_[kInlineViewWords];
  std::vector<uint64_t> heap_storage_;
  std::vector<void*> heap_ptrs_;
  std::vector<uint64_t> heap_views_;
  uint64_t* storage_;
  void** ptrs_;
};

/// The parameter types of kernel `name` of module `m` read from its source (extern "C"
/// kernels and simple name expressions; the same on every device), or null when unknown.
/// Cached by the module's content, so a launch pays one lookup.
std::shared_ptr<const KernelParamTypes> source_types(const ModuleState& m, const std::string& name);

}  // namespace loom::kernel_detail
