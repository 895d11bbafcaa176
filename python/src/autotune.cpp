// loom.autotune: what run-time autotuning (block="auto") chose, and a hook that runs the
// search with a Python timer so its bookkeeping is tested without a GPU.
#include <nanobind/stl/string.h>

#include "bindings.h"
#include "loom/kernel/autotune.h"

namespace loom::py {
namespace {

nb::tuple block_tuple(const Dim3& b) { return nb::make_tuple(b.x, b.y, b.z); }

Dim3 to_dim3(nb::handle h) {
  if (nb::isinstance<nb::int_>(h)) return Dim3(nb::cast<unsigned>(h));
  const nb::sequence seq = nb::cast<nb::sequence>(h);
  const size_t n = nb::len(seq);
  if (n < 1 || n > 3) throw std::invalid_argument("[autotune] an extent has 1 to 3 dimensions");
  unsigned v[3] = {1, 1, 1};
  for (size_t i = 0; i < n; ++i) v[i] = nb::cast<unsigned>(seq[i]);
  return Dim3(v[0], v[1], v[2]);
}

nb::list report_list() {
  nb::list out;
  for (const autotune::Record& r : autotune::report()) {
    nb::dict d;
    d["kernel"] = r.kernel;
    d["device"] = r.device;
    d["size_class"] = r.size_class;
    d["block"] = block_tuple(r.block);
    d["best_ms"] = r.best_ms;
    d["candidates"] = r.candidates;
    d["from_disk"] = r.from_disk;
    out.append(d);
  }
  return out;
}

}  // namespace

LOOM_BINDING_FAMILY(autotune, 70) {
  nb::module_ at = m.def_submodule(
      "autotune",
      "Run-time autotuning of block shapes: a kernel launched with block=\"auto\" times "
      "candidate blocks on its first launch for each (kernel, problem-size class, device), "
      "keeps the fastest, and remembers it in memory and in the on-disk compile cache.");
  at.def("report", &report_list,
         "The choices made or loaded in this process, oldest first: a list of dicts with "
         "kernel (name), device (e.g. 'gpu(0) NVIDIA H100 80GB HBM3 (sm_90)'), size_class "
         "(per dimension the power of two at or above the extent, e.g. '1048576x1x1'), "
         "block (a tuple of 3 ints), best_ms (its time per launch when timed), candidates "
         "(how many blocks were timed) and from_disk (read back from the cache instead of "
         "timed in this process).");
  at.def("clear", &autotune::clear_memory,
         "Forgets the choices held in memory and empties report(); the disk cache keeps "
         "them, so the next launch reads its choice back instead of timing again.");
  at.def(
      "_choose_for_testing",
      [](const std::string& kernel, nb::handle extent, int max_threads, nb::callable time) {
        const Hash128 key = KeyBuilder().add("autotune test kernel").add(kernel).finish();
        const autotune::detail::DeviceId dev{"test device sm_00", "test device"};
        // The GIL stays held: the timer is Python. An exception it raises skips that
        // block; if every block raises, the first one propagates.
        const Dim3 b = autotune::detail::choose_block(
            CompileCache::global(), key, kernel, to_dim3(extent), dev, max_threads,
            [&](Dim3 blk) { return nb::cast<double>(time(block_tuple(blk))); });
        return block_tuple(b);
      },
      nb::arg("kernel"), nb::arg("extent"), nb::arg("max_threads"), nb::arg("time"),
      "Runs the autotuning search for a made-up kernel on a made-up device through the "
      "process-wide cache, timing each candidate block (a 3-tuple) by `time(block) -> ms`; "
      "returns the chosen block. For tests.");
  at.def(
      "_candidate_blocks",
      [](nb::handle extent, int max_threads) {
        nb::list out;
        for (const Dim3& b : autotune::candidate_blocks(to_dim3(extent), max_threads)) out.append(block_tuple(b));
        return out;
      },
      nb::arg("extent"), nb::arg("max_threads") = 1024,
      "The block shapes autotuning tries for `extent` (int or tuple of up to 3 ints) with a "
      "kernel allowing `max_threads` threads per block. For tests.");
}

}  // namespace loom::py
