#include "loom/kernel/raw_module.h"

#include <cstring>
#include <stdexcept>

#include "loom/core/error.h"
#include "loom/kernel/gpu_kernel.h"
#include "loom/kernel/kernel_args.h"
#include "loom/kernel/kernel_backend.h"
#include "loom/kernel/module_state.h"
#include "loom/runtime/device.h"

namespace loom {
namespace {

// Whether `code` names `id` as an identifier (not inside a longer name).
bool names_identifier(const std::string& code, const std::string& id) {
  auto ident = [](char c) { return isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (size_t p = code.find(id); p != std::string::npos; p = code.find(id, p + 1))
    if ((p == 0 || !ident(code[p - 1])) && (p + id.size() == code.size() || !ident(code[p + id.size()])))
      return true;
  return false;
}

}  // namespace

std::string Dim3::str() const {
  return "(" + std::to_string(x) + ", " + std::to_string(y) + ", " + std::to_string(z) + ")";
}

KernelArg KernelArg::borrowed(const Array& a) {
  KernelArg k;
  k.kind_ = Kind::array;
  k.borrowed_ = &a;
  return k;
}

KernelArg KernelArg::pointer(void* p, const Device& device, size_t nbytes) {
  KernelArg a;
  a.kind_ = Kind::pointer;
  a.ptr_ = p;
  a.ptr_device_ = device;
  a.ptr_nbytes_ = nbytes;
  return a;
}

KernelArg KernelArg::bytes(const void* data, size_t nbytes, std::string type_name) {
  KernelArg a;
  a.kind_ = Kind::bytes;
  a.bytes_.assign(static_cast<const char*>(data), nbytes);
  a.type_name_ = std::move(type_name);
  return a;
}

KernelArg KernelArg::opaque(const void* data, size_t nbytes, std::string type_name) {
  KernelArg a = bytes(data, nbytes, std::move(type_name));
  a.opaque_ = true;
  return a;
}

KernelArg KernelArg::complex_value(const void* data, DType dt, std::string type_name) {
  KernelArg a = opaque(data, itemsize(dt), std::move(type_name));
  a.typed_ = true;
  a.dtype_ = dt;
  return a;
}

KernelArg KernelArg::address(void* p) {
  KernelArg a;
  a.kind_ = Kind::pointer;
  a.ptr_ = p;
  a.ptr_has_device_ = false;
  return a;
}

std::string KernelArg::describe() const {
  switch (kind_) {
    case Kind::array: return std::string(dtype_name(array().dtype())) + " array";
    case Kind::pointer: return ptr_has_device_ ? "device pointer (8 bytes)" : "raw address (8 bytes)";
    case Kind::bytes: return type_name_ + " (" + std::to_string(bytes_.size()) + " bytes)";
    case Kind::scalar:
      if (typed_) return std::string(dtype_name(dtype_)) + " scalar";
      switch (scalar_.kind) {
        case Scalar::Kind::boolean: return "Python bool";
        case Scalar::Kind::float_: return "Python float";
        default: return "Python int";
      }
  }
  return "argument";
}

RawModule::RawModule(std::string code, std::vector<std::string> options,
                     std::vector<std::string> name_expressions, SourceDialect dialect)
    : state_(std::make_shared<ModuleState>()) {
  if (code.empty()) throw std::invalid_argument("[RawModule] the source code is empty");
  for (const auto& n : name_expressions)
    if (n.empty()) throw std::invalid_argument("[RawModule] a name expression is empty");
  KeyBuilder k;
  k.add(std::string_view("loom-user-module")).add(std::string_view(code));
  k.add(int64_t{dialect == SourceDialect::kMinimal}).add(static_cast<int64_t>(options.size()));
  for (const auto& o : options) k.add(std::string_view(o));
  k.add(static_cast<int64_t>(name_expressions.size()));
  for (const auto& n : name_expressions) k.add(std::string_view(n));
  state_->key = k.finish();
  state_->code = std::move(code);
  state_->options = std::move(options);
  state_->name_expressions = std::move(name_expressions);
  state_->dialect = dialect;
  state_->cooperative = names_identifier(state_->code, "this_grid");
}

Kernel RawModule::get_function(const std::string& name, bool compile_now) const {
  if (name.empty()) throw std::invalid_argument("[RawModule.get_function] the kernel name is empty");
  // Compile and look the name up now, so a typo fails here, as in CuPy and PyCUDA: on the
  // default GPU, or with the CPU kernel emulator when the default device is the CPU.
  if (compile_now) {
    const Device d = default_device();
    kernel_backend(d).prepare(*state_, d, name);
  }
  return Kernel(state_, name);
}

std::vector<std::string> RawModule::compile(int arch) const {
  if (arch < 10 || arch > 999)
    throw std::invalid_argument("[RawModule.compile] arch " + std::to_string(arch) +
                                " is not a compute capability such as 80 or 90");
  return kernel_cuda::compile_user_module(*state_, arch);
}

std::string RawModule::ptx(int arch) const {
  if (arch != 0 && (arch < 10 || arch > 999))
    throw std::invalid_argument("[RawModule.ptx] arch " + std::to_string(arch) +
                                " is not a compute capability such as 80 or 90");
  return kernel_cuda::user_module_ptx(*state_, arch);
}

ModuleGlobal RawModule::get_global(const std::string& name, const Device& device) const {
  if (name.empty()) throw std::invalid_argument("[RawModule.get_global] the variable name is empty");
  check_device_present(device);
  return kernel_backend(device).global(*state_, device, name);
}

const std::string& RawModule::code() const { return state_->code; }
const std::vector<std::string>& RawModule::options() const { return state_->options; }
const std::vector<std::string>& RawModule::name_expressions() const { return state_->name_expressions; }

Kernel::Kernel(std::shared_ptr<ModuleState> m, std::string name)
    : module_(std::move(m)), name_(std::move(name)), functions_(std::make_shared<KernelFunctionCache>()) {}

bool Kernel::cooperative() const { return module_->cooperative; }

int64_t Kernel::max_cooperative_blocks(const Device& device, int64_t block_threads, size_t dynamic_shared) const {
  check_device_present(device);
  if (block_threads < 1)
    throw std::invalid_argument("[RawKernel.max_cooperative_blocks] a block has at least 1 thread, not " +
                                std::to_string(block_threads));
  return kernel_backend(device).max_cooperative_blocks(*module_, device, name_, block_threads, dynamic_shared);
}

std::vector<std::string> Kernel::param_kinds() const {
  std::vector<std::string> out;
  const auto types = kernel_detail::source_types(*module_, name_);
  if (!types) return out;
  for (const ParamType& p : types->params) {
    switch (p.kind) {
      case ParamType::Kind::pointer: out.emplace_back("pointer"); break;
      case ParamType::Kind::scalar: out.emplace_back("scalar"); break;
      case ParamType::Kind::view: out.emplace_back("view"); break;
      default: out.emplace_back("unknown");
    }
  }
  return out;
}

KernelAttributes Kernel::attributes(const Device& device) const {
  check_device_present(device);  // an absent GPU is named as such, with or without CUDA
  return kernel_backend(device).attributes(*module_, device, name_);
}

}  // namespace loom
