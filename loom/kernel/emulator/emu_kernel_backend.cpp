// The CPU kernel emulator's KernelBackend and its "kernel_launch" eval: the host compiler
// builds the module (emu_compile.cpp) and emu_launch.cpp runs it, synchronously.
#include "loom/kernel/emulator/emulator.h"
#include "loom/kernel/kernel_backend.h"
#include "loom/kernel/kernel_launch.h"

namespace loom {
namespace cpu_emulator {

void launch_kernel(const Kernel& k, const Device&, const LaunchConfig& cfg, const std::vector<KernelArg>& args) {
  launch(*k.module(), k.name(), cfg, args);
}

}  // namespace cpu_emulator

namespace {

void emu_prepare(const ModuleState& m, const Device&, const std::string& name) { cpu_emulator::function(m, name); }

KernelAttributes emu_attributes(const ModuleState& m, const Device&, const std::string& name) {
  return cpu_emulator::attributes(m, name);
}

// Every block of a cooperative launch runs at once, each on an OS thread (executor.cpp).
int64_t emu_max_cooperative_blocks(const ModuleState& m, const Device&, const std::string& name,
                                   int64_t block_threads, size_t) {
  cpu_emulator::function(m, name);  // compiled, and the name checked, as on a GPU
  return static_cast<int64_t>(cpu_emulator::max_cooperative_blocks(static_cast<size_t>(block_threads)));
}

ModuleGlobal emu_global(const ModuleState& m, const Device&, const std::string& name) {
  return cpu_emulator::global(m, name);
}

// Every CPU is one tuning target: its launches need no timing (emu_launch.cpp's auto_block).
void emu_tuning_names(const Device& d, std::string& identity, std::string& label) {
  identity = "cpu";
  label = d.str();
}

}  // namespace

const KernelBackend kCpuKernelBackend = {emu_prepare, emu_attributes, emu_max_cooperative_blocks, emu_global,
                                        emu_tuning_names};

}  // namespace loom
