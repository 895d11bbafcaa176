// Device memory: reference-counted buffers handed out by per-device allocators,
// with the statistics and limits of loom.memory.
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <memory>

#include "loom/core/shape.h"
#include "loom/runtime/device.h"

namespace loom {

namespace memory {
bool allocating_abstract();  // below: whether this thread is tracing
}  // namespace memory

class Buffer;

/// What a buffer's contents were computed from, for an op that can read the source
/// instead (matmul runs x @ x.conj().T as a Hermitian rank-k update on x). The buffer holds,
/// C-contiguous from byte 0, an elementwise function of the source view (offset, shape,
/// strides in bytes) of `source`; which function `kind` says. It describes the contents only
/// while neither buffer has been written since: `source_writes` and `own_writes` are their
/// write counts when it was made (Buffer::writes), and both must still be tracked.
struct BufferOrigin {
  enum class Kind { conjugate };
  Kind kind;
  std::weak_ptr<Buffer> source;
  uint64_t source_writes;
  uint64_t own_writes;
  int64_t offset;
  Shape shape;
  Strides strides;
};

/// One allocation. Arrays view it through shared_ptr; when the last view dies the
/// memory goes back to the allocator it came from (or its foreign owner is released).
class Buffer {
 public:
  using ReleaseFn = void (*)(void* ctx, Buffer& self);

  Buffer(void* ptr, size_t nbytes, Device device, ReleaseFn release, void* ctx)
      : ptr_(ptr), nbytes_(nbytes), device_(device), release_(release), ctx_(ctx) {}
  /// Wraps memory owned elsewhere (DLPack, __cuda_array_interface__, NumPy);
  /// `on_release` drops the owner's reference.
  /// Wrapped while a function is traced (loom.asarray of a NumPy array), it is a constant of
  /// the trace, as an upload would be.
  Buffer(void* ptr, size_t nbytes, Device device, std::function<void()> on_release)
      : ptr_(ptr), nbytes_(nbytes), device_(device), foreign_release_(std::move(on_release)),
        trace_constant_(memory::allocating_abstract()), tracked_(false) {}
  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  void* data() const { return ptr_; }
  size_t nbytes() const { return nbytes_; }

  /// A buffer of a function being traced (dispatch/trace.h): a size and a device, no memory.
  /// Ops record themselves on it instead of running; a replay substitutes real buffers.
  static std::shared_ptr<Buffer> abstract(size_t nbytes, Device device);
  bool is_abstract() const { return abstract_; }
  /// A constant made while tracing: an abstract buffer given memory by materialize(), or
  /// foreign memory wrapped then.
  bool is_trace_constant() const { return trace_constant_; }
  /// Gives an abstract buffer the memory of `real` (same device, at least nbytes), which it
  /// keeps alive: a constant of a trace (an upload from the host, an op run at trace time).
  void materialize(std::shared_ptr<Buffer> real);
  const Device& device() const { return device_; }

  /// The stream (cudaStream_t, opaque here) that last used this buffer. A user on
  /// another stream first waits for it and then takes its place, so this stream's
  /// completion implies every earlier use; the allocator waits for it before reuse.
  /// nullptr is the device's default stream.
  void* last_stream() const { return last_stream_; }
  void set_last_stream(void* s) { last_stream_ = s; }
  /// Allocator bookkeeping: the stream the block was allocated on.
  void* alloc_stream() const { return alloc_stream_; }
  void set_alloc_stream(void* s) { alloc_stream_ = s; }

  /// How many times loom has written this buffer: dispatch() counts each output operand, and
  /// the writers outside it (user kernel launches, in-place collectives) count their arrays.
  /// Only a change matters (a racing pair of writes may count once), so a plain load and
  /// store suffice. A BufferOrigin compares it to tell whether its contents still hold.
  uint64_t writes() const { return writes_.load(std::memory_order_relaxed); }
  void note_write() { writes_.store(writes_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed); }
  /// False once memory can be written behind loom's back: foreign memory (NumPy, DLPack,
  /// __cuda_array_interface__ imports) from the start, an own buffer once its address is
  /// exported (a NumPy view, DLPack, __cuda_array_interface__). Untracked buffers never take
  /// part in a BufferOrigin.
  bool tracked() const { return tracked_.load(std::memory_order_relaxed); }
  void mark_untracked() { tracked_.store(false, std::memory_order_relaxed); }
  /// Set once, by the op that made the buffer, before anyone else sees it.
  const std::shared_ptr<const BufferOrigin>& origin() const { return origin_; }
  void set_origin(std::shared_ptr<const BufferOrigin> o) { origin_ = std::move(o); }

 private:
  void* ptr_;
  size_t nbytes_;
  Device device_;
  ReleaseFn release_ = nullptr;
  void* ctx_ = nullptr;
  std::function<void()> foreign_release_;
  void* last_stream_ = nullptr;
  void* alloc_stream_ = nullptr;
  bool abstract_ = false;
  bool trace_constant_ = false;
  std::atomic<bool> tracked_{true};
  std::atomic<uint64_t> writes_{0};
  std::shared_ptr<const BufferOrigin> origin_;
  std::shared_ptr<Buffer> backing_;  // a materialized abstract buffer's memory
};

/// Allocates `nbytes` on `device` (on its current stream for a GPU). Throws
/// OutOfMemoryError after freeing cached blocks and retrying once.
std::shared_ptr<Buffer> allocate(size_t nbytes, const Device& device);

namespace memory {
/// While one lives on this thread, allocate() hands out abstract buffers (a function is
/// being traced). A scope with `abstract` false suspends an enclosing one (an op that runs
/// at trace time). Scopes nest; each restores what it found.
class AllocationScope {
 public:
  explicit AllocationScope(bool abstract);
  ~AllocationScope();
  AllocationScope(const AllocationScope&) = delete;
  AllocationScope& operator=(const AllocationScope&) = delete;

 private:
  bool saved_;
};
bool allocating_abstract();
/// Real memory even while tracing.
std::shared_ptr<Buffer> allocate_concrete(size_t nbytes, const Device& device);
}  // namespace memory

struct MemoryStats {
  size_t in_use = 0;  // bytes held by live buffers
  size_t peak = 0;    // highest in_use since start
  size_t cached = 0;  // bytes held by the pool but free for reuse
  size_t limit = 0;   // the cap set by set_limit (0 = none)
  size_t total = 0;   // device (or host) memory size
};

namespace memory {
MemoryStats stats(const Device& device);
/// stats() of a device this process has allocated on; nullopt for a GPU it never used, whose
/// allocator (and CUDA context) this does not create. cpu() always has statistics.
std::optional<MemoryStats> stats_if_used(const Device& device);
/// Returns cached, unused blocks to the device (all devices when empty).
void empty_cache(std::optional<Device> device = std::nullopt);
/// Caps the bytes loom may hold on `device` (0 removes the cap).
void set_limit(size_t nbytes, std::optional<Device> device = std::nullopt);
}  // namespace memory

/// Page-locked host memory (plain aligned memory in a build or on a machine without CUDA).
void* pinned_alloc(size_t nbytes);
void pinned_free(void* ptr);

}  // namespace loom
