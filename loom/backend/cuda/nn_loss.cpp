// GPU softmax cross-entropy: the NVRTC kernels of kernels/loom_loss.cuh (one program,
// compiled on first use), enqueued on the current stream of the logits' device.
#include "loom/backend/nn_loss.h"

#include <string>
#include <vector>

#include "loom/backend/cuda/programs.h"
#include "loom/core/error.h"
#include "loom/runtime/cuda/context.h"
#include "loom/runtime/gpu_runtime.h"

namespace loom::cuda {
namespace {

const Program& loss_program() {
  static const Program p("loom_loss.cu", "#include \"loom_loss.cuh\"\n",
                         std::vector<std::string>{"loom_xent_forward<float>", "loom_xent_forward<double>",
                                                  "loom_xent_grad<float>", "loom_xent_grad<double>"},
                         std::vector<std::string>{"--fmad=false"});
  return p;
}

std::string instance(const char* kernel, DType t, const char* who) {
  if (t != DType::float32 && t != DType::float64) throw_dtype_error(who, "needs float32 or float64 logits");
  return std::string(kernel) + (t == DType::float32 ? "<float>" : "<double>");
}

void* prepare(const Array& x, std::initializer_list<const Array*> arrays) {
  const int dev = x.device().index;
  activate(dev);
  for (const Array* a : arrays) gpu_runtime::wait_for_writer(*a);
  return current_stream(dev);
}

}  // namespace
}  // namespace loom::cuda

namespace loom::gpu_backend {

void cross_entropy(const Array& x, const Array& labels, const Array& loss, const Array& lse) {
  const std::string name = cuda::instance("loom_xent_forward", x.dtype(), "cross_entropy");
  long long rows = x.shape()[0], cols = x.shape()[1];
  if (rows == 0) return;
  void* stream = cuda::prepare(x, {&x, &labels, &loss, &lse});
  const void *xp = x.data(), *yp = labels.data();
  void *lp = loss.data(), *sp = lse.data();
  cuda::launch_elementwise(x.device().index, cuda::loss_program(), name, rows * 32, stream,
                           {&xp, &yp, &lp, &sp, &rows, &cols});
  loss.buffer()->set_last_stream(stream);
  lse.buffer()->set_last_stream(stream);
}

void cross_entropy_grad(const Array& x, const Array& labels, const Array& lse, const Array& ct, const Array& dx) {
  const std::string name = cuda::instance("loom_xent_grad", x.dtype(), "cross_entropy_grad");
  long long rows = x.shape()[0], cols = x.shape()[1];
  if (rows * cols == 0) return;
  void* stream = cuda::prepare(x, {&x, &labels, &lse, &ct, &dx});
  const void *xp = x.data(), *yp = labels.data(), *sp = lse.data(), *cp = ct.data();
  void* dp = dx.data();
  cuda::launch_elementwise(x.device().index, cuda::loss_program(), name, rows * cols, stream,
                           {&xp, &yp, &sp, &cp, &dp, &rows, &cols});
  dx.buffer()->set_last_stream(stream);
}

}  // namespace loom::gpu_backend
