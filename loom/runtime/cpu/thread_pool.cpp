#include "loom/runtime/cpu/thread_pool.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace loom::cpu_runtime {
namespace {

// One job at a time: workers grab chunk indices from an atomic counter. Nested or
// concurrent parallel_for calls run serially on their caller instead of waiting.
class Pool {
 public:
  explicit Pool(int n) {
    for (int i = 0; i < n - 1; ++i) workers_.emplace_back([this] { loop(); });
  }
  ~Pool() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    for (auto& t : workers_) t.join();
  }

  bool try_run(int64_t chunks, const std::function<void(int64_t)>& chunk_fn) {
    std::unique_lock<std::mutex> busy(run_mu_, std::try_to_lock);
    if (!busy.owns_lock()) return false;
    {
      std::lock_guard<std::mutex> lock(mu_);
      fn_ = &chunk_fn;
      chunks_.store(chunks);
      next_.store(0);
      done_.store(0);
      error_ = nullptr;
      ++generation_;
    }
    cv_.notify_all();
    work();
    std::unique_lock<std::mutex> lock(mu_);
    done_cv_.wait(lock, [&] { return done_.load() == chunks_; });
    fn_ = nullptr;
    if (error_) std::rethrow_exception(error_);
    return true;
  }

 private:
  void work() {
    int64_t i;
    while ((i = next_.fetch_add(1)) < chunks_) {
      try {
        (*fn_)(i);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mu_);
        if (!error_) error_ = std::current_exception();
      }
      if (done_.fetch_add(1) + 1 == chunks_) {
        std::lock_guard<std::mutex> lock(mu_);
        done_cv_.notify_all();
      }
    }
  }

  void loop() {
    uint64_t seen = 0;
    while (true) {
      {
        std::unique_lock<std::mutex> lock(mu_);
        cv_.wait(lock, [&] { return stop_ || (generation_ != seen && fn_); });
        if (stop_) return;
        seen = generation_;
      }
      work();
    }
  }

  std::vector<std::thread> workers_;
  std::mutex mu_, run_mu_;
  std::condition_variable cv_, done_cv_;
  const std::function<void(int64_t)>* fn_ = nullptr;
  std::atomic<int64_t> chunks_{0}, next_{0}, done_{0};
  std::exception_ptr error_;
  uint64_t generation_ = 0;
  bool stop_ = false;
};

Pool& pool() {
  static Pool p(num_threads());
  return p;
}

}  // namespace

int num_threads() {
  static const int n = [] {
    if (const char* env = std::getenv("LOOM_NUM_THREADS")) {
      const int v = std::atoi(env);
      if (v > 0) return v;
    }
    return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  }();
  return n;
}

void parallel_for(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& body) {
  if (n <= 0) return;
  grain = std::max<int64_t>(grain, 1);
  const int64_t max_chunks = std::max<int64_t>(1, n / grain);
  const int64_t chunks = std::min<int64_t>(max_chunks, num_threads() * 4);
  if (chunks <= 1 || num_threads() == 1) {
    body(0, n);
    return;
  }
  const int64_t per = (n + chunks - 1) / chunks;
  const std::function<void(int64_t)> chunk_fn = [&](int64_t c) {
    const int64_t b = c * per, e = std::min(n, b + per);
    if (b < e) body(b, e);
  };
  if (!pool().try_run(chunks, chunk_fn)) body(0, n);
}

}  // namespace loom::cpu_runtime
