// cuDNN, loaded at run time with dlopen("libcudnn.so.9") so that loom builds, loads and runs
// where the library is missing (a GPU convolution then says so, and loom.nn falls back to
// its GEMM path). <cudnn.h> gives the types and is needed at build time only; CMake defines
// LOOM_HAVE_CUDNN when it finds it. Only the legacy convolution API is used: it is
// deprecated in cuDNN 9 but complete, and needs no graph building per shape.
#pragma once
#ifdef LOOM_HAVE_CUDNN
#include <cudnn.h>

#include <string>

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

}  // namespace loom::cuda
#endif
