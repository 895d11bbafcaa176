// NVTX3 from the CUDA toolkit (header-only: it finds an attached tool's library through
// NVTX_INJECTION64_PATH and otherwise returns at once).
#include "loom/runtime/nvtx.h"

#include <nvtx3/nvToolsExt.h>

namespace loom::nvtx {

void push(const char* name) { nvtxRangePushA(name); }
void pop() { nvtxRangePop(); }

}  // namespace loom::nvtx
