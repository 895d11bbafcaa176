#include "loom/backend/cuda/cudnn_api.h"

#ifdef LOOM_HAVE_CUDNN
#include <dlfcn.h>

#include <cstdlib>

#include "loom/core/error.h"
#include "loom/runtime/cuda/check.h"

namespace loom::cuda {
namespace {

struct Loaded {
  CudnnApi api{};
  bool ok = false;
  std::string why;
};

Loaded load() {
  Loaded l;
  const char* override_path = std::getenv("LOOM_CUDNN_LIBRARY");
  const std::string name = override_path && *override_path ? override_path : "libcudnn.so.9";
  // RTLD_GLOBAL: cuDNN 9's front library loads its engine sub-libraries, which resolve
  // symbols against it.
  void* lib = dlopen(name.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (!lib) {
    const char* err = dlerror();
    l.why = "cuDNN could not be loaded (" + std::string(err ? err : name) +
            "); install cuDNN 9 or set LOOM_CUDNN_LIBRARY to libcudnn.so.9";
    return l;
  }
  bool ok = true;
  std::string missing;
#define LOOM_CUDNN_ENTRY(fn)                                            \
  l.api.fn = reinterpret_cast<decltype(l.api.fn)>(dlsym(lib, #fn));     \
  if (!l.api.fn && ok) ok = false, missing = #fn;
#include "loom/backend/cuda/cudnn_entries.inc"
#undef LOOM_CUDNN_ENTRY
  if (!ok) {
    l.why = "the cuDNN library " + name + " lacks " + missing;
    return l;
  }
  l.api.version = l.api.cudnnGetVersion();
  // The header's structs and enums hold within one major version.
  if (l.api.version / 10000 != CUDNN_MAJOR) {
    l.why = "cuDNN " + std::to_string(l.api.version) + " was loaded but loom was built against major version " +
            std::to_string(CUDNN_MAJOR);
    return l;
  }
  l.ok = true;
  return l;  // the library stays loaded for the life of the process
}

}  // namespace

const CudnnApi* cudnn_api(std::string* why) {
  static const Loaded loaded = load();  // thread-safe static initialisation
  if (!loaded.ok && why) *why = loaded.why;
  return loaded.ok ? &loaded.api : nullptr;
}

const CudnnApi& cudnn_or_throw(const char* who) {
  std::string why;
  const CudnnApi* a = cudnn_api(&why);
  if (!a) throw UnsupportedError(std::string("[") + who + "] " + why);
  return *a;
}

void cudnn_check(const CudnnApi& a, cudnnStatus_t s, const char* who, const char* call) {
  if (s == CUDNN_STATUS_SUCCESS) return;
  const std::string msg = std::string("[") + who + "] cuDNN " + call + " failed: " + a.cudnnGetErrorString(s);
  if (s == CUDNN_STATUS_ALLOC_FAILED) throw OutOfMemoryError(msg);
  throw CudaError(msg, static_cast<int>(s));
}

cudnnDataType_t cudnn_data_type(DType t, const char* who) {
  switch (t) {
    case DType::float16: return CUDNN_DATA_HALF;
    case DType::bfloat16: return CUDNN_DATA_BFLOAT16;
    case DType::float32: return CUDNN_DATA_FLOAT;
    case DType::float64: return CUDNN_DATA_DOUBLE;
    default: throw_dtype_error(who, "needs a floating dtype");
  }
}

int cudnn_int(int64_t v, const char* who) {
  if (v > INT32_MAX) throw UnsupportedError(std::string("[") + who + "] a dimension over 2^31-1 on the GPU");
  return static_cast<int>(v);
}

namespace {

struct DeviceHandle {
  std::mutex mu;
  cudnnHandle_t handle = nullptr;
};

DeviceHandle& device_handle(int dev) {
  static DeviceHandle* all = new DeviceHandle[kMaxDevices];
  return all[dev];
}

}  // namespace

CudnnHandle::CudnnHandle(const CudnnApi& a, int device, void* stream, const char* who)
    : lock_(device_handle(device).mu) {
  DeviceHandle& d = device_handle(device);
  if (!d.handle) cudnn_check(a, a.cudnnCreate(&d.handle), who, "cudnnCreate");
  cudnn_check(a, a.cudnnSetStream(d.handle, static_cast<cudaStream_t>(stream)), who, "cudnnSetStream");
  handle_ = d.handle;
}

CudnnTensor::CudnnTensor(const CudnnApi& a, cudnnDataType_t t, const int64_t* shape, const char* who) : a_(a) {
  cudnn_check(a, a.cudnnCreateTensorDescriptor(&d_), who, "cudnnCreateTensorDescriptor");
  cudnn_check(a,
              a.cudnnSetTensor4dDescriptor(d_, CUDNN_TENSOR_NCHW, t, cudnn_int(shape[0], who), cudnn_int(shape[1], who),
                                           cudnn_int(shape[2], who), cudnn_int(shape[3], who)),
              who, "cudnnSetTensor4dDescriptor");
}

CudnnTensor::~CudnnTensor() {
  if (d_) a_.cudnnDestroyTensorDescriptor(d_);
}

}  // namespace loom::cuda
#endif
