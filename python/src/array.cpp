// loom.ndarray: properties, moves between devices, host copies (numpy(), item(),
// tolist(), __array__) and repr. DLPack and __cuda_array_interface__ are in interop.cpp.
#include <cstdlib>
#include <string>
#include <vector>

#include "bindings.h"
#include "loom/runtime/gpu_runtime.h"
#include "loom/runtime/pinned_cache.h"

#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>

namespace loom::py {
namespace {

nb::dlpack::dtype dlpack_dtype_for_numpy(DType dt) {
  const uint8_t bits = static_cast<uint8_t>(itemsize(dt) * 8);
  switch (dtype_kind(dt)) {
    case DTypeKind::boolean: return {static_cast<uint8_t>(nb::dlpack::dtype_code::Bool), 8, 1};
    case DTypeKind::signed_int: return {static_cast<uint8_t>(nb::dlpack::dtype_code::Int), bits, 1};
    case DTypeKind::unsigned_int: return {static_cast<uint8_t>(nb::dlpack::dtype_code::UInt), bits, 1};
    case DTypeKind::complex: return {static_cast<uint8_t>(nb::dlpack::dtype_code::Complex), bits, 1};
    default:
      // NumPy has no bfloat16: export the bits as uint16, then view as ml_dtypes.bfloat16.
      if (dt == bfloat16) return {static_cast<uint8_t>(nb::dlpack::dtype_code::UInt), 16, 1};
      return {static_cast<uint8_t>(nb::dlpack::dtype_code::Float), bits, 1};
  }
}

nb::object shape_tuple(const std::vector<int64_t>& v) {
  PyObject* t = PyTuple_New(static_cast<Py_ssize_t>(v.size()));
  if (!t) throw nb::python_error();
  for (size_t i = 0; i < v.size(); ++i) PyTuple_SET_ITEM(t, i, PyLong_FromLongLong(v[i]));
  return nb::steal(t);
}

nb::object scalar_to_python(const Scalar& s) {
  switch (s.kind) {
    case Scalar::Kind::boolean: return nb::bool_(s.b);
    case Scalar::Kind::int_: return nb::steal(PyLong_FromLongLong(s.i));
    case Scalar::Kind::uint_: return nb::steal(PyLong_FromUnsignedLongLong(s.u));
    case Scalar::Kind::complex_: return nb::steal(PyComplex_FromDoubles(s.f, s.im));
    default: return nb::float_(s.f);
  }
}

// A host read of an array being traced (inside loom.jit, vmap or grad) has no values to
// read: `what` names the Python operation in the ConcretizationError.
void require_concrete(const Array& a, const char* what, const char* hint = nullptr) {
  if (!is_abstract(a)) return;
  throw_concretization(what, std::string("reads the value of a traced array (") + dtype_name(a.dtype()) +
                                 shape_str(a.shape()) + ")" + (hint ? std::string("; ") + hint : std::string()));
}

nb::object item(const Array& a) {
  require_concrete(a, "item", "keep it an array");
  if (a.size() != 1) {
    throw std::invalid_argument("can only convert an array of size 1 to a Python scalar (this one has shape " +
                                shape_str(a.shape()) + ")");
  }
  alignas(16) unsigned char buf[16];
  {
    nb::gil_scoped_release release;
    a.copy_to_host(buf);
  }
  return scalar_to_python(scalar_from_bytes(buf, a.dtype()));
}

// x.to(device) and x.to_device(device): the same object when nothing moves.
nb::object move_to(nb::handle self, nb::handle device) {
  const Array& a = nb::cast<const Array&>(self);
  const Device d = to_device(device);
  if (d == a.device()) return nb::borrow(self);
  Array out;
  {
    nb::gil_scoped_release release;
    out = a.copy_to(d);
  }
  return nb::cast(std::move(out));
}

std::string repr(const Array& a) {
  if (is_abstract(a))  // as JAX prints its tracers
    return std::string("Traced<") + dtype_name(a.dtype()) + shape_str(a.shape()) + ", device=" + a.device().str() + ">";
  nb::handle np = numpy_module();
  nb::object host = to_numpy(a, false, false);
  std::string body = nb::cast<std::string>(
      np.attr("array2string")(host, nb::arg("separator") = ", ", nb::arg("prefix") = "array("));
  std::string s = "array(" + body;
  if (a.size() == 0 && a.ndim() != 1) s += ", shape=" + shape_str(a.shape());
  s += std::string(", dtype=") + dtype_name(a.dtype()) + ", device=" + a.device().str() + ")";
  return s;
}

}  // namespace

nb::object host_ndarray(void* data, DType dt, const Shape& shape, const Strides& strides, nb::handle owner) {
  const int64_t item = static_cast<int64_t>(itemsize(dt));
  std::vector<size_t> sh(shape.begin(), shape.end());
  std::vector<int64_t> st(shape.size());
  for (size_t i = 0; i < shape.size(); ++i) {
    if (strides[i] % item != 0) throw std::invalid_argument("strides are not a multiple of the item size");
    st[i] = strides[i] / item;
  }
  nb::ndarray<nb::numpy> nd(data, sh.size(), sh.data(), owner, st.data(), dlpack_dtype_for_numpy(dt),
                            nb::device::cpu::value);
  nb::object out = nd.cast();
  // bfloat16 has no DLPack code NumPy reads; 64-bit integers come back as NumPy's longlong
  // ('q', 'Q'), which on LP64 is a type apart from np.int64 ('l'): its scalars are not
  // np.int64 and SciPy's value_indices, for one, returns nothing for it.
  if (dt == bfloat16 || dt == int64 || dt == uint64) out = out.attr("view")(numpy_dtype(dt));
  return out;
}

nb::object to_numpy(const Array& a, bool copy, bool escapes) {
  require_concrete(a, "numpy", "NumPy conversions need values; return the array from the function instead");
  if (a.device().is_cpu() && !copy) {
    // A view: the capsule keeps a reference to the buffer.
    if (escapes) a.buffer()->mark_untracked();
    auto* keep = new Array(a);
    nb::capsule owner(keep, [](void* p) noexcept { delete static_cast<Array*>(p); });
    return host_ndarray(a.data(), a.dtype(), a.shape(), a.strides(), owner);
  }
  const size_t nbytes = a.nbytes();
  // From a GPU, large arrays land in page-locked memory from the pinned cache: the DMA
  // writes it directly, at full speed (runtime/pinned_cache.h). Not while a graph is
  // captured: the download then raises, before any allocation could upset the capture.
  constexpr size_t kPinnedFrom = size_t{1} << 20;
  void* p = nullptr;
  if (a.device().is_gpu() && nbytes >= kPinnedFrom && !gpu_runtime::capturing()) p = pinned_cache::take(nbytes);
  const bool pinned = p != nullptr;
  if (!p) p = std::malloc(nbytes > 0 ? nbytes : 1);
  if (!p) throw std::bad_alloc();
  nb::capsule owner = pinned ? nb::capsule(p, [](void* q) noexcept { pinned_cache::give_back(q); })
                             : nb::capsule(p, [](void* q) noexcept { std::free(q); });
  {
    nb::gil_scoped_release release;
    a.copy_to_host(p);
  }
  return host_ndarray(p, a.dtype(), a.shape(), contiguous_strides(a.shape(), a.itemsize()), owner);
}

void init_array(nb::module_& m, nb::class_<Array>& cls) {
  // CuPy's constructor, ndarray(shape, dtype=float, memptr=None, strides=None, order='C'): the
  // Python layer (loom/_numpy/cupy_types.py) makes the array (a new one, or a view of memptr's
  // memory); this object becomes a handle to it, so loom.ndarray stays the arrays' own type.
  cls.def("__init__",
          [](Array* self, nb::args args, nb::kwargs kwargs) {
            // Kept for the life of the process: a static nb::object would be released after
            // the interpreter is gone.
            static PyObject* const construct =
                nb::object(nb::module_::import_("loom._numpy.cupy_types").attr("construct")).release().ptr();
            nb::object made = nb::handle(construct)(*args, **kwargs);
            new (self) Array(nb::cast<Array>(made));
          },
          "ndarray(shape, dtype=float, memptr=None, strides=None, order='C'): CuPy's constructor, a new "
          "uninitialised array on the default device, or one over memptr's memory (a loom.cuda.MemoryPointer: "
          "x.data, loom.cuda.alloc(n)) with strides in bytes. loom.empty/zeros/asarray are the usual ways.");
  cls.def_prop_ro("shape", [](const Array& a) { return shape_tuple(a.shape()); }, "Tuple of dimensions.")
      .def_prop_ro("dtype", [](const Array& a) { return dtype_object(a.dtype()); }, "Element type (loom.float32, ...).")
      .def_prop_ro("ndim", &Array::ndim, "Number of dimensions.")
      .def_prop_ro("size", &Array::size, "Number of elements.")
      .def_prop_ro("nbytes", &Array::nbytes, "size * itemsize.")
      .def_prop_ro("itemsize", &Array::itemsize, "Bytes per element.")
      .def_prop_ro("strides", [](const Array& a) { return shape_tuple(a.strides()); },
                   "Bytes to step in each dimension (NumPy convention).")
      .def_prop_ro("device", [](const Array& a) { return a.device(); }, "The device the array lives on.")
      .def_prop_ro("T", &Array::transpose, "The array with its axes reversed (a view).")
      .def_prop_ro("mT", [](const Array& a) { return matrix_transpose(a); },
                   "The array with its last two axes swapped (a view; the Array API's matrix transpose).")
      .def("to", &move_to, nb::arg("device"), "This same array when it already lives on `device`, else a copy there.")
      .def(
          "to_device",
          [](nb::handle self, nb::handle device, nb::handle stream) {
            if (stream.is_none()) return move_to(self, device);
            if (!nb::isinstance<Stream>(stream)) raise_arg_type("to_device", "stream", "a loom.Stream or None", stream);
            // The copy is enqueued on `stream` (a loom.Stream of the target device), as
            // `with stream:` would.
            stream.attr("__enter__")();
            nb::object r;
            try {
              r = move_to(self, device);
            } catch (...) {
              stream.attr("__exit__")(nb::none(), nb::none(), nb::none());
              throw;
            }
            stream.attr("__exit__")(nb::none(), nb::none(), nb::none());
            return r;
          },
          nb::arg("device"), nb::kw_only(), nb::arg("stream").none() = nb::none(),
          "The Array API's to_device: this same array when it already lives on `device`, else a copy there "
          "(enqueued on `stream`, a loom.Stream, when given).")
      .def("copy_to", [](const Array& a, nb::handle device) {
             const Device d = to_device(device);
             nb::gil_scoped_release release;
             return a.copy_to(d);
           },
           nb::arg("device"), "A new copy on `device`, always.")
      .def("copy", &Array::copy, "A new contiguous copy on the same device.")
      // copy.copy and copy.deepcopy give a new array, as NumPy's do (a module's deep copy
      // copies its parameters).
      .def("__copy__", &Array::copy)
      .def("__deepcopy__", [](const Array& a, nb::handle) { return a.copy(); }, nb::arg("memo"))
      .def(
          "astype",
          [](nb::handle self, nb::handle dtype, bool copy) -> nb::object {
            const Array& a = nb::cast<const Array&>(self);
            const DType dt = to_dtype(dtype);
            if (dt == a.dtype() && !copy) return nb::borrow(self);
            warn_complex_discard(a.dtype(), dt);
            return nb::cast(a.astype(dt));
          },
          nb::arg("dtype"), nb::arg("copy") = true,
          "A new contiguous array converted to `dtype` with NumPy's cast results (out-of-range "
          "float-to-int casts are undefined, as in NumPy). With copy=False and the same dtype, self.")
      .def("numpy", [](const Array& a) { return to_numpy(a, false); },
           "The elements as a NumPy array: a view sharing memory for CPU arrays (like "
           "torch.Tensor.numpy()), a copy for GPU arrays (waits for pending work).")
      .def("item", &item, "The only element as a Python bool, int or float.")
      .def("tolist",
           [](const Array& a) {
             nb::object h = to_numpy(a, false, false);
             if (a.dtype() == bfloat16) h = h.attr("astype")(numpy_dtype(float32));
             return h.attr("tolist")();
           },
           "Nested Python lists of Python scalars.")
      .def(
          "block_until_ready",
          [](nb::handle self) {
            const Array& a = nb::cast<const Array&>(self);
            {
              nb::gil_scoped_release release;
              a.block_until_ready();
            }
            return nb::borrow(self);
          },
          "Waits until the work that writes this array is done; returns the array.")
      .def(
          "__array__",
          [](const Array& a, nb::handle dtype, nb::handle copy) {
            const std::optional<bool> c = to_optional_bool_arg(copy, "__array__", "copy");
            const bool force = c.value_or(false);
            if (c == false && a.device().is_gpu()) {
              throw std::invalid_argument("Unable to avoid copy: the array lives on " + a.device().str());
            }
            nb::object out = to_numpy(a, force);
            if (!dtype.is_none()) out = out.attr("astype")(dtype, nb::arg("copy") = false);
            return out;
          },
          nb::arg("dtype").none() = nb::none(), nb::arg("copy").none() = nb::none(),
          "NumPy conversion (np.asarray(x)): a view for CPU arrays unless copy=True, a copy for GPU arrays.")
      .def("__len__",
           [](const Array& a) {
             if (a.ndim() == 0) throw nb::type_error("len() of unsized object");
             return a.shape()[0];
           },
           "Length of the first dimension.")
      .def("__bool__",
           [](const Array& a) {
             require_concrete(a, "bool", "a Python `if` or `while` on a traced array cannot be traced: use "
                              "loom.where(cond, x, y), or make the value a static argument (static_argnums)");
             if (a.size() != 1) {
               throw std::invalid_argument("The truth value of an array with " +
                                           std::string(a.size() ? "more than one element" : "no elements") +
                                           " is ambiguous");
             }
             const int truth = PyObject_IsTrue(item(a).ptr());
             if (truth < 0) throw nb::python_error();
             return truth == 1;
           },
           "Truth value of a size-1 array; ValueError for other sizes.")
      .def("__float__",
           [](const Array& a) {
             require_concrete(a, "float", "use x.astype(loom.float64) to stay an array");
             return nb::cast<double>(nb::float_(item(a)));
           },
           "float() of a size-1 array.")
      .def("__int__",
           [](const Array& a) {
             require_concrete(a, "int", "use x.astype(loom.int64) to stay an array, or make it a static argument");
             return nb::int_(item(a));
           },
           "int() of a size-1 array.")
      .def("__complex__",
           [](const Array& a) {
             require_concrete(a, "complex", "use x.astype(loom.complex128) to stay an array");
             nb::object v = item(a);
             PyObject* c = PyObject_CallOneArg(reinterpret_cast<PyObject*>(&PyComplex_Type), v.ptr());
             if (!c) throw nb::python_error();
             return nb::steal(c);
           },
           "complex() of a size-1 array.")
      .def("__index__",
           [](const Array& a) {
             require_concrete(a, "index", "an index that decides a shape must be a static argument (static_argnums)");
             if (!is_integer(a.dtype())) {  // bool too, as NumPy and the Array API
               throw nb::type_error("only integer scalar arrays can be converted to a scalar index");
             }
             return nb::int_(item(a));
           },
           "operator.index() of an integer size-1 array.")
      .def("__repr__", &repr, "array([...], dtype=float32, device=gpu(0))")
      .def("__str__", [](const Array& a) { return is_abstract(a) ? nb::str(repr(a).c_str()) : nb::str(to_numpy(a, false, false)); }, "The elements as NumPy prints them.");
  cls.attr("__array_priority__") = 100;
}

}  // namespace loom::py
