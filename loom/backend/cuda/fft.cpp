// GPU FFTs through cuFFT. An eval's (outer, n, inner) array is one cufftPlanMany layout:
// inner == 1: `outer` contiguous transforms (stride 1, distance n), one call; inner > 1:
// `inner` interleaved transforms (stride inner, distance 1), one call per outer row (real
// transforms along such an axis go through a transposed copy, see transform()).
// Plans are cached per device (key: type, n, strides, distances, batch), 16 of them,
// least recently used dropped (CuPy's PlanCache). Each plan is made without a work area
// (cufftSetAutoAllocation(0)); every call takes one from loom's stream-ordered pool, so
// cuFFT's scratch is counted, cached and freed with everything else. The per-device lock
// keeps set-stream + set-work-area + execute atomic for a plan shared between threads.
#include "loom/backend/fft.h"

#include <cuda_runtime_api.h>
#include <cufft.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "loom/backend/cuda/linalg_solver.h"
#include "loom/backend/fft_plan_cache.h"
#include "loom/core/error.h"
#include "loom/runtime/cuda/check.h"
#include "loom/runtime/cuda/context.h"
#include "loom/runtime/gpu_runtime.h"

namespace loom::cuda {
namespace {

const char* cufft_status_name(cufftResult r) {
  switch (r) {
    case CUFFT_SUCCESS: return "CUFFT_SUCCESS";
    case CUFFT_INVALID_PLAN: return "CUFFT_INVALID_PLAN";
    case CUFFT_ALLOC_FAILED: return "CUFFT_ALLOC_FAILED";
    case CUFFT_INVALID_TYPE: return "CUFFT_INVALID_TYPE";
    case CUFFT_INVALID_VALUE: return "CUFFT_INVALID_VALUE";
    case CUFFT_INTERNAL_ERROR: return "CUFFT_INTERNAL_ERROR";
    case CUFFT_EXEC_FAILED: return "CUFFT_EXEC_FAILED";
    case CUFFT_SETUP_FAILED: return "CUFFT_SETUP_FAILED";
    case CUFFT_INVALID_SIZE: return "CUFFT_INVALID_SIZE";
    case CUFFT_UNALIGNED_DATA: return "CUFFT_UNALIGNED_DATA";
    case CUFFT_INVALID_DEVICE: return "CUFFT_INVALID_DEVICE";
    case CUFFT_NO_WORKSPACE: return "CUFFT_NO_WORKSPACE";
    case CUFFT_NOT_IMPLEMENTED: return "CUFFT_NOT_IMPLEMENTED";
    case CUFFT_NOT_SUPPORTED: return "CUFFT_NOT_SUPPORTED";
    default: return "CUFFT_ERROR";
  }
}

[[noreturn]] void raise_cufft_error(cufftResult r, const char* call) {
  const std::string msg = std::string("[cufft] ") + call + " failed: " + cufft_status_name(r) + " (" +
                          std::to_string(static_cast<int>(r)) + ")";
  if (r == CUFFT_ALLOC_FAILED)
    throw OutOfMemoryError(msg + ". Process the data in batches or free arrays you no longer need.");
  throw CudaError(msg, static_cast<int>(r));
}

#define LOOM_CUFFT_CHECK(call)                                         \
  do {                                                                 \
    const cufftResult loom_r_ = (call);                                \
    if (loom_r_ != CUFFT_SUCCESS) ::loom::cuda::raise_cufft_error(loom_r_, #call); \
  } while (0)

struct PlanKey {
  long long type, n, istride, idist, ostride, odist, batch;
  bool operator==(const PlanKey& o) const {
    return type == o.type && n == o.n && istride == o.istride && idist == o.idist && ostride == o.ostride &&
           odist == o.odist && batch == o.batch;
  }
};
struct PlanKeyHash {
  size_t operator()(const PlanKey& k) const {
    size_t h = 0;
    for (long long v : {k.type, k.n, k.istride, k.idist, k.ostride, k.odist, k.batch})
      h = fft_detail::hash_combine(h, static_cast<size_t>(v));
    return h;
  }
};

// A cuFFT plan and the scratch size it asks for at each execution.
struct Plan {
  cufftHandle handle{};
  bool created = false;
  size_t work_bytes = 0;
  Plan() = default;
  Plan(const Plan&) = delete;
  Plan& operator=(const Plan&) = delete;
  ~Plan() {
    if (created) cufftDestroy(handle);  // no throw from a destructor; a failure leaks the plan
  }
};

constexpr size_t kPlansPerDevice = 16;

// One lock and one cache per device, created on first use and never destroyed (destroying
// plans at exit races the runtime's own teardown, as for the cuBLAS handles).
struct DevicePlans {
  std::mutex mu;
  fft_detail::PlanCache<PlanKey, Plan, PlanKeyHash> cache{kPlansPerDevice};
};

DevicePlans& plans(int dev) {
  static DevicePlans* all = new DevicePlans[kMaxDevices];
  return all[dev];
}

std::shared_ptr<Plan> make_plan(const PlanKey& k) {
  auto p = std::make_shared<Plan>();
  LOOM_CUFFT_CHECK(cufftCreate(&p->handle));
  p->created = true;
  LOOM_CUFFT_CHECK(cufftSetAutoAllocation(p->handle, 0));
  long long n = k.n;
  // Advanced layout (strides and distances) needs embed arrays; for one dimension cuFFT
  // reads only that they are there.
  long long inembed = k.n, onembed = k.n;
  LOOM_CUFFT_CHECK(cufftMakePlanMany64(p->handle, 1, &n, &inembed, k.istride, k.idist, &onembed, k.ostride, k.odist,
                                       static_cast<cufftType>(k.type), k.batch, &p->work_bytes));
  return p;
}

// One transform's memory: (outer, n_in, inner) elements of in_item bytes at `in` ->
// (outer, n_out, inner) of out_item bytes at `out`.
struct Layout {
  char* in;
  char* out;
  long long outer, n_in, n_out, inner, in_item, out_item;
};

// Runs `exec(plan, in, out)` over the layout on `stream`; n is the logical length.
template <class Exec>
void run_layout(int dev, void* stream, cufftType type, long long n, const Layout& l, Exec&& exec) {
  const PlanKey key = l.inner == 1 ? PlanKey{type, n, 1, l.n_in, 1, l.n_out, l.outer}
                                   : PlanKey{type, n, l.inner, 1, l.inner, 1, l.inner};
  DevicePlans& d = plans(dev);
  std::lock_guard<std::mutex> lock(d.mu);
  const std::shared_ptr<Plan> plan = d.cache.get(key, [&] { return make_plan(key); });
  const std::shared_ptr<Buffer> work =
      plan->work_bytes ? gpu_runtime::allocate(dev, plan->work_bytes, stream) : nullptr;
  // Every call: the plan is shared, and a cached stream handle could name a destroyed one.
  LOOM_CUFFT_CHECK(cufftSetStream(plan->handle, static_cast<cudaStream_t>(stream)));
  if (work) LOOM_CUFFT_CHECK(cufftSetWorkArea(plan->handle, work->data()));
  const long long rows = l.inner == 1 ? 1 : l.outer;
  const long long in_row = l.n_in * l.inner * l.in_item, out_row = l.n_out * l.inner * l.out_item;
  for (long long r = 0; r < rows; ++r) exec(plan->handle, l.in + r * in_row, l.out + r * out_row);
  if (work) work->set_last_stream(stream);  // back to the pool once this stream is past it
}

// Runs `exec` over (outer, n_in, inner) -> (outer, n_out, inner). cuFFT rejects some
// interleaved real transforms at execution (CUFFT_INVALID_VALUE for an odd n with stride
// `inner` > 1, seen with CUDA 13 on an H200), so real-to-complex and complex-to-real along
// an inner axis move that axis last first (tiled transposes through scratch) and back.
template <class Exec>
void transform(cufftType type, long long n, const Array& in, const Array& out, Exec&& exec) {
  const long long outer = in.shape()[0], inner = in.shape()[2];
  const long long n_in = in.shape()[1], n_out = out.shape()[1];
  if (outer * inner == 0 || n == 0) return;
  const int dev = out.device().index;
  activate(dev);
  gpu_runtime::wait_for_writer(in);
  gpu_runtime::wait_for_writer(out);
  void* stream = current_stream(dev);
  const long long in_item = static_cast<long long>(in.itemsize()), out_item = static_cast<long long>(out.itemsize());
  const bool real = type == CUFFT_R2C || type == CUFFT_D2Z || type == CUFFT_C2R || type == CUFFT_Z2D;
  if (real && inner > 1) {
    const std::shared_ptr<Buffer> tin = gpu_runtime::allocate(dev, static_cast<size_t>(in.nbytes()), stream);
    const std::shared_ptr<Buffer> tout = gpu_runtime::allocate(dev, static_cast<size_t>(out.nbytes()), stream);
    transpose_stack(dev, stream, in.dtype(), in.data(), tin->data(), outer, n_in, inner);
    const Layout l{static_cast<char*>(tin->data()), static_cast<char*>(tout->data()), outer * inner, n_in, n_out, 1,
                   in_item, out_item};
    run_layout(dev, stream, type, n, l, exec);
    transpose_stack(dev, stream, out.dtype(), tout->data(), out.data(), outer, inner, n_out);
  } else {
    const Layout l{static_cast<char*>(in.data()), static_cast<char*>(out.data()), outer, n_in, n_out, inner,
                   in_item, out_item};
    run_layout(dev, stream, type, n, l, exec);
  }
  in.buffer()->set_last_stream(stream);  // c2r writes its input too
  out.buffer()->set_last_stream(stream);
}

}  // namespace
}  // namespace loom::cuda

namespace loom::gpu_backend {

void fft_c2c(const Array& in, const Array& out, bool inverse) {
  const int dir = inverse ? CUFFT_INVERSE : CUFFT_FORWARD;
  if (in.dtype() == DType::complex64)
    cuda::transform(CUFFT_C2C, in.shape()[1], in, out, [dir](cufftHandle h, char* i, char* o) {
      LOOM_CUFFT_CHECK(cufftExecC2C(h, reinterpret_cast<cufftComplex*>(i), reinterpret_cast<cufftComplex*>(o), dir));
    });
  else
    cuda::transform(CUFFT_Z2Z, in.shape()[1], in, out, [dir](cufftHandle h, char* i, char* o) {
      LOOM_CUFFT_CHECK(cufftExecZ2Z(h, reinterpret_cast<cufftDoubleComplex*>(i),
                                    reinterpret_cast<cufftDoubleComplex*>(o), dir));
    });
}

void fft_r2c(const Array& in, const Array& out) {
  if (in.dtype() == DType::float32)
    cuda::transform(CUFFT_R2C, in.shape()[1], in, out, [](cufftHandle h, char* i, char* o) {
      LOOM_CUFFT_CHECK(cufftExecR2C(h, reinterpret_cast<cufftReal*>(i), reinterpret_cast<cufftComplex*>(o)));
    });
  else
    cuda::transform(CUFFT_D2Z, in.shape()[1], in, out, [](cufftHandle h, char* i, char* o) {
      LOOM_CUFFT_CHECK(cufftExecD2Z(h, reinterpret_cast<cufftDoubleReal*>(i),
                                    reinterpret_cast<cufftDoubleComplex*>(o)));
    });
}

void fft_c2r(const Array& in, const Array& out) {
  if (out.dtype() == DType::float32)
    cuda::transform(CUFFT_C2R, out.shape()[1], in, out, [](cufftHandle h, char* i, char* o) {
      LOOM_CUFFT_CHECK(cufftExecC2R(h, reinterpret_cast<cufftComplex*>(i), reinterpret_cast<cufftReal*>(o)));
    });
  else
    cuda::transform(CUFFT_Z2D, out.shape()[1], in, out, [](cufftHandle h, char* i, char* o) {
      LOOM_CUFFT_CHECK(cufftExecZ2D(h, reinterpret_cast<cufftDoubleComplex*>(i),
                                    reinterpret_cast<cufftDoubleReal*>(o)));
    });
}

}  // namespace loom::gpu_backend
