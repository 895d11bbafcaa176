#include "loom/backend/cuda/host_pool.h"

#include <algorithm>
#include <cstdint>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace loom::cuda {
namespace {

class HostPool {
 public:
  HostPool() {
    const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
    const int workers = static_cast<int>(std::min(8u, hw) - 1);  // the caller is one more
    for (int i = 0; i < workers; ++i) std::thread([this] { work(); }).detach();
    size_ = workers + 1;
  }
  int size() const { return size_; }

  void run(int n, const std::function<void(int)>& fn) {
    std::lock_guard<std::mutex> one_job(job_mu_);
    {
      std::lock_guard<std::mutex> lock(mu_);
      fn_ = &fn;
      n_ = n;
      next_ = 0;
      done_ = 0;
      error_ = nullptr;
      ++generation_;
    }
    cv_.notify_all();
    drain();
    std::unique_lock<std::mutex> lock(mu_);
    finished_.wait(lock, [&] { return done_ == n_; });
    fn_ = nullptr;
    if (error_) std::rethrow_exception(error_);
  }

 private:
  void work() {
    uint64_t seen = 0;
    for (;;) {
      {
        std::unique_lock<std::mutex> lock(mu_);
        cv_.wait(lock, [&] { return generation_ != seen; });
        seen = generation_;
      }
      drain();
    }
  }

  // Takes tasks until none is left.
  void drain() {
    for (;;) {
      int i;
      const std::function<void(int)>* fn;
      {
        std::lock_guard<std::mutex> lock(mu_);  // tasks are coarse: a lock per task is cheap
        if (!fn_ || next_ >= n_) return;
        i = next_++;
        fn = fn_;
      }
      try {
        (*fn)(i);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mu_);
        if (!error_) error_ = std::current_exception();
      }
      std::lock_guard<std::mutex> lock(mu_);
      if (++done_ == n_) finished_.notify_all();
    }
  }

  int size_ = 1;
  std::mutex job_mu_, mu_;
  std::condition_variable cv_, finished_;
  const std::function<void(int)>* fn_ = nullptr;
  int n_ = 0, next_ = 0, done_ = 0;
  uint64_t generation_ = 0;
  std::exception_ptr error_;
};

HostPool& pool() {
  static HostPool* p = new HostPool();  // threads live for the whole process
  return *p;
}

}  // namespace

void parallel_for(int n, const std::function<void(int)>& fn) {
  if (n <= 0) return;
  if (n == 1) return fn(0);
  pool().run(n, fn);
}

int host_parallelism() { return pool().size(); }

void parallel_memcpy(void* dst, const void* src, size_t nbytes) {
  constexpr size_t kMinPiece = size_t{1} << 20;
  const int pieces = static_cast<int>(std::min<size_t>(host_parallelism(), nbytes / kMinPiece));
  if (pieces <= 1) {
    std::memcpy(dst, src, nbytes);
    return;
  }
  const size_t per = (nbytes / pieces + 4095) / 4096 * 4096;
  parallel_for(pieces, [&](int i) {
    const size_t begin = std::min(nbytes, per * i), end = std::min(nbytes, begin + per);
    std::memcpy(static_cast<char*>(dst) + begin, static_cast<const char*>(src) + begin, end - begin);
  });
}

}  // namespace loom::cuda
