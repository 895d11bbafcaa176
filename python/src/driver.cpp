// loom.driver: PyCUDA-style raw device memory for ported code (mem_alloc, memcpy_htod,
// memcpy_dtoh), usable as kernel arguments, plus PyCUDA's In/Out/InOut under their
// pycuda.driver names.
#include <cstring>
#include <memory>

#include <nanobind/stl/string.h>

#include "bindings.h"
#include "kernel_args.h"
#include "loom/kernel/gpu_kernel.h"

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
  drv.attr("In") = m.attr("In");
  drv.attr("Out") = m.attr("Out");
  drv.attr("InOut") = m.attr("InOut");
}

}  // namespace loom::py
