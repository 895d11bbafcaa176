// Running the host C++ compiler at run time: which compiler ($CXX, default g++), its
// identity and the host CPU's (parts of every cache key), shell commands and scratch
// folders. The CPU kernel emulator (kernel/emulator/) and jit's compiled CPU loops
// (graph/cpu_compiled.h) build their libraries through these.
#pragma once
#include <string>

namespace loom::cpu_runtime {

/// $CXX, or g++ when unset.
std::string compiler();

/// `cxx --version`'s first line, remembered per compiler; "" when it cannot run.
std::string compiler_identity(const std::string& cxx);

/// The host CPU's model and instruction-set flags (from /proc/cpuinfo): code compiled
/// with -march=native is cached under it, so a cache folder shared between machines never
/// hands one CPU another's instructions. "" when unknown.
const std::string& cpu_identity();

/// `s` quoted for /bin/sh.
std::string shell_quote(const std::string& s);

/// Runs `cmd` through the shell with stderr folded into stdout, appending its output to
/// `out`; returns the exit status (127: not found, -1: it could not run).
int run_command(const std::string& cmd, std::string* out);

/// Writes `text` to `path`; throws std::runtime_error naming the path when it cannot.
void write_file(const std::string& path, const std::string& text);

/// A fresh private folder under $TMPDIR (or /tmp), removed with everything in it.
struct TempDir {
  std::string path;
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
};

}  // namespace loom::cpu_runtime
