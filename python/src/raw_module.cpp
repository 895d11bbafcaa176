// loom.RawModule, loom.RawKernel, loom.SourceModule (DESIGN.md §4, API.md "Kernels from
// CUDA C source") and the three launch forms: CuPy's k(grid, block, args), PyCUDA's
// k(*args, grid=, block=) and Numba's k[grid, block](*args).
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <chrono>

#include "bindings.h"
#include "kernel_args.h"
#include "launch_config.h"
#include "loom/kernel/gpu_kernel.h"
#include "loom/kernel/kernel_args.h"
#include "loom/kernel/module_state.h"
#include "loom/kernel/raw_module.h"

namespace loom::py {
namespace {

struct PyModule {
  RawModule module;
};
struct PySourceModule : PyModule {};
// k[grid, block, stream, shared_mem]: a kernel with its launch configuration.
struct ConfiguredKernel {
  Kernel kernel;
  LaunchConfig cfg;
  std::optional<Stream> stream;
};

std::vector<nb::handle> handles(const nb::tuple& args) {
  std::vector<nb::handle> hs(args.size());
  for (size_t i = 0; i < hs.size(); ++i) hs[i] = args[i];
  return hs;
}

// bool(value), raising what __bool__ raised.
bool truth(nb::handle value) {
  const int r = PyObject_IsTrue(value.ptr());
  if (r < 0) throw nb::python_error();
  return r == 1;
}

// k(grid, block, args, shared_mem=0, stream=None, debug=False), CuPy's keyword forms of it
// (k(grid, block, args=...), k(grid=..., block=..., args=...)), or PyCUDA's k(*args, grid=(1, 1),
// block=..., shared=0, stream=None, debug=False). `args` is the call's tuple, `kwargs` its
// dict or null (then no keyword is looked at).
void call(const PyKernel& k, nb::handle args_tuple, PyObject* kwargs) {
  const nb::tuple args = nb::borrow<nb::tuple>(args_tuple);
  LaunchConfig cfg;
  std::optional<Stream> stream;
  const bool has_kwargs = kwargs && PyDict_GET_SIZE(kwargs) != 0;
  PyObject* const kw_args = has_kwargs ? PyDict_GetItemString(kwargs, "args") : nullptr;
  const bool kw_grid = has_kwargs && PyDict_GetItemString(kwargs, "grid");
  const bool kw_block = has_kwargs && PyDict_GetItemString(kwargs, "block");
  const bool pycuda = !kw_args && (kw_grid || kw_block);
  if (has_kwargs) {
    for (auto [key, value] : nb::borrow<nb::dict>(kwargs)) {
      const std::string name = nb::cast<std::string>(key);
      if (name == "grid") cfg.grid = to_dim3(value, "grid");
      else if (name == "block") set_block(cfg, value);
      else if (name == "shared_mem" || name == "shared") cfg.shared_mem = to_shared(value);
      else if (name == "stream") cfg.stream = to_stream(value, stream);
      else if (name == "debug") cfg.debug = truth(value);
      else if (name == "args") continue;  // CuPy's keyword form, below
      // CuPy's flag: loom launches a kernel cooperatively when its module names this_grid.
      else if (name == "enable_cooperative_groups") continue;
      else throw DTypeError("[RawKernel " + k.kernel.name() + "] unexpected keyword argument '" + name + "'");
    }
  }
  if (pycuda) {
    if (!kw_block) throw DTypeError("[RawKernel " + k.kernel.name() + "] the keyword form needs block=");
    std::vector<nb::handle> hs = handles(args);
    run(k.kernel, cfg, hs.data(), hs.size());
    return;
  }
  nb::handle kernel_args;
  if (kw_args) {  // k(grid, block, args=...) or k(grid=..., block=..., args=...)
    if (args.size() > 2 || (args.size() >= 1 && kw_grid) || (args.size() == 2 && kw_block))
      throw DTypeError("[RawKernel " + k.kernel.name() + "] grid and block are given twice");
    if (args.size() + kw_grid + kw_block != 2)
      throw DTypeError("[RawKernel " + k.kernel.name() + "] k(grid, block, args=...) needs grid and block");
    if (args.size() >= 1) cfg.grid = to_dim3(args[0], "grid");
    if (args.size() == 2) set_block(cfg, args[1]);
    kernel_args = kw_args;
  } else {
    if (args.size() != 3)
      throw DTypeError("[RawKernel " + k.kernel.name() +
                       "] call it as k(grid, block, args) with args a tuple, as k(*args, grid=..., "
                       "block=...), or as k[grid, block](*args)");
    cfg.grid = to_dim3(args[0], "grid");
    set_block(cfg, args[1]);
    kernel_args = args[2];
  }
  if (!(PyTuple_Check(kernel_args.ptr()) || PyList_Check(kernel_args.ptr())))
    throw DTypeError("[RawKernel " + k.kernel.name() + "] args must be a tuple or a list of the kernel's arguments");
  // A tuple of our own: array arguments are borrowed while the GIL is released, so no
  // other thread may drop them from a list the caller passed.
  nb::tuple t = PyTuple_Check(kernel_args.ptr()) ? nb::borrow<nb::tuple>(kernel_args)
                                                 : nb::steal<nb::tuple>(PySequence_Tuple(kernel_args.ptr()));
  std::vector<nb::handle> hs(t.size());
  for (size_t i = 0; i < hs.size(); ++i) hs[i] = t[i];
  run(k.kernel, cfg, hs.data(), hs.size());
}

// Per-launch microseconds of a C++ loop, then a wait for the GPU: with `bare`, the driver
// alone (cuLaunchKernel, arguments packed once); else loom's Kernel::launch (every check).
// bench/kernels.py prints both beside the Python launch, so each layer's cost is visible.
double launch_floor_us(const PyKernel& k, nb::handle grid, nb::handle block, nb::sequence args, int calls,
                       bool bare) {
  LaunchConfig cfg;
  cfg.grid = to_dim3(grid, "grid");
  cfg.block = to_dim3(block, "block");
  nb::tuple t = nb::steal<nb::tuple>(PySequence_Tuple(args.ptr()));  // held: arrays are borrowed
  std::vector<nb::handle> hs(t.size());
  for (size_t i = 0; i < hs.size(); ++i) hs[i] = t[i];
  ConvertedArgs converted(k.kernel.name(), hs.data(), hs.size(), nullptr);
  k.kernel.launch(cfg, converted.args());  // compiles, loads and checks everything once
  int dev = -1;
  for (const KernelArg& a : converted.args())
    if (a.kind() == KernelArg::Kind::array) dev = a.array().device().index;
  if (dev < 0 || !default_device().is_gpu()) throw std::invalid_argument("[RawKernel] the floor needs an array on a GPU");
  nb::gil_scoped_release unlocked;
  const auto& f = kernel_cuda::user_function(*k.kernel.module(), dev, k.kernel.name());
  kernel_detail::PackedArgs packed(k.kernel.name(), converted.args(), f.attributes.param_sizes, f.params_known,
                                   f.param_types.get());
  void* stream = Stream::current_native(dev);
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < calls; ++i) {
    if (bare) kernel_cuda::launch_user(f, "floor", cfg.grid, cfg.block, 0, stream, packed.pointers());
    else k.kernel.launch(cfg, converted.args());
  }
  Stream::current(gpu(dev)).synchronize();
  const std::chrono::duration<double, std::micro> dt = std::chrono::steady_clock::now() - t0;
  return dt.count() / calls;
}

nb::dict attributes_dict(const PyKernel& k, nb::handle device) {
  const Device d = device.is_none() ? default_device() : to_device(device);
  const KernelAttributes a = k.kernel.attributes(d);
  nb::dict out;
  out["max_threads_per_block"] = a.max_threads_per_block;
  out["num_regs"] = a.num_regs;
  out["shared_size_bytes"] = a.static_shared_bytes;
  out["max_dynamic_shared_size_bytes"] = a.max_dynamic_shared_bytes;
  out["local_size_bytes"] = a.local_size_bytes;
  out["const_size_bytes"] = a.const_size_bytes;
  out["ptx_version"] = a.ptx_version;
  out["binary_version"] = a.binary_version;
  out["param_sizes"] = nb::cast(a.param_sizes);
  return out;
}

std::vector<std::string> to_strings(nb::handle h, const char* what) {
  std::vector<std::string> out;
  if (h.is_none()) return out;
  if (PyUnicode_Check(h.ptr())) throw DTypeError(std::string("[RawModule] ") + what + " must be a sequence of strings, not a string");
  for (nb::handle v : nb::iter(h)) out.push_back(nb::cast<std::string>(nb::str(v)));
  return out;
}

std::vector<std::string> compile_for(const RawModule& m, nb::handle arch) {
  if (!arch.is_none()) return m.compile(nb::cast<int>(arch));
  const Device d = default_device();
  if (!d.is_gpu())
    throw std::invalid_argument("[RawModule.compile] no GPU to compile for: pass arch= (e.g. 90)");
  const DeviceProperties p = properties(d);
  return m.compile(p.compute_capability_major * 10 + p.compute_capability_minor);
}

// PTX for `arch`, or for the default GPU, or (no GPU) the oldest arch NVRTC knows.
std::string ptx_for(const RawModule& m, nb::handle arch) {
  if (!arch.is_none()) return m.ptx(nb::cast<int>(arch));
  const Device d = default_device();
  if (!d.is_gpu()) return m.ptx(0);
  const DeviceProperties p = properties(d);
  return m.ptx(p.compute_capability_major * 10 + p.compute_capability_minor);
}

// PyCUDA's SourceModule wraps the source in extern "C" so plain __global__ names are found.
std::string pycuda_source(const std::string& code, bool no_extern_c) {
  // On the first line when it can be (keeps the compiler's line numbers the user's); a
  // first line that is a preprocessor directive must start its own line.
  if (no_extern_c) return code;
  const size_t first = code.find_first_not_of(" \t");
  const bool directive_first = first != std::string::npos && code[first] == '#';
  return std::string("extern \"C\" {") + (directive_first ? "\n" : " ") + code + "\n}\n";
}

// Launches go through the types' tp_call slots: CPython calls them directly, skipping the
// generic `__call__` slot wrapper (a method lookup per call) and nanobind's dispatcher;
// this is most of a Python launch's cost above the driver's.
PyObject* kernel_tp_call(PyObject* self, PyObject* args, PyObject* kwargs) {
  try {
    call(*nb::inst_ptr<PyKernel>(self), args, kwargs);
    Py_RETURN_NONE;
  } catch (...) {
    set_python_error(std::current_exception());
    return nullptr;
  }
}

PyObject* configured_tp_call(PyObject* self, PyObject* args, PyObject* kwargs) {
  try {
    if (kwargs && PyDict_GET_SIZE(kwargs) != 0)
      throw DTypeError("[RawKernel] k[grid, block](*args) takes no keyword arguments");
    const ConfiguredKernel& c = *nb::inst_ptr<ConfiguredKernel>(self);
    std::vector<nb::handle> hs = handles(nb::borrow<nb::tuple>(args));
    LaunchConfig cfg = c.cfg;
    cfg.stream = c.stream ? &*c.stream : nullptr;  // the struct was moved: point at its own copy
    run(c.kernel, cfg, hs.data(), hs.size());
    Py_RETURN_NONE;
  } catch (...) {
    set_python_error(std::current_exception());
    return nullptr;
  }
}

PyType_Slot kernel_slots[] = {{Py_tp_call, reinterpret_cast<void*>(&kernel_tp_call)}, {0, nullptr}};
PyType_Slot configured_slots[] = {{Py_tp_call, reinterpret_cast<void*>(&configured_tp_call)}, {0, nullptr}};

}  // namespace

LOOM_BINDING_FAMILY(raw_module, 55) {
  init_kernel_args(m);
  nb::class_<PyKernel>(m, "RawKernel", nb::type_slots(kernel_slots),
                       "A CUDA C kernel compiled at run time by NVRTC for the exact architecture of each "
                       "GPU it runs on, cached in memory and on disk. Launch it as k(grid, block, args, "
                       "shared_mem=0, stream=None, debug=False), k(*args, grid=(1, 1), block=(x, y, z), "
                       "shared=0, stream=None, debug=False) or k[grid, block](*args). block=\"auto\" times "
                       "candidate blocks on first use (grid then means the number of threads wanted per "
                       "dimension). Arguments meet the parameters' C types (read from the source or the lowered name): "
                       "Python numbers convert by NumPy's rules (2 for a float parameter is 2.0f; 2.5 for an int one is "
                       "a TypeError), NumPy scalars by same_kind casting, arrays must have the pointer's element dtype "
                       "(void*, char*, unsigned char* take any), and raw addresses pass only as loom.driver allocations "
                       "or ctypes.c_void_p. debug=True (CPU kernel emulator only; it does nothing on a GPU) runs the "
                       "launch in the emulator's debug mode, as LOOM_EMULATOR_DEBUG=1 does for every launch: "
                       "threads run in a random order between barriers, shared memory starts as junk (NaN, "
                       "-1) and an access outside a loom array through a pointer parameter raises IndexError "
                       "naming the source line, the argument, the thread and the block.")
      .def("__init__",
           [](PyKernel* self, const std::string& code, const std::string& name, nb::handle options) {
             RawModule mod(code, to_strings(options, "options"));
             new (self) PyKernel{mod.get_function(name, false), mod};
           },
           nb::arg("code"), nb::arg("name"), nb::arg("options") = nb::tuple(),
           "Kernel `name` (an extern \"C\" function) of CUDA C++ `code`, compiled on first launch.")
      .def("__getitem__",
           [](nb::handle self, nb::handle config) -> nb::object {
             PyKernel* pk = nb::inst_ptr<PyKernel>(self);
             if (pk->last_config.is_valid() && pk->last_config.equal(config)) return pk->last_launcher;
             nb::tuple t = PyTuple_Check(config.ptr()) ? nb::borrow<nb::tuple>(config) : nb::make_tuple(config);
             if (t.size() < 2 || t.size() > 4)
               throw DTypeError("[RawKernel] use k[grid, block] or k[grid, block, stream, shared_mem]");
             ConfiguredKernel c{pk->kernel, {}, {}};
             c.cfg.grid = to_dim3(t[0], "grid");
             set_block(c.cfg, t[1]);
             if (t.size() > 2) c.cfg.stream = to_numba_stream(t[2], c.stream);
             if (t.size() > 3) c.cfg.shared_mem = to_shared(t[3]);
             const bool has_stream = c.cfg.stream != nullptr;
             nb::object launcher = nb::cast(std::move(c));
             if (!has_stream) {  // a launcher with a stream would keep the stream alive
               pk->last_config = nb::borrow(config);
               pk->last_launcher = launcher;
             }
             return launcher;
           },
           nb::arg("config"), "k[grid, block] or k[grid, block, stream, shared_mem] (Numba's form).")
      .def("_launch_floor_us", &launch_floor_us, nb::arg("grid"), nb::arg("block"), nb::arg("args"),
           nb::arg("calls"), nb::arg("bare") = true,
           "Benchmarks only: microseconds per launch from a C++ loop, bare cuLaunchKernel or Kernel::launch.")
      .def("compile", [](const PyKernel& k, nb::handle arch) { compile_for(k.module, arch); },
           nb::arg("arch") = nb::none(),
           "Compiles now, for compute capability `arch` (e.g. 90; no GPU needed) or the default GPU.")
      .def("ptx", [](const PyKernel& k, nb::handle arch) { return ptx_for(k.module, arch); },
           nb::arg("arch") = nb::none(),
           "The module's PTX for compute_`arch` (default: the default GPU's; without one, the "
           "oldest architecture NVRTC knows, which every newer GPU runs). Compiled now by NVRTC, "
           "no GPU needed; for reading: launches use the CUBIN.")
      .def_prop_ro("name", [](const PyKernel& k) { return k.kernel.name(); }, "The kernel's name.")
      .def_prop_ro("code", [](const PyKernel& k) { return k.module.code(); }, "The CUDA C++ source.")
      .def_prop_ro("options", [](const PyKernel& k) { return k.module.options(); }, "The NVRTC options.")
      .def("attributes", &attributes_dict, nb::arg("device") = nb::none(),
           "Compiled facts on `device` (default device; cpu(): the kernel emulator's): "
           "max_threads_per_block, num_regs, shared_size_bytes, max_dynamic_shared_size_bytes, "
           "local_size_bytes, const_size_bytes, ptx_version, binary_version, param_sizes.")
      .def_prop_ro("param_kinds", [](const PyKernel& k) { return k.kernel.param_kinds(); },
                   "What loom read of each parameter's C type: 'pointer', 'scalar', 'view' or 'unknown' "
                   "(a struct, typedef or macro); empty when the parameter list cannot be told.")
      .def_prop_ro("cooperative", [](const PyKernel& k) { return k.kernel.cooperative(); },
                   "Whether it launches cooperatively: its module names cooperative groups' this_grid, so "
                   "every block is resident at once and grid.sync() can complete (on cpu(), every block "
                   "runs at once).")
      .def("max_cooperative_blocks",
           [](const PyKernel& k, nb::handle block, size_t shared_mem, nb::handle device) {
             const Dim3 b = to_dim3(block, "block", "[RawKernel.max_cooperative_blocks]");
             const Device d = device.is_none() ? default_device() : nb::cast<Device>(device);
             return k.kernel.max_cooperative_blocks(d, static_cast<int64_t>(b.count()), shared_mem);
           },
           nb::arg("block"), nb::arg("shared_mem") = 0, nb::arg("device") = nb::none(),
           "The most blocks of shape `block` (with `shared_mem` bytes of dynamic shared memory) a "
           "cooperative launch may have on `device` (default: the default device): all resident at "
           "once. A GPU's occupancy per SM times its SMs; cpu(): the kernel emulator's limit (at most "
           "256 blocks and 16384 threads). Numba's max_cooperative_grid_blocks.")
      .def_prop_ro("max_threads_per_block",
                   [](const PyKernel& k) { return k.kernel.attributes(default_device()).max_threads_per_block; },
                   "The most threads per block this kernel can run on the default device.");

  nb::class_<ConfiguredKernel>(m, "_ConfiguredKernel", nb::type_slots(configured_slots),
                               "A kernel with its launch configuration: call it with the arguments.");

  nb::class_<PyModule>(m, "RawModule",
                       "CUDA C++ source compiled at run time by NVRTC (cached in memory and on disk); "
                       "get_function(name) returns its kernels. Templates are instantiated through "
                       "name_expressions, e.g. (\"scale<float>\",).")
      .def("__init__",
           [](PyModule* self, const std::string& code, nb::handle options, nb::handle names) {
             new (self) PyModule{RawModule(code, to_strings(options, "options"), to_strings(names, "name_expressions"))};
           },
           nb::arg("code"), nb::arg("options") = nb::tuple(), nb::arg("name_expressions") = nb::tuple(),
           "Compiles lazily; compile() or get_function() compile now.")
      .def("get_function",
           [](const PyModule& m, const std::string& name) { return PyKernel{m.module.get_function(name), m.module}; },
           nb::arg("name"),
           "The kernel `name`: an extern \"C\" name or one of the name expressions. The module "
           "is compiled now for the default device (NVRTC on a GPU, the host compiler for the CPU "
           "kernel emulator) and a missing name raises ValueError.")
      .def("compile", [](const PyModule& m, nb::handle arch) { return compile_for(m.module, arch); },
           nb::arg("arch") = nb::none(),
           "Compiles now for compute capability `arch` (e.g. 90; no GPU needed) or the default GPU; "
           "raises CompileError with the log and the source around each error. Returns the lowered "
           "(mangled) names of the name expressions.")
      .def("ptx", [](const PyModule& m, nb::handle arch) { return ptx_for(m.module, arch); },
           nb::arg("arch") = nb::none(),
           "The module's PTX for compute_`arch` (default: the default GPU's; without one, the "
           "oldest architecture NVRTC knows, which every newer GPU runs). Compiled now by NVRTC, "
           "no GPU needed; for reading: launches use the CUBIN.")
      .def("get_global",
           [](const PyModule& m, const std::string& name, nb::handle device) {
             const ModuleGlobal g = m.module.get_global(name, device.is_none() ? default_device() : to_device(device));
             return nb::make_tuple(reinterpret_cast<uintptr_t>(g.address), g.nbytes);
           },
           nb::arg("name"), nb::arg("device") = nb::none(),
           "(address, nbytes) of the module's __device__ or __constant__ variable `name` (at namespace "
           "scope, by its unmangled name) on `device` (default: the default device), loading the module "
           "there: PyCUDA's get_global. A GPU address, or on cpu() one in the CPU kernel emulator's "
           "library. Modules of the same source share their variables on a device.")
      .def_prop_ro("code", [](const PyModule& m) { return m.module.code(); }, "The CUDA C++ source.")
      .def_prop_ro("options", [](const PyModule& m) { return m.module.options(); }, "The NVRTC options.")
      .def_prop_ro("name_expressions", [](const PyModule& m) { return m.module.name_expressions(); },
                   "The template instantiations it exports.");

  nb::class_<PySourceModule, PyModule>(m, "SourceModule",
                                       "PyCUDA's name for a RawModule: the source is wrapped in extern \"C\" "
                                       "(unless no_extern_c=True) so kernels are found by their plain names.")
      .def("__init__",
           [](PySourceModule* self, const std::string& source, nb::handle options, bool no_extern_c,
              nb::handle include_dirs) {
             std::vector<std::string> opts = to_strings(options, "options");
             for (const auto& dir : to_strings(include_dirs, "include_dirs")) opts.push_back("-I" + dir);
             new (self) PySourceModule{{RawModule(pycuda_source(source, no_extern_c), opts)}};
           },
           nb::arg("source"), nb::arg("options") = nb::none(), nb::arg("no_extern_c") = false,
           nb::arg("include_dirs") = nb::none(), "Compiles `source` (lazily, like RawModule).");
}

}  // namespace loom::py
