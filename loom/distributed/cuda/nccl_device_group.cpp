// DeviceGroup's NCCL half: one communicator per GPU from ncclCommInitAll, each call one
// NCCL group so that the per-GPU launches cannot deadlock each other.
#include <vector>

#include "loom/distributed/cuda/nccl_api.h"
#include "loom/distributed/cuda/nccl_types.h"
#include "loom/distributed/device_group.h"
#include "loom/runtime/cuda/context.h"
#include "loom/runtime/gpu_runtime.h"

namespace loom::distributed {
namespace {

class NcclMultiDevice final : public MultiDeviceComm {
 public:
  NcclMultiDevice(const nccl::Api& a, const std::vector<int>& gpus) : a_(a), gpus_(gpus), comms_(gpus.size()) {
    nccl::check(a_, a_.ncclCommInitAll(comms_.data(), static_cast<int>(gpus.size()), gpus.data()), "DeviceGroup",
                "ncclCommInitAll");
  }
  ~NcclMultiDevice() override {
    for (size_t i = 0; i < comms_.size(); ++i) {
      try {
        gpu_runtime::synchronize(gpus_[i]);
      } catch (...) {
      }
      a_.ncclCommDestroy(comms_[i]);
    }
  }

  void all_reduce(const std::vector<Array>& xs, ReduceOp op) override {
    run("all_reduce", xs, [&](size_t i, void* st) {
      return a_.ncclAllReduce(xs[i].data(), xs[i].data(), static_cast<size_t>(xs[i].size()),
                              nccl::data_type(xs[i].dtype()), nccl::red_op(op), comms_[i], st);
    });
  }
  void broadcast(const std::vector<Array>& xs, int root) override {
    run("broadcast", xs, [&](size_t i, void* st) {
      return a_.ncclBroadcast(xs[i].data(), xs[i].data(), xs[i].nbytes(), nccl::kUint8, root, comms_[i], st);
    });
  }

 private:
  template <class Call>
  void run(const char* op, const std::vector<Array>& xs, Call&& call) {
    std::vector<void*> streams(xs.size());
    for (size_t i = 0; i < xs.size(); ++i) {
      cuda::activate(gpus_[i]);
      gpu_runtime::wait_for_writer(xs[i]);
      streams[i] = cuda::current_stream(gpus_[i]);
    }
    nccl::check(a_, a_.ncclGroupStart(), op, "ncclGroupStart");
    nccl::Result r = nccl::kSuccess;
    for (size_t i = 0; i < xs.size() && r == nccl::kSuccess; ++i) {
      cuda::activate(gpus_[i]);
      r = call(i, streams[i]);
    }
    const nccl::Result end = a_.ncclGroupEnd();
    nccl::check(a_, r != nccl::kSuccess ? r : end, op, op);
    for (size_t i = 0; i < xs.size(); ++i) xs[i].buffer()->set_last_stream(streams[i]);
  }

  const nccl::Api& a_;
  std::vector<int> gpus_;
  std::vector<nccl::Comm> comms_;
};

}  // namespace

std::unique_ptr<MultiDeviceComm> make_nccl_multi_device(const std::vector<int>& gpus) {
  const nccl::Api* a = nccl::api();
  if (!a) return nullptr;  // the group combines through copies
  return std::make_unique<NcclMultiDevice>(*a, gpus);
}

}  // namespace loom::distributed
