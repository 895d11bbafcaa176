// A zeroed work buffer of the calling thread for the CPU graph evaluator (cpu_eval.cpp),
// kept from call to call: an optimiser's step runs several graphs over small arrays, and a
// fresh allocation of ~100 KiB per call cost page faults each time.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>

namespace loom::graph_cpu {

class ThreadScratch {
 public:
  /// `bytes` of zeroed memory: the thread's buffer, grown when too small, or, while the
  /// thread already holds it, an allocation of its own.
  explicit ThreadScratch(size_t bytes);
  ~ThreadScratch();
  ThreadScratch(const ThreadScratch&) = delete;
  ThreadScratch& operator=(const ThreadScratch&) = delete;
  char* data() const { return data_; }

 private:
  char* data_ = nullptr;
  std::unique_ptr<uint64_t[]> own_;
  bool* held_ = nullptr;  // the thread's flag for its buffer, cleared when done
};

}  // namespace loom::graph_cpu
