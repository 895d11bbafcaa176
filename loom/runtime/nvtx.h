// NVTX ranges: the names Nsight Systems shows over a span of host time. NVTX3 is
// header-only and does nothing until a tool attaches; the build without CUDA has no-ops
// (runtime/no_cuda/nvtx_stubs.cpp).
#pragma once

namespace loom::nvtx {

/// Opens a range named `name` on this thread (nvtxRangePushA).
void push(const char* name);
/// Closes this thread's innermost range (nvtxRangePop).
void pop();

}  // namespace loom::nvtx
