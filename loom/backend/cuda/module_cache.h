// Run-time compilation (DESIGN.md §3): NVRTC compiles a Program for the device's exact
// architecture (CUBIN), the driver loads it, and an in-memory cache keyed by (source,
// options, name expressions, embedded headers, NVRTC version, arch) keeps the result.
// Every .cuh of backend/cuda/kernels/ is visible to programs as an include.
#pragma once
#include <cuda.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace loom::cuda {

/// An NVRTC program: its source, the kernels it exports as name expressions
/// ("loom_convert<float, int>" or a plain extern "C" name), and extra NVRTC options.
/// A whole family is one program, compiled in one NVRTC call on first use.
class Program {
 public:
  Program(std::string name, std::string source, std::vector<std::string> name_expressions,
          std::vector<std::string> options = {});
  const std::string& name() const { return name_; }
  const std::string& source() const { return source_; }
  const std::vector<std::string>& name_expressions() const { return names_; }
  const std::vector<std::string>& options() const { return options_; }
  /// Hash of everything that decides the binary except the target arch.
  uint64_t key() const { return key_; }

 private:
  std::string name_, source_;
  std::vector<std::string> names_, options_;
  uint64_t key_;
};

struct CompiledProgram {
  std::string image;  // CUBIN, or PTX when the GPU is newer than this NVRTC
  bool is_ptx = false;
  std::vector<std::pair<std::string, std::string>> lowered_names;  // expression -> symbol
  std::string log;
};

/// Compiles `program` for compute capability `arch` (e.g. 90). Needs no GPU.
/// Throws loom::CompileError with the NVRTC log on failure.
CompiledProgram compile_program(const Program& program, int arch);

/// The kernel `name_expression` (one of the program's) loaded on GPU `device`; the
/// program is compiled and loaded once per (device, key). Thread-safe.
CUfunction get_function(int device, const Program& program, const std::string& name_expression);
/// One-kernel form for user source: `name_expression` is the only export.
CUfunction get_function(int device, const std::string& source, const std::string& name_expression,
                        const std::vector<std::string>& options = {});

}  // namespace loom::cuda
