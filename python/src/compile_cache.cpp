// Private hooks on the compile cache (loom/cache/compile_cache.h) for `python -m loom info`,
// tests and benchmarks: where it lives, its counters, and a compile that needs no GPU; and
// the lookup through which Python code (the Python-kernel translator) keeps its own
// artefacts in the one cache, with its checks, instead of writing files of its own.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "bindings.h"
#include "loom/backend/elementwise.h"
#include "loom/graph/cpu_compiled.h"
#include "loom/runtime/background_compile.h"
#include "loom/runtime/gpu_compile.h"

namespace loom::py {
namespace {

nb::dict stats_dict() {
  const CompileCacheStats s = CompileCache::global().stats();
  nb::dict d;
  d["memory_hits"] = s.memory_hits;
  d["disk_hits"] = s.disk_hits;
  d["misses"] = s.misses;
  d["failed_compiles"] = s.failed_compiles;
  d["disk_writes"] = s.disk_writes;
  d["disk_write_errors"] = s.disk_write_errors;
  d["bad_entries"] = s.bad_entries;
  d["foreign"] = s.foreign;
  d["compile_seconds"] = s.compile_seconds;
  d["disk_read_seconds"] = s.disk_read_seconds;
  return d;
}

// Thrown through CompileCache::get_or_compile when a Python callback raised; the Python
// exception itself waits outside, to be rethrown once the GIL is held again.
struct PythonCallbackFailed {};

// get_or_compile with Python callables. The GIL is released for the lookup (another thread
// may be compiling this key and waiting for the GIL inside its own callback) and taken back
// inside each callback.
nb::bytes get_or_compile_py(const std::string& kind, nb::bytes key, nb::callable compile,
                            std::optional<nb::callable> validate) {
  if (kind.empty() || kind.find('/') != std::string::npos || kind[0] == '.')
    throw std::invalid_argument("[compile cache] kind must be a plain folder name, not '" + kind + "'");
  const Hash128 k = KeyBuilder().add(std::string_view(key.c_str(), key.size())).finish();
  std::optional<nb::python_error> failure;
  auto call_python = [&failure](auto&& body) {
    nb::gil_scoped_acquire acquire;
    try {
      return body();
    } catch (nb::python_error& e) {
      failure.emplace(std::move(e));
      throw PythonCallbackFailed{};
    }
  };
  CompileCache::Compile compile_cb = [&] {
    return call_python([&] {
      nb::object out = compile();
      if (!nb::isinstance<nb::bytes>(out))
        throw nb::type_error("[compile cache] the compile callback must return bytes");
      nb::bytes b = nb::borrow<nb::bytes>(out);
      return std::string(b.c_str(), b.size());
    });
  };
  CompileCache::Validate validate_cb;
  if (validate)
    validate_cb = [&](std::string_view payload) {
      return call_python([&] { return nb::cast<bool>((*validate)(nb::bytes(payload.data(), payload.size()))); });
    };
  std::shared_ptr<const std::string> payload;
  try {
    nb::gil_scoped_release release;
    payload = CompileCache::global().get_or_compile(kind, k, compile_cb, validate_cb);
  } catch (const PythonCallbackFailed&) {
    throw std::move(*failure);
  }
  return nb::bytes(payload->data(), payload->size());
}

}  // namespace

LOOM_BINDING_FAMILY(compile_cache, 90) {
  m.def("_compile_cache_dir", [] { return compile_cache_dir(); },
        "The folder of the on-disk compile cache now ($LOOM_CACHE_DIR, else "
        "$XDG_CACHE_HOME/loom, else ~/.cache/loom); '' when LOOM_DISABLE_DISK_CACHE=1.");
  m.def("_compile_cache_get_or_compile", &get_or_compile_py, nb::arg("kind"), nb::arg("key"),
        nb::arg("compile"), nb::arg("validate") = nb::none(),
        "The payload (bytes) the process-wide compile cache holds under (kind, key): from memory, "
        "else from a trusted disk entry in the folder `kind`, else `compile()` (which returns "
        "bytes), kept and written owner-only. `key` (bytes) must hash everything the payload "
        "depends on. `validate(payload) -> bool` may reject a disk payload it cannot decode "
        "(a bad entry, rebuilt). An exception of `compile` propagates and nothing is cached.");
  m.def("_compile_cache_stats", &stats_dict,
        "Counters of the process-wide compile cache: memory_hits, disk_hits, misses, "
        "failed_compiles, disk_writes, disk_write_errors, bad_entries, foreign, compile_seconds, "
        "disk_read_seconds.");
  m.def("_compile_cache_reset_stats", [] { CompileCache::global().reset_stats(); },
        "Sets the compile cache's counters to zero.");
  m.def("_compile_cache_clear_memory", [] { CompileCache::global().clear_memory(); },
        "Forgets the in-memory entries of the compile cache (the disk cache stays), so the "
        "next lookups behave as in a fresh process (loaded GPU modules stay loaded).");
  m.def(
      "_cpu_loop_stats",
      [] {
        const cpu_compiled::Stats s = cpu_compiled::stats();
        nb::dict d;
        d["loaded"] = s.loaded;
        d["failed"] = s.failed;
        d["runs"] = s.runs;
        d["min_elements"] = cpu_compiled::min_elements();
        d["gpu_fused_runs_unfused"] = gpu_backend::fused_runs_unfused();
        return d;
      },
      "Counters of jit's compiled CPU loops (graph/cpu_compiled.h): loops loaded, compiles that "
      "failed, graph evaluations that ran one; and min_elements, the element count from which "
      "a graph runs as one; and gpu_fused_runs_unfused, GPU fused calls that ran node by node "
      "while their kernel compiled in the background.");
  m.def(
      "_wait_for_background_compiles",
      [] {
        nb::gil_scoped_release release;
        background_compile::wait_idle();
      },
      "Blocks until every compile posted to the background worker has finished (jit's "
      "never-seen fused kernels and CPU loops compile there while the call that needed "
      "them runs unfused).");
  m.def("_set_background_compiles", &background_compile::set_enabled, nb::arg("on"),
        "Turns compiling in the background on or off for this process ($LOOM_BACKGROUND_COMPILE=0 "
        "starts it off); returns the previous setting.");
  m.def(
      "_compile_for_testing",
      [](const std::string& source, const std::string& name, int arch, const std::vector<std::string>& options,
         bool minimal) {
        {
          nb::gil_scoped_release release;
          gpu_runtime::compile_for_testing(source, name, arch, options, minimal);
        }
        return stats_dict();
      },
      nb::arg("source"), nb::arg("name"), nb::arg("arch") = 90, nb::arg("options") = std::vector<std::string>{},
      nb::arg("minimal") = false,
      "Compiles CUDA C++ `source` exporting kernel `name` with NVRTC for compute capability "
      "`arch` through the compile cache, with no GPU needed; returns the cache's counters "
      "afterwards. minimal=True uses the dialect of loom's built-in kernels (NVRTC "
      "--minimal), as the first call of a never-seen elementwise op does. Raises "
      "CompileError on a compile error, NotImplementedError without CUDA.");
}

}  // namespace loom::py
