#include "loom/array/transfer.h"

#include "loom/core/error.h"
#include "loom/runtime/gpu_runtime.h"

namespace loom {

void transfer(const Array& src, const Array& dst) {
  if (src.device() == dst.device()) throw_value_error("transfer", "src and dst are on one device");
  // Inside a traced function (dispatch/trace.h): a traced array's values are not known, and
  // a copy of a concrete one is a constant of the trace, made now.
  if (src.valid() && src.buffer()->is_abstract())
    throw ConcretizationError("[copy_to] cannot move an array that is being traced to " + dst.device().str() +
                              " (inside loom.jit, vmap or grad its values are not known until the function "
                              "runs); move the arguments to their device before calling the function");
  if (dst.valid() && dst.buffer()->is_abstract())
    dst.buffer()->materialize(memory::allocate_concrete(dst.buffer()->nbytes(), dst.device()));
  if (src.device().is_cpu()) {
    gpu_runtime::upload(HostView{src.data(), src.dtype(), src.shape(), src.strides()}, dst);
  } else if (dst.device().is_cpu()) {
    gpu_runtime::download(src, dst.data());
  } else {
    gpu_runtime::copy_peer(src, dst);
  }
}

}  // namespace loom
