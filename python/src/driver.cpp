// loom.driver: PyCUDA-style raw device memory for ported code (mem_alloc, memcpy_htod,
// memcpy_dtoh), usable as kernel arguments, plus PyCUDA's In/Out/InOut under their
// pycuda.driver names.
#include <cstring>
#include <memory>

#include <nanobind/stl/string.h>

#include "bindings.h"
#include "kernel_args.h"
#include "loom/kernel/gpu_kernel.h"
#include "loom/runtime/stream.h"

namespace loom::py {
namespace {

// The contiguous host buffer of `h`, or ValueError naming `op`.
std::unique_ptr<HostBuffer> host_buffer(nb::handle h, bool writable, const char* op) {
  auto b = std::make_unique<HostBuffer>(h, writable);
  if (!b->ok())
    throw std::invalid_argument(std::string("[") + op + "] the host array must be a " +
                                (writable ? "writeable, " : "") + "C-contiguous buffer (a NumPy array)");
  return b;
}

DeviceAllocation mem_alloc(long long nbytes, nb::handle device) {
  if (nbytes < 0) throw std::invalid_argument("[mem_alloc] nbytes must be >= 0");
  const Device d = device.is_none() ? default_device() : to_device(device);
  // The array's buffer is the allocation: same caching allocator as every loom array.
  Array a = Array::allocate({nbytes}, uint8, d);
  return DeviceAllocation{a.buffer(), static_cast<size_t>(nbytes), d};
}

void check_fits(const char* op, size_t n, size_t capacity, const char* what) {
  if (n > capacity)
    throw std::invalid_argument(std::string("[") + op + "] the host array has " + std::to_string(n) +
                                " bytes but the " + what + " has " + std::to_string(capacity));
}

void memcpy_htod(const DeviceAllocation& dst, nb::handle src) {
  const Buffer& b = dst.live("memcpy_htod");
  const auto host = host_buffer(src, false, "memcpy_htod");
  check_fits("memcpy_htod", host->nbytes(), dst.nbytes, "allocation");
  nb::gil_scoped_release unlocked;
  if (dst.device.is_gpu()) kernel_cuda::copy_host_to_device(dst.device.index, b.data(), host->data(), host->nbytes());
  else std::memcpy(b.data(), host->data(), host->nbytes());
}

void memcpy_dtoh(nb::handle dst, const DeviceAllocation& src) {
  const Buffer& b = src.live("memcpy_dtoh");
  const auto host = host_buffer(dst, true, "memcpy_dtoh");
  check_fits("memcpy_dtoh", host->nbytes(), src.nbytes, "allocation");
  nb::gil_scoped_release unlocked;
  if (src.device.is_gpu()) kernel_cuda::copy_device_to_host(src.device.index, host->data(), b.data(), host->nbytes());
  else std::memcpy(host->data(), b.data(), host->nbytes());
}

// PyCUDA's rule that a device pointer is an integer: `nbytes` copied between raw addresses on
// `device` ("htod", "dtoh" or "dtod"; on cpu() every address is host memory), synchronously.
void copy_raw(uintptr_t dst, uintptr_t src, size_t nbytes, const std::string& kind, nb::handle device) {
  if (kind != "htod" && kind != "dtoh" && kind != "dtod")
    throw std::invalid_argument("[copy_raw] kind must be 'htod', 'dtoh' or 'dtod', not '" + kind + "'");
  if (nbytes == 0) return;
  if (dst == 0 || src == 0) throw std::invalid_argument("[copy_raw] a NULL address");
  const Device d = device.is_none() ? default_device() : to_device(device);
  void* to = reinterpret_cast<void*>(dst);
  const void* from = reinterpret_cast<const void*>(src);
  nb::gil_scoped_release unlocked;
  if (d.is_cpu()) {
    std::memmove(to, from, nbytes);
  } else if (kind == "htod") {
    kernel_cuda::copy_host_to_device(d.index, to, from, nbytes);
  } else if (kind == "dtoh") {
    kernel_cuda::copy_device_to_host(d.index, to, from, nbytes);
  } else {
    kernel_cuda::copy_device_bytes(d.index, to, from, nbytes, Stream::current_native(d.index));
    Stream::current(d).synchronize();
  }
}

}  // namespace

LOOM_BINDING_FAMILY(driver, 56) {
  nb::module_ drv = m.def_submodule("driver", "PyCUDA-style device memory: mem_alloc, memcpy_htod, memcpy_dtoh, In/Out/InOut.");
  nb::class_<DeviceAllocation>(drv, "DeviceAllocation",
                               "Raw device memory from mem_alloc(); pass it to kernels as a pointer, "
                               "int() gives its address. Freed by free() or when the last reference dies.")
      .def("__int__", [](const DeviceAllocation& a) { return reinterpret_cast<uintptr_t>(a.live("DeviceAllocation").data()); })
      .def("__index__", [](const DeviceAllocation& a) { return reinterpret_cast<uintptr_t>(a.live("DeviceAllocation").data()); })
      .def("free", [](DeviceAllocation& a) { a.buffer.reset(); }, "Returns the memory to loom's pool now.")
      .def_prop_ro("nbytes", [](const DeviceAllocation& a) { return a.nbytes; }, "Its size in bytes.")
      .def_prop_ro("device", [](const DeviceAllocation& a) { return a.device; }, "Where it lives.")
      .def("__repr__", [](const DeviceAllocation& a) {
        return "<DeviceAllocation " + std::to_string(a.nbytes) + " bytes on " + a.device.str() +
               (a.buffer ? "" : " (freed)") + ">";
      });
  drv.def("mem_alloc", &mem_alloc, nb::arg("nbytes"), nb::arg("device") = nb::none(),
          "Allocates `nbytes` on `device` (default: the default device), uninitialised.");
  drv.def("memcpy_htod", &memcpy_htod, nb::arg("dst"), nb::arg("src"),
          "Copies the host buffer `src` (C-contiguous) into the allocation `dst`; returns when done.");
  drv.def("memcpy_dtoh", &memcpy_dtoh, nb::arg("dst"), nb::arg("src"),
          "Copies the allocation `src` into the writeable C-contiguous host buffer `dst`; returns when done.");
  drv.def("_copy_raw", &copy_raw, nb::arg("dst"), nb::arg("src"), nb::arg("nbytes"), nb::arg("kind"),
          nb::arg("device") = nb::none(),
          "Copies `nbytes` between raw addresses on `device` (kind 'htod', 'dtoh' or 'dtod'; on cpu() "
          "both are host memory), returning when done: loom.pycuda's memcpy at integer addresses.");
  drv.attr("In") = m.attr("In");
  drv.attr("Out") = m.attr("Out");
  drv.attr("InOut") = m.attr("InOut");
}

}  // namespace loom::py
