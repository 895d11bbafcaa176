#include "loom/graph/cpu_eval_scratch.h"

#include <cstring>

namespace loom::graph_cpu {

ThreadScratch::ThreadScratch(size_t bytes) {
  const size_t words = (bytes + sizeof(uint64_t) - 1) / sizeof(uint64_t);
  thread_local std::unique_ptr<uint64_t[]> buffer;
  thread_local size_t capacity = 0;  // in words
  thread_local bool held = false;
  if (held) {  // not expected (an evaluation does not nest), but never shared
    own_.reset(new uint64_t[words]);
    data_ = reinterpret_cast<char*>(own_.get());
  } else {
    if (capacity < words) {
      buffer.reset(new uint64_t[words]);
      capacity = words;
    }
    data_ = reinterpret_cast<char*>(buffer.get());
    held = true;
    held_ = &held;
  }
  std::memset(data_, 0, words * sizeof(uint64_t));
}

ThreadScratch::~ThreadScratch() {
  if (held_) *held_ = false;
}

}  // namespace loom::graph_cpu
