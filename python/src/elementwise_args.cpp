// Operand conversion for the elementwise bindings: weak Python scalars, loom arrays as
// they are, array-likes onto the loom operands' device.
#include "elementwise_args.h"

#include <cmath>

namespace loom::py {
namespace {

// Python's bool, int, float and complex are weak (NEP 50); NumPy's scalars are not, though
// numpy.float64 and numpy.complex128 subclass float and complex: those are 0-d arrays of
// their dtype, as in NumPy 2 (float32_x * np.float64(2) is float64).
bool is_weak_scalar(PyObject* p) {
  return PyBool_Check(p) || PyLong_Check(p) || PyFloat_CheckExact(p) || PyComplex_CheckExact(p) ||
         ((PyFloat_Check(p) || PyComplex_Check(p)) && !PyObject_HasAttrString(p, "dtype"));
}

bool is_array_like(nb::handle h) {
  PyObject* p = h.ptr();
  if (PyList_Check(p) || PyTuple_Check(p)) return true;
  return nb::hasattr(h, "__array__") || nb::hasattr(h, "__array_interface__") || nb::hasattr(h, "__dlpack__") ||
         has_attr_strict(h, "__cuda_array_interface__");
}

// A weak Python number; for comparisons, ints beyond 64 bits become floats (see header).
Scalar weak_scalar(nb::handle h, bool comparison) {
  if (comparison && PyLong_Check(h.ptr()) && !PyBool_Check(h.ptr())) {
    int overflow = 0;
    (void)PyLong_AsLongLongAndOverflow(h.ptr(), &overflow);
    if (overflow > 0 && _PyLong_NumBits(h.ptr()) > 64) overflow = 2;  // beyond uint64 too
    if (overflow == 2 || overflow < 0) {
      double d = PyLong_AsDouble(h.ptr());
      if (d == -1.0 && PyErr_Occurred()) {
        PyErr_Clear();
        d = overflow < 0 ? -HUGE_VAL : HUGE_VAL;
      }
      // Integer arrays compare in float64, where uint64's max rounds up to 2**64 and
      // int64's min is -2**63: keep the scalar strictly beyond both, so the order is exact.
      d = overflow < 0 ? std::fmin(d, std::nextafter(-0x1p63, -HUGE_VAL)) : std::fmax(d, std::nextafter(0x1p64, HUGE_VAL));
      return Scalar(d);
    }
  }
  return to_scalar(h);
}

}  // namespace

// The default casting= as one interned str: a call that leaves it passes this very object, so
// the common call compares one pointer instead of parsing a name.
nb::str same_kind_name() {
  static nb::str* name = new nb::str("same_kind");  // leaked: alive until exit, as the module
  return *name;
}

bool is_comparison_op(OpId op) {
  return op == OpId::equal || op == OpId::not_equal || op == OpId::less || op == OpId::less_equal ||
         op == OpId::greater || op == OpId::greater_equal;
}

std::optional<Device> device_of(std::initializer_list<nb::handle> hs) {
  for (nb::handle h : hs)
    if (nb::isinstance<Array>(h)) return nb::cast<const Array&>(h).device();
  return std::nullopt;
}

Operand to_operand(nb::handle h, const std::optional<Device>& dev, bool comparison) {
  if (nb::isinstance<Array>(h)) return Operand(nb::cast<const Array&>(h));
  if (is_weak_scalar(h.ptr())) return Operand(weak_scalar(h, comparison));
  return Operand(to_array(h, dev));
}

bool try_operand(nb::handle h, const std::optional<Device>& dev, Operand* out, bool comparison) {
  if (nb::isinstance<Array>(h)) {
    *out = Operand(nb::cast<const Array&>(h));
    return true;
  }
  if (is_weak_scalar(h.ptr())) {
    *out = Operand(weak_scalar(h, comparison));
    return true;
  }
  if (h.is_none() || PyUnicode_Check(h.ptr()) || !is_array_like(h)) return false;
  *out = Operand(to_array(h, dev));
  return true;
}

nb::object call_ufunc(OpId op, std::initializer_list<nb::handle> ins, nb::handle out, nb::handle where,
                      nb::handle dtype, nb::handle casting) {
  if (PyTuple_Check(out.ptr()) && PyTuple_GET_SIZE(out.ptr()) == 1) out = PyTuple_GET_ITEM(out.ptr(), 0);
  // One isinstance test per argument; the common call (loom arrays only) makes no
  // Device copies and no further type checks.
  const Array* arrays[3] = {nullptr, nullptr, nullptr};
  const Device* dev = nullptr;
  int n = 0;
  for (nb::handle h : ins) {
    if (nb::isinstance<Array>(h)) {
      arrays[n] = nb::inst_ptr<Array>(h);
      if (!dev) dev = &arrays[n]->device();
    }
    ++n;
  }
  const bool has_out = !out.is_none();
  const Array* out_array = has_out && nb::isinstance<Array>(out) ? nb::inst_ptr<Array>(out) : nullptr;
  if (!dev && out_array) dev = &out_array->device();
  const std::optional<Device> odev = dev ? std::optional<Device>(*dev) : std::nullopt;
  Operand ops[3];
  n = 0;
  for (nb::handle h : ins) {
    if (arrays[n]) ops[n] = Operand(*arrays[n]);
    else ops[n] = to_operand(h, odev, is_comparison_op(op));
    ++n;
  }
  if (has_out && !out_array)
    throw nb::type_error((std::string("[") + op_info(op).name + "] out= must be a loom array").c_str());
  UfuncArgs args;
  if (out_array) args.out = *out_array;
  if (where.ptr() != Py_True) args.where = to_operand(where, odev);
  if (!dtype.is_none()) args.dtype = to_dtype(dtype);
  if (casting.ptr() != same_kind_name().ptr())
    args.casting = casting_from_name(to_str_arg(casting, op_info(op).name, "casting"), op_info(op).name);
  int64_t work = work_of(ops, n);
  if (out_array && out_array->size() > work) work = out_array->size();
  Array r;
  {
    ReleaseGilIfLarge release(work);
    r = apply(op, ops, n, args);
  }
  if (has_out) return nb::borrow(out);
  return nb::cast(std::move(r));
}

void def_ufunc(nb::module_& m, OpId op, const char* name, const std::string& doc) {
  switch (op_info(op).arity) {
    case 1:
      m.def(
          name,
          [op](nb::handle x, nb::handle out, nb::handle where, nb::handle dtype, nb::handle casting) {
            return call_ufunc(op, {x}, out, where, dtype, casting);
          },
          nb::arg("x"), nb::arg("out").none() = nb::none(), nb::kw_only(), nb::arg("where").none() = nb::bool_(true),
          nb::arg("dtype").none() = nb::none(), nb::arg("casting") = same_kind_name(), doc.c_str());
      break;
    case 2:
      m.def(
          name,
          [op](nb::handle x1, nb::handle x2, nb::handle out, nb::handle where, nb::handle dtype, nb::handle casting) {
            return call_ufunc(op, {x1, x2}, out, where, dtype, casting);
          },
          nb::arg("x1"), nb::arg("x2"), nb::arg("out").none() = nb::none(), nb::kw_only(),
          nb::arg("where").none() = nb::bool_(true), nb::arg("dtype").none() = nb::none(),
          nb::arg("casting") = same_kind_name(), doc.c_str());
      break;
    default:
      m.def(
          name,
          [op](nb::handle x1, nb::handle x2, nb::handle x3, nb::handle out, nb::handle where, nb::handle dtype,
               nb::handle casting) { return call_ufunc(op, {x1, x2, x3}, out, where, dtype, casting); },
          nb::arg("x1"), nb::arg("x2"), nb::arg("x3"), nb::arg("out").none() = nb::none(), nb::kw_only(),
          nb::arg("where").none() = nb::bool_(true), nb::arg("dtype").none() = nb::none(),
          nb::arg("casting") = same_kind_name(), doc.c_str());
      break;
  }
}

}  // namespace loom::py
