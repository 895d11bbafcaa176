// Running the host C++ compiler for the CPU kernel emulator: which compiler ($CXX, default
// g++), its identity (part of every cache key), shell commands and scratch folders.
#pragma once
#include <string>
#include <vector>

namespace loom::cpu_emulator {

/// $CXX, or g++ when unset.
std::string compiler();

/// `cxx --version`'s first line, remembered per compiler; "" when it cannot run.
std::string compiler_identity(const std::string& cxx);

/// `s` quoted for /bin/sh.
std::string shell_quote(const std::string& s);

/// Runs `cmd` through the shell with stderr folded into stdout, appending its output to
/// `out`; returns the exit status (127: not found, -1: it could not run).
int run_command(const std::string& cmd, std::string* out);

/// Writes `text` to `path`; throws std::runtime_error naming the path when it cannot.
void write_file(const std::string& path, const std::string& text);

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

/// A fresh private folder under $TMPDIR (or /tmp), removed with everything in it.
struct TempDir {
  std::string path;
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
};

}  // namespace loom::cpu_emulator
