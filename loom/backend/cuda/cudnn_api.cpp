#include "loom/backend/cuda/cudnn_api.h"

#ifdef LOOM_HAVE_CUDNN
#include <dlfcn.h>

#include <cstdlib>

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

}  // namespace loom::cuda
#endif
