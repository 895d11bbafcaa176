#include "loom/runtime/background_compile.h"

#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <utility>

namespace loom::background_compile {
namespace {

struct Job {
  std::function<void()> run;
  std::shared_ptr<std::atomic<bool>> done;
};

// The worker starts with the first post and is joined at exit (after its current job;
// jobs not started are dropped), before the libraries it calls into are torn down.
class Worker {
 public:
  ~Worker() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
      jobs_.clear();
    }
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
  }

  std::shared_ptr<const std::atomic<bool>> post(std::function<void()> run) {
    auto done = std::make_shared<std::atomic<bool>>(false);
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (!thread_.joinable()) thread_ = std::thread([this] { loop(); });
      jobs_.push_back({std::move(run), done});
      ++pending_;
    }
    cv_.notify_all();
    return done;
  }

  void wait_idle() {
    std::unique_lock<std::mutex> lock(mu_);
    idle_.wait(lock, [&] { return pending_ == 0 || stop_; });
  }

 private:
  void loop() {
    for (;;) {
      Job job;
      {
        std::unique_lock<std::mutex> lock(mu_);
        cv_.wait(lock, [&] { return stop_ || !jobs_.empty(); });
        if (stop_) return;
        job = std::move(jobs_.front());
        jobs_.pop_front();
      }
      try {
        job.run();
      } catch (...) {  // the foreground compiles again and reports it
      }
      job.done->store(true);
      {
        std::lock_guard<std::mutex> lock(mu_);
        --pending_;
      }
      idle_.notify_all();
    }
  }

  std::mutex mu_;
  std::condition_variable cv_, idle_;
  std::deque<Job> jobs_;
  int pending_ = 0;
  bool stop_ = false;
  std::thread thread_;
};

Worker& worker() {
  static Worker w;
  return w;
}

std::atomic<bool>& flag() {
  static std::atomic<bool> on{[] {
    const char* v = std::getenv("LOOM_BACKGROUND_COMPILE");
    return !(v && std::string(v) == "0");
  }()};
  return on;
}

}  // namespace

bool enabled() { return flag().load(); }
bool set_enabled(bool on) { return flag().exchange(on); }
std::shared_ptr<const std::atomic<bool>> post(std::function<void()> job) { return worker().post(std::move(job)); }
void wait_idle() { worker().wait_idle(); }

}  // namespace loom::background_compile
