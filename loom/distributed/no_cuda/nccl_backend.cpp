// Builds without CUDA: GPU arrays do not exist, so NCCL is never reached; these say why.
#include "loom/core/error.h"
#include "loom/distributed/backend.h"
#include "loom/distributed/device_group.h"

namespace loom::distributed {

std::unique_ptr<CollectiveBackend> make_nccl_backend(const BackendSetup&, int) {
  throw UnsupportedError("[distributed] loom was built without CUDA: NCCL is not available");
}

std::string nccl_description() { return "not available (loom was built without CUDA)"; }

std::unique_ptr<MultiDeviceComm> make_nccl_multi_device(const std::vector<int>&) { return nullptr; }

}  // namespace loom::distributed
