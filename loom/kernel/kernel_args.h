// Turning launch arguments into the bytes a compiled kernel's parameters take, checked
// against the parameter sizes the driver reports. Internal to loom/kernel.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "loom/kernel/raw_module.h"

namespace loom::kernel_detail {

/// "[RawKernel name]", the start of every launch error; built only when one is raised.
inline std::string prefix(const std::string& kernel) { return "[RawKernel " + kernel + "]"; }

/// The packed parameters of one launch: `pointers()` is what cuLaunchKernel takes.
class PackedArgs {
 public:
  /// Packs `args` for parameters of `sizes` (bytes; when `sizes_known` is false the
  /// parameter list is unknown and each argument takes its natural size: 8-byte pointers,
  /// int64 and float64 for Python scalars). Raises TypeError naming the kernel
  /// (`kernel`) and the parameter on any mismatch.
  PackedArgs(const std::string& kernel, const std::vector<KernelArg>& args,
             const std::vector<size_t>& sizes, bool sizes_known);
  PackedArgs(const PackedArgs&) = delete;  // pointers() points into this object
  PackedArgs& operator=(const PackedArgs&) = delete;
  void** pointers() { return ptrs_; }
  /// Replaces the pointer passed for argument `i` (an array or a pointer argument).
  void set_pointer(size_t i, void* p);

 private:
  // 16 bytes per argument for values that fit; inline for the common short lists, so a
  // launch allocates nothing here.
  static constexpr size_t kInline = 12;
  uint64_t inline_storage_[2 * kInline];
  void* inline_ptrs_[kInline];
  std::vector<uint64_t> heap_storage_;
  std::vector<void*> heap_ptrs_;
  uint64_t* storage_;
  void** ptrs_;
};

}  // namespace loom::kernel_detail
