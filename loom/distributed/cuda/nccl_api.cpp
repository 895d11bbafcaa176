#include "loom/distributed/cuda/nccl_api.h"

#include <dlfcn.h>

#include <cstdlib>

#include "loom/core/error.h"

namespace loom::distributed::nccl {
namespace {

struct Loaded {
  Api api{};
  bool ok = false;
  std::string why;
};

Loaded load() {
  Loaded l;
  const char* env = std::getenv("LOOM_NCCL_LIBRARY");
  const std::string name = env && *env ? env : "libnccl.so.2";
  void* lib = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char* err = dlerror();
    l.why = "NCCL could not be loaded (" + std::string(err ? err : name) +
            "); install NCCL 2 (the nvidia-nccl wheel or the libnccl2 package) or set LOOM_NCCL_LIBRARY";
    return l;
  }
#define LOOM_NCCL_ENTRY(fn)                                                 \
  l.api.fn = reinterpret_cast<decltype(l.api.fn)>(dlsym(lib, #fn));         \
  if (!l.api.fn) {                                                          \
    l.why = "the NCCL library " + name + " lacks " #fn " (NCCL 2.7 or newer is needed)"; \
    return l;                                                               \
  }
  LOOM_NCCL_ENTRY(ncclGetVersion)
  LOOM_NCCL_ENTRY(ncclGetUniqueId)
  LOOM_NCCL_ENTRY(ncclCommInitRank)
  LOOM_NCCL_ENTRY(ncclCommInitAll)
  LOOM_NCCL_ENTRY(ncclCommDestroy)
  LOOM_NCCL_ENTRY(ncclCommAbort)
  LOOM_NCCL_ENTRY(ncclCommGetAsyncError)
  LOOM_NCCL_ENTRY(ncclGetErrorString)
  LOOM_NCCL_ENTRY(ncclAllReduce)
  LOOM_NCCL_ENTRY(ncclBroadcast)
  LOOM_NCCL_ENTRY(ncclAllGather)
  LOOM_NCCL_ENTRY(ncclReduceScatter)
  LOOM_NCCL_ENTRY(ncclSend)
  LOOM_NCCL_ENTRY(ncclRecv)
  LOOM_NCCL_ENTRY(ncclGroupStart)
  LOOM_NCCL_ENTRY(ncclGroupEnd)
#undef LOOM_NCCL_ENTRY
  l.api.ncclGetVersion(&l.api.version);
  if (l.api.version < 20700) {
    l.why = "NCCL " + version_string(l.api.version) + " is too old (2.7 or newer is needed)";
    return l;
  }
  l.ok = true;
  return l;  // stays loaded for the life of the process
}

}  // namespace

std::string version_string(int v) {
  // NCCL >= 2.9 encodes major*10000 + minor*100 + patch; older ones major*1000 + minor*100 + patch.
  const int major = v >= 10000 ? v / 10000 : v / 1000;
  const int minor = v >= 10000 ? (v % 10000) / 100 : (v % 1000) / 100;
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(v % 100);
}

const Api* api(std::string* why) {
  static const Loaded loaded = load();
  if (!loaded.ok && why) *why = loaded.why;
  return loaded.ok ? &loaded.api : nullptr;
}

const Api& api_or_throw(const char* op) {
  std::string why;
  const Api* a = api(&why);
  if (!a) throw UnsupportedError(std::string("[") + op + "] " + why);
  return *a;
}

void check(const Api& a, Result r, const char* op, const char* call) {
  if (r == kSuccess) return;
  throw DistributedError(std::string("[") + op + "] NCCL " + call + " failed: " + a.ncclGetErrorString(r) +
                         " (NCCL_DEBUG=WARN tells more)");
}

}  // namespace loom::distributed::nccl
