// Devices: the Device class (also a context manager), cpu()/gpu(i), queries, the
// default device and synchronize().
#include <memory>
#include <string>
#include <vector>

#include "bindings.h"
#include "loom/runtime/gpu_runtime.h"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

namespace loom::py {
namespace {

// `with dev:` scopes of this thread, innermost last (with-statements nest properly).
thread_local std::vector<std::unique_ptr<DeviceScope>> t_scopes;

bool device_equals(const Device& d, nb::handle o) {
  if (nb::isinstance<Device>(o)) return d == nb::cast<Device>(o);
  if (!PyUnicode_Check(o.ptr())) return false;
  try {
    return d == parse_device(nb::cast<std::string>(o));
  } catch (const std::exception&) {  // unknown names and absent GPUs compare unequal
    return false;
  }
}

// A GPU number as an int: one beyond int's range is no device at all (ValueError at once).
int to_gpu_index(nb::handle h, const char* op) {
  const int64_t i = to_int_arg(h, op, "i");
  if (i < INT32_MIN || i > INT32_MAX)
    throw std::invalid_argument(std::string("[") + op + "] GPU index " + std::to_string(i) + " is out of range");
  return static_cast<int>(i);
}

}  // namespace

Device to_device(nb::handle h) {
  if (nb::isinstance<Device>(h)) return nb::cast<Device>(h);
  if (PyUnicode_Check(h.ptr())) return parse_device(nb::cast<std::string>(h));
  throw std::invalid_argument("expected a loom Device or a string such as 'cpu' or 'gpu:0', got " +
                              nb::cast<std::string>(nb::repr(h)));
}

std::optional<Device> to_optional_device(nb::handle h) {
  if (h.is_none()) return std::nullopt;
  return to_device(h);
}

void init_device(nb::module_& m) {
  nb::class_<Device>(m, "Device",
                     "A place where arrays live: the CPU or one GPU. Also a context manager: "
                     "`with loom.gpu(1): ...` makes it the default device of this thread.")
      .def("__init__", [](Device* self, nb::handle spec) { new (self) Device(to_device(spec)); },
           nb::arg("spec"), "The device a string ('cpu', 'gpu', 'gpu:1', 'cuda:0') or Device names.")
      .def_prop_ro("type", [](const Device& d) { return d.is_cpu() ? "cpu" : "cuda"; },
                   "'cpu' or 'cuda'.")
      .def_prop_ro("index", [](const Device& d) { return d.index; }, "GPU number (0 for the CPU).")
      .def_prop_ro("name", [](const Device& d) { return properties(d).name; }, "Device name.")
      .def_prop_ro("total_memory", [](const Device& d) { return properties(d).total_memory; },
                   "Memory size in bytes.")
      .def_prop_ro("free_memory", [](const Device& d) { return properties(d).free_memory; },
                   "Free memory in bytes, as the driver (or loom's host accounting) reports it.")
      .def_prop_ro("compute_capability",
                   [](const Device& d) {
                     auto p = properties(d);
                     return std::make_tuple(p.compute_capability_major, p.compute_capability_minor);
                   },
                   "(major, minor) for a GPU, (0, 0) for the CPU.")
      .def_prop_ro("multiprocessor_count", [](const Device& d) { return properties(d).multiprocessor_count; },
                   "Number of SMs of a GPU (0 for the CPU).")
      .def("attribute",
           [](const Device& d, int attribute) {
             if (d.is_cpu())
               throw std::invalid_argument("[Device.attribute] cpu() has no CUDA device attributes");
             check_device_present(d);
             return gpu_runtime::device_attribute(d.index, attribute);
           },
           nb::arg("attribute"),
           "A GPU's CUDA device attribute by its number (CUdevice_attribute, cudaDeviceAttr: 1 is "
           "MAX_THREADS_PER_BLOCK); ValueError for cpu() and for a number CUDA does not know.")
      .def("__repr__", &Device::str, "'cpu()' or 'gpu(0)'.")
      .def("__eq__", &device_equals, nb::arg("other").none(),
           "Same device (another Device or a string such as 'gpu:0').")
      .def("__ne__", [](const Device& d, nb::handle o) { return !device_equals(d, o); },
           nb::arg("other").none(), "Negation of __eq__.")
      .def("__hash__", [](const Device& d) { return static_cast<int>(d.type) * 1000003 + d.index; },
           "Hash of (type, index).")
      .def("__enter__",
           [](const Device& d) {
             t_scopes.push_back(std::make_unique<DeviceScope>(d));
             return d;
           },
           "Makes this device the default of this thread until the with-block ends.")
      .def("__exit__",
           [](const Device&, nb::handle, nb::handle, nb::handle) {
             if (!t_scopes.empty()) t_scopes.pop_back();
           },
           nb::arg("exc_type").none(), nb::arg("exc_value").none(), nb::arg("traceback").none(),
           "Restores the previous default device.")
      .def("synchronize", [](const Device& d) { synchronize(d); },
           nb::call_guard<nb::gil_scoped_release>(), "Waits for all work queued on this device.");

  m.def("cpu", &cpu, "The host CPU device.");
  m.def("gpu", [](nb::handle i) { return gpu(to_gpu_index(i, "gpu")); }, nb::arg("i") = 0,
        "GPU `i`; raises ValueError naming how many GPUs exist when there is no such GPU.");
  m.def("num_gpus", &num_gpus, "Number of usable GPUs (0 without a GPU, a driver or a CUDA build).");
  m.def("try_gpu",
        [](nb::handle i) {
          const int64_t n = to_int_arg(i, "try_gpu", "i");
          return n < 0 || n > INT32_MAX ? cpu() : try_gpu(static_cast<int>(n));
        },
        nb::arg("i") = 0, "gpu(i) when it exists, else cpu().");
  m.def("try_all_gpus", &try_all_gpus, "[gpu(0), gpu(1), ...], or [cpu()] when there is no GPU.");
  m.def("devices", &devices, "Every device: cpu() followed by each GPU.");
  m.def("default_device", &default_device,
        "The device new arrays go to: the innermost `with device`, else set_default_device(), "
        "else $LOOM_DEVICE, else gpu(0) when present, else cpu().");
  m.def("set_default_device", [](nb::handle d) { set_default_device(to_device(d)); }, nb::arg("device"),
        "Sets the process-wide default device (a Device or a string such as 'gpu:1').");
  m.def("device", [](nb::handle d) { return to_device(d); }, nb::arg("device"),
        "The Device a Device or string ('cpu', 'gpu', 'gpu:1', 'cuda:0') denotes; use it as "
        "`with loom.device('cpu'): ...` to change the default device in a block.");
  m.def("synchronize",
        [](nb::handle d) {
          auto dev = to_optional_device(d);
          nb::gil_scoped_release release;
          synchronize(dev);
        },
        nb::arg("device") = nb::none(), "Waits for all queued work on `device` (every device when None).");
}

}  // namespace loom::py
