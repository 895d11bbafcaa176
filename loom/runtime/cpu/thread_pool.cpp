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

// One job at a time: workers grab chunk indices from the job's atomic counter. Nested or
// concurrent parallel_for calls run serially on their caller instead of waiting.
//
// Each job's state lives in its caller's frame, and a worker *joins* the job under the lock
// before touching it. The caller returns only once it has closed the job to newcomers and
// every worker that joined has left. (Counters shared by all jobs and reset per job let a
// worker preempted between two jobs act on the next one with the last one's view: a
// completion counted just before the reset was lost and the caller waited for ever, or a
// chunk claimed just before it ran twice, counted twice, and let the caller return while a
// worker still ran its body. Both need a worker to lose its core at that instant: common
// with 16 threads per process and many processes, as in a parallel test run.)
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
    Job job(chunk_fn, chunks);
    {
      std::lock_guard<std::mutex> lock(mu_);
      job_ = &job;
      ++generation_;
    }
    cv_.notify_all();
    work(job);  // returns once every chunk is claimed; joined workers may still run theirs
    {
      std::unique_lock<std::mutex> lock(mu_);
      job_ = nullptr;
      left_cv_.wait(lock, [&] { return job.joined == 0; });
    }
    if (job.error) std::rethrow_exception(job.error);
    return true;
  }

 private:
  struct Job {
    Job(const std::function<void(int64_t)>& f, int64_t n) : fn(f), chunks(n) {}
    const std::function<void(int64_t)>& fn;
    const int64_t chunks;
    std::atomic<int64_t> next{0};
    int joined = 0;            // workers inside work(); guarded by mu_
    std::exception_ptr error;  // the first chunk's exception; guarded by mu_
  };

  void work(Job& job) {
    int64_t i;
    while ((i = job.next.fetch_add(1)) < job.chunks) {
      try {
        job.fn(i);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mu_);
        if (!job.error) job.error = std::current_exception();
      }
    }
  }

  void loop() {
    uint64_t seen = 0;
    while (true) {
      Job* job;
      {
        std::unique_lock<std::mutex> lock(mu_);
        cv_.wait(lock, [&] { return stop_ || (generation_ != seen && job_); });
        if (stop_) return;
        seen = generation_;
        job = job_;
        ++job->joined;
      }
      work(*job);
      std::lock_guard<std::mutex> lock(mu_);
      if (--job->joined == 0) left_cv_.notify_all();
    }
  }

  std::vector<std::thread> workers_;
  std::mutex mu_, run_mu_;
  std::condition_variable cv_, left_cv_;
  Job* job_ = nullptr;  // the job workers may join; guarded by mu_
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
