// GPU convolutions through cuDNN (cudnn_api.h: loaded at run time). Each call describes
// its tensors (a few host-side structs, ~1 us), picks the algorithm by cuDNN's heuristics
// (cached per shape, as PyTorch's default benchmark=False does), takes the workspace from
// loom's stream-ordered allocator and enqueues on the current stream of the device.
#include "loom/backend/conv.h"

#include "loom/core/error.h"

#ifdef LOOM_HAVE_CUDNN
#include <array>
#include <map>
#include <mutex>
#include <string>
#include <tuple>

#include "loom/backend/cuda/cudnn_api.h"
#include "loom/runtime/cuda/check.h"
#include "loom/runtime/cuda/context.h"
#include "loom/runtime/gpu_runtime.h"

namespace loom::cuda {
namespace {

constexpr auto check = cudnn_check;

// The algorithm chosen for each problem, per device (guarded by the device's CudnnHandle):
// (direction, x shape, w shape, geometry, dtype, math) -> algorithm.
using AlgoKey = std::array<int64_t, 17>;
std::map<AlgoKey, int>& algos(int dev) {
  static auto* all = new std::map<AlgoKey, int>[kMaxDevices];
  return all[dev];
}

// The descriptors of one problem, destroyed with it.
struct Problem {
  const CudnnApi& a;
  const char* who;
  CudnnTensor x, y;
  cudnnFilterDescriptor_t w = nullptr;
  cudnnConvolutionDescriptor_t conv = nullptr;
  AlgoKey key{};
  bool doubles;

  Problem(const CudnnApi& api_, const char* who_, int dir, const Array& xa, const Array& wa, const Array& ya,
          const Conv2dGeometry& g)
      : a(api_),
        who(who_),
        x(api_, cudnn_data_type(xa.dtype(), who_), xa.shape().data(), who_),
        y(api_, cudnn_data_type(xa.dtype(), who_), ya.shape().data(), who_),
        doubles(xa.dtype() == DType::float64) {
    const cudnnDataType_t t = cudnn_data_type(xa.dtype(), who);
    auto dim = [&](const Array& arr, int i) { return cudnn_int(arr.shape()[i], who); };
    check(a, a.cudnnCreateFilterDescriptor(&w), who, "cudnnCreateFilterDescriptor");
    check(a, a.cudnnCreateConvolutionDescriptor(&conv), who, "cudnnCreateConvolutionDescriptor");
    check(a, a.cudnnSetFilter4dDescriptor(w, t, CUDNN_TENSOR_NCHW, dim(wa, 0), dim(wa, 1), dim(wa, 2), dim(wa, 3)),
          who, "cudnnSetFilter4dDescriptor");
    // Half types accumulate in float32, as loom's matmul does.
    const cudnnDataType_t compute = doubles ? CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT;
    check(a,
          a.cudnnSetConvolution2dDescriptor(conv, cudnn_int(g.padding[0], who), cudnn_int(g.padding[1], who),
                                            cudnn_int(g.stride[0], who), cudnn_int(g.stride[1], who),
                                            cudnn_int(g.dilation[0], who), cudnn_int(g.dilation[1], who),
                                            CUDNN_CROSS_CORRELATION, compute),
          who, "cudnnSetConvolution2dDescriptor");
    check(a, a.cudnnSetConvolutionGroupCount(conv, cudnn_int(g.groups, who)), who, "cudnnSetConvolutionGroupCount");
    // float32 stays exact (FMA only) unless TF32 is allowed; 16-bit types use tensor cores.
    cudnnMathType_t math = CUDNN_DEFAULT_MATH;
    if (xa.dtype() == DType::float32) math = g.allow_tf32 ? CUDNN_DEFAULT_MATH : CUDNN_FMA_MATH;
    else if (!doubles) math = CUDNN_TENSOR_OP_MATH;
    check(a, a.cudnnSetConvolutionMathType(conv, math), who, "cudnnSetConvolutionMathType");
    key = {dir, xa.shape()[0], xa.shape()[1], xa.shape()[2], xa.shape()[3], wa.shape()[0], wa.shape()[2],
           wa.shape()[3], g.stride[0], g.stride[1], g.padding[0], g.padding[1], g.dilation[0], g.dilation[1],
           g.groups, static_cast<int64_t>(xa.dtype()), static_cast<int64_t>(math)};
  }
  ~Problem() {
    if (conv) a.cudnnDestroyConvolutionDescriptor(conv);
    if (w) a.cudnnDestroyFilterDescriptor(w);
  }
  Problem(const Problem&) = delete;
  Problem& operator=(const Problem&) = delete;
};

// The first of cuDNN's heuristic choices that it reports as runnable.
template <class Perf, class Query>
int pick(const Problem& p, const char* call, Query query) {
  constexpr int kMax = 16;
  Perf perf[kMax];
  int returned = 0;
  check(p.a, query(kMax, &returned, perf), p.who, call);
  for (int i = 0; i < returned; ++i)
    if (perf[i].status == CUDNN_STATUS_SUCCESS) return static_cast<int>(perf[i].algo);
  throw UnsupportedError(std::string("[") + p.who + "] cuDNN has no algorithm for this convolution");
}

enum Direction { kForward, kInputGrad, kWeightGrad };

// Runs direction `dir` of problem (x, w, y) on `out`'s device; `ins` are the operands it reads.
void run(Direction dir, const char* who, const Array& x, const Array& w, const Array& y, const Array& in0,
         const Array& in1, const Array& out, const Conv2dGeometry& g) {
  if (out.size() == 0) return;
  const CudnnApi& a = cudnn_or_throw(who);
  const int dev = out.device().index;
  activate(dev);
  gpu_runtime::wait_for_writer(in0);
  gpu_runtime::wait_for_writer(in1);
  gpu_runtime::wait_for_writer(out);
  void* stream = current_stream(dev);
  const Problem p(a, who, dir, x, w, y, g);
  const CudnnHandle h(a, dev, stream, who);
  std::map<AlgoKey, int>& chosen = algos(dev);
  auto found = chosen.find(p.key);
  int algo = found != chosen.end() ? found->second : -1;
  size_t ws_bytes = 0;
  if (dir == kForward) {
    if (algo < 0)
      algo = pick<cudnnConvolutionFwdAlgoPerf_t>(p, "cudnnGetConvolutionForwardAlgorithm_v7", [&](int n, int* r, auto* pf) {
        return a.cudnnGetConvolutionForwardAlgorithm_v7(h.get(), p.x.get(), p.w, p.conv, p.y.get(), n, r, pf);
      });
    check(a, a.cudnnGetConvolutionForwardWorkspaceSize(h.get(), p.x.get(), p.w, p.conv, p.y.get(),
                                                         static_cast<cudnnConvolutionFwdAlgo_t>(algo), &ws_bytes),
          who, "cudnnGetConvolutionForwardWorkspaceSize");
  } else if (dir == kInputGrad) {
    if (algo < 0)
      algo = pick<cudnnConvolutionBwdDataAlgoPerf_t>(p, "cudnnGetConvolutionBackwardDataAlgorithm_v7",
                                                     [&](int n, int* r, auto* pf) {
        return a.cudnnGetConvolutionBackwardDataAlgorithm_v7(h.get(), p.w, p.y.get(), p.conv, p.x.get(), n, r, pf);
      });
    check(a, a.cudnnGetConvolutionBackwardDataWorkspaceSize(h.get(), p.w, p.y.get(), p.conv, p.x.get(),
                                                              static_cast<cudnnConvolutionBwdDataAlgo_t>(algo), &ws_bytes),
          who, "cudnnGetConvolutionBackwardDataWorkspaceSize");
  } else {
    if (algo < 0)
      algo = pick<cudnnConvolutionBwdFilterAlgoPerf_t>(p, "cudnnGetConvolutionBackwardFilterAlgorithm_v7",
                                                       [&](int n, int* r, auto* pf) {
        return a.cudnnGetConvolutionBackwardFilterAlgorithm_v7(h.get(), p.x.get(), p.y.get(), p.conv, p.w, n, r, pf);
      });
    check(a, a.cudnnGetConvolutionBackwardFilterWorkspaceSize(h.get(), p.x.get(), p.y.get(), p.conv, p.w,
                                                                static_cast<cudnnConvolutionBwdFilterAlgo_t>(algo),
                                                                &ws_bytes),
          who, "cudnnGetConvolutionBackwardFilterWorkspaceSize");
  }
  chosen.emplace(p.key, algo);
  // Freed at the end of this call into the stream-ordered cache: later work on this stream
  // may reuse it only after cuDNN's kernels are done with it.
  const std::shared_ptr<Buffer> ws = ws_bytes ? gpu_runtime::allocate(dev, ws_bytes, stream) : nullptr;
  void* wsp = ws ? ws->data() : nullptr;
  const float one_f = 1.0f, zero_f = 0.0f;
  const double one_d = 1.0, zero_d = 0.0;
  const void* one = p.doubles ? static_cast<const void*>(&one_d) : &one_f;
  const void* zero = p.doubles ? static_cast<const void*>(&zero_d) : &zero_f;
  if (dir == kForward)
    check(a, a.cudnnConvolutionForward(h.get(), one, p.x.get(), x.data(), p.w, w.data(), p.conv,
                                       static_cast<cudnnConvolutionFwdAlgo_t>(algo), wsp, ws_bytes, zero, p.y.get(),
                                       y.data()),
          who, "cudnnConvolutionForward");
  else if (dir == kInputGrad)
    check(a, a.cudnnConvolutionBackwardData(h.get(), one, p.w, w.data(), p.y.get(), y.data(), p.conv,
                                            static_cast<cudnnConvolutionBwdDataAlgo_t>(algo), wsp, ws_bytes, zero,
                                            p.x.get(), x.data()),
          who, "cudnnConvolutionBackwardData");
  else
    check(a, a.cudnnConvolutionBackwardFilter(h.get(), one, p.x.get(), x.data(), p.y.get(), y.data(), p.conv,
                                              static_cast<cudnnConvolutionBwdFilterAlgo_t>(algo), wsp, ws_bytes,
                                              zero, p.w, w.data()),
          who, "cudnnConvolutionBackwardFilter");
  out.buffer()->set_last_stream(stream);
}

}  // namespace
}  // namespace loom::cuda

namespace loom::gpu_backend {

void conv2d(const Array& x, const Array& w, const Array& y, const Conv2dGeometry& g) {
  cuda::run(cuda::kForward, "conv2d", x, w, y, x, w, y, g);
}

void conv2d_input_grad(const Array& dy, const Array& w, const Array& dx, const Conv2dGeometry& g) {
  cuda::run(cuda::kInputGrad, "conv2d_input_grad", dx, w, dy, dy, w, dx, g);
}

void conv2d_weight_grad(const Array& x, const Array& dy, const Array& dw, const Conv2dGeometry& g) {
  cuda::run(cuda::kWeightGrad, "conv2d_weight_grad", x, dw, dy, x, dy, dw, g);
}

std::string conv_library(int /*device: one library serves every GPU*/) {
  const cuda::CudnnApi* a = cuda::cudnn_api();
  if (!a) return "";
  const size_t v = a->version;
  return "cudnn " + std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." + std::to_string(v % 100);
}

}  // namespace loom::gpu_backend

#else  // built without <cudnn.h>

namespace loom::gpu_backend {

[[noreturn]] void no_cudnn(const char* who) {
  throw UnsupportedError(std::string("[") + who + "] loom was built without the cuDNN header (cudnn.h), so GPU "
                         "convolutions are unavailable; loom.nn uses its GEMM path instead");
}
void conv2d(const Array&, const Array&, const Array&, const Conv2dGeometry&) { no_cudnn("conv2d"); }
void conv2d_input_grad(const Array&, const Array&, const Array&, const Conv2dGeometry&) {
  no_cudnn("conv2d_input_grad");
}
void conv2d_weight_grad(const Array&, const Array&, const Array&, const Conv2dGeometry&) {
  no_cudnn("conv2d_weight_grad");
}
std::string conv_library(int) { return ""; }

}  // namespace loom::gpu_backend
#endif
