// The bounded LRU cache of FFT plans that both backends keep (FFTW plans on the CPU, cuFFT
// plans per GPU, as CuPy's PlanCache): planning costs far more than a small transform, and
// programs use few distinct shapes. Plans are shared_ptrs, so one evicted while another
// thread still executes it lives until that thread drops it. Not synchronised: each owner
// locks around get() (the CPU cache with FFTW's planner lock, a GPU's with its device lock).
#pragma once
#include <cstddef>
#include <functional>
#include <list>
#include <memory>
#include <unordered_map>
#include <utility>

namespace loom::fft_detail {

template <class Key, class Plan, class Hash = std::hash<Key>>
class PlanCache {
 public:
  explicit PlanCache(size_t capacity) : capacity_(capacity < 1 ? 1 : capacity) {}

  /// The plan of `key`, made by `make()` (a shared_ptr<Plan>) on a miss; the least recently
  /// used plan is dropped when the cache is full. A throwing make() leaves the cache as it was.
  template <class Make>
  std::shared_ptr<Plan> get(const Key& key, Make&& make) {
    auto it = index_.find(key);
    if (it != index_.end()) {
      ++hits_;
      order_.splice(order_.begin(), order_, it->second);  // now the most recent
      return it->second->second;
    }
    ++misses_;
    std::shared_ptr<Plan> plan = make();
    if (order_.size() >= capacity_) {
      index_.erase(order_.back().first);
      order_.pop_back();
    }
    order_.emplace_front(key, plan);
    index_.emplace(key, order_.begin());
    return plan;
  }

  size_t size() const { return order_.size(); }
  size_t capacity() const { return capacity_; }
  size_t hits() const { return hits_; }
  size_t misses() const { return misses_; }
  void clear() {
    index_.clear();
    order_.clear();
  }

 private:
  using Entry = std::pair<Key, std::shared_ptr<Plan>>;
  size_t capacity_;
  std::list<Entry> order_;  // most recently used first
  std::unordered_map<Key, typename std::list<Entry>::iterator, Hash> index_;
  size_t hits_ = 0, misses_ = 0;
};

/// Hashes a key made of integers (the plan keys are plain structs of int64s).
inline size_t hash_combine(size_t seed, size_t v) { return seed ^ (v + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2)); }

}  // namespace loom::fft_detail
