// The user kernel launch as a primitive (DESIGN.md §2): Kernel::launch (kernel_launch.cpp)
// finds the launch's device from its arguments and reaches the device's eval through
// dispatch_on, like every op, so dispatch hooks (the profiler, a tracer, tests) see every
// RawKernel, ElementwiseKernel, ReductionKernel and SourceModule launch.
#pragma once
#include <vector>

#include "loom/dispatch/primitive.h"
#include "loom/kernel/raw_module.h"

namespace loom {

/// An eval: runs `k` on `device` (where every array and pointer argument lives) with `cfg`.
using KernelLaunchEval = void(const Kernel& k, const Device& device, const LaunchConfig& cfg,
                              const std::vector<KernelArg>& args);

namespace cpu_emulator {
/// The CPU kernel emulator, synchronously (kernel/emulator/emu_launch.cpp).
KernelLaunchEval launch_kernel;
}  // namespace cpu_emulator

namespace kernel_cuda {
/// NVRTC-compiled on the GPU, asynchronously on the stream (kernel/cuda/launch.cpp; the
/// no-CUDA build's stub raises UnsupportedError).
KernelLaunchEval launch_kernel;
}  // namespace kernel_cuda

/// Traceable: it writes its array arguments in place and reads no device data back.
inline constexpr Primitive<KernelLaunchEval> kKernelLaunch{
    PrimitiveInfo{"kernel_launch", "kernel"}
        .no_vjp_because("loom does not know the derivative of a user's kernel")
        .no_batch_because("a user's kernel indexes its own arrays: vmap runs it once per example"),
    &cpu_emulator::launch_kernel, &kernel_cuda::launch_kernel};

}  // namespace loom
