// Compiler diagnostics made readable (DESIGN.md §5): the source lines around each error
// that a compiler log points at, numbered, so a CompileError shows what went wrong
// without the user counting lines. Pure string work; shared by NVRTC and, later, the
// host compiler of the CPU kernel emulator.
#pragma once
#include <string>

namespace loom {

/// The lines of `source` around each line the log reports an error or warning on
/// ("prog.cu(12): error: ..." from NVRTC, "prog.cpp:12:5: error: ..." from gcc/clang),
/// for a program named `program_name`: `context` lines either side, numbered, the
/// reported line marked with '>'. Empty when the log names no line of the program.
/// At most `max_errors` places are shown.
std::string source_excerpt(const std::string& source, const std::string& log,
                           const std::string& program_name, int context = 2, int max_errors = 8);

}  // namespace loom
