// The NVRTC programs of loom.random (kernels/loom_philox.cuh): one small program per
// output dtype, so a first draw compiles only what it needs.
#pragma once
#include <string>

#include "loom/runtime/cuda/module_cache.h"
#include "loom/core/dtype.h"

namespace loom::cuda {

/// Floating dtypes: uniform and normal; integers: randint with 2 and 4 words per element;
/// bool: randint and bernoulli.
const Program& random_program(DType dt);
/// "loom_random<float, 1, 1>": the kernel of (dtype, kind, words); throws DTypeError
/// for a combination no program holds.
const std::string& random_kernel_name(DType dt, int kind, int words);

}  // namespace loom::cuda
