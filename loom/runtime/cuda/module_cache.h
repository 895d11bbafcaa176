// Run-time compilation (DESIGN.md §3): NVRTC compiles a Program for the device's exact
// architecture (CUBIN), the driver loads it. Compiled images go through the one compile
// cache (loom/cache/compile_cache.h, kind "nvrtc"): in memory and on disk, keyed by
// (source, options, dialect, name expressions, embedded headers, NVRTC version, loom
// version, arch). Every .cuh of backend/cuda/kernels/ is visible to programs as an include.
#pragma once
#include <cuda.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "loom/cache/compile_cache.h"

namespace loom::cuda {

/// The C++ that NVRTC accepts for a program. kMinimal adds NVRTC's `--minimal`: no texture
/// and surface functions, no device runtime (cudaMalloc, device-side launches), no CUDA
/// runtime types (cudaError_t); it cuts ~4 ms (~15%) off every compile, so loom's own
/// kernels use it. kFull is for user source, which may use any of those.
enum class Dialect { kMinimal, kFull };

/// An NVRTC program: its source, the kernels it exports as name expressions
/// ("loom_convert<float, int>" or a plain extern "C" name), and extra NVRTC options.
/// A whole family is one program, compiled in one NVRTC call on first use.
class Program {
 public:
  Program(std::string name, std::string source, std::vector<std::string> name_expressions,
          std::vector<std::string> options = {}, Dialect dialect = Dialect::kMinimal);
  const std::string& name() const { return name_; }
  const std::string& source() const { return source_; }
  const std::vector<std::string>& name_expressions() const { return names_; }
  const std::vector<std::string>& options() const { return options_; }
  Dialect dialect() const { return dialect_; }
  /// Hash of everything that decides the binary except the target arch (the name is only
  /// a label in messages and is left out). Computed once, in the constructor.
  const Hash128& key() const { return key_; }

 private:
  std::string name_, source_;
  std::vector<std::string> names_, options_;
  Dialect dialect_;
  Hash128 key_;
};

struct CompiledProgram {
  std::string image;  // CUBIN, or PTX when the GPU is newer than this NVRTC
  bool is_ptx = false;
  std::vector<std::pair<std::string, std::string>> lowered_names;  // expression -> symbol
  std::string log;
};

/// Compiles `program` for compute capability `arch` (e.g. 90) with NVRTC, bypassing the
/// cache. Needs no GPU. Throws loom::CompileError with the NVRTC log on failure.
/// With `ptx_only` the image is PTX for virtual architecture compute_`arch` (what
/// kernel.inspect_asm() and cuda.compile_ptx show; a newer arch than NVRTC knows gets its
/// newest), never CUBIN.
CompiledProgram compile_program(const Program& program, int arch, bool ptx_only = false);
/// The oldest compute capability this NVRTC compiles for (e.g. 75): the portable default
/// for PTX asked for without a GPU (any newer GPU's driver JIT-compiles it).
int oldest_supported_arch();
/// compile_program through the compile cache (memory, then disk, then NVRTC; failures are
/// not cached). Needs no GPU. Thread-safe; one compile per (program, arch) at a time.
std::shared_ptr<const CompiledProgram> compile_cached(const Program& program, int arch);

/// The kernel `name_expression` (one of the program's) loaded on GPU `device`; the
/// program is compiled and loaded once per (device, key). Thread-safe.
CUfunction get_function(int device, const Program& program, const std::string& name_expression);
/// The program loaded on GPU `device` (compiled and loaded once per (device, key)), for
/// looking up extern "C" functions that are not name expressions. Thread-safe.
CUmodule get_module(int device, const Program& program);
/// Whether the program is loaded on GPU `device` already (get_function would compile
/// and load nothing).
bool is_loaded(int device, const Program& program);

/// One-kernel form for user source (Dialect::kFull): `name_expression` is the only export.
CUfunction get_function(int device, const std::string& source, const std::string& name_expression,
                        const std::vector<std::string>& options = {});

}  // namespace loom::cuda
