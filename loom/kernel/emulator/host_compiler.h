// The CPU kernel emulator's side of the host C++ compiler: NVRTC's options as host flags,
// and compile errors worded as NVRTC's. Running the compiler is runtime/cpu/host_compiler.h.
#pragma once
#include <string>
#include <vector>

#include "loom/runtime/cpu/host_compiler.h"

namespace loom::cpu_emulator {

using cpu_runtime::compiler;
using cpu_runtime::compiler_identity;
using cpu_runtime::run_command;
using cpu_runtime::shell_quote;
using cpu_runtime::TempDir;
using cpu_runtime::write_file;

/// The user's NVRTC options as host compiler flags: macros (-D, -U), include folders (-I)
/// and pre-included headers pass through, shell-quoted; options NVRTC accepts that mean
/// nothing on the host (architecture, -use_fast_math, -lineinfo, ...) are dropped. An
/// option NVRTC does not accept raises CompileError as NVRTC words it ("unrecognized
/// option"), after `label` ("[RawKernel k]"), so a program that fails on a GPU fails here.
std::string host_options(const std::vector<std::string>& options, const std::string& label);

/// Raises the error for a failed host compile of the kernel source `code`: UnsupportedError
/// for a CUDA feature the emulator lacks (naming it and the line), else CompileError with
/// the compiler's first error lines (without its scratch-folder paths), the source lines
/// they point at, and the whole log as CompileError.log.
[[noreturn]] void raise_compile_error(const std::string& label, const std::string& cxx, const std::string& code,
                                      const std::string& log, bool debug);

}  // namespace loom::cpu_emulator
