// Zero-copy exchange with other array libraries: DLPack (both directions) and
// __cuda_array_interface__ v3 (both directions).
#include <cstdint>
#include <string>
#include <vector>

#include "bindings.h"
#include "dlpack.h"
#include "interop_terms.h"
#include "loom/runtime/gpu_runtime.h"

#include <nanobind/stl/string.h>

namespace loom::py {
namespace {

// ---- DLPack export --------------------------------------------------------------------

struct ExportCtx {
  Array array;  // keeps the buffer alive while the consumer holds the tensor
  std::vector<int64_t> shape, strides;
  DLManagedTensor legacy;
  DLManagedTensorVersioned versioned;
};

template <class Managed>
void delete_export(Managed* m) {
  delete static_cast<ExportCtx*>(m->manager_ctx);
}

// Capsules nobody consumed still own their tensor; consumed ones were renamed "used_...".
template <class Managed, const char* kName>
void destroy_capsule(PyObject* cap) {
  if (!PyCapsule_IsValid(cap, kName)) return;
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  auto* m = static_cast<Managed*>(PyCapsule_GetPointer(cap, kName));
  if (m && m->deleter) m->deleter(m);
  PyErr_Restore(type, value, tb);
}
constexpr char kLegacyName[] = "dltensor";
constexpr char kVersionedName[] = "dltensor_versioned";

DLDevice to_dl_device(const Device& d) {
  return d.is_cpu() ? DLDevice{kDLCPU, 0} : DLDevice{kDLCUDA, d.index};
}

nb::object make_capsule(const Array& a, bool versioned, bool copied) {
  auto* ctx = new ExportCtx{a, {}, {}, {}, {}};
  const int nd = a.ndim();
  const int64_t item = static_cast<int64_t>(a.itemsize());
  ctx->shape.assign(a.shape().begin(), a.shape().end());
  ctx->strides.resize(nd);
  for (int i = 0; i < nd; ++i) {
    if (a.strides()[i] % item != 0) {
      delete ctx;
      throw nb::buffer_error("[__dlpack__] strides that are not a multiple of the item size");
    }
    ctx->strides[i] = a.strides()[i] / item;
  }
  ctx->shape.reserve(1);  // valid (non-null) pointers for 0-d arrays too
  ctx->strides.reserve(1);
  static char empty_data = 0;
  if (is_abstract(a)) {
    delete ctx;
    throw_concretization("__dlpack__", "cannot export an array that is being traced");
  }
  a.buffer()->mark_untracked();  // the consumer may write it
  void* data = a.data();
  if (!data && a.device().is_cpu()) data = &empty_data;  // some consumers reject NULL
  DLTensor t{data, to_dl_device(a.device()), nd, to_dl_dtype(a.dtype()), ctx->shape.data(),
             ctx->strides.data(), 0};
  PyObject* cap;
  if (versioned) {
    ctx->versioned = DLManagedTensorVersioned{
        {LOOM_DLPACK_MAJOR_VERSION, LOOM_DLPACK_MINOR_VERSION}, ctx, delete_export<DLManagedTensorVersioned>,
        copied ? DLPACK_FLAG_BITMASK_IS_COPIED : 0, t};
    cap = PyCapsule_New(&ctx->versioned, kVersionedName,
                        destroy_capsule<DLManagedTensorVersioned, kVersionedName>);
  } else {
    ctx->legacy = DLManagedTensor{t, ctx, delete_export<DLManagedTensor>};
    cap = PyCapsule_New(&ctx->legacy, kLegacyName, destroy_capsule<DLManagedTensor, kLegacyName>);
  }
  if (!cap) {
    delete ctx;
    throw nb::python_error();
  }
  return nb::steal(cap);
}

// A (major, minor) or (device_type, device_id) pair of ints, as the DLPack protocol passes them.
std::pair<int64_t, int64_t> int_pair(nb::handle h, const char* arg) {
  if (!PyTuple_Check(h.ptr()) || PyTuple_GET_SIZE(h.ptr()) != 2)
    raise_arg_type("__dlpack__", arg, "a tuple of two ints", h);
  return {to_int_arg(PyTuple_GET_ITEM(h.ptr(), 0), "__dlpack__", arg),
          to_int_arg(PyTuple_GET_ITEM(h.ptr(), 1), "__dlpack__", arg)};
}

nb::object dlpack(const Array& self, nb::handle stream, nb::handle max_version, nb::handle dl_device,
                  nb::handle copy) {
  const bool versioned = !max_version.is_none() && int_pair(max_version, "max_version").first >= 1;
  const std::optional<bool> copy_flag = to_optional_bool_arg(copy, "__dlpack__", "copy");
  const bool may_copy = copy_flag.value_or(true);
  // The Array API allows only stream=None for CPU memory (NumPy refuses others too); a
  // GPU stream number for host memory is a caller's mistake, not something to ignore.
  const intptr_t consumer_stream = stream.is_none() ? 1 : to_int_arg(stream, "__dlpack__", "stream");
  Array src = self;
  bool copied = false;
  if (!dl_device.is_none()) {
    const auto [type, id] = int_pair(dl_device, "dl_device");
    Device want;
    if (type == kDLCPU) {
      want = cpu();
    } else if (type == kDLCUDA) {
      if (id < 0 || id > INT32_MAX) throw nb::buffer_error("[__dlpack__] dl_device has an invalid device id");
      want = gpu_device(static_cast<int>(id));
    } else {
      throw nb::buffer_error("[__dlpack__] unsupported dl_device");
    }
    if (want != self.device()) {
      if (!may_copy) throw nb::buffer_error("[__dlpack__] dl_device differs from the array's device and copy=False");
      nb::gil_scoped_release release;
      src = self.copy_to(want);
      copied = true;
    }
  }
  if (!stream.is_none() && src.device().is_cpu()) {
    throw std::invalid_argument("[__dlpack__] stream must be None for an array on cpu() (got " +
                                nb::cast<std::string>(nb::repr(stream)) + ")");
  }
  if (!copied && copy_flag == true) {
    src = self.copy();
    copied = true;
  }
  if (src.device().is_gpu()) {
    // The consumer reads on `stream` (None: the legacy default stream; -1: no ordering;
    // 0 is not allowed by the spec and read as the legacy default stream).
    intptr_t consumer = consumer_stream;
    if (consumer == 0) consumer = 1;
    if (consumer != -1) {
      gpu_runtime::wait_for_writer(src);  // our current stream now follows the writer
      order_streams(src.device().index, stream_int(Stream::current(src.device()).native()), consumer);
    }
  }
  return make_capsule(src, versioned, copied);
}

nb::object cuda_array_interface(const Array& a) {
  if (!a.device().is_gpu()) {
    throw nb::attribute_error("__cuda_array_interface__ exists only for GPU arrays; this one is on cpu()");
  }
  if (is_abstract(a)) throw_concretization("__cuda_array_interface__", "cannot export an array that is being traced");
  nb::dict d;
  nb::list shape;
  for (int64_t s : a.shape()) shape.append(s);
  d["shape"] = nb::tuple(shape);
  d["typestr"] = typestr(a.dtype());
  nb::list descr;
  descr.append(nb::make_tuple("", typestr(a.dtype())));
  d["descr"] = descr;
  a.buffer()->mark_untracked();  // the consumer may write it
  d["data"] = nb::make_tuple(reinterpret_cast<uintptr_t>(a.data()), false);
  if (a.is_contiguous()) {
    d["strides"] = nb::none();
  } else {
    nb::list st;
    for (int64_t s : a.strides()) st.append(s);
    d["strides"] = nb::tuple(st);
  }
  d["version"] = 3;
  // Consumers order their reads after this stream: the current one, made to follow the writer.
  gpu_runtime::wait_for_writer(a);
  d["stream"] = stream_int(Stream::current(a.device()).native());
  return d;
}

// ---- imports --------------------------------------------------------------------------

// A DLTensor's shape, checked: producers are foreign code, and a NULL shape or a negative
// ndim must be an error, not a read through a bad pointer.
Shape dl_shape(const DLTensor& t) {
  constexpr int kMaxDims = 64;  // NumPy's limit; nothing real has more
  if (t.ndim < 0 || t.ndim > kMaxDims)
    throw nb::buffer_error(("[from_dlpack] the DLPack tensor has ndim " + std::to_string(t.ndim) +
                            " (expected 0 to " + std::to_string(kMaxDims) + ")").c_str());
  if (t.ndim > 0 && !t.shape) throw nb::buffer_error("[from_dlpack] the DLPack tensor has ndim > 0 but a NULL shape");
  Shape shape(t.shape, t.shape + t.ndim);
  int64_t total = 1;
  for (int64_t s : shape) {
    if (s < 0)
      throw nb::buffer_error(("[from_dlpack] the DLPack tensor has a negative dimension " + std::to_string(s)).c_str());
    if (__builtin_mul_overflow(total, s, &total))
      throw nb::buffer_error("[from_dlpack] the DLPack tensor's element count does not fit in 64 bits");
  }
  return shape;
}

void release_pyobject(PyObject* o) { Py_DECREF(o); }

}  // namespace

Array from_dlpack_object(nb::handle obj) {
  nb::object cap;
  if (PyCapsule_CheckExact(obj.ptr())) {
    cap = nb::borrow(obj);
  } else {
    if (!nb::hasattr(obj, "__dlpack__")) {
      throw nb::type_error(("[from_dlpack] " + nb::cast<std::string>(nb::repr(nb::handle(Py_TYPE(obj.ptr())))) +
                            " has no __dlpack__ method").c_str());
    }
    int32_t type = kDLCPU, id = 0;
    if (nb::hasattr(obj, "__dlpack_device__")) {
      nb::object d = obj.attr("__dlpack_device__")();
      if (!PyTuple_Check(d.ptr()) || PyTuple_GET_SIZE(d.ptr()) != 2)
        throw nb::type_error("[from_dlpack] __dlpack_device__() must return a (device_type, device_id) tuple");
      const int64_t t64 = to_int_arg(PyTuple_GET_ITEM(d.ptr(), 0), "from_dlpack", "__dlpack_device__()[0]");
      const int64_t i64 = to_int_arg(PyTuple_GET_ITEM(d.ptr(), 1), "from_dlpack", "__dlpack_device__()[1]");
      if (t64 < INT32_MIN || t64 > INT32_MAX || i64 < INT32_MIN || i64 > INT32_MAX)
        throw nb::buffer_error("[from_dlpack] __dlpack_device__() returned an invalid device");
      type = static_cast<int32_t>(t64);
      id = static_cast<int32_t>(i64);
    }
    nb::object fn = obj.attr("__dlpack__");
    nb::object stream = nb::none();
    if (type == kDLCUDA || type == kDLCUDAManaged) {
      // The producer orders its work before our current stream on that GPU.
      stream = nb::int_(stream_int(Stream::current(gpu_device(id)).native()));
    }
    try {
      cap = fn(nb::arg("stream") = stream, nb::arg("max_version") = nb::make_tuple(1, 0));
    } catch (nb::python_error& e) {
      if (!e.matches(PyExc_TypeError)) throw;  // producers older than DLPack 1.0
      cap = stream.is_none() ? fn() : fn(nb::arg("stream") = stream);
    }
  }

  PyObject* c = cap.ptr();
  DLTensor* t;
  bool read_only = false;
  bool versioned = PyCapsule_IsValid(c, "dltensor_versioned");
  void* managed;
  if (versioned) {
    auto* m = static_cast<DLManagedTensorVersioned*>(PyCapsule_GetPointer(c, "dltensor_versioned"));
    if (m->version.major > LOOM_DLPACK_MAJOR_VERSION) {
      throw nb::buffer_error("[from_dlpack] the producer's DLPack major version is newer than loom's");
    }
    t = &m->dl_tensor;
    read_only = (m->flags & DLPACK_FLAG_BITMASK_READ_ONLY) != 0;
    managed = m;
  } else if (PyCapsule_IsValid(c, "dltensor")) {
    auto* m = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(c, "dltensor"));
    t = &m->dl_tensor;
    managed = m;
  } else {
    throw std::invalid_argument("[from_dlpack] expected a DLPack capsule that was not consumed yet");
  }

  // Validate before taking ownership: on error the capsule still frees the tensor.
  const DType dt = from_dl_dtype(t->dtype);
  const Device dev = from_dl_device(t->device.device_type, t->device.device_id);
  const int64_t item = static_cast<int64_t>(itemsize(dt));
  const Shape shape = dl_shape(*t);
  Strides strides = contiguous_strides(shape, item);
  if (t->strides) {
    for (int i = 0; i < t->ndim; ++i) {
      if (__builtin_mul_overflow(t->strides[i], item, &strides[i]))
        throw nb::buffer_error("[from_dlpack] the DLPack tensor has a stride too large for 64-bit byte offsets");
    }
  }
  if (!t->data && shape_size(shape) > 0)
    throw nb::buffer_error("[from_dlpack] the DLPack tensor has NULL data but holds elements");
  if (t->byte_offset > static_cast<uint64_t>(INT64_MAX))
    throw nb::buffer_error("[from_dlpack] the DLPack tensor's byte_offset is out of range");
  void* data = static_cast<char*>(t->data) + t->byte_offset;

  PyCapsule_SetName(c, versioned ? "used_dltensor_versioned" : "used_dltensor");
  std::function<void()> release;
  if (versioned) {
    release = [m = static_cast<DLManagedTensorVersioned*>(managed)]() { if (m->deleter) m->deleter(m); };
  } else {
    release = [m = static_cast<DLManagedTensor*>(managed)]() { if (m->deleter) m->deleter(m); };
  }
  Array out = wrap_foreign(data, dt, shape, strides, dev, std::move(release));
  return read_only ? out.copy() : out;  // loom arrays are writable: never alias read-only memory
}

namespace {

[[noreturn]] void bad_cai(const std::string& what) {
  throw nb::type_error(("[asarray] __cuda_array_interface__ " + what).c_str());
}

// A tuple of ints from the interface dict (shape or strides).
std::vector<int64_t> cai_ints(nb::handle v, const char* key) {
  if (!PyTuple_Check(v.ptr())) bad_cai(std::string("'") + key + "' must be a tuple of ints");
  std::vector<int64_t> out;
  for (nb::handle x : v) out.push_back(to_int_arg(x, "asarray", key));
  return out;
}

nb::handle cai_get(const nb::dict& d, const char* key) {
  PyObject* v = PyDict_GetItemString(d.ptr(), key);  // borrowed
  if (!v) bad_cai(std::string("has no '") + key + "' entry");
  return v;
}

}  // namespace

Array from_cuda_array_interface(nb::handle obj) {
  nb::object cai = obj.attr("__cuda_array_interface__");
  if (!PyDict_Check(cai.ptr())) bad_cai("must be a dict");
  nb::dict d = nb::borrow<nb::dict>(cai);
  nb::handle ts = cai_get(d, "typestr");
  if (!PyUnicode_Check(ts.ptr())) bad_cai("'typestr' must be a str");
  const DType dt = from_typestr(nb::cast<std::string>(ts));
  const Shape shape = cai_ints(cai_get(d, "shape"), "shape");
  for (int64_t s : shape)
    if (s < 0) throw std::invalid_argument("[asarray] __cuda_array_interface__ 'shape' has a negative dimension");
  (void)shape_size(shape, "asarray");  // element count must fit in 64 bits
  Strides strides = contiguous_strides(shape, itemsize(dt));
  if (d.contains("strides") && !d["strides"].is_none()) {
    strides = cai_ints(d["strides"], "strides");
    if (strides.size() != shape.size())
      throw std::invalid_argument("[asarray] __cuda_array_interface__ 'strides' has " + std::to_string(strides.size()) +
                                  " entries but 'shape' has " + std::to_string(shape.size()));
  }
  if (d.contains("mask") && !d["mask"].is_none()) {
    throw std::invalid_argument("[asarray] masked __cuda_array_interface__ arrays are not supported");
  }
  nb::handle data = cai_get(d, "data");
  if (!PyTuple_Check(data.ptr()) || PyTuple_GET_SIZE(data.ptr()) != 2) bad_cai("'data' must be a (pointer, read_only) tuple");
  const int64_t ptr_i = to_int_arg(PyTuple_GET_ITEM(data.ptr(), 0), "asarray", "__cuda_array_interface__['data'][0]");
  const uintptr_t ptr = static_cast<uintptr_t>(ptr_i);
  const bool read_only = to_bool_arg(PyTuple_GET_ITEM(data.ptr(), 1), "asarray", "__cuda_array_interface__['data'][1]");
  int index;
  if (ptr != 0) {
    index = gpu_runtime::pointer_device(reinterpret_cast<void*>(ptr));
    if (index < 0) throw std::invalid_argument("[asarray] __cuda_array_interface__ data is not GPU memory");
  } else {
    const Device def = default_device();
    index = def.is_gpu() ? def.index : 0;
  }
  const Device dev = gpu_device(index);
  if (d.contains("stream") && !d["stream"].is_none()) {
    const intptr_t s = to_int_arg(d["stream"], "asarray", "__cuda_array_interface__['stream']");
    if (s == 0) throw std::invalid_argument("[asarray] __cuda_array_interface__ stream 0 is not allowed");
    order_streams(index, s, stream_int(Stream::current(dev).native()));
  }
  PyObject* owner = obj.ptr();
  Py_INCREF(owner);  // the producer stays alive while loom views its memory
  Array out = wrap_foreign(reinterpret_cast<void*>(ptr), dt, shape, strides, dev,
                           [owner]() { release_pyobject(owner); });
  return read_only ? out.copy() : out;
}

namespace {

// asnumpy(x, out=...): checks `out` against x and copies x's elements into it.
void copy_into_numpy(const Array& x, nb::handle out) {
  Py_buffer view;
  if (PyObject_GetBuffer(out.ptr(), &view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) != 0) {
    PyErr_Clear();
    throw std::invalid_argument("[asnumpy] out must be a writeable, C-contiguous NumPy array");
  }
  struct Release {
    Py_buffer* v;
    ~Release() { PyBuffer_Release(v); }
  } release{&view};
  const Shape shape(view.shape, view.shape + view.ndim);
  if (shape != x.shape()) {
    throw std::invalid_argument("[asnumpy] out has shape " + shape_str(shape) + " but x has shape " +
                                shape_str(x.shape()));
  }
  const DType dt = to_dtype(out.attr("dtype"));
  if (dt != x.dtype()) {
    throw DTypeError(std::string("[asnumpy] out has dtype ") + dtype_name(dt) + " but x has dtype " +
                     dtype_name(x.dtype()));
  }
  nb::gil_scoped_release unlocked;
  x.copy_to_host(view.buf);
}

}  // namespace

void init_interop(nb::module_& m, nb::class_<Array>& cls) {
  cls.def("__dlpack__", &dlpack, nb::arg("stream").none() = nb::none(), nb::arg("max_version").none() = nb::none(),
          nb::arg("dl_device").none() = nb::none(), nb::arg("copy").none() = nb::none(),
          "DLPack export without a copy: a 'dltensor_versioned' capsule when max_version >= (1, 0), "
          "else a legacy 'dltensor' one. For GPU arrays the consumer's `stream` (None: legacy "
          "default, -1: none) waits for the work that writes the array. dl_device=(1, 0) with a "
          "GPU array copies to the host unless copy=False.")
      .def("__dlpack_device__",
           [](const Array& a) {
             const DLDevice d = to_dl_device(a.device());
             return nb::make_tuple(d.device_type, d.device_id);
           },
           "(device_type, device_id) as DLPack names them: (1, 0) for cpu(), (2, i) for gpu(i).")
      .def_prop_ro("__cuda_array_interface__", &cuda_array_interface,
                   "The CUDA Array Interface (v3) of a GPU array; AttributeError for CPU arrays.");

  m.def(
      "from_dlpack",
      [](nb::handle x, nb::handle device, nb::handle copy) -> nb::object {
        if (nb::isinstance<Array>(x) && device.is_none() && copy.is_none()) return nb::borrow(x);
        Array a = from_dlpack_object(x);
        return convert_to_array(nb::cast(std::move(a)), std::nullopt, to_optional_device(device),
                                to_optional_bool_arg(copy, "from_dlpack", "copy"));
      },
      nb::arg("x"), nb::kw_only(), nb::arg("device").none() = nb::none(), nb::arg("copy").none() = nb::none(),
      "An array sharing memory with `x` (any object with __dlpack__, or a DLPack capsule), on "
      "the device the memory lives on; `device`/`copy` as in the Array API.");
  m.def(
      "asnumpy",
      [](nb::handle x, nb::handle out) -> nb::object {
        if (!out.is_none()) {
          if (!nb::isinstance<Array>(x)) throw nb::type_error("[asnumpy] out= needs a loom array as x");
          copy_into_numpy(nb::cast<const Array&>(x), out);
          return nb::borrow(out);
        }
        if (nb::isinstance<Array>(x)) return to_numpy(nb::cast<const Array&>(x), false);
        return numpy_module().attr("asarray")(x);
      },
      nb::arg("x"), nb::kw_only(), nb::arg("out").none() = nb::none(),
      "A NumPy array of `x`: a copy of a GPU array, a view of a CPU array (like x.numpy()), "
      "np.asarray(x) for anything else. With out= (a C-contiguous, writeable NumPy array of "
      "x's shape and dtype, as in CuPy) the data is copied into it and `out` is returned; "
      "page-locked memory from loom.empty_pinned is filled by DMA directly.");
}

}  // namespace loom::py
