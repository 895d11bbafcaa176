// Converting Python launch arguments (DESIGN.md §4): loom arrays pass as device pointers,
// host arrays only through In/Out/InOut, raw addresses only as loom.driver allocations or
// ctypes.c_void_p, scalars by value: Python ones weak, NumPy ones with their dtype, each
// converted to the parameter's C type at the launch (loom/kernel/kernel_args.h).
#include "kernel_args.h"

#include <nanobind/stl/string.h>

#include "loom/kernel/kernel_args.h"

namespace loom::py {
namespace {

using kernel_detail::prefix;

bool is_numpy_array(nb::handle h) { return nb::isinstance(h, numpy_module().attr("ndarray")); }

// The device an argument pins the launch to, if any.
std::optional<Device> arg_device(nb::handle h) {
  if (nb::isinstance<Array>(h)) return nb::inst_ptr<Array>(h)->device();
  if (nb::isinstance<DeviceAllocation>(h)) return nb::inst_ptr<DeviceAllocation>(h)->device;
  return std::nullopt;
}

// The host array of an In/Out/InOut, checked up front so nothing launches on bad input.
void check_host_array(const std::string& kernel, size_t i, const HostArgument& h) {
  if (!h.copy_out) return;
  if (!HostBuffer(h.array, true).ok())
    throw std::invalid_argument(prefix(kernel) + " argument " + std::to_string(i) +
                                ": Out and InOut need a writeable, C-contiguous NumPy array");
}

// A Python int, float or bool as a Python-like scalar; an int beyond 64 bits is an
// OverflowError naming the kernel and the argument.
KernelArg python_scalar(const std::string& kernel, size_t i, nb::handle h) {
  try {
    return KernelArg(to_scalar(h));
  } catch (nb::python_error& e) {
    if (!e.matches(PyExc_OverflowError)) throw;
    throw std::overflow_error(prefix(kernel) + " argument " + std::to_string(i) + ": the Python int " +
                              nb::cast<std::string>(nb::str(h)) + " does not fit in 64 bits");
  }
}

// A NumPy scalar: typed (converted by same_kind casting) when loom has its dtype, else its
// exact bytes, which only parameters of unknown type take (structured, longdouble), and complex
// parameters too for a complex64/complex128 one (KernelArg::complex_value).
KernelArg numpy_scalar(const std::string& kernel, size_t i, nb::handle h) {
  nb::object dtype = h.attr("dtype");
  const std::string kind = nb::cast<std::string>(dtype.attr("kind"));
  const size_t size = nb::cast<size_t>(dtype.attr("itemsize"));
  const bool bfloat16_scalar = kind == "V" && nb::cast<std::string>(dtype.attr("name")) == "bfloat16";  // ml_dtypes
  if (kind == "b" || kind == "i" || kind == "u" || (kind == "f" && size <= 8) || bfloat16_scalar) {
    const DType dt = to_dtype(dtype);
    return KernelArg(to_scalar(h.attr("item")()), dt);
  }
  nb::object raw_obj = h.attr("tobytes")();
  if (!PyBytes_Check(raw_obj.ptr()))
    throw DTypeError(prefix(kernel) + " argument " + std::to_string(i) + ": tobytes() did not return bytes");
  nb::bytes raw = nb::borrow<nb::bytes>(raw_obj);
  const std::string name = nb::cast<std::string>(nb::str(nb::handle(dtype)));
  if (kind == "c" && (size == 8 || size == 16))  // complex64, complex128
    return KernelArg::complex_value(raw.c_str(), size == 8 ? DType::complex64 : DType::complex128, name);
  return KernelArg::opaque(raw.c_str(), raw.size(), name);
}

// ctypes.c_void_p(address): the documented way to pass a raw address (no device, no size).
bool is_c_void_p(nb::handle h) {
  static PyObject* const type = [] {
    nb::object t = nb::module_::import_("ctypes").attr("c_void_p");
    return t.release().ptr();  // kept for the life of the process
  }();
  return PyObject_TypeCheck(h.ptr(), reinterpret_cast<PyTypeObject*>(type));
}

KernelArg convert_scalar_or_fail(const std::string& kernel, size_t i, nb::handle h) {
  PyObject* p = h.ptr();
  // NumPy scalars first: numpy.float64 is also a Python float, but it is typed.
  if (nb::isinstance(h, numpy_module().attr("generic"))) return numpy_scalar(kernel, i, h);
  if (PyBool_Check(p) || PyLong_Check(p) || PyFloat_Check(p)) return python_scalar(kernel, i, h);
  if (PyComplex_Check(p)) {
    const double v[2] = {PyComplex_RealAsDouble(p), PyComplex_ImagAsDouble(p)};
    return KernelArg::complex_value(v, DType::complex128, "Python complex");
  }
  if (is_c_void_p(h)) {
    nb::object v = h.attr("value");  // None for NULL
    return KernelArg::address(v.is_none() ? nullptr : reinterpret_cast<void*>(nb::cast<uintptr_t>(v)));
  }
  if (is_numpy_array(h)) {
    // A 0-d array is a scalar, and a one-element structured array is how CuPy programs pass
    // a struct: both by value, as their element.
    const bool zero_d = nb::cast<int>(h.attr("ndim")) == 0;
    const bool one_struct = nb::cast<int64_t>(h.attr("size")) == 1 &&
                            nb::cast<std::string>(h.attr("dtype").attr("kind")) == "V";
    if (zero_d || one_struct) return numpy_scalar(kernel, i, h.attr("reshape")(-1)[0]);
  }
  if (is_numpy_array(h))
    throw DTypeError(prefix(kernel) + " argument " + std::to_string(i) +
                     " is a NumPy array in host memory; pass loom.asarray(a, device=...) or wrap it "
                     "in loom.In / loom.Out / loom.InOut to copy it around the launch");
  if (nb::hasattr(h, "__cuda_array_interface__")) return KernelArg(from_cuda_array_interface(h));
  throw DTypeError(prefix(kernel) + " argument " + std::to_string(i) + " is a " +
                   nb::cast<std::string>(nb::str(h.type().attr("__name__"))) +
                   "; kernels take loom arrays, loom.In/Out/InOut, loom.driver allocations, "
                   "ctypes.c_void_p addresses and scalars");
}

}  // namespace

HostBuffer::HostBuffer(nb::handle h, bool writable) {
  const int flags = PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0);
  ok_ = PyObject_GetBuffer(h.ptr(), &view_, flags) == 0;
  if (!ok_) PyErr_Clear();
}

HostBuffer::~HostBuffer() {
  if (ok_) PyBuffer_Release(&view_);
}

const Buffer& DeviceAllocation::live(const char* op) const {
  if (!buffer) throw std::invalid_argument(std::string("[") + op + "] the allocation was freed");
  return *buffer;
}

ConvertedArgs::ConvertedArgs(const std::string& kernel, const nb::handle* args, size_t n, const Stream* stream) {
  // The hot path is loom arrays and Python numbers: test those first, by exact type.
  static PyTypeObject* const array_type = reinterpret_cast<PyTypeObject*>(nb::type<Array>().ptr());
  args_.reserve(n);
  std::optional<Device> dev;  // where In/Out/InOut copies go; found at the first one
  for (size_t i = 0; i < n; ++i) {
    nb::handle h = args[i];
    PyObject* p = h.ptr();
    if (Py_TYPE(p) == array_type || nb::isinstance<Array>(h)) {
      args_.push_back(KernelArg::borrowed(*nb::inst_ptr<Array>(h)));  // the caller holds it
    } else if (PyLong_CheckExact(p) || PyFloat_CheckExact(p) || PyBool_Check(p)) {
      args_.push_back(python_scalar(kernel, i, h));
    } else if (nb::isinstance<DeviceAllocation>(h)) {
      const auto* a = nb::inst_ptr<DeviceAllocation>(h);
      args_.push_back(KernelArg::pointer(a->live("RawKernel").data(), a->device, a->nbytes));
    } else if (nb::isinstance<HostArgument>(h)) {
      if (!dev) {
        for (size_t j = 0; j < n && !dev; ++j) dev = arg_device(args[j]);
        if (!dev && stream) dev = stream->device();
        if (!dev) dev = default_device();
      }
      const auto* host = nb::inst_ptr<HostArgument>(h);
      check_host_array(kernel, i, *host);
      Array d = host->copy_in ? from_numpy(host->array, std::nullopt, *dev, true)
                              : Array::allocate(to_shape(host->array.attr("shape")),
                                                to_dtype(host->array.attr("dtype")), *dev);
      if (host->copy_out) copy_back_.emplace_back(d, host->array);
      args_.emplace_back(std::move(d));
    } else {
      args_.push_back(convert_scalar_or_fail(kernel, i, h));
    }
  }
}

void ConvertedArgs::finish() {
  for (auto& [d, host] : copy_back_) {
    HostBuffer view(host, true);
    if (!view.ok()) throw std::invalid_argument("[RawKernel] an Out/InOut array stopped being writeable");
    nb::gil_scoped_release unlocked;
    d.copy_to_host(view.data());
  }
}

void init_kernel_args(nb::module_& m) {
  nb::class_<HostArgument>(m, "_HostArgument", "A host array copied around a kernel launch.")
      .def_prop_ro("array", [](const HostArgument& h) { return h.array; }, "The host array.");
  auto make = [](auto* self, nb::handle a, bool in, bool out) {
    using T = std::remove_pointer_t<decltype(self)>;
    if (out && !nb::isinstance(a, numpy_module().attr("ndarray")))
      throw DTypeError("[Out/InOut] the argument must be a NumPy array, not " +
                       nb::cast<std::string>(nb::str(a.type().attr("__name__"))));
    new (self) T();
    // In takes any array-like (copied anyway); Out/InOut write back into the object itself.
    self->array = out || nb::isinstance(a, numpy_module().attr("ndarray")) ? nb::borrow(a)
                                                                          : numpy_module().attr("asarray")(a);
    self->copy_in = in;
    self->copy_out = out;
  };
  nb::class_<InArg, HostArgument>(m, "In",
                                  "Wraps a host (NumPy) array passed to a kernel: copied to the kernel's "
                                  "device before the launch (PyCUDA's In).")
      .def("__init__", [make](InArg* s, nb::handle a) { make(s, a, true, false); }, nb::arg("array"));
  nb::class_<OutArg, HostArgument>(m, "Out",
                                   "Wraps a host NumPy array a kernel writes: device memory of its shape "
                                   "and dtype is passed (not initialised) and copied back into it after the "
                                   "launch (PyCUDA's Out).")
      .def("__init__", [make](OutArg* s, nb::handle a) { make(s, a, false, true); }, nb::arg("array"));
  nb::class_<InOutArg, HostArgument>(m, "InOut",
                                     "Wraps a host NumPy array copied to the kernel's device before the "
                                     "launch and back after it (PyCUDA's InOut).")
      .def("__init__", [make](InOutArg* s, nb::handle a) { make(s, a, true, true); }, nb::arg("array"));
}

}  // namespace loom::py
