// The "kernel_launch" primitive's GPU eval (kernel_launch.h): check the arguments and the
// configuration against the compiled kernel and the GPU, order the launch after earlier
// users of each array, and launch; with block="auto", pick the block first (autotune.h).
#include <optional>
#include <stdexcept>

#include "loom/core/error.h"
#include "loom/kernel/autotune.h"
#include "loom/kernel/gpu_kernel.h"
#include "loom/kernel/kernel_args.h"
#include "loom/kernel/kernel_launch.h"
#include "loom/kernel/module_state.h"
#include "loom/runtime/gpu_runtime.h"
#include "loom/runtime/stream.h"

namespace loom {

// The kernel's loaded function on GPU `device`, cached in the Kernel: no lookup per launch.
const kernel_cuda::UserFunction& Kernel::function_on(int device) const {
  if (device >= KernelFunctionCache::kSlots) return kernel_cuda::user_function(*module_, device, name_);
  auto& slot = functions_->by_device[device];
  if (const void* f = slot.load(std::memory_order_acquire)) {
    // A lost device still fails at the launch: the driver returns the sticky error.
    return *static_cast<const kernel_cuda::UserFunction*>(f);
  }
  const kernel_cuda::UserFunction& f = kernel_cuda::user_function(*module_, device, name_);
  slot.store(&f, std::memory_order_release);
  return f;
}

namespace kernel_cuda {
namespace {

[[noreturn]] void config_error(const std::string& name, const std::string& msg) {
  throw std::invalid_argument(kernel_detail::prefix(name) + " " + msg);
}

void check_config(const std::string& name, const UserFunction& f, Dim3 grid, Dim3 block,
                  size_t shared_mem) {
  const LaunchLimits& lim = *f.limits;
  const std::string gpu = "gpu(" + std::to_string(f.device) + ")";  // short: no allocation
  if (block.x == 0 || block.y == 0 || block.z == 0) config_error(name, "block " + block.str() + " has a zero dimension");
  if (block.x > lim.max_block.x || block.y > lim.max_block.y || block.z > lim.max_block.z)
    config_error(name, "block " + block.str() + " exceeds the largest block dimensions " +
                           lim.max_block.str() + " of " + gpu);
  const int max_threads = f.attributes.max_threads_per_block;
  if (block.count() > static_cast<uint64_t>(max_threads))
    config_error(name, "block " + block.str() + " has " + std::to_string(block.count()) +
                           " threads; this kernel can run at most " + std::to_string(max_threads) +
                           " threads per block on " + gpu +
                           (max_threads < lim.max_threads_per_block ? " (its registers limit it)" : ""));
  if (grid.x > lim.max_grid.x || grid.y > lim.max_grid.y || grid.z > lim.max_grid.z)
    config_error(name, "grid " + grid.str() + " exceeds the largest grid " + lim.max_grid.str() + " of " + gpu);
  if (shared_mem > f.attributes.max_dynamic_shared_bytes)
    config_error(name, "asks for " + std::to_string(shared_mem) + " bytes of dynamic shared memory; " + gpu +
                           " allows at most " + std::to_string(f.attributes.max_dynamic_shared_bytes) +
                           " for this kernel (" + std::to_string(lim.max_shared_per_block_optin) +
                           " per block less its " + std::to_string(f.attributes.static_shared_bytes) +
                           " bytes of static shared memory)");
}

Dim3 blocks_for(Dim3 extent, Dim3 block) {
  return Dim3((extent.x + block.x - 1) / block.x, (extent.y + block.y - 1) / block.y,
              (extent.z + block.z - 1) / block.z);
}

// block="auto": time candidates on scratch copies of every array and pointer argument
// (a kernel may write any of them), so the real data is touched by the one real launch.
Dim3 tuned_block(const Kernel& k, const UserFunction& f, const LaunchConfig& cfg,
                 const std::vector<KernelArg>& args, kernel_detail::PackedArgs& packed, const Stream& stream) {
  const Hash128 key = KeyBuilder().add(k.module()->key).add(std::string_view(k.name())).finish();
  const Device dev = gpu(f.device);
  if (autotune::known(key, cfg.grid, dev))
    return autotune::choose_block(key, k.name(), cfg.grid, dev, stream, f.attributes.max_threads_per_block,
                                  [](Dim3) {});
  std::vector<std::shared_ptr<Buffer>> scratch;
  for (size_t i = 0; i < args.size(); ++i) {
    const KernelArg& a = args[i];
    const void* base = nullptr;
    size_t nbytes = 0;
    size_t offset = 0;
    if (a.kind() == KernelArg::Kind::array) {
      base = a.array().buffer()->data();
      nbytes = a.array().buffer()->nbytes();
      offset = static_cast<const char*>(a.array().data()) - static_cast<const char*>(base);
    } else if (a.kind() == KernelArg::Kind::pointer) {
      if (a.pointer_nbytes() == 0)
        config_error(k.name(), "block=\"auto\" copies every pointer argument before timing, but argument " +
                                   std::to_string(i) + " is a pointer of unknown size");
      base = a.pointer_value();
      nbytes = a.pointer_nbytes();
    } else {
      continue;
    }
    auto buf = gpu_runtime::allocate(f.device, nbytes, stream.native());
    if (nbytes) copy_device_bytes(f.device, buf->data(), base, nbytes, stream.native());
    packed.set_pointer(i, static_cast<char*>(buf->data()) + offset);
    scratch.push_back(std::move(buf));
  }
  const std::string label = k.name() + " (autotune)";
  const Dim3 best = autotune::choose_block(
      key, k.name(), cfg.grid, dev, stream, f.attributes.max_threads_per_block, [&](Dim3 block) {
        check_config(k.name(), f, blocks_for(cfg.grid, block), block, cfg.shared_mem);
        launch_user(f, label.c_str(), blocks_for(cfg.grid, block), block, cfg.shared_mem, stream.native(),
                    packed.pointers());
      });
  for (auto& b : scratch) b->set_last_stream(stream.native());
  for (size_t i = 0; i < args.size(); ++i) {  // back to the real data
    if (args[i].kind() == KernelArg::Kind::array) packed.set_pointer(i, args[i].array().data());
    if (args[i].kind() == KernelArg::Kind::pointer) packed.set_pointer(i, args[i].pointer_value());
  }
  return best;
}

}  // namespace

void launch_kernel(const Kernel& k, const Device& dev, const LaunchConfig& cfg, const std::vector<KernelArg>& args) {
  const UserFunction& f = k.function_on(dev.index);
  kernel_detail::PackedArgs packed(k.name(), args, f.attributes.param_sizes, f.params_known, f.param_types.get());

  std::optional<StreamScope> scope;  // wait_for_writer orders work on the current stream
  if (cfg.stream) scope.emplace(*cfg.stream);
  void* native = cfg.stream ? cfg.stream->native() : Stream::current_native(dev.index);
  for (const KernelArg& a : args)
    if (a.kind() == KernelArg::Kind::array && a.array().valid()) gpu_runtime::wait_for_writer(a.array());

  Dim3 grid = cfg.grid, block = cfg.block;
  if (cfg.auto_block) {
    if (cfg.grid.count() == 0) return;  // nothing to run
    block = tuned_block(k, f, cfg, args, packed, cfg.stream ? *cfg.stream : Stream::current(dev));
    grid = blocks_for(cfg.grid, block);
  }
  check_config(k.name(), f, grid, block, cfg.shared_mem);
  if (grid.count() == 0) return;  // an empty problem (grid computed from a size of 0)
  launch_user(f, k.name().c_str(), grid, block, cfg.shared_mem, native, packed.pointers());
  for (const KernelArg& a : args)
    if (a.kind() == KernelArg::Kind::array && a.array().valid()) a.array().buffer()->set_last_stream(native);
}

}  // namespace kernel_cuda
}  // namespace loom
