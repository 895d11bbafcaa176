// Kernels written by users in CUDA C (DESIGN.md §4): a RawModule is source compiled at
// run time (NVRTC, for the exact architecture of each device it runs on, through the one
// compile cache); a Kernel is one of its functions, launched with its arguments checked
// against the compiled parameter list (count and byte sizes) and the device's limits.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "loom/array/array.h"
#include "loom/runtime/device.h"
#include "loom/core/scalar.h"
#include "loom/runtime/stream.h"

namespace loom {

/// A grid or block shape; unused dimensions are 1.
struct Dim3 {
  unsigned x = 1, y = 1, z = 1;
  Dim3() = default;
  Dim3(unsigned x_, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
  uint64_t count() const { return uint64_t{x} * y * z; }
  bool operator==(const Dim3& o) const { return x == o.x && y == o.y && z == o.z; }
  std::string str() const;  // "(4, 4, 1)"
};

/// One argument of a launch.
class KernelArg {
 public:
  /// How each kind meets a parameter whose C type loom read from the source (or from the
  /// lowered name; loom/kernel/param_types.h): an array must have the pointer's element
  /// dtype (void*, char*, unsigned char* take any); a scalar is converted to the
  /// parameter's type by NumPy's rules (a Python-like scalar as a weak one: an int becomes
  /// a float, a float for an integer parameter is a TypeError; a typed scalar by
  /// same_kind casting), an integer that does not fit is an OverflowError; a pointer or an
  /// array for a number, or a number for a pointer, is a TypeError. Parameters of unknown
  /// type (structs, typedefs, macros) take arguments by size, as noted per kind.
  enum class Kind : uint8_t {
    array,    // an Array: its data pointer, after checking it lives on the kernel's device
    pointer,  // a raw pointer: on `device` (loom.driver.mem_alloc), or an address of no known device
    scalar,   // a Python-like scalar, or a typed one (a NumPy scalar): unknown parameters take
              // Python-like ones at their size (int 1/2/4/8 bytes, float 2/4/8 bytes) and
              // typed ones at exactly their dtype's size
    bytes,    // exact bytes (a struct): the parameter must be that size; opaque bytes (a
              // complex number) only go to parameters of unknown type
  };
  KernelArg(const Array& a) : kind_(Kind::array), array_(a) {}  // NOLINT: implicit on purpose
  KernelArg(const Scalar& s) : kind_(Kind::scalar), scalar_(s) {}  // NOLINT
  /// A scalar of dtype `dt` (a NumPy scalar): converted by same_kind casting.
  KernelArg(const Scalar& s, DType dt) : kind_(Kind::scalar), scalar_(s), typed_(true), dtype_(dt) {}
  /// An array argument that refers to `a` instead of copying it (no shape copies, no
  /// reference count traffic): `a` must outlive the launch() call. Bindings use it.
  static KernelArg borrowed(const Array& a);
  static KernelArg pointer(void* p, const Device& device, size_t nbytes = 0);
  /// A raw address of unknown device and size (Python's ctypes.c_void_p escape hatch): it
  /// does not choose the launch's device; pointer parameters take it unchecked.
  static KernelArg address(void* p);
  /// `type_name` (e.g. "float32") only appears in messages.
  static KernelArg bytes(const void* data, size_t nbytes, std::string type_name);
  /// Bytes of a value loom cannot convert (a complex or structured NumPy scalar): only
  /// parameters of unknown type of exactly that size take them.
  static KernelArg opaque(const void* data, size_t nbytes, std::string type_name);
  /// A complex number (a Python complex, a NumPy complex64/complex128 scalar) as its bytes in
  /// `dt`, complex64 or complex128: opaque bytes that complex parameters also take, converted
  /// between the two precisions (typed() is true and dtype() is `dt`).
  static KernelArg complex_value(const void* data, DType dt, std::string type_name);

  Kind kind() const { return kind_; }
  const Array& array() const { return borrowed_ ? *borrowed_ : array_; }
  const Scalar& scalar() const { return scalar_; }
  bool typed() const { return typed_; }  // a scalar with a dtype, or a complex_value
  DType dtype() const { return dtype_; }
  void* pointer_value() const { return ptr_; }
  bool pointer_has_device() const { return ptr_has_device_; }
  const Device& pointer_device() const { return ptr_device_; }
  size_t pointer_nbytes() const { return ptr_nbytes_; }
  const std::string& bytes_value() const { return bytes_; }
  bool is_opaque() const { return opaque_; }
  const std::string& type_name() const { return type_name_; }
  /// "float32 array", "Python int", "float64 scalar", "device pointer": for messages.
  std::string describe() const;

 private:
  KernelArg() = default;
  Kind kind_ = Kind::scalar;
  Array array_;
  const Array* borrowed_ = nullptr;
  Scalar scalar_;
  bool typed_ = false, opaque_ = false, ptr_has_device_ = true;
  DType dtype_ = DType::float64;
  void* ptr_ = nullptr;
  Device ptr_device_;
  size_t ptr_nbytes_ = 0;
  std::string bytes_, type_name_;
};

/// How to launch. With `auto_block`, `grid` is the number of threads wanted in each
/// dimension (the problem's extent): loom picks the block by timing candidates on first
/// use (loom/kernel/autotune.h) and launches ceil(extent / block) blocks.
struct LaunchConfig {
  Dim3 grid, block;
  size_t shared_mem = 0;           // dynamic shared memory, bytes
  const Stream* stream = nullptr;  // nullptr: the current stream of the kernel's device
  bool auto_block = false;
  /// CPU kernel emulator only (ignored on a GPU): debug mode, as LOOM_EMULATOR_DEBUG=1 does
  /// for every launch. Threads run in a random order between barriers, shared memory starts
  /// as junk (NaN floats, -1 ints) and an access outside a loom array through a pointer
  /// parameter raises std::out_of_range with the source line (kernel/emulator/emulator.h).
  bool debug = false;
};

/// A `__device__` or `__constant__` variable of a loaded module (PyCUDA's get_global).
struct ModuleGlobal {
  void* address = nullptr;  // device memory on a GPU; host memory on cpu() (the emulator's library)
  size_t nbytes = 0;
};

/// What the compiled kernel needs and allows on one device.
struct KernelAttributes {
  int max_threads_per_block = 0;
  int num_regs = 0;
  size_t static_shared_bytes = 0;
  size_t max_dynamic_shared_bytes = 0;  // what a launch may ask for (the device's opt-in limit)
  size_t local_size_bytes = 0;          // local memory per thread (cpu(): its stack need)
  size_t const_size_bytes = 0;          // __constant__ memory
  int ptx_version = 0, binary_version = 0;  // compute capability * 10 (0 on cpu())
  std::vector<size_t> param_sizes;      // bytes of each parameter, in order
};

struct ModuleState;
class Kernel;
namespace kernel_cuda {
struct UserFunction;
void launch_kernel(const Kernel& k, const Device& device, const LaunchConfig& cfg, const std::vector<KernelArg>& args);
}  // namespace kernel_cuda

/// One function of a RawModule. Cheap to copy.
class Kernel {
 public:
  /// The name it was looked up by (a name expression for templates).
  const std::string& name() const { return name_; }
  /// Launches on the device its array arguments live on (all must agree: else
  /// DeviceMismatchError), else the stream's device, else the default device. Raises
  /// TypeError for a wrong argument count, size or type (naming the parameter; KernelArg
  /// says how arguments meet parameter types), OverflowError for an integer the
  /// parameter's type cannot hold, and ValueError
  /// for a configuration the device cannot run (saying the limit), before launching.
  /// Asynchronous on the GPU, like every op. On CPU arrays the CPU kernel emulator
  /// (kernel/emulator) compiles the source with the host compiler and runs it,
  /// synchronously; a CUDA feature it lacks raises UnsupportedError naming it and the line.
  void launch(const LaunchConfig& cfg, const std::vector<KernelArg>& args) const;
  /// Compiles and loads it on `device` if needed. On cpu(), the CPU kernel emulator's
  /// limits and what it knows of the compiled kernel (emulator.h).
  KernelAttributes attributes(const Device& device) const;
  /// Whether its module names cooperative groups' this_grid: launched cooperatively (all
  /// blocks resident, so grid.sync() can complete).
  bool cooperative() const;
  /// The most blocks of `block_threads` threads (and `dynamic_shared` bytes) a cooperative
  /// launch of it may have on `device`: all resident at once (Numba's
  /// max_cooperative_grid_blocks). On a GPU from the occupancy calculator, on cpu() the
  /// emulator's limit.
  int64_t max_cooperative_blocks(const Device& device, int64_t block_threads, size_t dynamic_shared = 0) const;
  /// What loom knows of each parameter's C type, read from the source: "pointer", "scalar",
  /// "view" (a LoomArray) or "unknown" (a struct, a typedef, a macro); empty when the
  /// parameter list itself cannot be told (PyCUDA's driver layer turns integers into
  /// addresses for the pointer ones).
  std::vector<std::string> param_kinds() const;
  /// The module this kernel belongs to.
  const std::shared_ptr<ModuleState>& module() const { return module_; }

 private:
  friend class RawModule;
  friend void kernel_cuda::launch_kernel(const Kernel&, const Device&, const LaunchConfig&,
                                         const std::vector<KernelArg>&);
  const kernel_cuda::UserFunction& function_on(int device) const;  // kernel/cuda/launch.cpp
  Kernel(std::shared_ptr<ModuleState> m, std::string name);
  std::shared_ptr<ModuleState> module_;
  std::string name_;
  std::shared_ptr<struct KernelFunctionCache> functions_;  // loaded function per GPU: no lookup per launch
};

/// How NVRTC reads the source: kFull for users (all of CUDA C++); kMinimal adds NVRTC's
/// --minimal (no textures, device runtime or runtime types), ~15% faster to compile, for
/// loom's generated kernels (ElementwiseKernel, ReductionKernel).
enum class SourceDialect { kFull, kMinimal };

/// CUDA C++ source compiled on first use on each device. `name_expressions` name template
/// instantiations ("my_kernel<float, 4>") to export besides extern "C" functions.
class RawModule {
 public:
  explicit RawModule(std::string code, std::vector<std::string> options = {},
                     std::vector<std::string> name_expressions = {},
                     SourceDialect dialect = SourceDialect::kFull);
  /// The function `name`: an extern "C" name or one of the name expressions. With
  /// `compile_now` the module is compiled for the default device (NVRTC on a GPU, the host
  /// compiler for the CPU kernel emulator) and a missing name raises ValueError now (as in
  /// CuPy and PyCUDA); otherwise both happen at the first launch (or compile()).
  Kernel get_function(const std::string& name, bool compile_now = true) const;
  /// Compiles now for compute capability `arch` (e.g. 90) without needing a GPU: warms the
  /// caches and raises CompileError on bad source. Returns the lowered (mangled) name of
  /// each name expression, in order.
  std::vector<std::string> compile(int arch) const;
  /// The module's PTX for virtual architecture compute_`arch` (0: the oldest NVRTC knows,
  /// portable to every newer GPU), compiled now without a GPU; for reading (Numba's
  /// inspect_asm and compile_ptx), not cached. Raises CompileError on bad source.
  std::string ptx(int arch = 0) const;
  /// The address and size of the module's variable `name` on `device` (a `__device__` or
  /// `__constant__` variable at namespace scope, by its unmangled name), compiling and
  /// loading the module there if needed; ValueError when there is none. A GPU address
  /// (cuModuleGetGlobal) or, on cpu(), one in the emulator's library. Modules of the same
  /// source and options share one loaded module per device, so they share its variables.
  ModuleGlobal get_global(const std::string& name, const Device& device) const;
  const std::string& code() const;
  const std::vector<std::string>& options() const;
  const std::vector<std::string>& name_expressions() const;
  const std::shared_ptr<ModuleState>& state() const { return state_; }

 private:
  std::shared_ptr<ModuleState> state_;
};

}  // namespace loom
