// The per-device caching allocator (DESIGN.md §6), PyTorch style: sizes rounded to
// 512 B; requests under 1 MiB carved from 2 MiB segments (small pool), larger ones
// from segments rounded to 2 MiB (large pool); best fit by (stream, size), blocks split
// when the rest is worth keeping and merged with free neighbours when freed. A block
// is reused only on the stream it was allocated on; one last written on another stream
// returns to the pool once an event recorded there has completed.
//
// CUDA graphs (runtime/cuda/graph.cpp) capture on a stream of their own, so the blocks a
// capture allocates are keyed by that stream and no other work is handed them: they stay
// the graph's until retire_stream() gives them back to the default stream's pool. While
// this thread captures, nothing here may wait for or query the device (that would
// invalidate the capture): new segments are cudaMalloc'ed in relaxed capture mode and
// pending events are left for later.
#include "loom/runtime/gpu_runtime.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <set>
#include <unordered_set>
#include <string>
#include <vector>

#include "loom/runtime/cuda/check.h"
#include "loom/runtime/cuda/context.h"
#include "loom/core/error.h"

namespace loom::cuda {
namespace {

constexpr size_t kMinBlock = 512;             // every size is a multiple of this
constexpr size_t kSmallSize = 1 << 20;        // requests below go to the small pool
constexpr size_t kSmallSegment = 2 << 20;     // small pool segments
constexpr size_t kLargeRound = 2 << 20;       // large segments are multiples of this

class DeviceAllocator;

struct Block {
  DeviceAllocator* owner;
  char* ptr;
  size_t size;
  void* stream;        // the stream it was allocated on
  bool small;
  bool allocated = false;  // also true while waiting for an event
  Block* prev = nullptr;   // neighbours within the segment
  Block* next = nullptr;
};

struct BlockLess {
  bool operator()(const Block* a, const Block* b) const {
    if (a->stream != b->stream) return reinterpret_cast<uintptr_t>(a->stream) < reinterpret_cast<uintptr_t>(b->stream);
    if (a->size != b->size) return a->size < b->size;
    return reinterpret_cast<uintptr_t>(a->ptr) < reinterpret_cast<uintptr_t>(b->ptr);
  }
};
using Pool = std::set<Block*, BlockLess>;

size_t round_up(size_t n, size_t m) { return (n + m - 1) / m * m; }

void release_block(void* ctx, Buffer& self);
void release_nothing(void*, Buffer&) {}

class DeviceAllocator {
 public:
  explicit DeviceAllocator(int device) : device_(device) {
    activate(device);
    size_t free_bytes = 0;
    LOOM_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_));
  }

  std::shared_ptr<Buffer> allocate(size_t nbytes, void* stream) {
    check_alive(device_);
    const Device dev{DeviceType::cuda, device_};
    if (nbytes == 0) {
      auto buf = std::make_shared<Buffer>(nullptr, 0, dev, &release_nothing, nullptr);
      buf->set_alloc_stream(stream);
      buf->set_last_stream(stream);
      return buf;
    }
    const size_t size = round_up(nbytes, kMinBlock);
    Block* block;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (!pending_.empty() && !cuda::capture_stream()) process_events();
      block = take_free(size, stream);
      if (!block) block = take_new(size, nbytes, stream);
      in_use_ += block->size;
      peak_ = std::max(peak_, in_use_);
    }
    try {
      auto buf = std::make_shared<Buffer>(block->ptr, nbytes, dev, &release_block, block);
      buf->set_alloc_stream(stream);
      buf->set_last_stream(stream);
      return buf;
    } catch (...) {
      release(block, stream);
      throw;
    }
  }

  // From the Buffer's destructor: never throws.
  void release(Block* b, void* last_stream) noexcept {
    std::lock_guard<std::mutex> lock(mu_);
    in_use_ -= b->size;
    if (device_lost(device_)) return;  // the context is gone: the memory goes with it
    try {
      if (last_stream != b->stream && !stream_destroyed(last_stream)) {
        activate(device_);
        cudaEvent_t ev = get_event();
        if (cudaEventRecord(ev, static_cast<cudaStream_t>(last_stream)) == cudaSuccess) {
          pending_.push_back({ev, b});
          return;
        }
        cudaGetLastError();
        free_events_.push_back(ev);
        cudaDeviceSynchronize();  // cannot order the reuse: wait for everything instead
      }
      free_block(b);
    } catch (...) {
      // device lost while freeing: the block is dropped with the context
    }
  }

  MemoryStats stats() {
    std::lock_guard<std::mutex> lock(mu_);
    MemoryStats s;
    s.in_use = in_use_;
    s.peak = peak_;
    s.cached = reserved_ - in_use_;
    s.limit = limit_;
    s.total = total_;
    return s;
  }

  void empty_cache() {
    cuda::check_not_capturing("empty_cache", "freeing cached GPU memory (cudaFree waits for the device)");
    std::lock_guard<std::mutex> lock(mu_);
    if (!pending_.empty()) process_events();
    release_cached();
  }

  // The graph that captured on `stream` is gone and the device idle: its free blocks, and
  // those its outputs free later, join the default stream's pool.
  void retire_stream(void* stream) {
    std::lock_guard<std::mutex> lock(mu_);
    retired_.insert(stream);
    for (Pool* pool : {&small_, &large_}) {
      std::vector<Block*> moved;
      for (Block* b : *pool)
        if (b->stream == stream) moved.push_back(b);
      for (Block* b : moved) {
        pool->erase(b);
        b->stream = nullptr;
        pool->insert(b);
      }
    }
  }

  // A stream handle reused by a new capture is live again.
  void unretire_stream(void* stream) {
    std::lock_guard<std::mutex> lock(mu_);
    retired_.erase(stream);
  }

  void set_limit(size_t nbytes) {
    cuda::check_not_capturing("set_limit", "changing the memory limit (it may free cached GPU memory)");
    std::lock_guard<std::mutex> lock(mu_);
    limit_ = nbytes;
    if (limit_ && reserved_ > limit_) release_cached();
  }

 private:
  // Best fit on `stream`, split when the rest is worth keeping. Under mu_.
  Block* take_free(size_t size, void* stream) {
    Pool& pool = size < kSmallSize ? small_ : large_;
    Block key{nullptr, nullptr, size, stream, false};
    auto it = pool.lower_bound(&key);
    if (it == pool.end() || (*it)->stream != stream) return nullptr;
    Block* b = *it;
    pool.erase(it);
    split(b, size);
    b->allocated = true;
    return b;
  }

  void split(Block* b, size_t size) {
    const size_t rest = b->size - size;
    if (b->small ? rest < kMinBlock : rest <= kSmallSize) return;
    Block* r = new Block{this, b->ptr + size, rest, b->stream, b->small};
    r->prev = b;
    r->next = b->next;
    if (b->next) b->next->prev = r;
    b->next = r;
    b->size = size;
    (b->small ? small_ : large_).insert(r);
  }

  // A new segment from cudaMalloc; on failure frees the cache and retries once.
  Block* take_new(size_t size, size_t nbytes, void* stream) {
    const bool small = size < kSmallSize;
    const size_t seg = small ? kSmallSegment : round_up(size, kLargeRound);
    void* p = try_malloc(seg);
    if (!p && !cuda::capture_stream()) {  // freeing waits for the device: not while capturing
      sync_events();
      release_cached();
      p = try_malloc(seg);
    }
    if (!p) throw_oom(nbytes);
    reserved_ += seg;
    Block* b = new Block{this, static_cast<char*>(p), seg, stream, small};
    split(b, size);
    b->allocated = true;
    return b;
  }

  void* try_malloc(size_t seg) {
    if (limit_ && reserved_ + seg > limit_) return nullptr;
    activate(device_);
    void* p = nullptr;
    // cudaMalloc is not a stream operation, so a capture in thread-local mode refuses it;
    // relaxed mode lets it run unrecorded, and the segment then belongs to this pool.
    cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
    const bool capturing = cuda::capture_stream() != nullptr;
    if (capturing) LOOM_CUDA_CHECK(cudaThreadExchangeStreamCaptureMode(&mode));
    const cudaError_t err = cudaMalloc(&p, seg);
    if (capturing) LOOM_CUDA_CHECK(cudaThreadExchangeStreamCaptureMode(&mode));
    if (err == cudaErrorMemoryAllocation) {
      cudaGetLastError();  // not sticky: the device keeps working
      return nullptr;
    }
    if (err != cudaSuccess) raise_runtime_error(err, "cudaMalloc(&p, seg)");
    return p;
  }

  [[noreturn]] void throw_oom(size_t nbytes) {
    auto both = [](size_t n) { return format_bytes(n) + " (" + std::to_string(n) + " bytes)"; };
    std::string msg = "[allocate] out of memory on gpu(" + std::to_string(device_) +
                      "): tried to allocate " + both(nbytes) + "; in use " + both(in_use_) +
                      ", cached " + both(reserved_ - in_use_) + ", device total " + both(total_);
    if (limit_) msg += ", limit " + both(limit_);
    msg += ". Process the data in batches (smaller arrays at a time) or free arrays you no "
           "longer need.";
    throw OutOfMemoryError(msg);
  }

  // Into the pool, merged with free neighbours. Under mu_.
  void free_block(Block* b) {
    b->allocated = false;
    // Only while the handle is dead: a new stream that reuses it keeps its blocks.
    if (!retired_.empty() && retired_.count(b->stream) && stream_destroyed(b->stream)) b->stream = nullptr;
    Pool& pool = b->small ? small_ : large_;
    if (Block* p = b->prev; p && !p->allocated) {
      pool.erase(p);
      p->size += b->size;
      p->next = b->next;
      if (b->next) b->next->prev = p;
      delete b;
      b = p;
    }
    if (Block* n = b->next; n && !n->allocated) {
      pool.erase(n);
      b->size += n->size;
      b->next = n->next;
      if (n->next) n->next->prev = b;
      delete n;
    }
    pool.insert(b);
  }

  cudaEvent_t get_event() {
    if (!free_events_.empty()) {
      cudaEvent_t ev = free_events_.back();
      free_events_.pop_back();
      return ev;
    }
    cudaEvent_t ev;
    LOOM_CUDA_CHECK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
    return ev;
  }

  // Blocks whose cross-stream event has completed go back to the pool.
  void process_events() {
    size_t kept = 0;
    for (size_t i = 0; i < pending_.size(); ++i) {
      auto [ev, b] = pending_[i];
      const cudaError_t err = cudaEventQuery(ev);
      if (err == cudaSuccess) {
        free_events_.push_back(ev);
        free_block(b);
      } else if (err == cudaErrorNotReady) {
        cudaGetLastError();
        pending_[kept++] = pending_[i];
      } else {
        pending_.resize(kept);  // lost context: drop the rest
        raise_runtime_error(err, "cudaEventQuery(ev)");
      }
    }
    pending_.resize(kept);
  }

  void sync_events() {
    for (auto [ev, b] : pending_) {
      LOOM_CUDA_CHECK(cudaEventSynchronize(ev));
      free_events_.push_back(ev);
      free_block(b);
    }
    pending_.clear();
  }

  // cudaFree of every free segment that is not split (cudaFree waits for the device).
  void release_cached() {
    for (Pool* pool : {&small_, &large_}) {
      for (auto it = pool->begin(); it != pool->end();) {
        Block* b = *it;
        if (b->prev || b->next) {
          ++it;
          continue;
        }
        activate(device_);
        LOOM_CUDA_CHECK(cudaFree(b->ptr));
        reserved_ -= b->size;
        it = pool->erase(it);
        delete b;
      }
    }
  }

  const int device_;
  std::mutex mu_;
  Pool small_, large_;
  std::vector<std::pair<cudaEvent_t, Block*>> pending_;
  std::vector<cudaEvent_t> free_events_;
  std::unordered_set<void*> retired_;  // capture streams of graphs that are gone
  size_t in_use_ = 0, peak_ = 0, reserved_ = 0, limit_ = 0, total_ = 0;
};

void release_block(void* ctx, Buffer& self) {
  auto* b = static_cast<Block*>(ctx);
  b->owner->release(b, self.last_stream());
}

// Created on first use and never destroyed: buffers may outlive static destruction.
std::atomic<DeviceAllocator*> allocators[kMaxDevices] = {};

DeviceAllocator& allocator(int device) {
  static std::mutex mu;
  if (device < 0 || device >= device_count()) activate(device);  // throws: no such GPU
  DeviceAllocator* a = allocators[device].load(std::memory_order_acquire);
  if (a) return *a;
  std::lock_guard<std::mutex> lock(mu);
  a = allocators[device].load();
  if (!a) {
    a = new DeviceAllocator(device);
    allocators[device].store(a, std::memory_order_release);
  }
  return *a;
}

}  // namespace
}  // namespace loom::cuda

namespace loom::gpu_runtime {

using cuda::allocator;
using cuda::round_up;

std::shared_ptr<Buffer> allocate(int device, size_t nbytes, void* stream) {
  return allocator(device).allocate(nbytes, stream);
}

MemoryStats memory_stats(int device) { return allocator(device).stats(); }

bool memory_stats_if_used(int device, MemoryStats& out) {
  if (device < 0 || device >= cuda::kMaxDevices) return false;
  cuda::DeviceAllocator* a = cuda::allocators[device].load(std::memory_order_acquire);
  if (!a) return false;
  out = a->stats();
  return true;
}

void empty_cache(int device) { allocator(device).empty_cache(); }

void set_limit(int device, size_t nbytes) { allocator(device).set_limit(nbytes); }

void retire_stream(int device, void* stream) { allocator(device).retire_stream(stream); }
void unretire_stream(int device, void* stream) { allocator(device).unretire_stream(stream); }

void* pinned_alloc(size_t nbytes) {
  const size_t n = std::max<size_t>(nbytes, 1);
  if (cuda::device_count() == 0) {
    void* p = std::aligned_alloc(4096, round_up(n, 4096));
    if (!p) throw OutOfMemoryError("[pinned_alloc] out of host memory: " + cuda::format_bytes(nbytes));
    return p;
  }
  void* p = nullptr;
  const cudaError_t err = cudaHostAlloc(&p, n, cudaHostAllocPortable);
  if (err == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    throw OutOfMemoryError("[pinned_alloc] could not allocate " + cuda::format_bytes(nbytes) +
                           " of page-locked host memory");
  }
  if (err != cudaSuccess) cuda::raise_runtime_error(err, "cudaHostAlloc(&p, n, cudaHostAllocPortable)");
  return p;
}

void pinned_free(void* ptr) {
  if (!ptr) return;
  if (cuda::device_count() == 0) {
    std::free(ptr);
    return;
  }
  LOOM_CUDA_CHECK(cudaFreeHost(ptr));
}

}  // namespace loom::gpu_runtime
