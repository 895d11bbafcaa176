#include "loom/array/transfer.h"

#include "loom/core/error.h"
#include "loom/runtime/gpu_runtime.h"
#include "loom/runtime/profiler.h"
#include "loom/runtime/stream.h"

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
  // The profiler times the copy on the stream it is queued on: the current stream of the
  // GPU side, of the destination for a copy between GPUs (gpu_runtime::copy_peer).
  const Device& gpu = dst.device().is_cpu() ? src.device() : dst.device();
  const char* name = src.device().is_cpu() ? "copy HtoD" : dst.device().is_cpu() ? "copy DtoH" : "copy DtoD";
  if (profiler::active())
    profiler::begin_span(&src, profiler::Category::copy, name, "transfer", gpu, Stream::current_native(gpu.index),
                         static_cast<int64_t>(dst.nbytes()));
  if (src.device().is_cpu()) {
    gpu_runtime::upload(HostView{src.data(), src.dtype(), src.shape(), src.strides()}, dst);
  } else if (dst.device().is_cpu()) {
    gpu_runtime::download(src, dst.data());
  } else {
    gpu_runtime::copy_peer(src, dst);
  }
  profiler::end_span(&src);
}

}  // namespace loom
