// The GPU backend's run-time compiler, reachable from code that must not see CUDA headers
// (Python bindings, benchmarks). Implemented in runtime/cuda/module_cache.cpp; the no-CUDA
// build raises UnsupportedError (runtime/no_cuda/compile_stubs.cpp).
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace loom::gpu_runtime {

/// Compiles CUDA C++ `source`, exporting `name_expression`, with NVRTC for compute
/// capability `arch` (e.g. 90) through the compile cache (memory, disk), in the dialect of
/// built-in kernels (`minimal`, NVRTC's --minimal) or of user kernels. Needs no GPU. Returns the size of the image in bytes; throws
/// CompileError on failure. For tests and benchmarks of the cache and of compile speed.
size_t compile_for_testing(const std::string& source, const std::string& name_expression, int arch,
                           const std::vector<std::string>& options, bool minimal);

}  // namespace loom::gpu_runtime
