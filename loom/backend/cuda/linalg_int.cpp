// GPU matrix products of integers and bool: the tiled NVRTC kernel of
// kernels/loom_linalg.cuh, one small program per dtype, reading operands through strides.
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

const std::string& matmul_int_name(DType dt) {
  static const std::array<std::string, kNumDTypes> names = [] {
    std::array<std::string, kNumDTypes> n;
    for (int t = 0; t < kNumDTypes; ++t)
      n[t] = std::string("loom_matmul_int<") + device_type_name(static_cast<DType>(t)) + ">";
    return n;
  }();
  if (is_floating(dt)) throw_dtype_error("matmul", "the integer kernel takes no floating dtype");
  return names[static_cast<int>(dt)];
}

const Program& matmul_int_program(DType dt) {
  static const std::array<Program*, kNumDTypes> programs = [] {
    std::array<Program*, kNumDTypes> p{};
    for (int t = 0; t < kNumDTypes; ++t) {
      const DType d = static_cast<DType>(t);
      if (is_floating(d)) continue;
      // Never destroyed: kernels may be looked up while the process exits.
      p[t] = new Program(std::string("loom_matmul_") + dtype_name(d) + ".cu", program_source(),
                         {matmul_int_name(d)});
    }
    return p;
  }();
  if (is_floating(dt)) throw_dtype_error("matmul", "the integer kernel takes no floating dtype");
  return *programs[static_cast<int>(dt)];
}

}  // namespace loom::cuda
