#include "loom/backend/cuda/module_cache.h"

#include <nvrtc.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "loom/backend/cuda/check.h"
#include "loom/backend/cuda/driver_api.h"
#include "loom/backend/cuda/runtime.h"
#include "loom/error.h"
#include "loom_embedded_kernels.h"

namespace loom::cuda {
namespace {

uint64_t fnv1a(uint64_t h, const std::string& s) {
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return (h ^ 0xffu) * 1099511628211ull;  // separator, so ("ab", "c") != ("a", "bc")
}

// The embedded headers and the NVRTC version take part in every key.
uint64_t base_hash() {
  static const uint64_t h = [] {
    uint64_t v = 14695981039346656037ull;
    for (const auto& k : embedded::kKernelHeaders) v = fnv1a(fnv1a(v, k.name), k.source);
    int major = 0, minor = 0;
    nvrtcVersion(&major, &minor);
    return fnv1a(v, std::to_string(major) + "." + std::to_string(minor));
  }();
  return h;
}

// Compute capabilities this NVRTC can emit CUBIN for, ascending.
const std::vector<int>& supported_archs() {
  static const std::vector<int> archs = [] {
    int n = 0;
    std::vector<int> v;
    if (nvrtcGetNumSupportedArchs(&n) == NVRTC_SUCCESS && n > 0) {
      v.resize(n);
      if (nvrtcGetSupportedArchs(v.data()) != NVRTC_SUCCESS) v.clear();
    }
    std::sort(v.begin(), v.end());
    return v;
  }();
  return archs;
}

bool has_std_option(const std::vector<std::string>& options) {
  for (const auto& o : options)
    if (o.rfind("-std=", 0) == 0 || o.rfind("--std=", 0) == 0) return true;
  return false;
}

struct CompileSlot {
  std::mutex mu;
  std::shared_ptr<const CompiledProgram> result;  // failed compiles leave it empty
};

struct ModuleSlot {
  std::mutex mu;
  std::atomic<bool> loaded{false};
  CUmodule module = nullptr;
  std::unordered_map<std::string, CUfunction> functions;  // written once, before `loaded`
};

std::mutex g_mu;
std::map<std::pair<uint64_t, int>, std::shared_ptr<CompileSlot>>& compiled_slots() {
  static auto* m = new std::map<std::pair<uint64_t, int>, std::shared_ptr<CompileSlot>>();
  return *m;
}
std::map<std::pair<uint64_t, int>, std::shared_ptr<ModuleSlot>>& module_slots() {
  static auto* m = new std::map<std::pair<uint64_t, int>, std::shared_ptr<ModuleSlot>>();
  return *m;
}

std::shared_ptr<const CompiledProgram> compiled(const Program& p, int arch) {
  std::shared_ptr<CompileSlot> slot;
  {
    std::lock_guard<std::mutex> lock(g_mu);
    auto& s = compiled_slots()[{p.key(), arch}];
    if (!s) s = std::make_shared<CompileSlot>();
    slot = s;
  }
  std::lock_guard<std::mutex> lock(slot->mu);
  if (!slot->result) slot->result = std::make_shared<CompiledProgram>(compile_program(p, arch));
  return slot->result;
}

[[noreturn]] void missing_expression(const Program& p, const std::string& expr) {
  throw std::invalid_argument("[compile] program '" + p.name() + "' does not export '" + expr + "'");
}

}  // namespace

Program::Program(std::string name, std::string source, std::vector<std::string> name_expressions,
                 std::vector<std::string> options)
    : name_(std::move(name)), source_(std::move(source)), names_(std::move(name_expressions)),
      options_(std::move(options)) {
  uint64_t h = fnv1a(base_hash(), source_);
  for (const auto& o : options_) h = fnv1a(h, o);
  h = fnv1a(h, "--names--");
  for (const auto& n : names_) h = fnv1a(h, n);
  key_ = h;
}

CompiledProgram compile_program(const Program& p, int arch) {
  const auto& archs = supported_archs();
  bool ptx = false;
  int target = arch;
  if (!archs.empty() && std::find(archs.begin(), archs.end(), arch) == archs.end()) {
    if (arch < archs.front())
      throw CompileError("[compile] NVRTC cannot compile for compute capability " +
                         std::to_string(arch / 10) + "." + std::to_string(arch % 10) +
                         " (oldest supported: sm_" + std::to_string(archs.front()) + ")");
    // A GPU newer than this NVRTC: PTX for the newest arch it knows, JIT-compiled by the driver.
    ptx = true;
    for (int a : archs)
      if (a <= arch) target = a;
  }
  std::vector<const char*> header_sources, header_names;
  for (const auto& k : embedded::kKernelHeaders) {
    header_sources.push_back(k.source);
    header_names.push_back(k.name);
  }
  nvrtcProgram prog = nullptr;
  LOOM_NVRTC_CHECK(nvrtcCreateProgram(&prog, p.source().c_str(), p.name().c_str(),
                                      static_cast<int>(header_sources.size()),
                                      header_sources.data(), header_names.data()));
  struct Destroy {
    nvrtcProgram* p;
    ~Destroy() { nvrtcDestroyProgram(p); }
  } destroy{&prog};
  for (const auto& n : p.name_expressions()) LOOM_NVRTC_CHECK(nvrtcAddNameExpression(prog, n.c_str()));

  std::vector<std::string> options = {
      std::string(ptx ? "--gpu-architecture=compute_" : "--gpu-architecture=sm_") +
      std::to_string(target)};
  if (!has_std_option(p.options())) options.push_back("-std=c++17");
  options.insert(options.end(), p.options().begin(), p.options().end());
  std::vector<const char*> option_ptrs;
  for (const auto& o : options) option_ptrs.push_back(o.c_str());

  const nvrtcResult result =
      nvrtcCompileProgram(prog, static_cast<int>(option_ptrs.size()), option_ptrs.data());
  CompiledProgram out;
  size_t log_size = 0;
  if (nvrtcGetProgramLogSize(prog, &log_size) == NVRTC_SUCCESS && log_size > 1) {
    out.log.resize(log_size);
    nvrtcGetProgramLog(prog, out.log.data());
    out.log.resize(log_size - 1);
  }
  if (result != NVRTC_SUCCESS)
    throw CompileError("[compile] NVRTC failed to compile '" + p.name() + "' for " + options[0] +
                           " (" + nvrtcGetErrorString(result) + "):\n" + out.log,
                       out.log);
  size_t size = 0;
  if (ptx) {
    LOOM_NVRTC_CHECK(nvrtcGetPTXSize(prog, &size));
    out.image.resize(size);
    LOOM_NVRTC_CHECK(nvrtcGetPTX(prog, out.image.data()));  // NUL-terminated, as the driver wants
  } else {
    LOOM_NVRTC_CHECK(nvrtcGetCUBINSize(prog, &size));
    out.image.resize(size);
    LOOM_NVRTC_CHECK(nvrtcGetCUBIN(prog, out.image.data()));
  }
  out.is_ptx = ptx;
  for (const auto& n : p.name_expressions()) {
    const char* lowered = nullptr;
    LOOM_NVRTC_CHECK(nvrtcGetLoweredName(prog, n.c_str(), &lowered));
    out.lowered_names.emplace_back(n, lowered);
  }
  return out;
}

CUfunction get_function(int device, const Program& p, const std::string& name_expression) {
  std::shared_ptr<ModuleSlot> slot;
  {
    std::lock_guard<std::mutex> lock(g_mu);
    auto& s = module_slots()[{p.key(), device}];
    if (!s) s = std::make_shared<ModuleSlot>();
    slot = s;
  }
  if (!slot->loaded.load(std::memory_order_acquire)) {
    std::lock_guard<std::mutex> lock(slot->mu);
    if (!slot->loaded.load()) {
      activate(device);
      auto bin = compiled(p, compute_capability(device));
      const DriverApi& api = driver();
      CUmodule module = nullptr;
      LOOM_CU_CHECK(api.cuModuleLoadData(&module, bin->image.data()));
      for (const auto& [expr, lowered] : bin->lowered_names) {
        CUfunction fn = nullptr;
        LOOM_CU_CHECK(api.cuModuleGetFunction(&fn, module, lowered.c_str()));
        slot->functions.emplace(expr, fn);
      }
      slot->module = module;
      slot->loaded.store(true, std::memory_order_release);
    }
  }
  check_alive(device);
  auto it = slot->functions.find(name_expression);
  if (it == slot->functions.end()) missing_expression(p, name_expression);
  return it->second;
}

CUfunction get_function(int device, const std::string& source, const std::string& name_expression,
                        const std::vector<std::string>& options) {
  const Program p("loom_kernel.cu", source, {name_expression}, options);
  return get_function(device, p, name_expression);
}

}  // namespace loom::cuda
