// loom.driver's host half, as PyCUDA's: pagelocked_empty / pagelocked_zeros (and *_like) with
// host_alloc_flags, and memcpy_htod_async / memcpy_dtoh_async on a loom.Stream.
#include <cstring>
#include <string>

#include <nanobind/stl/string.h>

#include "bindings.h"
#include "kernel_args.h"
#include "loom/runtime/gpu_runtime.h"

namespace loom::py {
namespace {

nb::object pagelocked(nb::handle shape, nb::handle dtype, const std::string& order, unsigned flags, bool zero,
                      const char* op) {
  if (order != "C" && order != "F")
    throw std::invalid_argument(std::string("[") + op + "] order must be 'C' or 'F', got '" + order + "'");
  const Shape sh = to_shape(shape);
  const DType dt = dtype.is_none() ? float64 : to_dtype(dtype);
  const size_t isz = itemsize(dt);
  const size_t nbytes = static_cast<size_t>(shape_size(sh, op)) * isz;
  void* p = gpu_runtime::host_alloc(nbytes, flags);
  nb::capsule owner(p, [](void* q) noexcept {
    try {
      gpu_runtime::pinned_free(q);
    } catch (...) {
    }
  });
  if (zero) std::memset(p, 0, nbytes);
  Strides st = contiguous_strides(sh, isz);
  if (order == "F") {  // first axis fastest
    int64_t stride = static_cast<int64_t>(isz);
    for (size_t i = 0; i < sh.size(); ++i) {
      st[i] = stride;
      stride *= sh[i];
    }
  }
  return host_ndarray(p, dt, sh, st, owner);
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
