// The Python side of a kernel launch, shared by loom.RawKernel (raw_module.cpp) and the
// launch fast path of Python kernels (kernel_dispatcher.cpp): the RawKernel object, the
// parsing of grid/block/stream/shared memory into a LaunchConfig, and the launch itself.
// Every message starts with `prefix` ("[RawKernel]", or "[f]" for a Python kernel f).
#pragma once
#include <optional>
#include <string>

#include "bindings.h"
#include "kernel_args.h"
#include "loom/core/interrupt.h"
#include "loom/kernel/raw_module.h"

namespace loom::py {

/// loom.RawKernel's C++ state.
struct PyKernel {
  Kernel kernel;
  RawModule module;
  // k[grid, block]: the launcher of the last configuration without a stream, reused by a
  // loop that asks for the same one. It holds the C++ Kernel, not this object: no cycle.
  nb::object last_config, last_launcher;
};

/// An int or a tuple/list of 1 to 3 ints, each >= 0 and < 2**32. `what` names it. The
/// messages start with Numba's words ("griddim must be a sequence of integers, got [2.0]").
inline Dim3 to_dim3(nb::handle h, const char* what, const char* prefix = "[RawKernel]") {
  const bool many = PyTuple_Check(h.ptr()) || PyList_Check(h.ptr());
  auto got = [&] {
    return nb::cast<std::string>(nb::repr(many ? nb::list(h) : nb::list(nb::make_tuple(h))));
  };
  auto one = [&](nb::handle v) -> unsigned {
    // PyNumber_Index takes ints and NumPy integers (anything with __index__), not floats.
    PyObject* index = PyNumber_Index(v.ptr());
    if (!index) {
      PyErr_Clear();
      throw DTypeError(std::string(prefix) + " " + what + " must be a sequence of integers, got " + got() +
                       ": it must be an int or a tuple of up to 3 ints");
    }
    int overflow = 0;
    long long x = PyLong_AsLongLongAndOverflow(index, &overflow);
    Py_DECREF(index);
    if (overflow) x = -1;
    if (x < 0 || x > 0xFFFFFFFFll)
      throw std::invalid_argument(std::string(prefix) + " " + what + " dimension " + std::to_string(x) +
                                  " is out of range");
    return static_cast<unsigned>(x);
  };
  if (many) {
    const size_t n = nb::len(h);
    if (n < 1 || n > 3)
      throw std::invalid_argument(std::string(prefix) + " " + what + " must be a sequence of 1, 2 or 3 integers, got " +
                                  got() + " (1 to 3 dimensions, not " + std::to_string(n) + ")");
    Dim3 d;
    d.x = one(h[0]);
    if (n > 1) d.y = one(h[1]);
    if (n > 2) d.z = one(h[2]);
    return d;
  }
  return Dim3(one(h));
}

inline bool is_auto(nb::handle h) { return PyUnicode_Check(h.ptr()) && nb::cast<std::string>(h) == "auto"; }

/// A block shape, or "auto" (loom times candidate blocks on first use).
inline void set_block(LaunchConfig& cfg, nb::handle block, const char* what = "block",
                      const char* prefix = "[RawKernel]") {
  if (is_auto(block)) cfg.auto_block = true;
  else if (PyUnicode_Check(block.ptr()))
    throw std::invalid_argument(std::string(prefix) + " " + what + " must be a shape or \"auto\"");
  else cfg.block = to_dim3(block, what, prefix);
}

/// A loom.Stream (copied into `holder`, which the config then points at) or None.
inline const Stream* to_stream(nb::handle h, std::optional<Stream>& holder, const char* prefix = "[RawKernel]") {
  if (h.is_none()) return nullptr;
  if (!nb::isinstance<Stream>(h)) throw DTypeError(std::string(prefix) + " stream must be a loom.Stream or None");
  holder = nb::cast<const Stream&>(h);
  return &*holder;
}

/// Numba's form k[grid, block, stream]: also the int 0 means the default stream.
inline const Stream* to_numba_stream(nb::handle h, std::optional<Stream>& holder,
                                     const char* prefix = "[RawKernel]") {
  int overflow = 0;
  if (h.is_none() || (PyLong_CheckExact(h.ptr()) && PyLong_AsLongLongAndOverflow(h.ptr(), &overflow) == 0 && !overflow))
    return nullptr;
  if (!nb::isinstance<Stream>(h)) throw DTypeError(std::string(prefix) + " stream must be a loom.Stream, None or 0");
  holder = nb::cast<const Stream&>(h);
  return &*holder;
}

/// Bytes of dynamic shared memory: an int >= 0.
inline size_t to_shared(nb::handle h, const char* what = "shared_mem", const char* prefix = "[RawKernel]") {
  PyObject* index = PyNumber_Index(h.ptr());
  if (!index) {
    PyErr_Clear();
    throw DTypeError(std::string(prefix) + " " + what + " must be an int");
  }
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(index, &overflow);
  Py_DECREF(index);
  if (overflow > 0) throw std::invalid_argument(std::string(prefix) + " " + what + " is out of range");
  if (v < 0 || overflow < 0) throw std::invalid_argument(std::string(prefix) + " " + what + " must be >= 0");
  return static_cast<size_t>(v);
}

/// Converts the arguments, launches with the GIL released (arrays are borrowed: the caller
/// holds them), then copies Out/InOut results back. Ctrl-C: one before the scope below is
/// Python's (raised here), one after it is loom's and ends the launch however long its
/// compile and load take before the kernel runs; one that came too late to stop the
/// kernel is raised after it.
inline void run(const Kernel& k, LaunchConfig cfg, const nb::handle* args, size_t n) {
  InterruptScope interrupts;
  if (PyErr_CheckSignals() != 0) throw nb::python_error();
  ConvertedArgs converted(k.name(), args, n, cfg.stream);
  {
    nb::gil_scoped_release unlocked;
    k.launch(cfg, converted.args());
  }
  converted.finish();
  if (interrupts.interrupted()) throw_interrupted(("RawKernel " + k.name()).c_str());
}

}  // namespace loom::py
