// loom.memory: allocator statistics, cache release and limits; pinned host arrays;
// build information.
#include "bindings.h"
#include "loom/runtime/pinned_cache.h"

#include <nanobind/stl/string.h>

namespace loom::py {
namespace {

nb::dict stats_dict(const MemoryStats& s) {
  nb::dict out;
  out["in_use"] = s.in_use;
  out["peak"] = s.peak;
  out["cached"] = s.cached;
  out["limit"] = s.limit;
  out["total"] = s.total;
  return out;
}

}  // namespace

void init_memory(nb::module_& m) {
  nb::module_ mem = m.def_submodule("memory", "Device memory: statistics, cache and limits.");
  mem.def(
      "stats",
      [](nb::handle device) {
        const Device d = device.is_none() ? default_device() : to_device(device);
        check_device_present(d);
        const MemoryStats s = memory::stats(d);
        return stats_dict(s);
      },
      nb::arg("device") = nb::none(),
      "Allocator statistics of `device` (default device when None), in bytes: dict with "
      "in_use (live buffers), peak (highest in_use), cached (free blocks kept for reuse), "
      "limit (cap from set_limit, 0 = none) and total (device memory).");
  mem.def(
      "_stats_if_used",
      [](nb::handle device) -> nb::object {
        const Device d = to_device(device);
        check_device_present(d);
        const std::optional<MemoryStats> s = memory::stats_if_used(d);
        if (!s) return nb::none();
        return stats_dict(*s);
      },
      nb::arg("device"),
      "stats(device), or None for a GPU this process has not allocated on: unlike stats() it "
      "never creates the GPU's allocator and CUDA context (loom top and dashboard poll it).");
  mem.def(
      "empty_cache",
      [](nb::handle device) {
        auto d = to_optional_device(device);
        if (d) check_device_present(*d);
        nb::gil_scoped_release release;
        memory::empty_cache(d);
      },
      nb::arg("device") = nb::none(),
      "Returns cached, unused blocks to the device (every device when None).");
  mem.def(
      "set_limit", [](size_t nbytes, nb::handle device) {
        const auto d = to_optional_device(device);
        if (d) check_device_present(*d);
        memory::set_limit(nbytes, d);
      },
      nb::arg("nbytes"), nb::arg("device") = nb::none(),
      "Caps the bytes loom may hold on `device` (default device when None); 0 removes the cap. "
      "Allocations beyond it raise loom.OutOfMemoryError.");

  mem.def(
      "pinned_cache_stats",
      []() {
        const pinned_cache::Stats s = pinned_cache::stats();
        nb::dict out;
        out["in_use"] = s.in_use;
        out["cached"] = s.cached;
        out["limit"] = s.limit;
        return out;
      },
      "The page-locked host cache behind numpy() of GPU arrays, in bytes: dict with in_use (held by "
      "NumPy arrays), cached (free blocks kept for reuse) and limit (in_use + cached never exceeds it).");
  mem.def("empty_pinned_cache", []() { pinned_cache::empty(); },
          "Frees the page-locked blocks the numpy() cache keeps for reuse (arrays holding blocks keep theirs).");
  mem.def("set_pinned_cache_limit", [](size_t nbytes) { pinned_cache::set_limit(nbytes); }, nb::arg("nbytes"),
          "Caps the page-locked memory of the numpy() cache (default 2 GiB); 0 turns it off, so numpy() of a "
          "GPU array writes ordinary memory.");

  m.def(
      "empty_pinned",
      [](nb::handle shape, nb::handle dtype) {
        const Shape sh = to_shape(shape);
        const DType dt = dtype.is_none() ? float64 : to_dtype(dtype);
        const size_t nbytes = static_cast<size_t>(shape_size(sh, "empty_pinned")) * itemsize(dt);
        void* p = pinned_alloc(nbytes > 0 ? nbytes : 1);
        nb::capsule owner(p, [](void* q) noexcept { pinned_free(q); });
        return host_ndarray(p, dt, sh, contiguous_strides(sh, itemsize(dt)), owner);
      },
      nb::arg("shape"), nb::arg("dtype") = nb::none(),
      "A NumPy array (uninitialised) in page-locked host memory, freed when the array dies; "
      "transfers from and to it skip the staging copy.");

  m.def(
      "build_info",
      []() {
        const BuildInfo b = loom::build_info();
        nb::dict out;
        out["version"] = b.version;
        out["cuda"] = b.cuda;
        out["cuda_toolkit"] = b.cuda_toolkit;
        out["cuda_runtime"] = b.cuda_runtime;
        out["driver"] = b.driver;
        out["nvrtc"] = b.nvrtc;
        out["num_gpus"] = b.num_gpus;
        out["blas"] = b.blas;
        return out;
      },
      "dict: version, cuda (built with the CUDA backend), cuda_toolkit, cuda_runtime, driver, "
      "nvrtc (version strings, '' when unknown), num_gpus and blas (the CPU BLAS behind float "
      "matmul: 'openblas', 'blas', or 'none' for loom's own loops).");
  m.attr("__version__") = loom::version();
}

}  // namespace loom::py
