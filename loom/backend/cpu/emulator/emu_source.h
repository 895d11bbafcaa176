// What the CPU kernel emulator compiles for a RawModule: the user's source, scanned for its
// __global__ kernels and rewritten where CUDA and C++ differ (`extern __shared__`), between
// the portability header and generated entry points. Text in, text out: no compiler here.
#pragma once
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace loom {
struct ModuleState;
}

namespace loom::cpu_emulator {

/// The name compiler logs give the user's source (its line numbers are the user's).
constexpr const char* kProgramName = "loom_kernel.cu";

/// One translation unit for the host compiler.
struct Plan {
  std::string source;  // the whole translation unit
  std::vector<std::pair<std::string, bool>> kernels;  // name, uses a barrier; entry points are numbered in this order
  std::set<std::string> unexported;  // template or C++-linkage kernels no name expression names
};

Plan plan(const ModuleState& m);

}  // namespace loom::cpu_emulator
