// Kernel::launch: find the launch's device from its arguments and dispatch the
// "kernel_launch" primitive there (kernel_launch.h): the CPU kernel emulator's eval
// (kernel/emulator/emu_kernel_backend.cpp) or the GPU's (kernel/cuda/launch.cpp).
#include <optional>

#include "loom/core/error.h"
#include "loom/dispatch/dispatch.h"
#include "loom/kernel/kernel_args.h"
#include "loom/kernel/kernel_launch.h"
#include "loom/kernel/raw_module.h"
#include "loom/runtime/profiler.h"

namespace loom {
namespace {

// The device every array and pointer argument lives on (they must agree), else the
// stream's, else the default device.
Device launch_device(const std::string& name, const LaunchConfig& cfg, const std::vector<KernelArg>& args) {
  std::optional<Device> dev;
  size_t first = 0;
  for (size_t i = 0; i < args.size(); ++i) {
    const KernelArg& a = args[i];
    if (a.kind() != KernelArg::Kind::array && a.kind() != KernelArg::Kind::pointer) continue;
    if (a.kind() == KernelArg::Kind::pointer && !a.pointer_has_device()) continue;  // a bare address
    const Device d = a.kind() == KernelArg::Kind::array ? a.array().device() : a.pointer_device();
    if (!dev) {
      dev = d;
      first = i;
    } else if (d != *dev) {
      throw DeviceMismatchError(kernel_detail::prefix(name) + " argument " + std::to_string(i) + " is on " + d.str() +
                                " but argument " + std::to_string(first) + " is on " + dev->str() +
                                "; copy it with .to(device) first");
    }
  }
  if (cfg.stream) {
    if (dev && cfg.stream->device() != *dev)
      throw DeviceMismatchError(kernel_detail::prefix(name) + " the stream is on " + cfg.stream->device().str() +
                                " but the arguments are on " + dev->str());
    if (!dev) dev = cfg.stream->device();
  }
  return dev ? *dev : default_device();
}

}  // namespace

// The arrays go to hooks as no operands; hooks see the op and its device. A launch is not
// recorded by a tracer (its pointer arguments cannot be rebound): on concrete arrays it runs
// at trace time, and on arrays being traced it is refused here.
void Kernel::launch(const LaunchConfig& cfg, const std::vector<KernelArg>& args) const {
  if (is_tracing())
    for (const KernelArg& a : args)
      if (a.kind() == KernelArg::Kind::array && is_abstract(a.array()))
        throw UnsupportedError(kernel_detail::prefix(name_) +
                               " a user kernel cannot take arrays that are being traced (inside loom.jit, "
                               "vmap or grad); launch it outside the transformed function");
  // A GPU refuses a grid with a zero dimension (CUDA_ERROR_INVALID_VALUE), as CuPy and PyCUDA
  // report it: refused here for every device, so the emulator does not run it as a no-op.
  // With block="auto" the grid counts threads wanted, and 0 of them is nothing to run.
  if (!cfg.auto_block && cfg.grid.count() == 0)
    throw std::invalid_argument(kernel_detail::prefix(name_) + " grid " + cfg.grid.str() +
                                " has a zero dimension; a launch needs at least one block on each axis (a GPU "
                                "refuses it with CUDA_ERROR_INVALID_VALUE): skip the launch when there is no work");
  const Device dev = launch_device(name_, cfg, args);
  // The kernel may write any array it is given, which dispatch() cannot see (no operands).
  for (const KernelArg& a : args)
    if (a.kind() == KernelArg::Kind::array) a.array().buffer()->note_write();
  // The profiler names the launch by its kernel and times it on the launch's stream.
  const profiler::OpLabel label(name_, cfg.stream ? cfg.stream->native() : nullptr, cfg.stream != nullptr);
  dispatch_on(kKernelLaunch, dev, {}, {}, *this, dev, cfg, args);
}

}  // namespace loom
