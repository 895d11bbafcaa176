// Run-time autotuning of block shapes (PyCUDA's "benchmark at run time, use what is
// fastest"): the first launch of a kernel with block="auto" for a (kernel, size class,
// device) times candidate blocks with events and keeps the fastest, remembered in memory
// and on disk (the compile cache, kind "autotune"), so later launches and later processes
// pay nothing.
#pragma once
#include <exception>
#include <functional>
#include <string>
#include <vector>

#include "loom/cache/compile_cache.h"
#include "loom/runtime/device.h"
#include "loom/kernel/raw_module.h"
#include "loom/runtime/stream.h"

namespace loom::autotune {

/// One choice, as report() shows it.
struct Record {
  std::string kernel;      // the kernel's name
  std::string device;      // "gpu(0) NVIDIA H100 80GB HBM3 (sm_90)"
  std::string size_class;  // see size_class()
  Dim3 block;              // the chosen block
  double best_ms = 0;      // its time per launch when it was timed
  int candidates = 0;      // how many blocks were timed
  bool from_disk = false;  // read back from the disk cache instead of timed in this process
};

/// The class of problem sizes that share a choice: per dimension the power of two at or
/// above the extent, e.g. "1048576x1x1".
std::string size_class(Dim3 extent);

/// Block shapes worth trying for `extent` with a kernel allowing `max_threads` per
/// block: whole warps, at most `max_threads` threads, no dimension far beyond its extent
/// (a 1-d extent gets 1-d blocks), per-dimension limits (1024, 1024, 64); at most 9.
/// `max_threads` <= 0 means the device limit, 1024. Never empty.
std::vector<Dim3> candidate_blocks(Dim3 extent, int max_threads);

/// The block for (kernel_key, size_class(extent), device): remembered, else each
/// candidate is timed by `run(block)` (which launches on `stream`; the caller points it
/// at scratch copies of the outputs) and the fastest is kept. `kernel_key` identifies the
/// compiled function (source, options, name); `kernel_name` is for report().
Dim3 choose_block(const Hash128& kernel_key, const std::string& kernel_name, Dim3 extent,
                  const Device& device, const Stream& stream, int max_threads,
                  const std::function<void(Dim3)>& run);

/// True when choose_block would answer without timing (memory or disk).
bool known(const Hash128& kernel_key, Dim3 extent, const Device& device);

/// Every choice made or loaded in this process, oldest first. Thread-safe.
std::vector<Record> report();
/// Forgets the in-memory choices and report() (the disk keeps them); for tests.
void clear_memory();

// ---- the search without a GPU (choose_block above is these plus event timing) ---------
namespace detail {

/// Who a choice is for: `identity` (device name and compute capability, so identical
/// GPUs share choices across processes) takes part in the key; `label` is what report()
/// shows ("gpu(0) NVIDIA H100 80GB HBM3 (sm_90)").
struct DeviceId {
  std::string identity, label;
};
/// The DeviceId of `device` (its properties are queried once per process).
DeviceId device_id(const Device& device);

/// Milliseconds per launch of `block`. Throwing skips the candidate (a block the kernel
/// cannot run); throw Abort to stop the whole search instead (the device failed).
using TimeFn = std::function<double(Dim3)>;
struct Abort {
  std::exception_ptr error;  // rethrown by choose_block
};

/// choose_block on an explicit cache with an explicit timer: memory, else `cache` (kind
/// "autotune"), else times every candidate_blocks() entry by `time` inside the cache's
/// compile callback (so the choice is written to disk). When every candidate throws,
/// rethrows the first error and remembers nothing.
Dim3 choose_block(CompileCache& cache, const Hash128& kernel_key, const std::string& kernel_name,
                  Dim3 extent, const DeviceId& device, int max_threads, const TimeFn& time);
/// known() on an explicit cache. A choice found on disk is loaded into memory, so a
/// choose_block that follows a true answer never times.
bool known(CompileCache& cache, const Hash128& kernel_key, Dim3 extent, const DeviceId& device);

}  // namespace detail

}  // namespace loom::autotune
