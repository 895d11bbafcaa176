#include "loom/array/transfer.h"

#include "loom/core/error.h"
#include "loom/runtime/gpu_runtime.h"

namespace loom {

void transfer(const Array& src, const Array& dst) {
  if (src.device() == dst.device()) throw_value_error("transfer", "src and dst are on one device");
  if (src.device().is_cpu()) {
    gpu_runtime::upload(HostView{src.data(), src.dtype(), src.shape(), src.strides()}, dst);
  } else if (dst.device().is_cpu()) {
    gpu_runtime::download(src, dst.data());
  } else {
    gpu_runtime::copy_peer(src, dst);
  }
}

}  // namespace loom
