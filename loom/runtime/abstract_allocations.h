// Which abstract buffers (memory.h, Buffer::abstract) came into being during a stretch of
// tracing. A function traced inside another trace (a loop body of loom::lax) reads arrays of
// the enclosing trace as well as its own; the buffers it did not allocate are the ones it
// closed over, which its op must take as operands (transforms/control_flow.cpp).
#pragma once
#include <unordered_set>

namespace loom {
class Buffer;

namespace memory {

/// While one lives on this thread, every abstract buffer allocated on the thread is noted in
/// it (and in every log around it: a nested trace's buffers are the outer stretch's too).
class AbstractAllocationLog {
 public:
  AbstractAllocationLog();
  ~AbstractAllocationLog();
  AbstractAllocationLog(const AbstractAllocationLog&) = delete;
  AbstractAllocationLog& operator=(const AbstractAllocationLog&) = delete;

  /// Whether `b` was allocated while this log lived.
  bool allocated_here(const Buffer* b) const { return buffers_.count(b) != 0; }

  /// Called by Buffer::abstract for each new buffer.
  static void note(const Buffer* b);

 private:
  std::unordered_set<const Buffer*> buffers_;
  AbstractAllocationLog* outer_;
};

}  // namespace memory
}  // namespace loom
