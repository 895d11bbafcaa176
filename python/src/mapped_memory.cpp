// loom.empty_mapped and ndarray.host: mapped (zero-copy) host memory. The array lives on a
// GPU (its buffer is the mapped allocation's device address, so ops and kernels take it)
// and owns the page-locked host allocation; `.host` is a NumPy view of the same memory.
#include <mutex>
#include <unordered_map>

#include "bindings.h"
#include "loom/runtime/gpu_runtime.h"

namespace loom::py {
namespace {

// Device address -> host address of every live mapped allocation, for `.host`.
std::mutex g_mapped_mu;
std::unordered_map<const void*, void*>& mapped_hosts() {
  static auto* m = new std::unordered_map<const void*, void*>();
  return *m;
}

Array empty_mapped(nb::handle shape, nb::handle dtype, nb::handle device) {
  const Shape sh = to_shape(shape);
  const DType dt = dtype.is_none() ? float64 : to_dtype(dtype);
  const Device d = device.is_none() ? default_device() : to_device(device);
  check_device_present(d);
  if (!d.is_gpu()) return Array::allocate(sh, dt, d);  // host memory already: .host is a view
  const size_t nbytes = static_cast<size_t>(shape_size(sh, "empty_mapped")) * itemsize(dt);
  const gpu_runtime::MappedHost m = gpu_runtime::mapped_alloc(d.index, nbytes);
  {
    std::lock_guard<std::mutex> lock(g_mapped_mu);
    mapped_hosts()[m.device] = m.host;
  }
  auto buffer = std::make_shared<Buffer>(m.device, nbytes, d, [m]() {
    {
      std::lock_guard<std::mutex> lock(g_mapped_mu);
      mapped_hosts().erase(m.device);
    }
    try {
      gpu_runtime::pinned_free(m.host);  // cudaFreeHost waits for the kernels using it
    } catch (...) {
    }
  });
  return Array(buffer, dt, sh, contiguous_strides(sh, itemsize(dt)), 0);
}

nb::object host_view(const Array& a) {
  if (a.device().is_cpu()) return to_numpy(a, false);
  void* host = nullptr;
  {
    std::lock_guard<std::mutex> lock(g_mapped_mu);
    auto it = mapped_hosts().find(a.buffer()->data());
    if (it != mapped_hosts().end()) host = it->second;
  }
  if (!host)
    throw std::invalid_argument("[host] this " + a.device().str() +
                                " array is not in mapped host memory (loom.empty_mapped); numpy() copies it to the host");
  const ptrdiff_t offset = static_cast<const char*>(a.data()) - static_cast<const char*>(a.buffer()->data());
  auto* keep = new Array(a);
  nb::capsule owner(keep, [](void* p) noexcept { delete static_cast<Array*>(p); });
  return host_ndarray(static_cast<char*>(host) + offset, a.dtype(), a.shape(), a.strides(), owner);
}

}  // namespace

LOOM_BINDING_FAMILY(mapped_memory, 58) {
  m.def("empty_mapped", &empty_mapped, nb::arg("shape"), nb::arg("dtype") = nb::none(),
        nb::arg("device") = nb::none(),
        "An uninitialised array on `device` (the default device when None) in mapped, page-locked host "
        "memory (cudaHostAllocMapped): kernels and ops on the GPU read and write the host memory directly, "
        "and `.host` is a NumPy view of it (no copy). Read `.host` after the GPU work that writes it has "
        "finished (loom.synchronize() or an event). On cpu() an ordinary array.");
  cls.def_prop_ro("host", &host_view,
                  "A NumPy view (no copy) of an array in mapped host memory (loom.empty_mapped) or on cpu(); "
                  "ValueError for other GPU arrays (numpy() copies those).");
}

}  // namespace loom::py
