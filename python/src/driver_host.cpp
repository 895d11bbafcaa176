// loom.driver's host half, as PyCUDA's: pagelocked_empty / pagelocked_zeros (and *_like) with
// host_alloc_flags, whose arrays' .base is a HostAllocation (get_device_pointer for DEVICEMAP
// memory), and memcpy_htod_async / memcpy_dtoh_async on a loom.Stream.
#include <cstring>
#include <string>

#include <nanobind/stl/string.h>

#include "bindings.h"
#include "kernel_args.h"
#include "loom/runtime/gpu_runtime.h"

namespace loom::py {
namespace {

// The owner of a pagelocked_* array's memory (the array's .base), as PyCUDA's: frees it when
// the last array over it dies, and gives kernels the address of DEVICEMAP memory.
struct HostAllocation {
  void* ptr;
  size_t nbytes;
  unsigned flags;
  HostAllocation(void* p, size_t n, unsigned f) : ptr(p), nbytes(n), flags(f) {}
  HostAllocation(const HostAllocation&) = delete;
  HostAllocation& operator=(const HostAllocation&) = delete;
  ~HostAllocation() {
    try {
      gpu_runtime::pinned_free(ptr);
    } catch (...) {  // a destructor must not throw; a failed free leaks
    }
  }
  uintptr_t device_pointer() const {
    if (!(flags & gpu_runtime::kHostDeviceMap))
      throw std::invalid_argument("[get_device_pointer] the memory was allocated without host_alloc_flags.DEVICEMAP, "
                                  "so no GPU can address it; pass mem_flags=host_alloc_flags.DEVICEMAP");
    return reinterpret_cast<uintptr_t>(gpu_runtime::mapped_device_pointer(ptr));
  }
};

// The buffer protocol, so that NumPy arrays over the memory keep this object as their .base.
int host_allocation_getbuffer(PyObject* self, Py_buffer* view, int flags) {
  HostAllocation* h = nb::inst_ptr<HostAllocation>(self);
  return PyBuffer_FillInfo(view, self, h->ptr, static_cast<Py_ssize_t>(h->nbytes), 0, flags);
}
PyType_Slot host_allocation_slots[] = {{Py_bf_getbuffer, reinterpret_cast<void*>(host_allocation_getbuffer)},
                                       {0, nullptr}};

nb::object pagelocked(nb::handle shape, nb::handle dtype, const std::string& order, unsigned flags, bool zero,
                      const char* op) {
  if (order != "C" && order != "F")
    throw std::invalid_argument(std::string("[") + op + "] order must be 'C' or 'F', got '" + order + "'");
  const Shape sh = to_shape(shape);
  const DType dt = dtype.is_none() ? float64 : to_dtype(dtype);
  const size_t isz = itemsize(dt);
  const size_t nbytes = static_cast<size_t>(shape_size(sh, op)) * isz;
  void* p = gpu_runtime::host_alloc(nbytes, flags);
  nb::object owner = nb::cast(new HostAllocation(p, nbytes, flags), nb::rv_policy::take_ownership);
  if (zero) std::memset(p, 0, nbytes);
  nb::list dims, steps;
  Strides st = contiguous_strides(sh, isz);
  if (order == "F") {  // first axis fastest
    int64_t stride = static_cast<int64_t>(isz);
    for (size_t i = 0; i < sh.size(); ++i) {
      st[i] = stride;
      stride *= sh[i];
    }
  }
  for (size_t i = 0; i < sh.size(); ++i) {
    dims.append(sh[i]);
    steps.append(st[i]);
  }
  return numpy_module().attr("ndarray")(nb::tuple(dims), numpy_dtype(dt), owner, 0, nb::tuple(steps));
}

// pagelocked_empty_like / _zeros_like: the shape and dtype of `array` (anything NumPy
// takes), in its order where it is Fortran-ordered only, else C (NumPy's empty_like).
nb::object pagelocked_like(nb::handle array, unsigned flags, bool zero, const char* op) {
  nb::object a = numpy_module().attr("asarray")(array);
  nb::object f = a.attr("flags");
  const bool fortran = !nb::cast<bool>(f.attr("c_contiguous")) && nb::cast<bool>(f.attr("f_contiguous"));
  return pagelocked(a.attr("shape"), a.attr("dtype"), fortran ? "F" : "C", flags, zero, op);
}

// The device address, device and bytes of `dest`/`src` of an async copy: a DeviceAllocation
// (mem_alloc) or a contiguous loom array.
struct DeviceSide {
  Buffer* buffer;
  void* data;
  size_t nbytes;
  Device device;
};

DeviceSide device_side(nb::handle h, const char* op) {
  if (nb::isinstance<DeviceAllocation>(h)) {
    const auto& a = nb::cast<const DeviceAllocation&>(h);
    const Buffer& b = a.live(op);
    return {const_cast<Buffer*>(&b), b.data(), a.nbytes, a.device};
  }
  if (nb::isinstance<Array>(h)) {
    const auto& a = nb::cast<const Array&>(h);
    if (!a.is_contiguous()) throw std::invalid_argument(std::string("[") + op + "] the loom array must be contiguous");
    return {a.buffer().get(), a.data(), a.nbytes(), a.device()};
  }
  throw nb::type_error((std::string("[") + op + "] expected a DeviceAllocation (mem_alloc) or a loom array, got " +
                        nb::inst_name(h).c_str()).c_str());
}

// Copies between `dev` and host memory `host` on `stream` (the current stream of dev's device
// when None); returns before the copy ends on a GPU. Keep both alive until it has (PyCUDA's rule).
void copy_async(const DeviceSide& dev, nb::handle host_obj, bool to_device, nb::handle stream, const char* op) {
  HostBuffer host(host_obj, !to_device);
  if (!host.ok())
    throw std::invalid_argument(std::string("[") + op + "] the host array must be a " + (to_device ? "" : "writeable, ") +
                                "C-contiguous buffer (a NumPy array)");
  if (host.nbytes() > dev.nbytes)
    throw std::invalid_argument(std::string("[") + op + "] the host array has " + std::to_string(host.nbytes()) +
                                " bytes but the device memory has " + std::to_string(dev.nbytes));
  if (dev.device.is_cpu()) {  // synchronous, as every cpu() stream
    if (to_device) std::memcpy(dev.data, host.data(), host.nbytes());
    else std::memcpy(host.data(), dev.data, host.nbytes());
    return;
  }
  const Stream s = stream.is_none() ? Stream::current(dev.device) : nb::cast<const Stream&>(stream);
  if (s.device() != dev.device)
    throw DeviceMismatchError(std::string("[") + op + "] the stream is on " + s.device().str() + ", the memory on " +
                              dev.device.str());
  StreamScope scope(s);
  gpu_runtime::wait_for_writer(gpu_runtime::BufferOf{dev.buffer});  // after earlier users; s is now its last
  if (to_device) gpu_runtime::memcpy_async(dev.device.index, dev.data, host.data(), host.nbytes(), s.native());
  else gpu_runtime::memcpy_async(dev.device.index, host.data(), dev.data, host.nbytes(), s.native());
}

}  // namespace

LOOM_BINDING_FAMILY(driver_host, 59) {
  nb::module_ drv = nb::borrow<nb::module_>(m.attr("driver"));
  nb::dict flags;
  flags["PORTABLE"] = gpu_runtime::kHostPortable;
  flags["DEVICEMAP"] = gpu_runtime::kHostDeviceMap;
  flags["WRITECOMBINED"] = gpu_runtime::kHostWriteCombined;
  flags["__doc__"] = "cudaHostAlloc flags for pagelocked_empty(mem_flags=...), combined with |.";
  flags["__module__"] = "loom.driver";
  drv.attr("host_alloc_flags") =
      nb::module_::import_("builtins").attr("type")("host_alloc_flags", nb::make_tuple(), flags);

  nb::class_<HostAllocation>(drv, "HostAllocation", nb::type_slots(host_allocation_slots),
                             "Page-locked host memory from pagelocked_empty / pagelocked_zeros: the .base of "
                             "their arrays, freed when the last of them dies.")
      .def("get_device_pointer", &HostAllocation::device_pointer,
           "The address kernels on a GPU use for this memory (an int; a kernel takes it as ctypes.c_void_p(address)); the memory must "
           "have been allocated with host_alloc_flags.DEVICEMAP.")
      .def_ro("nbytes", &HostAllocation::nbytes, "Bytes allocated.")
      .def_ro("flags", &HostAllocation::flags, "The host_alloc_flags it was allocated with.");

  const char* empty_doc =
      "A NumPy array (uninitialised) in page-locked host memory from cudaHostAlloc(mem_flags), freed when "
      "the array dies; order 'C' or 'F'. Without a GPU, ordinary page-aligned memory.";
  drv.def("pagelocked_empty",
          [](nb::handle shape, nb::handle dtype, const std::string& order, unsigned mem_flags) {
            return pagelocked(shape, dtype, order, mem_flags, false, "pagelocked_empty");
          },
          nb::arg("shape"), nb::arg("dtype") = nb::none(), nb::arg("order") = "C", nb::arg("mem_flags") = 0,
          empty_doc);
  drv.def("pagelocked_zeros",
          [](nb::handle shape, nb::handle dtype, const std::string& order, unsigned mem_flags) {
            return pagelocked(shape, dtype, order, mem_flags, true, "pagelocked_zeros");
          },
          nb::arg("shape"), nb::arg("dtype") = nb::none(), nb::arg("order") = "C", nb::arg("mem_flags") = 0,
          "pagelocked_empty, filled with zeros.");
  drv.def("pagelocked_empty_like",
          [](nb::handle array, unsigned mem_flags) {
            return pagelocked_like(array, mem_flags, false, "pagelocked_empty_like");
          },
          nb::arg("array"), nb::arg("mem_flags") = 0,
          "pagelocked_empty with the shape and dtype of `array` (Fortran order when `array` is only "
          "Fortran-contiguous).");
  drv.def("pagelocked_zeros_like",
          [](nb::handle array, unsigned mem_flags) {
            return pagelocked_like(array, mem_flags, true, "pagelocked_zeros_like");
          },
          nb::arg("array"), nb::arg("mem_flags") = 0, "pagelocked_empty_like, filled with zeros.");
  drv.def("memcpy_htod_async",
          [](nb::handle dest, nb::handle src, nb::handle stream) {
            copy_async(device_side(dest, "memcpy_htod_async"), src, true, stream, "memcpy_htod_async");
          },
          nb::arg("dest"), nb::arg("src"), nb::arg("stream").none() = nb::none(),
          "Copies the host buffer `src` into `dest` (a DeviceAllocation or contiguous loom array) on `stream` "
          "(a loom.Stream; the current one when None) without waiting. Keep `src` alive and unchanged until the "
          "stream has passed the copy; from page-locked memory the host does not wait at all.");
  drv.def("memcpy_dtoh_async",
          [](nb::handle dest, nb::handle src, nb::handle stream) {
            copy_async(device_side(src, "memcpy_dtoh_async"), dest, false, stream, "memcpy_dtoh_async");
          },
          nb::arg("dest"), nb::arg("src"), nb::arg("stream").none() = nb::none(),
          "Copies `src` (a DeviceAllocation or contiguous loom array) into the writeable host buffer `dest` on "
          "`stream` without waiting: read `dest` after stream.synchronize() (page-locked `dest` for a truly "
          "asynchronous copy).");
}

}  // namespace loom::py
