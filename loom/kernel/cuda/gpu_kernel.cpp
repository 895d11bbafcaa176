// User modules on the GPU: one NVRTC Program per module (compiled through the compile
// cache for each device's exact arch, loaded once per device by module_cache), and per
// (device, name) a UserFunction describing the kernel's parameters and limits, so a
// launch checks its arguments without asking the driver again.
#include <cuda.h>
#include <cuda_runtime_api.h>

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>

#include "loom/runtime/cuda/check.h"
#include "loom/runtime/cuda/driver_api.h"
#include "loom/runtime/cuda/module_cache.h"
#include "loom/runtime/cuda/context.h"
#include "loom/kernel/gpu_kernel.h"
#include "loom/core/error.h"
#include "loom/kernel/kernel_args.h"
#include "loom/kernel/module_state.h"

namespace loom::kernel_cuda {
namespace {

struct GpuModule {
  explicit GpuModule(const ModuleState& m)
      : program("loom_kernel.cu", m.code, m.name_expressions, m.options,
                m.dialect == SourceDialect::kMinimal ? cuda::Dialect::kMinimal : cuda::Dialect::kFull) {}
  cuda::Program program;
  std::mutex mu;
  std::map<std::pair<int, std::string>, std::unique_ptr<UserFunction>> functions;
};

GpuModule& gpu_module(const ModuleState& m) {
  auto& state = const_cast<ModuleState&>(m);  // the lazily made backend data is logically const
  std::lock_guard<std::mutex> lock(state.mu);
  if (!state.gpu) state.gpu = std::make_shared<GpuModule>(m);
  return *static_cast<GpuModule*>(state.gpu.get());
}

bool is_name_expression(const ModuleState& m, const std::string& name) {
  for (const auto& n : m.name_expressions)
    if (n == name) return true;
  return false;
}

constexpr size_t kProbe = SIZE_MAX;  // param_count: ask until the driver says there is no such parameter

// How many parameters `fn` takes, without asking the driver about one past the last (each
// such call is an error in compute-sanitizer's log, burying real reports): from
// cuFuncGetParamCount where the driver has it, else from a signature that tells it for
// certain (`*guess` set), else kProbe (cuFuncGetParamInfo until it fails).
size_t param_count(CUfunction fn, const KernelParamTypes* types, bool* guess) {
  *guess = false;
  if (auto count = cuda::driver().cuFuncGetParamCount) {
    size_t n = 0;
    if (count(fn, &n) == CUDA_SUCCESS) return n;
  }
  if (types && types->count_certain) {
    *guess = true;
    return types->params.size();
  }
  return kProbe;
}

int attribute(CUfunction fn, CUfunction_attribute a) {
  int v = 0;
  LOOM_CU_CHECK(cuda::driver().cuFuncGetAttribute(&v, a, fn));
  return v;
}

std::unique_ptr<UserFunction> describe(CUfunction fn, int device, std::shared_ptr<const KernelParamTypes> types) {
  auto f = std::make_unique<UserFunction>();
  f->function = fn;
  f->device = device;
  f->limits = &launch_limits(device);
  KernelAttributes& a = f->attributes;
  a.max_threads_per_block = attribute(fn, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  a.num_regs = attribute(fn, CU_FUNC_ATTRIBUTE_NUM_REGS);
  a.static_shared_bytes = static_cast<size_t>(attribute(fn, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES));
  a.local_size_bytes = static_cast<size_t>(attribute(fn, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES));
  a.const_size_bytes = static_cast<size_t>(attribute(fn, CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES));
  a.ptx_version = attribute(fn, CU_FUNC_ATTRIBUTE_PTX_VERSION);
  a.binary_version = attribute(fn, CU_FUNC_ATTRIBUTE_BINARY_VERSION);
  const size_t optin = launch_limits(device).max_shared_per_block_optin;
  a.max_dynamic_shared_bytes = optin > a.static_shared_bytes ? optin - a.static_shared_bytes : 0;
  f->dynamic_shared_set.store(
      static_cast<size_t>(attribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)));
  if (auto get = cuda::driver().cuFuncGetParamInfo) {
    f->params_known = true;
    bool guess = false;
    const size_t count = param_count(fn, types.get(), &guess);
    for (size_t i = 0; i < count; ++i) {
      size_t offset = 0, size = 0;
      const CUresult r = get(fn, i, &offset, &size);
      if (r == CUDA_ERROR_INVALID_VALUE && (count == kProbe || guess)) {  // past the last parameter
        if (guess) types.reset();  // the source said more than were compiled (a macro?): not its types
        break;
      }
      if (r != CUDA_SUCCESS) cuda::raise_driver_error(r, "cuFuncGetParamInfo(fn, i, &offset, &size)");
      f->param_offsets.push_back(offset);
      a.param_sizes.push_back(size);
    }
  }
  f->param_types = std::move(types);
  return f;
}

// The C types of the parameters: an extern "C" kernel's from the source, a name
// expression's from its lowered (mangled) name, which spells every type the compiler chose.
std::shared_ptr<const KernelParamTypes> param_types(const ModuleState& m, GpuModule& gm, int device,
                                                    const std::string& name) {
  if (!is_name_expression(m, name)) return kernel_detail::source_types(m, name);
  auto bin = cuda::compile_cached(gm.program, cuda::compute_capability(device));  // in memory by now
  for (const auto& [expr, lowered] : bin->lowered_names)
    if (expr == name)
      if (auto t = lowered_param_types(lowered)) return std::make_shared<const KernelParamTypes>(std::move(*t));
  return nullptr;
}

}  // namespace

const LaunchLimits& launch_limits(int device) {
  static std::array<std::unique_ptr<LaunchLimits>, cuda::kMaxDevices> cache;
  static std::mutex mu;
  std::lock_guard<std::mutex> lock(mu);
  auto& slot = cache.at(device);
  if (!slot) {
    auto get = [device](cudaDeviceAttr attr) {
      int v = 0;
      LOOM_CUDA_CHECK(cudaDeviceGetAttribute(&v, attr, device));
      return v;
    };
    auto l = std::make_unique<LaunchLimits>();
    l->max_block = Dim3(get(cudaDevAttrMaxBlockDimX), get(cudaDevAttrMaxBlockDimY), get(cudaDevAttrMaxBlockDimZ));
    l->max_grid = Dim3(get(cudaDevAttrMaxGridDimX), get(cudaDevAttrMaxGridDimY), get(cudaDevAttrMaxGridDimZ));
    l->max_threads_per_block = get(cudaDevAttrMaxThreadsPerBlock);
    l->max_shared_per_block_optin = static_cast<size_t>(get(cudaDevAttrMaxSharedMemoryPerBlockOptin));
    l->multiprocessors = get(cudaDevAttrMultiProcessorCount);
    slot = std::move(l);
  }
  return *slot;
}

const UserFunction& user_function(const ModuleState& m, int device, const std::string& name) {
  GpuModule& gm = gpu_module(m);
  {
    std::lock_guard<std::mutex> lock(gm.mu);
    auto it = gm.functions.find({device, name});
    if (it != gm.functions.end()) {
      cuda::check_alive(device);
      return *it->second;
    }
  }
  cuda::activate(device);
  CUfunction fn = nullptr;
  if (is_name_expression(m, name)) {
    fn = cuda::get_function(device, gm.program, name);
  } else {
    CUmodule mod = cuda::get_module(device, gm.program);
    const CUresult r = cuda::driver().cuModuleGetFunction(&fn, mod, name.c_str());
    if (r == CUDA_ERROR_NOT_FOUND)
      throw std::invalid_argument(
          "[RawModule] the module has no kernel named '" + name +
          "': a kernel is found by its extern \"C\" name; a C++ (mangled) or template kernel "
          "must be listed in name_expressions");
    if (r != CUDA_SUCCESS) cuda::raise_driver_error(r, "cuModuleGetFunction(&fn, module, name)");
  }
  auto described = describe(fn, device, param_types(m, gm, device, name));
  described->cooperative = m.cooperative;
  std::lock_guard<std::mutex> lock(gm.mu);
  auto& slot = gm.functions[{device, name}];
  if (!slot) slot = std::move(described);
  return *slot;
}

ModuleGlobal module_global(const ModuleState& m, int device, const std::string& name) {
  GpuModule& gm = gpu_module(m);
  cuda::activate(device);
  CUmodule mod = cuda::get_module(device, gm.program);
  CUdeviceptr address = 0;
  size_t nbytes = 0;
  const CUresult r = cuda::driver().cuModuleGetGlobal(&address, &nbytes, mod, name.c_str());
  if (r == CUDA_ERROR_NOT_FOUND)
    throw std::invalid_argument("[RawModule.get_global] the module has no variable named '" + name +
                                "' at namespace scope (a __device__ or __constant__ variable, found by its "
                                "unmangled name)");
  if (r != CUDA_SUCCESS) cuda::raise_driver_error(r, "cuModuleGetGlobal(&address, &nbytes, module, name)");
  return ModuleGlobal{reinterpret_cast<void*>(static_cast<uintptr_t>(address)), nbytes};
}

std::vector<std::string> compile_user_module(const ModuleState& m, int arch) {
  auto bin = cuda::compile_cached(gpu_module(m).program, arch);
  std::vector<std::string> lowered;
  for (const auto& [expr, name] : bin->lowered_names) lowered.push_back(name);
  return lowered;
}

int64_t max_cooperative_blocks(const UserFunction& f, int64_t block_threads, size_t dynamic_shared) {
  if (block_threads > f.attributes.max_threads_per_block) return 0;  // not launchable at all
  cuda::activate(f.device);
  int per_sm = 0;
  LOOM_CU_CHECK(cuda::driver().cuOccupancyMaxActiveBlocksPerMultiprocessor(
      &per_sm, static_cast<CUfunction>(f.function), static_cast<int>(block_threads), dynamic_shared));
  return int64_t{per_sm} * f.limits->multiprocessors;
}

std::string user_module_ptx(const ModuleState& m, int arch) {
  cuda::CompiledProgram c =
      cuda::compile_program(gpu_module(m).program, arch > 0 ? arch : cuda::oldest_supported_arch(), true);
  if (!c.image.empty() && c.image.back() == '\0') c.image.pop_back();
  return std::move(c.image);
}

void launch_user(const UserFunction& f, const char* name, Dim3 grid, Dim3 block, size_t shared_mem,
                 void* stream, void** params) {
  const cuda::DriverApi& api = cuda::driver();
  auto fn = static_cast<CUfunction>(f.function);
  cuda::activate(f.device);
  if (shared_mem > f.dynamic_shared_set.load(std::memory_order_relaxed)) {
    // Above 48 KiB a kernel must opt in (CUDA's rule); loom does it for the user.
    LOOM_CU_CHECK(api.cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                         static_cast<int>(shared_mem)));
    f.dynamic_shared_set.store(shared_mem, std::memory_order_relaxed);
  }
  cuda::set_last_kernel(f.device, name);
  if (f.cooperative) {
    // Every block resident at once, or CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE: grid.sync() needs it.
    const CUresult r = api.cuLaunchCooperativeKernel(fn, grid.x, grid.y, grid.z, block.x, block.y, block.z,
                                                     static_cast<unsigned>(shared_mem), static_cast<CUstream>(stream),
                                                     params);
    if (r == CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE)
      throw std::invalid_argument(std::string("[RawKernel ") + name + "] a cooperative launch (the kernel's module "
                                  "names this_grid) of " + std::to_string(grid.count()) + " blocks: more than the GPU "
                                  "keeps resident at once (" + std::to_string(max_cooperative_blocks(
                                      f, static_cast<int64_t>(block.count()), shared_mem)) +
                                  " blocks of this size; max_cooperative_blocks() says)");
    LOOM_CU_CHECK(r);
    return;
  }
  LOOM_CU_CHECK(api.cuLaunchKernel(fn, grid.x, grid.y, grid.z, block.x, block.y, block.z,
                                   static_cast<unsigned>(shared_mem), static_cast<CUstream>(stream),
                                   params, nullptr));
}

void copy_device_bytes(int device, void* dst, const void* src, size_t nbytes, void* stream) {
  cuda::activate(device);
  LOOM_CUDA_CHECK(cudaMemcpyAsync(dst, src, nbytes, cudaMemcpyDeviceToDevice, static_cast<cudaStream_t>(stream)));
}

void copy_host_to_device(int device, void* dst, const void* src, size_t nbytes) {
  cuda::activate(device);
  void* stream = cuda::current_stream(device);
  LOOM_CUDA_CHECK(cudaMemcpyAsync(dst, src, nbytes, cudaMemcpyHostToDevice, static_cast<cudaStream_t>(stream)));
  LOOM_CUDA_CHECK(cudaStreamSynchronize(static_cast<cudaStream_t>(stream)));
}

void copy_device_to_host(int device, void* dst, const void* src, size_t nbytes) {
  cuda::activate(device);
  void* stream = cuda::current_stream(device);
  LOOM_CUDA_CHECK(cudaMemcpyAsync(dst, src, nbytes, cudaMemcpyDeviceToHost, static_cast<cudaStream_t>(stream)));
  LOOM_CUDA_CHECK(cudaStreamSynchronize(static_cast<cudaStream_t>(stream)));
}

}  // namespace loom::kernel_cuda
