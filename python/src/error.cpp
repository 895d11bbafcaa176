// loom's exception types (DESIGN.md §5) and the translator that maps C++ exceptions
// to them. One translator with derived classes caught before their bases.
#include <string>

#include "bindings.h"

#include <nanobind/stl/string.h>

namespace loom::py {
namespace {

// Exception types live as long as the interpreter: module attributes plus these
// borrowed pointers (never released, so module teardown order cannot matter).
PyObject* g_device_mismatch = nullptr;
PyObject* g_out_of_memory = nullptr;
PyObject* g_cuda_error = nullptr;
PyObject* g_compile_error = nullptr;
PyObject* g_kernel_fault = nullptr;
PyObject* g_axis_error = nullptr;  // numpy.exceptions.AxisError
PyObject* g_concretization = nullptr;
PyObject* g_graph_capture = nullptr;
PyObject* g_distributed = nullptr;
PyObject* g_linalg_error = nullptr;  // numpy.linalg.LinAlgError
PyObject* g_distributed_timeout = nullptr;

PyObject* new_exception(nb::module_& m, const char* name, PyObject* base, const char* doc) {
  std::string qualified = std::string("loom.") + name;
  PyObject* t = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, base, nullptr);
  if (!t) throw nb::python_error();
  m.attr(name) = nb::handle(t);  // the module keeps a reference; `t` stays ours too
  return t;
}

// Raises `type(msg)` with extra attributes set on the instance.
void raise_with_attrs(PyObject* type, const char* msg,
                      std::initializer_list<std::pair<const char*, nb::object>> attrs) {
  PyObject* inst = PyObject_CallFunction(type, "s", msg);
  if (!inst) return;  // the call set an error already
  for (const auto& [name, value] : attrs) PyObject_SetAttrString(inst, name, value.ptr());
  PyErr_SetObject(type, inst);
  Py_DECREF(inst);
}

void translate(const std::exception_ptr& p, void*) {
  try {
    std::rethrow_exception(p);
  } catch (const DTypeError& e) {
    PyErr_SetString(PyExc_TypeError, e.what());
  } catch (const DeviceMismatchError& e) {
    PyErr_SetString(g_device_mismatch, e.what());
  } catch (const OutOfMemoryError& e) {
    PyErr_SetString(g_out_of_memory, e.what());
  } catch (const CudaError& e) {
    raise_with_attrs(g_cuda_error, e.what(),
                     {{"code", nb::int_(e.code())}, {"context_lost", nb::bool_(e.context_lost())}});
  } catch (const CompileError& e) {
    raise_with_attrs(g_compile_error, e.what(), {{"log", nb::str(e.log().c_str(), e.log().size())}});
  } catch (const KernelFaultError& e) {
    PyErr_SetString(g_kernel_fault, e.what());
  } catch (const LinAlgError& e) {
    PyErr_SetString(g_linalg_error, e.what());
  } catch (const DistributedTimeoutError& e) {
    PyErr_SetString(g_distributed_timeout, e.what());
  } catch (const DistributedError& e) {
    PyErr_SetString(g_distributed, e.what());
  } catch (const Interrupted& e) {
    // Ctrl-C, which loom's own SIGINT handler took: hand it to Python's handler (which
    // raises KeyboardInterrupt, or runs the user's), as if it had come now. Off the main
    // thread the main thread gets it, and this call raises KeyboardInterrupt itself.
    PyErr_SetInterrupt();
    if (PyErr_CheckSignals() == 0) PyErr_SetString(PyExc_KeyboardInterrupt, e.what());
  } catch (const UnsupportedError& e) {
    PyErr_SetString(PyExc_NotImplementedError, e.what());
  } catch (const ConcretizationError& e) {
    PyErr_SetString(g_concretization, e.what());
  } catch (const GraphCaptureError& e) {
    PyErr_SetString(g_graph_capture, e.what());
  } catch (const AxisError& e) {
    PyErr_SetString(g_axis_error, e.what());
  } catch (const std::out_of_range& e) {
    PyErr_SetString(PyExc_IndexError, e.what());
  }
  // Anything else propagates to nanobind's default translator
  // (std::invalid_argument -> ValueError, std::exception -> RuntimeError).
}

// Test hook: throws the C++ exception named `kind` so that tests can check the mapping.
void raise_for_testing(const std::string& kind, const std::string& msg) {
  if (kind == "DTypeError") throw DTypeError(msg);
  if (kind == "DeviceMismatchError") throw DeviceMismatchError(msg);
  if (kind == "OutOfMemoryError") throw OutOfMemoryError(msg);
  if (kind == "CudaError") throw CudaError(msg, 700, true);
  if (kind == "CompileError") throw CompileError(msg, "line 1: error");
  if (kind == "UnsupportedError") throw UnsupportedError(msg);
  if (kind == "ConcretizationError") throw ConcretizationError(msg);
  if (kind == "GraphCaptureError") throw GraphCaptureError(msg);
  if (kind == "KernelFaultError") throw KernelFaultError(msg);
  if (kind == "DistributedError") throw DistributedError(msg);
  if (kind == "LinAlgError") throw LinAlgError(msg);
  if (kind == "DistributedTimeoutError") throw DistributedTimeoutError(msg);
  if (kind == "invalid_argument") throw std::invalid_argument(msg);
  if (kind == "AxisError") throw AxisError(msg);
  if (kind == "out_of_range") throw std::out_of_range(msg);
  if (kind == "runtime_error") throw std::runtime_error(msg);
  throw std::invalid_argument("unknown exception kind '" + kind + "'");
}

}  // namespace

void set_python_error(const std::exception_ptr& p) noexcept {
  try {
    translate(p, nullptr);  // loom's types; anything else is rethrown to the clauses below
    return;
  } catch (nb::python_error& e) {
    e.restore();
  } catch (const std::bad_alloc&) {
    PyErr_NoMemory();
  } catch (const std::out_of_range& e) {
    PyErr_SetString(PyExc_IndexError, e.what());
  } catch (const std::overflow_error& e) {
    PyErr_SetString(PyExc_OverflowError, e.what());
  } catch (const std::logic_error& e) {  // invalid_argument, domain_error, length_error
    PyErr_SetString(PyExc_ValueError, e.what());
  } catch (const std::range_error& e) {
    PyErr_SetString(PyExc_ValueError, e.what());
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  } catch (...) {
    PyErr_SetString(PyExc_RuntimeError, "unknown C++ exception");
  }
}

void init_error(nb::module_& m) {
  g_device_mismatch = new_exception(m, "DeviceMismatchError", PyExc_ValueError,
                                    "Operands of one operation live on different devices.");
  g_out_of_memory = new_exception(m, "OutOfMemoryError", PyExc_MemoryError,
                                  "A device allocation failed after freeing the cache and retrying.");
  g_cuda_error = new_exception(m, "CudaError", PyExc_RuntimeError,
                               "A CUDA runtime, driver or library call failed; `.code` holds the "
                               "CUDA error code and `.context_lost` whether the device must be reset.");
  g_compile_error = new_exception(m, "CompileError", PyExc_RuntimeError,
                                  "Kernel compilation (NVRTC or host compiler) failed; `.log` holds "
                                  "the compiler log.");
  g_kernel_fault = new_exception(m, "KernelFaultError", PyExc_RuntimeError,
                                 "A fault inside a kernel run on the CPU (a NULL or wild pointer, an "
                                 "integer division by zero, a stack overflow); the process and the "
                                 "device stay usable.");
  g_concretization = new_exception(m, "ConcretizationTypeError", PyExc_TypeError,
                                   "An operation needs the values of an array that is being traced (inside "
                                   "loom.jit, vmap or grad), which are not known until the function runs: "
                                   "a Python if, bool(), int(), float(), .item() or a NumPy conversion.");
  g_graph_capture = new_exception(m, "GraphCaptureError", PyExc_RuntimeError,
                                  "Something a CUDA graph cannot record ran while loom.cuda_graph was "
                                  "capturing: a host read of GPU data, a synchronize, a kernel compile.");
  g_distributed = new_exception(m, "DistributedError", PyExc_RuntimeError,
                                "A collective or the rendezvous failed: a peer died or closed its "
                                "connection, a communicator was aborted, or the ranks called collectives "
                                "that do not match.");
  {
    // Both a DistributedError and Python's TimeoutError, so either `except` catches it.
    PyObject* bases = PyTuple_Pack(2, g_distributed, PyExc_TimeoutError);
    PyObject* t = PyErr_NewExceptionWithDoc("loom.DistributedTimeoutError",
                                            "The other ranks did not arrive within the process group's timeout.",
                                            bases, nullptr);
    Py_DECREF(bases);
    if (!t) throw nb::python_error();
    m.attr("DistributedTimeoutError") = nb::handle(t);
    g_distributed_timeout = t;
  }
  // NumPy's own type, so that `except np.exceptions.AxisError` catches loom's too.
  nb::object axis_error = numpy_module().attr("exceptions").attr("AxisError");
  g_axis_error = axis_error.inc_ref().ptr();
  m.attr("AxisError") = axis_error;
  nb::object linalg_error = nb::module_::import_("numpy.linalg").attr("LinAlgError");
  g_linalg_error = linalg_error.inc_ref().ptr();
  m.attr("LinAlgError") = linalg_error;
  nb::register_exception_translator(translate);
  m.def("_raise_for_testing", &raise_for_testing, nb::arg("kind"), nb::arg("msg") = "test",
        "Throws the C++ exception `kind` (e.g. 'CudaError'); used by the tests of the "
        "exception mapping.");
}

}  // namespace loom::py
