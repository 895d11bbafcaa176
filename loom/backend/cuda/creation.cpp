// GPU evals of fill, arange, linspace and eye (backend/creation.h).
#include <cuda_runtime_api.h>

#include <cstring>
#include <string>

#include "loom/runtime/cuda/check.h"
#include "loom/backend/cuda/programs.h"
#include "loom/runtime/cuda/context.h"
#include "loom/backend/creation.h"
#include "loom/runtime/gpu_runtime.h"
#include "loom/core/error.h"

namespace loom::gpu_backend {
namespace {

// Activates the output's device, orders the write after its last writer and returns
// the stream to enqueue on.
void* begin_write(const char* op, const Array& out) {
  if (!out.valid() || !out.device().is_gpu()) throw_value_error(op, "output must be a GPU array");
  if (!out.is_contiguous()) throw_value_error(op, "output must be contiguous");
  cuda::activate(out.device().index);
  gpu_runtime::wait_for_writer(out);
  return cuda::current_stream(out.device().index);
}

}  // namespace

void fill(const Array& out, const Scalar& value) {
  void* stream = begin_write("fill", out);
  const int64_t n = out.size();
  if (n == 0) return;
  const int dev = out.device().index;
  const size_t isz = out.itemsize();
  alignas(16) unsigned char bytes[16] = {};
  scalar_to_bytes(value, out.dtype(), bytes);
  bool uniform = true;
  for (size_t i = 1; i < isz; ++i) uniform = uniform && bytes[i] == bytes[0];
  if (uniform) {
    LOOM_CUDA_CHECK(cudaMemsetAsync(out.data(), bytes[0], out.nbytes(), static_cast<cudaStream_t>(stream)));
  } else {
    void* ptr = out.data();
    long long count = n;
    cuda::launch_elementwise(dev, cuda::creation_program(), cuda::fill_name(isz), n, stream,
                             {&ptr, bytes, &count});
  }
  out.buffer()->set_last_stream(stream);
}

void arange(const Array& out, const Scalar& first, const Scalar& second) {
  void* stream = begin_write("arange", out);
  const int64_t n = out.size();
  if (n == 0) return;
  unsigned char a[8] = {}, b[8] = {};
  scalar_to_bytes(first, out.dtype(), a);
  scalar_to_bytes(second, out.dtype(), b);
  void* ptr = out.data();
  long long count = n;
  cuda::launch_elementwise(out.device().index, cuda::creation_program(),
                           cuda::arange_name(out.dtype()), n, stream, {&ptr, a, b, &count});
  out.buffer()->set_last_stream(stream);
}

void linspace(const Array& out, double start, double step, double stop, bool endpoint) {
  void* stream = begin_write("linspace", out);
  const int64_t n = out.size();
  if (n == 0) return;
  void* ptr = out.data();
  int end = endpoint ? 1 : 0;
  long long count = n;
  cuda::launch_elementwise(out.device().index, cuda::creation_program(),
                           cuda::linspace_name(out.dtype()), n, stream,
                           {&ptr, &start, &step, &stop, &end, &count});
  out.buffer()->set_last_stream(stream);
}

void eye(const Array& out, int64_t k) {
  void* stream = begin_write("eye", out);
  if (out.ndim() != 2) throw_value_error("eye", "output must be 2-d");
  const int64_t n = out.size();
  if (n == 0) return;
  alignas(16) unsigned char one[16] = {};
  scalar_to_bytes(Scalar(1), out.dtype(), one);
  void* ptr = out.data();
  long long rows = out.shape()[0], cols = out.shape()[1], diag = k;
  cuda::launch_elementwise(out.device().index, cuda::creation_program(),
                           cuda::eye_name(out.itemsize()), n, stream, {&ptr, &rows, &cols, &diag, one});
  out.buffer()->set_last_stream(stream);
}

}  // namespace loom::gpu_backend
