#include "loom/runtime/cuda/driver_api.h"

#include <dlfcn.h>

#include "loom/core/error.h"

namespace loom::cuda {
namespace {

// Expands cuda.h's versioning macros (cuModuleGetGlobal -> cuModuleGetGlobal_v2) first.
#define LOOM_SYMBOL_NAME(x) LOOM_SYMBOL_NAME2(x)
#define LOOM_SYMBOL_NAME2(x) #x

const DriverApi* load() {
  void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) return nullptr;
  static DriverApi api;
  bool ok = true;
#define LOOM_RESOLVE(name)                                                              \
  api.name = reinterpret_cast<decltype(api.name)>(dlsym(lib, LOOM_SYMBOL_NAME(name))); \
  ok = ok && api.name != nullptr;
  LOOM_RESOLVE(cuInit)
  LOOM_RESOLVE(cuDriverGetVersion)
  LOOM_RESOLVE(cuGetErrorName)
  LOOM_RESOLVE(cuGetErrorString)
  LOOM_RESOLVE(cuCtxGetCurrent)
  LOOM_RESOLVE(cuModuleLoadData)
  LOOM_RESOLVE(cuModuleUnload)
  LOOM_RESOLVE(cuModuleGetFunction)
  LOOM_RESOLVE(cuModuleGetGlobal)
  LOOM_RESOLVE(cuLaunchKernel)
  LOOM_RESOLVE(cuLaunchCooperativeKernel)
  LOOM_RESOLVE(cuFuncGetAttribute)
  LOOM_RESOLVE(cuFuncSetAttribute)
  LOOM_RESOLVE(cuOccupancyMaxActiveBlocksPerMultiprocessor)
  LOOM_RESOLVE(cuPointerGetAttribute)
#undef LOOM_RESOLVE
  api.cuFuncGetParamInfo =
      reinterpret_cast<decltype(api.cuFuncGetParamInfo)>(dlsym(lib, "cuFuncGetParamInfo"));
  api.cuFuncGetParamCount =
      reinterpret_cast<decltype(api.cuFuncGetParamCount)>(dlsym(lib, "cuFuncGetParamCount"));
  // The library stays loaded for the life of the process (the runtime shares it).
  return ok ? &api : nullptr;
}

}  // namespace

const DriverApi* driver_api() {
  static const DriverApi* api = load();  // thread-safe static initialisation
  return api;
}

const DriverApi& driver() {
  const DriverApi* api = driver_api();
  if (!api) throw CudaError("[cuda] the CUDA driver (libcuda.so.1) could not be loaded");
  return *api;
}

}  // namespace loom::cuda
