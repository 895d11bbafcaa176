// What the CPU kernel emulator compiles for a RawModule: the user's source, scanned for its
// __global__ kernels and rewritten where CUDA and C++ differ (`extern __shared__`), between
// the portability header and generated entry points. Text in, text out: no compiler here.
#pragma once
#include <cctype>
#include <set>
#include <string>
#include <vector>

namespace loom {
struct ModuleState;
}

namespace loom::cpu_emulator {

/// Scanning helpers shared by the emulator's rewrites and the parameter-type reader.
inline bool ident_char(char c) { return isalnum(static_cast<unsigned char>(c)) || c == '_'; }
std::string trim(const std::string& s);  // without leading and trailing white space

/// The name compiler logs give the user's source (its line numbers are the user's).
constexpr const char* kProgramName = "loom_kernel.cu";

/// One kernel of a Plan; entry points are numbered in the Plan's order.
struct PlannedKernel {
  std::string name;
  bool uses_barrier = false;
  std::vector<std::string> pointer_params;  // debug plans: each parameter's name if it is a checked pointer, else ""
  std::string base;  // the kernel's function name ("k" for "ns::k<float>")
  // The identifiers the kernel's body mentions, directly or through the bodies of the
  // functions it names (by name: overloads merge), and `base`: what it may reach.
  std::set<std::string> reaches;
  int max_threads = 0;  // its __launch_bounds__' threads per block (an integer literal); 0: none
  // The source gives the kernel a whole-block form (LOOM_EMU_WHOLE_BLOCK(kernel, fn), which
  // the Python kernel translator writes: its code between barriers as loops over the block's
  // threads): the block loop runs it once per block instead of fibers (executor.cpp).
  bool whole_block = false;
};

/// One translation unit for the host compiler.
struct Plan {
  std::string source;  // the whole translation unit
  std::vector<PlannedKernel> kernels;  // entry points are numbered in this order
  std::set<std::string> unexported;  // template or C++-linkage kernels no name expression names
  std::set<std::string> functions;   // the names of the functions the source defines
};

/// With `debug`, the translation unit of debug mode: pointer parameters of __global__
/// functions are checked pointers (emu_debug_source.h) and the library exports
/// loom_emu_tls_anchor (see loom_emu::tls_anchor).
Plan plan(const ModuleState& m, bool debug = false);

/// A __global__ function definition of a source, as the scan above finds it: for reading
/// parameter types (loom/kernel/param_types.h) on every device.
struct KernelDefinition {
  std::string name, qualified;  // "k", "ns::k"
  bool is_template = false, extern_c = false;
  std::string template_params;      // a template's "typename T, int N"
  std::vector<std::string> params;  // each parameter declaration (comments blanked)
};
std::vector<KernelDefinition> kernel_definitions(const std::string& code);

}  // namespace loom::cpu_emulator
