// The tiled NVRTC matrix product of kernels/loom_linalg.cuh (integers, bool, and small
// float32/float64 products): one small program per dtype, reading operands through strides.
#include <array>
#include <string>

#include "loom/backend/cuda/linalg_programs.h"
#include "loom/backend/cuda/programs.h"
#include "loom/runtime/cuda/context.h"
#include "loom/core/error.h"

namespace loom::cuda {
namespace {

std::string program_source() { return "#include \"loom_linalg.cuh\"\n"; }

}  // namespace

const std::string& matmul_tiled_name(DType dt) {
  static const std::array<std::string, kNumDTypes> names = [] {
    std::array<std::string, kNumDTypes> n;
    for (int t = 0; t < kNumDTypes; ++t)
      n[t] = std::string("loom_matmul_tiled<") + device_type_name(static_cast<DType>(t)) + ">";
    return n;
  }();
  if (!has_tiled_matmul(dt)) throw_dtype_error("matmul", "the tiled kernel takes no 16-bit float dtype");
  return names[static_cast<int>(dt)];
}

const Program& matmul_tiled_program(DType dt) {
  static const std::array<Program*, kNumDTypes> programs = [] {
    std::array<Program*, kNumDTypes> p{};
    for (int t = 0; t < kNumDTypes; ++t) {
      const DType d = static_cast<DType>(t);
      if (!has_tiled_matmul(d)) continue;
      // Never destroyed: kernels may be looked up while the process exits.
      p[t] = new Program(std::string("loom_matmul_") + dtype_name(d) + ".cu", program_source(),
                         {matmul_tiled_name(d)});
    }
    return p;
  }();
  if (!has_tiled_matmul(dt)) throw_dtype_error("matmul", "the tiled kernel takes no 16-bit float dtype");
  return *programs[static_cast<int>(dt)];
}

}  // namespace loom::cuda
