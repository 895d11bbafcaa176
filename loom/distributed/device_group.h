// One process driving several devices (d2l's multi-GPU training, Trainer(num_gpus=k)):
// collectives over one array per device. Distinct GPUs with NCCL present use one NCCL
// communicator per GPU, made together by ncclCommInitAll, and each call is one NCCL group
// (ncclGroupStart/End) enqueued on every GPU's current stream. Otherwise (cpu(), a device
// named twice, no NCCL) the arrays are combined through copies with loom's ops.
#pragma once
#include <memory>
#include <vector>

#include "loom/array/array.h"
#include "loom/distributed/reduce_op.h"

namespace loom::distributed {

class MultiDeviceComm;

class DeviceGroup {
 public:
  explicit DeviceGroup(std::vector<Device> devices);
  ~DeviceGroup();
  DeviceGroup(const DeviceGroup&) = delete;
  DeviceGroup& operator=(const DeviceGroup&) = delete;

  const std::vector<Device>& devices() const { return devices_; }
  /// Whether calls go through NCCL (else through copies).
  bool uses_nccl() const { return comm_ != nullptr; }
  /// In place: every xs[i] (on devices()[i]) becomes the reduction of all of them.
  void all_reduce(const std::vector<Array>& xs, ReduceOp op = ReduceOp::sum);
  /// In place: every xs[i] becomes xs[root].
  void broadcast(const std::vector<Array>& xs, int root = 0);

 private:
  void check(const char* op, const std::vector<Array>& xs) const;
  std::vector<Device> devices_;
  std::unique_ptr<MultiDeviceComm> comm_;
};

/// What DeviceGroup needs of NCCL (cuda/nccl_device_group.cpp).
class MultiDeviceComm {
 public:
  virtual ~MultiDeviceComm() = default;
  virtual void all_reduce(const std::vector<Array>& xs, ReduceOp op) = 0;
  virtual void broadcast(const std::vector<Array>& xs, int root) = 0;
};

/// One communicator per GPU of `gpus` (distinct); null where NCCL cannot be loaded.
std::unique_ptr<MultiDeviceComm> make_nccl_multi_device(const std::vector<int>& gpus);

}  // namespace loom::distributed
