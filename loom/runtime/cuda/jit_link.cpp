#include "loom/runtime/cuda/jit_link.h"

#include <dlfcn.h>
#include <nvJitLink.h>
#include <nvrtc.h>
#include <stdlib.h>
#include <unistd.h>

#include <mutex>

#include "loom/core/error.h"

namespace loom::cuda {
namespace {

// The folders where the toolkit's libraries may be: $CUDA_PATH/$CUDA_HOME's lib64, the folder
// of the NVRTC library loaded, and /usr/local/cuda/lib64.
std::vector<std::string> library_dirs() {
  std::vector<std::string> dirs;
  for (const char* env : {"CUDA_PATH", "CUDA_HOME"}) {
    const char* v = getenv(env);
    if (v && *v) dirs.push_back(std::string(v) + "/lib64");
  }
  Dl_info info;
  if (dladdr(reinterpret_cast<void*>(&nvrtcCompileProgram), &info) != 0 && info.dli_fname) {
    const std::string lib = info.dli_fname;
    dirs.push_back(lib.substr(0, lib.rfind('/')));
  }
  dirs.push_back("/usr/local/cuda/lib64");
  return dirs;
}

struct JitLinkApi {
  decltype(&nvJitLinkCreate) create = nullptr;
  decltype(&nvJitLinkDestroy) destroy = nullptr;
  decltype(&nvJitLinkAddData) add_data = nullptr;
  decltype(&nvJitLinkAddFile) add_file = nullptr;
  decltype(&nvJitLinkComplete) complete = nullptr;
  decltype(&nvJitLinkGetLinkedCubinSize) cubin_size = nullptr;
  decltype(&nvJitLinkGetLinkedCubin) cubin = nullptr;
  decltype(&nvJitLinkGetErrorLogSize) log_size = nullptr;
  decltype(&nvJitLinkGetErrorLog) log = nullptr;
  std::string missing;  // why it could not be loaded; "" when loaded
};

const JitLinkApi& api() {
  static const JitLinkApi a = [] {
    JitLinkApi r;
    void* lib = nullptr;
    for (const char* name : {"libnvJitLink.so.13", "libnvJitLink.so"}) {
      if ((lib = dlopen(name, RTLD_NOW | RTLD_LOCAL))) break;
      for (const std::string& d : library_dirs())
        if ((lib = dlopen((d + "/" + name).c_str(), RTLD_NOW | RTLD_LOCAL))) break;
      if (lib) break;
    }
    if (!lib) {
      r.missing = "nvJitLink (libnvJitLink.so, part of the CUDA toolkit) was not found";
      return r;
    }
    auto get = [&](auto& fn, const char* sym) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, sym));
      if (!fn && r.missing.empty()) r.missing = std::string("nvJitLink lacks ") + sym;
    };
    get(r.create, "nvJitLinkCreate");
    get(r.destroy, "nvJitLinkDestroy");
    get(r.add_data, "nvJitLinkAddData");
    get(r.add_file, "nvJitLinkAddFile");
    get(r.complete, "nvJitLinkComplete");
    get(r.cubin_size, "nvJitLinkGetLinkedCubinSize");
    get(r.cubin, "nvJitLinkGetLinkedCubin");
    get(r.log_size, "nvJitLinkGetErrorLogSize");
    get(r.log, "nvJitLinkGetErrorLog");
    return r;
  }();
  return a;
}

std::string device_runtime_library() {
  for (const std::string& d : library_dirs())
    if (access((d + "/libcudadevrt.a").c_str(), R_OK) == 0) return d + "/libcudadevrt.a";
  return std::string();
}

}  // namespace

bool wants_relocatable_code(const std::vector<std::string>& options) {
  for (const std::string& o : options)
    if (o == "-rdc=true" || o == "--relocatable-device-code=true" || o == "-dc" || o == "--device-c")
      return true;
  return false;
}

std::string link_with_device_runtime(const std::string& object, int arch, const std::string& program) {
  const JitLinkApi& a = api();
  const std::string who = "[compile] linking '" + program + "' (relocatable device code) with the device runtime: ";
  if (!a.missing.empty()) throw CompileError(who + a.missing, "");
  const std::string devrt = device_runtime_library();
  if (devrt.empty())
    throw CompileError(who + "libcudadevrt.a (part of the CUDA toolkit) was not found; set CUDA_PATH", "");
  const std::string arch_option = "-arch=sm_" + std::to_string(arch);
  const char* options[] = {arch_option.c_str()};
  nvJitLinkHandle h = nullptr;
  if (a.create(&h, 1, options) != NVJITLINK_SUCCESS) throw CompileError(who + "nvJitLinkCreate failed", "");
  struct Destroy {
    const JitLinkApi& a;
    nvJitLinkHandle* h;
    ~Destroy() { a.destroy(h); }
  } destroy{a, &h};
  auto fail = [&](const char* step) {
    size_t n = 0;
    std::string log;
    if (a.log_size(h, &n) == NVJITLINK_SUCCESS && n > 1) {
      log.resize(n);
      a.log(h, log.data());
      log.resize(n - 1);
    }
    throw CompileError(who + step + " failed" + (log.empty() ? std::string() : ":\n" + log), log);
  };
  if (a.add_data(h, NVJITLINK_INPUT_CUBIN, object.data(), object.size(), program.c_str()) != NVJITLINK_SUCCESS)
    fail("adding the program");
  if (a.add_file(h, NVJITLINK_INPUT_LIBRARY, devrt.c_str()) != NVJITLINK_SUCCESS) fail("adding libcudadevrt.a");
  if (a.complete(h) != NVJITLINK_SUCCESS) fail("the link");
  size_t size = 0;
  if (a.cubin_size(h, &size) != NVJITLINK_SUCCESS) fail("reading the linked image");
  std::string out(size, '\0');
  if (a.cubin(h, out.data()) != NVJITLINK_SUCCESS) fail("reading the linked image");
  return out;
}

}  // namespace loom::cuda
