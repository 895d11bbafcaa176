// Running the host C++ compiler for the CPU kernel emulator: which compiler ($CXX, default
// g++), its identity (part of every cache key), shell commands and scratch folders.
#pragma once
#include <string>

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

/// A fresh private folder under $TMPDIR (or /tmp), removed with everything in it.
struct TempDir {
  std::string path;
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
};

}  // namespace loom::cpu_emulator
