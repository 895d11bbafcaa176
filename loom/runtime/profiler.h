// The profiler's recorder (docs/PROFILER.md): one process-wide session that the few choke
// points of loom report to while it is active (the dispatch point for every op and kernel,
// transfer() for copies, allocate() and ~Buffer for memory, the compile cache for compiles,
// profiler ranges). Off, every choke point pays one relaxed atomic load (active()).
//
// Work on a GPU is timed by a pair of CUDA events recorded on the stream it runs on (taken
// from a recycled pool) and resolved only when the session stops; work on the CPU, which
// runs synchronously, by the host clock. Both end on one timeline: microseconds since the
// session started, GPU times placed through one reference event per device.
#pragma once
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "loom/runtime/device.h"

namespace loom::profiler {

enum class Category : uint8_t { kernel, copy, alloc, free, compile, range };
const char* category_name(Category c);

/// One recorded event, resolved: times in microseconds since the session started.
struct Record {
  std::string name;
  Category category = Category::kernel;
  Device device;           // where it ran (ranges and compiles: the host, cpu())
  uint64_t stream = 0;     // the stream handle it was timed on (0: the default stream)
  uint64_t thread = 0;     // the host thread that issued it (1 is the first thread seen)
  double start_us = 0;
  double dur_us = 0;       // 0 for instant events (allocations, frees)
  int64_t bytes = -1;      // allocation, free and copy sizes; -1 where none
  const char* detail = "";  // static text. kernel: the op family or "user"; compile: miss / memory hit / disk hit / failed
  int depth = 0;           // ranges: how many ranges enclose it on its thread
  std::string shapes;      // kernels and copies: the input arrays' shapes, "[2, 3], [3]"
};

namespace detail {
extern std::atomic<bool> g_active;
}  // namespace detail

/// Whether a session is recording: the one check on every hot path.
inline bool active() { return detail::g_active.load(std::memory_order_relaxed); }

/// Starts the process-wide session. A session already active is an error (nested profiles
/// are not supported: std::runtime_error naming the profiler).
void start();
/// Ends the session: waits for the devices that have timed work pending, resolves every
/// event onto one timeline and returns them sorted by start time. Spans left open (an op
/// that threw) are dropped. Returns nothing when no session is active.
std::vector<Record> stop();

/// Device-timed work (an op, a kernel, a copy). `key` identifies the span to end_span (the
/// caller's stack address): ends are matched by key, so a span whose end never came (its
/// op threw) is dropped from its thread's stack at the next end below it. `stream` is the
/// native stream the work is queued on (ignored on the CPU). `detail` must be static text.
/// `shapes` is the text of the input shapes (Record::shapes). No-ops while inactive.
void begin_span(const void* key, Category cat, const std::string& name, const char* detail, const Device& device,
                void* stream, int64_t bytes = -1, std::string shapes = {});
void begin_span(const void* key, Category cat, const char* name, const char* detail, const Device& device,
                void* stream, int64_t bytes = -1, std::string shapes = {});
void end_span(const void* key);
/// The name of the innermost open span on this thread ("" if none): what a compile serves.
std::string current_span_name();

/// An instant event on the host timeline (allocations and frees).
void instant(Category cat, const char* name, const Device& device, int64_t bytes);

/// A named range (loom.profiler.range): an NVTX range always (free without a tool attached),
/// and a range event of the session while one is active. Pops must match pushes per thread.
void range_push(const std::string& name);
void range_pop();

/// Names the next dispatched op on this thread, and the stream it runs on, where the op's
/// record cannot: a user kernel launch (its kernel's name, the launch's stream), a jit
/// fused kernel (the ops it fuses). `detail` is static text (Record::detail), or null for the
/// op's family. Costs one check while no session is active.
class OpLabel {
 public:
  OpLabel(const std::string& name, const void* stream, bool has_stream, const char* detail = "user");
  ~OpLabel();
  OpLabel(const OpLabel&) = delete;
  OpLabel& operator=(const OpLabel&) = delete;

  const std::string& name() const { return name_; }
  bool has_stream() const { return has_stream_; }
  void* stream() const { return const_cast<void*>(stream_); }
  const char* detail() const { return detail_; }
  /// The innermost label of this thread, or null.
  static const OpLabel* current();

 private:
  const std::string& name_;
  const void* stream_;
  bool has_stream_;
  const char* detail_;
  bool set_ = false;
  const OpLabel* saved_ = nullptr;
};

}  // namespace loom::profiler
