// cuDNN, loaded at run time with dlopen("libcudnn.so.9") so that loom builds, loads and runs
// where the library is missing (a GPU convolution then says so, and loom.nn falls back to
// its GEMM path). <cudnn.h> gives the types and is needed at build time only; CMake defines
// LOOM_HAVE_CUDNN when it finds it. Only the legacy convolution API is used: it is
// deprecated in cuDNN 9 but complete, and needs no graph building per shape.
#pragma once
#ifdef LOOM_HAVE_CUDNN
#include <cudnn.h>

#include <cstdint>
#include <mutex>
#include <string>

#include "loom/core/dtype.h"

namespace loom::cuda {

/// The entry points loom's convolutions use, resolved once (thread-safe).
struct CudnnApi {
  size_t version;  // cudnnGetVersion(): 91400 for 9.14.0
#define LOOM_CUDNN_ENTRY(name) decltype(&::name) name;
#include "loom/backend/cuda/cudnn_entries.inc"
#undef LOOM_CUDNN_ENTRY
};

/// The loaded library, or nullptr with `why` set (not found, a symbol missing, another
/// major version than the header's). $LOOM_CUDNN_LIBRARY names a file to load instead.
const CudnnApi* cudnn_api(std::string* why = nullptr);

// ---- what the cuDNN evals share (conv.cpp, pool.cpp) ---------------------

/// cudnn_api(), or UnsupportedError "[who] <why it could not be loaded>".
const CudnnApi& cudnn_or_throw(const char* who);
/// Raises CudaError (OutOfMemoryError for an allocation failure) naming `who` and `call`.
void cudnn_check(const CudnnApi& a, cudnnStatus_t s, const char* who, const char* call);
cudnnDataType_t cudnn_data_type(DType t, const char* who);
/// v as a cuDNN int, or UnsupportedError for sizes past 2^31-1.
int cudnn_int(int64_t v, const char* who);

/// The device's cuDNN handle (made on first use, never destroyed: the runtime may be gone
/// at exit), locked for the life of this object with `stream` set on it: set-stream and
/// the calls that follow are one step for other threads.
class CudnnHandle {
 public:
  CudnnHandle(const CudnnApi& a, int device, void* stream, const char* who);
  cudnnHandle_t get() const { return handle_; }

 private:
  std::unique_lock<std::mutex> lock_;
  cudnnHandle_t handle_;
};

/// An NCHW tensor descriptor of a contiguous 4-d array's shape, destroyed with it.
class CudnnTensor {
 public:
  CudnnTensor(const CudnnApi& a, cudnnDataType_t t, const int64_t* shape, const char* who);
  ~CudnnTensor();
  CudnnTensor(const CudnnTensor&) = delete;
  CudnnTensor& operator=(const CudnnTensor&) = delete;
  cudnnTensorDescriptor_t get() const { return d_; }

 private:
  const CudnnApi& a_;
  cudnnTensorDescriptor_t d_ = nullptr;
};

}  // namespace loom::cuda
#endif
