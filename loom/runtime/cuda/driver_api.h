// The CUDA driver API, loaded at run time with dlopen("libcuda.so.1") so that loom
// loads and reports zero GPUs on machines with no driver (DESIGN.md §3). <cuda.h>
// gives the types; nothing here links against libcuda.
#pragma once
#include <cuda.h>

namespace loom::cuda {

/// Entry points of libcuda, resolved once on first use (thread-safe).
struct DriverApi {
  decltype(&::cuInit) cuInit;
  decltype(&::cuDriverGetVersion) cuDriverGetVersion;
  decltype(&::cuGetErrorName) cuGetErrorName;
  decltype(&::cuGetErrorString) cuGetErrorString;
  decltype(&::cuCtxGetCurrent) cuCtxGetCurrent;
  decltype(&::cuModuleLoadData) cuModuleLoadData;
  decltype(&::cuModuleUnload) cuModuleUnload;
  decltype(&::cuModuleGetFunction) cuModuleGetFunction;
  decltype(&::cuModuleGetGlobal) cuModuleGetGlobal;
  decltype(&::cuLaunchKernel) cuLaunchKernel;
  decltype(&::cuLaunchCooperativeKernel) cuLaunchCooperativeKernel;
  decltype(&::cuFuncGetAttribute) cuFuncGetAttribute;
  decltype(&::cuFuncSetAttribute) cuFuncSetAttribute;
  decltype(&::cuOccupancyMaxActiveBlocksPerMultiprocessor) cuOccupancyMaxActiveBlocksPerMultiprocessor;
  decltype(&::cuPointerGetAttribute) cuPointerGetAttribute;
  /// CUDA >= 12.4 drivers only; nullptr on older ones (kernel arguments go unchecked).
  decltype(&::cuFuncGetParamInfo) cuFuncGetParamInfo;
  /// Newer drivers only (after CUDA 13.0's headers, hence declared here); nullptr elsewhere.
  CUresult (*cuFuncGetParamCount)(CUfunction func, size_t* count);
};

/// The driver's entry points, or nullptr when libcuda.so.1 (or a needed symbol) is missing.
const DriverApi* driver_api();
/// driver_api(), or throws loom::CudaError saying that no CUDA driver was found.
const DriverApi& driver();

}  // namespace loom::cuda
