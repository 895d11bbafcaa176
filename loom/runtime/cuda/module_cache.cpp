#include "loom/runtime/cuda/module_cache.h"

#include <dlfcn.h>
#include <nvrtc.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <string_view>
#include <unordered_map>

#include "loom/runtime/compile_log.h"
#include "loom/runtime/cuda/check.h"
#include "loom/runtime/cuda/driver_api.h"
#include "loom/runtime/cuda/jit_link.h"
#include "loom/runtime/cuda/context.h"
#include "loom/runtime/gpu_compile.h"
#include "loom/core/error.h"
#include "loom_embedded_kernels.h"

namespace loom::cuda {
namespace {

// Bumped whenever compile_program's output or the payload encoding below changes.
constexpr int64_t kNvrtcCacheFormat = 1;

// Everything every key shares, hashed once per process: the embedded headers (a program
// may include any of them), the NVRTC version, loom's version and the default options.
const Hash128& base_hash() {
  static const Hash128 h = [] {
    KeyBuilder k;
    k.add(std::string_view("loom-nvrtc")).add(kNvrtcCacheFormat).add(std::string_view(LOOM_VERSION));
    int major = 0, minor = 0;
    nvrtcVersion(&major, &minor);
    k.add(int64_t{major}).add(int64_t{minor});
    k.add(int64_t{embedded::kNumKernelHeaders});
    for (const auto& e : embedded::kKernelHeaders) k.add(std::string_view(e.name)).add(std::string_view(e.source));
    return k.finish();
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

struct ModuleSlot {
  std::mutex mu;
  std::atomic<bool> loaded{false};
  CUmodule module = nullptr;
  std::unordered_map<std::string, CUfunction> functions;  // written once, before `loaded`
};

struct SlotKey {
  Hash128 key;
  int device;
  bool operator==(const SlotKey& o) const { return key == o.key && device == o.device; }
};
struct SlotKeyHash {
  size_t operator()(const SlotKey& k) const { return static_cast<size_t>(k.key.lo ^ k.key.hi) + k.device; }
};

std::mutex g_mu;
std::unordered_map<SlotKey, std::shared_ptr<ModuleSlot>, SlotKeyHash>& module_slots() {
  static auto* m = new std::unordered_map<SlotKey, std::shared_ptr<ModuleSlot>, SlotKeyHash>();
  return *m;
}

// The cache payload of a CompiledProgram: flag, image, (expression, symbol) pairs, log.
std::string encode(const CompiledProgram& c) {
  PayloadWriter w;
  w.u64(c.is_ptx ? 1 : 0).bytes(c.image).u64(c.lowered_names.size());
  for (const auto& [expr, lowered] : c.lowered_names) w.bytes(expr).bytes(lowered);
  return w.bytes(c.log).take();
}
bool decode(std::string_view payload, CompiledProgram* out) {
  PayloadReader r(payload);
  uint64_t ptx = 0, n = 0;
  if (!r.u64(&ptx) || ptx > 1 || !r.bytes(&out->image) || !r.u64(&n) || n > payload.size()) return false;
  out->is_ptx = ptx == 1;
  out->lowered_names.resize(n);
  for (auto& [expr, lowered] : out->lowered_names)
    if (!r.bytes(&expr) || !r.bytes(&lowered)) return false;
  return r.bytes(&out->log) && r.at_end();
}

// The CUDA toolkit's include folder (cuda_fp16.h, cuda_bf16.h, ...), which NVRTC does not
// search by itself: user sources include those headers as they would under nvcc, and CuPy
// adds this folder too. Looked for under $CUDA_PATH, $CUDA_HOME, next to the NVRTC library
// loaded (lib/ or lib/<triplet>/ beside include/) and /usr/local/cuda; "" when none has them.
const std::string& cuda_include_dir() {
  static const std::string dir = [] {
    std::vector<std::string> candidates;
    for (const char* env : {"CUDA_PATH", "CUDA_HOME"}) {
      const char* v = getenv(env);
      if (v && *v) candidates.push_back(std::string(v) + "/include");
    }
    Dl_info info;
    if (dladdr(reinterpret_cast<void*>(&nvrtcCompileProgram), &info) != 0 && info.dli_fname) {
      const std::string lib = info.dli_fname, folder = lib.substr(0, lib.rfind('/'));
      candidates.push_back(folder + "/../include");
      candidates.push_back(folder + "/../../include");
    }
    candidates.push_back("/usr/local/cuda/include");
    for (const std::string& d : candidates)
      if (access((d + "/cuda_fp16.h").c_str(), R_OK) == 0) return d;
    return std::string();
  }();
  return dir;
}

[[noreturn]] void missing_expression(const Program& p, const std::string& expr) {
  throw std::invalid_argument("[compile] program '" + p.name() + "' does not export '" + expr + "'");
}

}  // namespace

Program::Program(std::string name, std::string source, std::vector<std::string> name_expressions,
                 std::vector<std::string> options, Dialect dialect)
    : name_(std::move(name)), source_(std::move(source)), names_(std::move(name_expressions)),
      options_(std::move(options)), dialect_(dialect) {
  KeyBuilder k;
  k.add(base_hash()).add(std::string_view(source_)).add(int64_t{dialect_ == Dialect::kMinimal});
  k.add(static_cast<int64_t>(options_.size()));
  for (const auto& o : options_) k.add(std::string_view(o));
  k.add(static_cast<int64_t>(names_.size()));
  for (const auto& n : names_) k.add(std::string_view(n));
  key_ = k.finish();
}

int oldest_supported_arch() {
  const auto& archs = supported_archs();
  if (archs.empty()) throw CompileError("[compile] NVRTC reports no supported architecture", "");
  return archs.front();
}

CompiledProgram compile_program(const Program& p, int arch, bool ptx_only) {
  const auto& archs = supported_archs();
  bool ptx = ptx_only;
  int target = arch;
  if (!archs.empty() && std::find(archs.begin(), archs.end(), arch) == archs.end()) {
    if (arch < archs.front())
      throw CompileError("[compile] NVRTC cannot compile for compute capability " +
                         std::to_string(arch / 10) + "." + std::to_string(arch % 10) +
                         " (oldest supported: sm_" + std::to_string(archs.front()) + ")");
    // A GPU newer than this NVRTC: PTX for the newest arch it knows, JIT-compiled by the driver.
    if (wants_relocatable_code(p.options()))
      throw CompileError("[compile] relocatable device code (-rdc=true) needs an NVRTC that knows the GPU's "
                         "architecture sm_" + std::to_string(arch) + " (the device runtime is linked for it)", "");
    ptx = true;
    for (int a : archs)
      if (a <= arch) target = a;
  }
  std::vector<const char*> header_sources, header_names;
  for (const auto& k : embedded::kKernelHeaders) {
    header_sources.push_back(k.source);
    header_names.push_back(k.name);
  }
  // nvcc's programs include the C library's stdio for printf, which NVRTC has built in and
  // whose header it does not ship: users' programs (PyCUDA's, CuPy's) find an empty one.
  if (p.dialect() == Dialect::kFull)
    for (const char* name : {"stdio.h", "cstdio"}) {
      header_sources.push_back("#pragma once\n");
      header_names.push_back(name);
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
  if (p.dialect() == Dialect::kMinimal) options.push_back("--minimal");
  options.insert(options.end(), p.options().begin(), p.options().end());
  // Users' programs see the toolkit's headers, after their own include folders.
  if (p.dialect() == Dialect::kFull) options.push_back("--pre-include=loom_user_prelude.cuh");
  if (p.dialect() == Dialect::kFull && !cuda_include_dir().empty()) {
    options.push_back("--include-path=" + cuda_include_dir());
    // CUDA 13 keeps CCCL (cuda/std, cub, thrust) in include/cccl; cooperative_groups.h needs it.
    static const bool has_cccl = access((cuda_include_dir() + "/cccl/cuda/std/type_traits").c_str(), R_OK) == 0;
    if (has_cccl) options.push_back("--include-path=" + cuda_include_dir() + "/cccl");
  }
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
  if (result != NVRTC_SUCCESS) {
    const std::string excerpt = source_excerpt(p.source(), out.log, p.name());
    throw CompileError("[compile] NVRTC failed to compile '" + p.name() + "' for " + options[0] +
                           " (" + nvrtcGetErrorString(result) + "):\n" + out.log +
                           (excerpt.empty() ? "" : "\nsource:\n" + excerpt),
                       out.log);
  }
  size_t size = 0;
  if (ptx) {
    LOOM_NVRTC_CHECK(nvrtcGetPTXSize(prog, &size));
    out.image.resize(size);
    LOOM_NVRTC_CHECK(nvrtcGetPTX(prog, out.image.data()));  // NUL-terminated, as the driver wants
  } else {
    LOOM_NVRTC_CHECK(nvrtcGetCUBINSize(prog, &size));
    out.image.resize(size);
    LOOM_NVRTC_CHECK(nvrtcGetCUBIN(prog, out.image.data()));
    // A relocatable object (a kernel launching kernels) is linked with the device runtime.
    if (wants_relocatable_code(p.options())) out.image = link_with_device_runtime(out.image, target, p.name());
  }
  out.is_ptx = ptx;
  for (const auto& n : p.name_expressions()) {
    const char* lowered = nullptr;
    LOOM_NVRTC_CHECK(nvrtcGetLoweredName(prog, n.c_str(), &lowered));
    out.lowered_names.emplace_back(n, lowered);
  }
  return out;
}

std::shared_ptr<const CompiledProgram> compile_cached(const Program& p, int arch) {
  const Hash128 key = KeyBuilder().add(p.key()).add(int64_t{arch}).finish();
  auto payload = CompileCache::global().get_or_compile(
      "nvrtc", key, [&] { return encode(compile_program(p, arch)); },
      [](std::string_view bytes) {
        CompiledProgram c;
        return decode(bytes, &c);
      });
  auto out = std::make_shared<CompiledProgram>();
  if (!decode(*payload, out.get()))  // cannot happen: payloads are checked on their way in
    throw CompileError("[compile] corrupt compile-cache entry for '" + p.name() + "'", "");
  return out;
}

namespace {

// The program's slot on `device`, compiled and loaded on first use.
ModuleSlot& loaded_slot(int device, const Program& p) {
  std::shared_ptr<ModuleSlot> slot;
  {
    std::lock_guard<std::mutex> lock(g_mu);
    auto& s = module_slots()[{p.key(), device}];
    if (!s) s = std::make_shared<ModuleSlot>();
    slot = s;  // slots are never erased, so the reference below stays valid
  }
  if (!slot->loaded.load(std::memory_order_acquire)) {
    std::lock_guard<std::mutex> lock(slot->mu);
    if (!slot->loaded.load()) {
      // Loading a module is not a stream operation: a capture would be invalidated.
      check_not_capturing("compile", "compiling and loading a kernel for the first time");
      activate(device);
      auto bin = compile_cached(p, compute_capability(device));
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
  return *slot;
}

}  // namespace

CUfunction get_function(int device, const Program& p, const std::string& name_expression) {
  ModuleSlot& slot = loaded_slot(device, p);
  auto it = slot.functions.find(name_expression);
  if (it == slot.functions.end()) missing_expression(p, name_expression);
  return it->second;
}

CUmodule get_module(int device, const Program& p) { return loaded_slot(device, p).module; }

bool is_loaded(int device, const Program& p) {
  std::lock_guard<std::mutex> lock(g_mu);
  auto it = module_slots().find({p.key(), device});
  return it != module_slots().end() && it->second && it->second->loaded.load(std::memory_order_acquire);
}

CUfunction get_function(int device, const std::string& source, const std::string& name_expression,
                        const std::vector<std::string>& options) {
  const Program p("loom_kernel.cu", source, {name_expression}, options, Dialect::kFull);
  return get_function(device, p, name_expression);
}

}  // namespace loom::cuda

namespace loom::gpu_runtime {

size_t compile_for_testing(const std::string& source, const std::string& name_expression, int arch,
                           const std::vector<std::string>& options, bool minimal) {
  const cuda::Program p("loom_kernel.cu", source, {name_expression}, options,
                        minimal ? cuda::Dialect::kMinimal : cuda::Dialect::kFull);
  return cuda::compile_cached(p, arch)->image.size();
}

}  // namespace loom::gpu_runtime
