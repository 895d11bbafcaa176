// Python-side kernel arguments shared by the kernel and driver bindings: host NumPy arrays
// wrapped in In/Out/InOut (PyCUDA's argument handlers) and loom.driver device allocations.
#pragma once
#include <memory>
#include <optional>
#include <vector>

#include "bindings.h"
#include "loom/kernel/raw_module.h"

namespace loom::py {

/// A C-contiguous (and, when asked, writeable) view of a host buffer, released when this
/// dies. ok() is false when the object offers no such view (the Python error is cleared;
/// the caller raises its own).
class HostBuffer {
 public:
  HostBuffer(nb::handle h, bool writable);
  ~HostBuffer();
  HostBuffer(const HostBuffer&) = delete;
  HostBuffer& operator=(const HostBuffer&) = delete;
  bool ok() const { return ok_; }
  void* data() const { return view_.buf; }
  size_t nbytes() const { return static_cast<size_t>(view_.len); }

 private:
  Py_buffer view_{};
  bool ok_ = false;
};

/// A host array copied to the kernel's device before the launch (`copy_in`) and/or back
/// into the host array after it (`copy_out`).
struct HostArgument {
  nb::object array;
  bool copy_in = false, copy_out = false;
};
struct InArg : HostArgument {};
struct OutArg : HostArgument {};
struct InOutArg : HostArgument {};

/// loom.driver.mem_alloc's result: raw bytes on a device, usable as a kernel argument.
struct DeviceAllocation {
  std::shared_ptr<Buffer> buffer;  // null once freed
  size_t nbytes = 0;
  Device device;
  /// The live buffer, or ValueError naming `op` when it was freed.
  const Buffer& live(const char* op) const;
};

/// The arguments of one launch, converted: host In/Out/InOut arrays are copied to the
/// kernel's device now; finish() copies Out/InOut results back after the launch.
class ConvertedArgs {
 public:
  ConvertedArgs(const std::string& kernel, const nb::handle* args, size_t n, const Stream* stream);
  const std::vector<KernelArg>& args() const { return args_; }
  /// Copies Out/InOut device arrays back into their host arrays (waits for the GPU).
  void finish();

 private:
  std::vector<KernelArg> args_;
  std::vector<std::pair<Array, nb::object>> copy_back_;
};

void init_kernel_args(nb::module_& m);

}  // namespace loom::py
