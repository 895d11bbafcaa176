// GPU collectives over NCCL, enqueued on the current stream of the array's device like
// every other GPU op (after the streams that last wrote its operands). A watchdog thread
// follows each call with an event: a call that has not finished within the group's timeout
// (a peer hangs or died), or an error NCCL reports on its own (a peer's connection closed),
// aborts the communicator, which ends NCCL's kernels, and posts the failure so that every
// GPU wait of this process raises DistributedError instead of hanging (docs/DISTRIBUTED.md §4).
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "loom/core/error.h"
#include "loom/core/interrupt.h"
#include "loom/distributed/backend.h"
#include "loom/distributed/cuda/nccl_api.h"
#include "loom/distributed/cuda/nccl_types.h"
#include "loom/runtime/cuda/context.h"
#include "loom/runtime/gpu_runtime.h"

namespace loom::distributed {
namespace {

using Clock = std::chrono::steady_clock;

class NcclBackend final : public CollectiveBackend {
 public:
  NcclBackend(const BackendSetup& s, int device)
      : a_(nccl::api_or_throw("init")), dev_(device), rank_(s.rank), world_(s.world_size), timeout_(s.timeout) {
    nccl::UniqueId id{};
    if (s.rank == 0) {
      nccl::check(a_, a_.ncclGetUniqueId(&id), "init", "ncclGetUniqueId");
      s.store->set(s.prefix + "id", std::string(id.internal, sizeof id.internal));
    } else {
      const std::string v = s.store->get(s.prefix + "id");
      std::memcpy(id.internal, v.data(), std::min(v.size(), sizeof id.internal));
    }
    cuda::activate(dev_);
    nccl::check(a_, a_.ncclCommInitRank(&comm_, world_, id, rank_), "init", "ncclCommInitRank");
    watchdog_ = std::thread([this] { watch(); });
  }

  void shutdown(bool orderly) override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stopping_ = true;
    }
    wake_.notify_all();
    if (watchdog_.joinable()) watchdog_.join();
    if (!comm_ || !aborted_.empty()) return;
    if (orderly) {
      try {
        gpu_runtime::synchronize(dev_);  // NCCL's kernels of this communicator have ended
      } catch (...) {
        orderly = false;
      }
    }
    // Destroying finalises with the peers; aborting does not wait for them.
    if (orderly) a_.ncclCommDestroy(comm_);
    else a_.ncclCommAbort(comm_);
    comm_ = nullptr;
  }

  ~NcclBackend() override {
    shutdown(false);
    for (auto& p : pending_) cudaEventDestroy(p.event);
    for (cudaEvent_t ev : free_events_) cudaEventDestroy(ev);
  }

  const char* name() const override { return "nccl"; }

  void all_reduce(const Array& x, ReduceOp op) override {
    run("all_reduce", {&x}, [&](void* st) {
      return a_.ncclAllReduce(x.data(), x.data(), static_cast<size_t>(x.size()), nccl::data_type(x.dtype()), nccl::red_op(op),
                              comm_, st);
    });
  }
  // One group: NCCL fuses the reductions into one launch, so a bucket of gradients costs one
  // call's host time instead of one per array (or a pack into one buffer and an unpack).
  void all_reduce_coalesced(const std::vector<Array>& xs, ReduceOp op) override {
    std::vector<const Array*> arrays;
    for (const Array& x : xs) arrays.push_back(&x);
    run("all_reduce_coalesced", arrays, [&](void* st) {
      nccl::Result r = a_.ncclGroupStart();
      for (size_t i = 0; i < xs.size() && r == nccl::kSuccess; ++i)
        r = a_.ncclAllReduce(xs[i].data(), xs[i].data(), static_cast<size_t>(xs[i].size()),
                             nccl::data_type(xs[i].dtype()), nccl::red_op(op), comm_, st);
      const nccl::Result end = a_.ncclGroupEnd();
      return r != nccl::kSuccess ? r : end;
    });
  }
  void broadcast(const Array& x, int root) override {
    run("broadcast", {&x},
        [&](void* st) { return a_.ncclBroadcast(x.data(), x.data(), x.nbytes(), nccl::kUint8, root, comm_, st); });
  }
  void all_gather(const Array& x, const Array& out) override {
    run("all_gather", {&x, &out},
        [&](void* st) { return a_.ncclAllGather(x.data(), out.data(), x.nbytes(), nccl::kUint8, comm_, st); });
  }
  void reduce_scatter(const Array& x, const Array& out, ReduceOp op) override {
    run("reduce_scatter", {&x, &out}, [&](void* st) {
      return a_.ncclReduceScatter(x.data(), out.data(), static_cast<size_t>(out.size()), nccl::data_type(x.dtype()),
                                  nccl::red_op(op), comm_, st);
    });
  }
  void all_to_all(const Array& x, const Array& out) override {
    const size_t chunk = x.nbytes() / static_cast<size_t>(world_);
    run("all_to_all", {&x, &out}, [&](void* st) {
      nccl::Result r = a_.ncclGroupStart();
      for (int p = 0; p < world_ && r == nccl::kSuccess; ++p) {
        r = a_.ncclSend(static_cast<const char*>(x.data()) + p * chunk, chunk, nccl::kUint8, p, comm_, st);
        if (r == nccl::kSuccess)
          r = a_.ncclRecv(static_cast<char*>(out.data()) + p * chunk, chunk, nccl::kUint8, p, comm_, st);
      }
      const nccl::Result end = a_.ncclGroupEnd();
      return r != nccl::kSuccess ? r : end;
    });
  }
  void send(const Array& x, int dst) override {
    run("send", {&x}, [&](void* st) { return a_.ncclSend(x.data(), x.nbytes(), nccl::kUint8, dst, comm_, st); });
  }
  void recv(const Array& out, int src) override {
    run("recv", {&out}, [&](void* st) { return a_.ncclRecv(out.data(), out.nbytes(), nccl::kUint8, src, comm_, st); });
  }

 private:
  struct Pending {
    cudaEvent_t event;
    Clock::time_point deadline;
    std::string op;
  };

  // Orders the call after the operands' writers, enqueues it, and hands its completion
  // event to the watchdog.
  template <class Call>
  void run(const char* op, const std::vector<const Array*>& arrays, Call&& call) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (!aborted_.empty()) throw DistributedError(std::string("[") + op + "] " + aborted_);
    }
    cuda::activate(dev_);
    for (const Array* a : arrays) gpu_runtime::wait_for_writer(*a);
    void* stream = cuda::current_stream(dev_);
    nccl::check(a_, call(stream), op, op);
    for (const Array* a : arrays) a->buffer()->set_last_stream(stream);
    // This runs once per bucket of every training step: the events are reused, and the
    // watchdog is woken only out of its idle wait (it polls every 10 ms while calls are
    // pending, far finer than any timeout), not by every call.
    cudaEvent_t ev = nullptr;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (!free_events_.empty()) {
        ev = free_events_.back();
        free_events_.pop_back();
      }
    }
    if ((!ev && cudaEventCreateWithFlags(&ev, cudaEventDisableTiming) != cudaSuccess) ||
        cudaEventRecord(ev, static_cast<cudaStream_t>(stream)) != cudaSuccess)
      throw CudaError(std::string("[") + op + "] cudaEventRecord after the NCCL call failed");
    std::lock_guard<std::mutex> lock(mu_);
    const bool was_idle = pending_.empty();
    pending_.push_back({ev, Clock::now() + timeout_, op});
    if (was_idle) wake_.notify_all();
  }

  void watch() {
    cudaSetDevice(dev_);
    std::unique_lock<std::mutex> lock(mu_);
    while (!stopping_) {
      wake_.wait_for(lock, std::chrono::milliseconds(pending_.empty() ? 500 : 10));
      while (!pending_.empty() && aborted_.empty()) {
        Pending& p = pending_.front();
        const cudaError_t q = cudaEventQuery(p.event);
        if (q == cudaSuccess) {
          free_events_.push_back(p.event);
          pending_.pop_front();
          continue;
        }
        if (q != cudaErrorNotReady) cudaGetLastError();  // a context error: the waits report it
        nccl::Result async = nccl::kSuccess;
        a_.ncclCommGetAsyncError(comm_, &async);
        if (async != nccl::kSuccess && async != nccl::kInProgress)
          abort_locked("[" + p.op + "] NCCL reported an error while it ran: " + a_.ncclGetErrorString(async) +
                       " (a peer's connection closed: a rank ended?)");
        else if (Clock::now() > p.deadline)
          abort_locked("[" + p.op + "] did not finish within " +
                       std::to_string(std::chrono::duration_cast<std::chrono::seconds>(timeout_).count()) +
                       " s: a rank hangs or has died");
        break;
      }
    }
  }

  void abort_locked(const std::string& why) {
    aborted_ = why + "; the NCCL communicator was aborted, and this process's GPU waits now raise "
                     "(end the process; loom.launch stops the others)";
    a_.ncclCommAbort(comm_);  // ends the kernels that wait for the missing rank
    post_wait_failure(aborted_);
  }

  const nccl::Api& a_;
  int dev_, rank_, world_;
  std::chrono::milliseconds timeout_;
  nccl::Comm comm_ = nullptr;
  std::mutex mu_;
  std::condition_variable wake_;
  std::deque<Pending> pending_;
  std::vector<cudaEvent_t> free_events_;  // recorded before and completed: reused by run()
  std::string aborted_;
  bool stopping_ = false;
  std::thread watchdog_;
};

}  // namespace

std::unique_ptr<CollectiveBackend> make_nccl_backend(const BackendSetup& s, int device) {
  return std::make_unique<NcclBackend>(s, device);
}

std::string nccl_description() {
  std::string why;
  const nccl::Api* a = nccl::api(&why);
  return a ? "nccl " + nccl::version_string(a->version) : why;
}

}  // namespace loom::distributed
