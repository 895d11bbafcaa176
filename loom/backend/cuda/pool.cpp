// GPU pooling through cuDNN (cudnn_api.h): deterministic max pooling (the backward pass
// routes each window's gradient to its first maximum, as the CPU eval does) and average
// pooling that counts the padding, on the current stream of the device.
#include "loom/backend/pool.h"

#include <string>

#include "loom/core/error.h"

#ifdef LOOM_HAVE_CUDNN
#include "loom/backend/cuda/cudnn_api.h"
#include "loom/runtime/cuda/context.h"
#include "loom/runtime/gpu_runtime.h"

namespace loom::cuda {
namespace {

class PoolDesc {
 public:
  PoolDesc(const CudnnApi& a, cudnnPoolingMode_t mode, const Pool2dGeometry& g, const char* who) : a_(a) {
    cudnn_check(a, a.cudnnCreatePoolingDescriptor(&d_), who, "cudnnCreatePoolingDescriptor");
    cudnn_check(a,
                a.cudnnSetPooling2dDescriptor(d_, mode, CUDNN_PROPAGATE_NAN, cudnn_int(g.kernel[0], who),
                                              cudnn_int(g.kernel[1], who), cudnn_int(g.padding[0], who),
                                              cudnn_int(g.padding[1], who), cudnn_int(g.stride[0], who),
                                              cudnn_int(g.stride[1], who)),
                who, "cudnnSetPooling2dDescriptor");
  }
  ~PoolDesc() {
    if (d_) a_.cudnnDestroyPoolingDescriptor(d_);
  }
  PoolDesc(const PoolDesc&) = delete;
  PoolDesc& operator=(const PoolDesc&) = delete;
  cudnnPoolingDescriptor_t get() const { return d_; }

 private:
  const CudnnApi& a_;
  cudnnPoolingDescriptor_t d_ = nullptr;
};

struct Scalars {
  float one_f = 1.0f, zero_f = 0.0f;
  double one_d = 1.0, zero_d = 0.0;
  bool doubles;
  explicit Scalars(DType t) : doubles(t == DType::float64) {}
  const void* one() const { return doubles ? static_cast<const void*>(&one_d) : &one_f; }
  const void* zero() const { return doubles ? static_cast<const void*>(&zero_d) : &zero_f; }
};

void* prepare(const Array& out, std::initializer_list<const Array*> ins) {
  const int dev = out.device().index;
  activate(dev);
  for (const Array* a : ins)
    if (a->valid()) gpu_runtime::wait_for_writer(*a);
  gpu_runtime::wait_for_writer(out);
  return current_stream(dev);
}

void forward(cudnnPoolingMode_t mode, const char* who, const Array& x, const Array& y, const Pool2dGeometry& g) {
  if (y.size() == 0) return;
  const CudnnApi& a = cudnn_or_throw(who);
  void* stream = prepare(y, {&x});
  const cudnnDataType_t t = cudnn_data_type(x.dtype(), who);
  const CudnnTensor xd(a, t, x.shape().data(), who), yd(a, t, y.shape().data(), who);
  const PoolDesc pd(a, mode, g, who);
  const Scalars s(x.dtype());
  const CudnnHandle h(a, y.device().index, stream, who);
  cudnn_check(a, a.cudnnPoolingForward(h.get(), pd.get(), s.one(), xd.get(), x.data(), s.zero(), yd.get(), y.data()),
              who, "cudnnPoolingForward");
  y.buffer()->set_last_stream(stream);
}

void backward(cudnnPoolingMode_t mode, const char* who, const Array& x, const Array& y, const Array& dy,
              const Array& dx, const Pool2dGeometry& g) {
  if (dx.size() == 0) return;
  const CudnnApi& a = cudnn_or_throw(who);
  void* stream = prepare(dx, {&x, &y, &dy});
  const cudnnDataType_t t = cudnn_data_type(dx.dtype(), who);
  const CudnnTensor xd(a, t, dx.shape().data(), who), yd(a, t, dy.shape().data(), who);
  const PoolDesc pd(a, mode, g, who);
  const Scalars s(dx.dtype());
  const CudnnHandle h(a, dx.device().index, stream, who);
  // Average pooling reads neither x nor y: cuDNN is given dx and dy in their places.
  const void* xp = x.valid() ? x.data() : dx.data();
  const void* yp = y.valid() ? y.data() : dy.data();
  cudnn_check(a,
              a.cudnnPoolingBackward(h.get(), pd.get(), s.one(), yd.get(), yp, yd.get(), dy.data(), xd.get(), xp,
                                     s.zero(), xd.get(), dx.data()),
              who, "cudnnPoolingBackward");
  dx.buffer()->set_last_stream(stream);
}

}  // namespace
}  // namespace loom::cuda

namespace loom::gpu_backend {

void max_pool2d(const Array& x, const Array& y, const Pool2dGeometry& g) {
  cuda::forward(CUDNN_POOLING_MAX_DETERMINISTIC, "max_pool2d", x, y, g);
}
void max_pool2d_grad(const Array& x, const Array& y, const Array& dy, const Array& dx, const Pool2dGeometry& g) {
  cuda::backward(CUDNN_POOLING_MAX_DETERMINISTIC, "max_pool2d_grad", x, y, dy, dx, g);
}
void avg_pool2d(const Array& x, const Array& y, const Pool2dGeometry& g) {
  cuda::forward(CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING, "avg_pool2d", x, y, g);
}
void avg_pool2d_grad(const Array& dy, const Array& dx, const Pool2dGeometry& g) {
  cuda::backward(CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING, "avg_pool2d_grad", Array(), Array(), dy, dx, g);
}

}  // namespace loom::gpu_backend

#else  // built without <cudnn.h>

namespace loom::gpu_backend {

[[noreturn]] void no_cudnn_pool(const char* who) {
  throw UnsupportedError(std::string("[") + who + "] loom was built without the cuDNN header (cudnn.h), so GPU "
                         "pooling is unavailable; loom.nn uses its own path instead");
}
void max_pool2d(const Array&, const Array&, const Pool2dGeometry&) { no_cudnn_pool("max_pool2d"); }
void max_pool2d_grad(const Array&, const Array&, const Array&, const Array&, const Pool2dGeometry&) {
  no_cudnn_pool("max_pool2d_grad");
}
void avg_pool2d(const Array&, const Array&, const Pool2dGeometry&) { no_cudnn_pool("avg_pool2d"); }
void avg_pool2d_grad(const Array&, const Array&, const Pool2dGeometry&) { no_cudnn_pool("avg_pool2d_grad"); }

}  // namespace loom::gpu_backend
#endif
