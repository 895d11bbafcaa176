// The shape family's NVRTC program (kernels/loom_shape_ops.cuh), exposed for the compile test.
#pragma once
#include <cstddef>
#include <string>

#include "loom/runtime/cuda/module_cache.h"

namespace loom::cuda {

/// loom_take_rows for elements of 1, 2, 4, 8 and 16 bytes.
const Program& shape_program();
/// "loom_take_rows<unsigned int>" for width 4; width is 1, 2, 4, 8 or 16.
const std::string& take_rows_name(size_t width);

}  // namespace loom::cuda
