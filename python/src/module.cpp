// The _loom extension module: every binding family registers itself here.
#include "bindings.h"

NB_MODULE(_loom, m) {
  using namespace loom::py;
  m.doc() = "loom's C++ core (import loom, not loom._loom).";
  // Objects that pytest/hypothesis keep until interpreter exit (fixture params, examples)
  // are still alive when nanobind's shutdown check runs; its warnings would print after
  // the test summary. They are not leaks of loom's making.
  nb::set_leak_warnings(false);
  init_error(m);
  init_dtype(m);
  init_device(m);
  init_memory(m);
  init_stream(m);
  nb::class_<loom::Array> array_cls(m, "ndarray",
                                    "An n-dimensional array on a device (the CPU or a GPU). Create one with "
                                    "loom.asarray, loom.zeros, ...; it cannot be constructed directly.");
  init_array(m, array_cls);
  init_interop(m, array_cls);
  init_creation(m);
  init_families(m, array_cls);
}
