// Linear algebra products: matmul dot vdot inner outer tensordot einsum vecdot matvec
// vecmat, the matmul precision switch, ndarray's @, @=, dot, and loom.linalg's compositions.
// Non-loom arguments (NumPy arrays, lists, scalars) are converted onto the device of the
// loom array among the operands.
#include <string>
#include <vector>

#include "bindings.h"
#include "loom/core/error.h"
#include "loom/ops/linalg.h"
#include "loom/ops/shape_ops.h"

#include <nanobind/stl/string.h>

namespace loom::py {
namespace {

// The device non-loom operands go to: that of the first loom array, else the default.
std::optional<Device> home_device(std::initializer_list<nb::handle> hs) {
  for (nb::handle h : hs)
    if (nb::isinstance<Array>(h)) return nb::cast<const Array&>(h).device();
  return std::nullopt;
}

template <class F>
Array binary(nb::handle a, nb::handle b, F&& f) {
  const std::optional<Device> dev = home_device({a, b});
  const Array x = to_array(a, dev), y = to_array(b, dev);
  nb::gil_scoped_release release;
  return f(x, y);
}

std::vector<int64_t> to_int_list(nb::handle h) {
  if (PyIndex_Check(h.ptr())) return {to_int_arg(h, "tensordot", "axes")};
  if (!PySequence_Check(h.ptr()) || PyUnicode_Check(h.ptr()))
    raise_arg_type("tensordot", "axes", "an int or a pair of int sequences", h);
  std::vector<int64_t> out;
  for (nb::handle v : h) out.push_back(to_int_arg(v, "tensordot", "axes"));
  return out;
}

nb::object matmul_method(const Array& self, nb::handle other, bool reflected) {
  Array o;
  try {
    o = to_array(other, self.device());
  } catch (const nb::python_error&) {
    return nb::borrow(Py_NotImplemented);
  } catch (const nb::builtin_exception&) {
    return nb::borrow(Py_NotImplemented);
  } catch (const DTypeError&) {
    return nb::borrow(Py_NotImplemented);
  }
  nb::gil_scoped_release release;
  Array r = reflected ? matmul(o, self) : matmul(self, o);
  nb::gil_scoped_acquire acquire;
  return nb::cast(std::move(r));
}

// trace, cross and loom.linalg's matrix functions that compose loom's ops (linalg_compose.cpp).
void bind_composed(nb::module_& m) {
  m.def(
      "trace",
      [](nb::handle a, int64_t offset, int64_t axis1, int64_t axis2, nb::handle dtype) {
        const Array x = to_array(a, std::nullopt);
        const std::optional<DType> dt = to_optional_dtype(dtype);
        nb::gil_scoped_release release;
        return trace(x, offset, axis1, axis2, dt);
      },
      nb::arg("a"), nb::arg("offset") = 0, nb::arg("axis1") = 0, nb::arg("axis2") = 1,
      nb::arg("dtype").none() = nb::none(),
      "Sums along the diagonal `offset` of the matrices spanned by axis1 and axis2 (NumPy's trace).");
  m.def(
      "cross",
      [](nb::handle a, nb::handle b, int64_t axisa, int64_t axisb, int64_t axisc, nb::handle axis) {
        if (!axis.is_none()) axisa = axisb = axisc = to_int_arg(axis, "cross", "axis");
        const std::optional<Device> dev = home_device({a, b});
        const Array x = to_array(a, dev), y = to_array(b, dev);
        const auto length = [](const Array& t, int64_t ax) {
          return t.ndim() == 0 ? int64_t{0} : t.shape()[normalize_axis(ax, t.ndim(), "cross")];
        };
        if ((length(x, axisa) == 2 || length(y, axisb) == 2) &&
            PyErr_WarnEx(PyExc_DeprecationWarning,
                         "Arrays of 2-dimensional vectors are deprecated. Use arrays of 3-dimensional vectors "
                         "instead. (deprecated in NumPy 2.0)", 1) < 0)
          throw nb::python_error();
        nb::gil_scoped_release release;
        return cross(x, y, axisa, axisb, axisc);
      },
      nb::arg("a"), nb::arg("b"), nb::arg("axisa") = -1, nb::arg("axisb") = -1, nb::arg("axisc") = -1,
      nb::arg("axis").none() = nb::none(),
      "Cross products of the 3-vectors along axisa/axisb, broadcast over the other axes and placed "
      "along axisc (axis sets all three), as NumPy's cross (2-vectors too, with NumPy 2's "
      "DeprecationWarning: their third component is 0; two of them give the z component alone).");
  nb::module_ la = nb::borrow<nb::module_>(m.attr("linalg"));
  la.def(
      "trace",
      [](nb::handle x, int64_t offset, nb::handle dtype) {
        const Array a = to_array(x, std::nullopt);
        const std::optional<DType> dt = to_optional_dtype(dtype);
        nb::gil_scoped_release release;
        return trace(a, offset, -2, -1, dt);
      },
      nb::arg("x"), nb::arg("offset") = 0, nb::arg("dtype").none() = nb::none(),
      "numpy.linalg.trace: the sums along the diagonal `offset` of the last two axes.");
  la.def(
      "diagonal", [](nb::handle x, int64_t offset) { return diagonal(to_array(x, std::nullopt), offset, -2, -1); },
      nb::arg("x"), nb::arg("offset") = 0,
      "numpy.linalg.diagonal: the diagonal `offset` of the last two axes, as a view.");
  la.def(
      "cross",
      [](nb::handle a, nb::handle b, int64_t axis) {
        return binary(a, b, [&](auto& x, auto& y) {
          if (x.ndim() == 0 || y.ndim() == 0 || x.shape()[normalize_axis(axis, x.ndim(), "linalg.cross")] != 3 ||
              y.shape()[normalize_axis(axis, y.ndim(), "linalg.cross")] != 3)
            throw_value_error("linalg.cross", "both inputs must be 3-vectors along the axis");
          return cross(x, y, axis, axis, axis);
        });
      },
      nb::arg("x1"), nb::arg("x2"), nb::arg("axis") = -1,
      "numpy.linalg.cross: cross products of 3-vectors along `axis`.");
  la.def(
      "outer",
      [](nb::handle a, nb::handle b) {
        return binary(a, b, [](auto& x, auto& y) {
          if (x.ndim() != 1 || y.ndim() != 1) throw_value_error("linalg.outer", "both inputs must be 1-dimensional");
          return outer(x, y);
        });
      },
      nb::arg("x1"), nb::arg("x2"), "numpy.linalg.outer: the outer product of two 1-d arrays.");
  // The Array API's linalg extension also holds these main-namespace functions.
  for (const char* name : {"matmul", "tensordot", "matrix_transpose", "vecdot"}) la.attr(name) = m.attr(name);
  la.def(
      "matrix_power",
      [](nb::handle a, int64_t n) {
        const Array x = to_array(a, std::nullopt);
        nb::gil_scoped_release release;
        return matrix_power(x, n);
      },
      nb::arg("a"), nb::arg("n"),
      "numpy.linalg.matrix_power over the last two axes (repeated squaring; a negative n takes the "
      "power of inv(a)).");
}

}  // namespace

LOOM_BINDING_FAMILY(linalg, 50) {
  m.def("matmul", [](nb::handle x1, nb::handle x2) { return binary(x1, x2, [](auto& a, auto& b) { return matmul(a, b); }); },
        nb::arg("x1"), nb::arg("x2"),
        "Matrix product of two arrays (NumPy's matmul): 1-d operands act as a row (left) or a "
        "column (right) and the added axis is removed; leading batch dimensions broadcast. "
        "0-d operands raise ValueError. Integers wrap around, bool gives or-of-ands, float16 "
        "and bfloat16 accumulate in float32. float32 is exact unless set_matmul_precision('tf32').");
  m.def("dot", [](nb::handle a, nb::handle b) { return binary(a, b, [](auto& x, auto& y) { return dot(x, y); }); },
        nb::arg("a"), nb::arg("b"),
        "Dot product (NumPy's dot): 0-d operands multiply, 1-d x 1-d is the inner product, 2-d x "
        "2-d the matrix product, N-d x 1-d sums over the last axis, N-d x M-d sums over a's last "
        "and b's second-to-last axis.");
  m.def("vdot", [](nb::handle a, nb::handle b) { return binary(a, b, [](auto& x, auto& y) { return vdot(x, y); }); },
        nb::arg("a"), nb::arg("b"),
        "Dot product of the flattened arrays (equal sizes required); a 0-d array.");
  m.def("inner", [](nb::handle a, nb::handle b) { return binary(a, b, [](auto& x, auto& y) { return inner(x, y); }); },
        nb::arg("a"), nb::arg("b"),
        "Inner product over the last axes: shape a.shape[:-1] + b.shape[:-1]; 0-d operands multiply.");
  m.def("outer", [](nb::handle a, nb::handle b) { return binary(a, b, [](auto& x, auto& y) { return outer(x, y); }); },
        nb::arg("a"), nb::arg("b"),
        "Outer product of the flattened arrays: shape (a.size, b.size).");
  m.def(
      "tensordot",
      [](nb::handle a, nb::handle b, nb::handle axes) {
        const bool pair = !PyLong_Check(axes.ptr()) && nb::hasattr(axes, "__len__") && nb::len(axes) == 2;
        if (!pair) {
          if (!PyIndex_Check(axes.ptr())) raise_arg_type("tensordot", "axes", "an int or a pair of int sequences", axes);
          const int64_t n = to_int_arg(axes, "tensordot", "axes");
          return binary(a, b, [n](auto& x, auto& y) { return tensordot(x, y, n); });
        }
        const std::vector<int64_t> aa = to_int_list(axes[0]), ab = to_int_list(axes[1]);
        return binary(a, b, [&](auto& x, auto& y) { return tensordot(x, y, aa, ab); });
      },
      nb::arg("a"), nb::arg("b"), nb::arg("axes") = 2,
      "Tensor dot product: axes=N sums a's last N axes with b's first N; axes=(axes_a, axes_b) "
      "sums the listed axes pairwise (each an int or a sequence of ints). The result has a's "
      "remaining axes, then b's.");
  m.def(
      "vecdot",
      [](nb::handle x1, nb::handle x2, int64_t axis) {
        return binary(x1, x2, [axis](auto& a, auto& b) { return vecdot(a, b, axis); });
      },
      nb::arg("x1"), nb::arg("x2"), nb::kw_only(), nb::arg("axis") = -1,
      "NumPy 2's and the Array API's vecdot: sum(conj(x1) * x2) over `axis` of each operand (equal sizes), "
      "the other axes broadcast; the promoted dtype.");
  m.def("matvec",
        [](nb::handle x1, nb::handle x2) { return binary(x1, x2, [](auto& a, auto& b) { return matvec(a, b); }); },
        nb::arg("x1"), nb::arg("x2"),
        "NumPy 2.2's matvec: matrices x1 (..., m, n) times vectors x2 (..., n), giving (..., m); batch axes "
        "broadcast.");
  m.def("vecmat",
        [](nb::handle x1, nb::handle x2) { return binary(x1, x2, [](auto& a, auto& b) { return vecmat(a, b); }); },
        nb::arg("x1"), nb::arg("x2"),
        "NumPy 2.2's vecmat: conjugated vectors x1 (..., n) times matrices x2 (..., n, m), giving (..., m); "
        "batch axes broadcast.");
  m.def(
      "einsum",
      [](const std::string& subscripts, nb::args operands) {
        std::optional<Device> dev;
        for (nb::handle h : operands)
          if (!dev && nb::isinstance<Array>(h)) dev = nb::cast<const Array&>(h).device();
        std::vector<Array> ops;
        for (nb::handle h : operands) ops.push_back(to_array(h, dev));
        nb::gil_scoped_release release;
        return einsum(subscripts, ops);
      },
      nb::arg("subscripts"), nb::arg("operands"),
      "Einstein summation (NumPy's einsum, optimize=False): 'ij,jk->ik', implicit output "
      "('ij,jk': indices seen once, in alphabetical order), '...' broadcasting, repeated "
      "indices within an operand (diagonals), and summation over indices absent from the "
      "output. Operands are contracted left to right with batched matrix products.");
  m.def("set_matmul_precision", &set_matmul_precision, nb::arg("precision"),
        "float32 matrix products: 'float32' (or 'highest', the default) computes them exactly in "
        "float32; 'tf32' (or 'high') lets GPUs use TF32 tensor cores (inputs rounded to a "
        "10-bit mantissa, float32 accumulation; much faster). CPU products are always exact.");
  m.def("get_matmul_precision", &get_matmul_precision,
        "The float32 matmul precision: 'float32' (exact, default) or 'tf32'.");

  cls.def("__matmul__", [](const Array& self, nb::handle o) { return matmul_method(self, o, false); },
          nb::arg("other"), "self @ other (matmul).");
  cls.def("__rmatmul__", [](const Array& self, nb::handle o) { return matmul_method(self, o, true); },
          nb::arg("other"), "other @ self (matmul).");
  cls.def(
      "__imatmul__",
      [](nb::handle self_h, nb::handle other) -> nb::object {
        const Array& self = nb::cast<const Array&>(self_h);
        const Array o = to_array(other, self.device());
        nb::gil_scoped_release release;
        const Array r = matmul(self, o);
        if (r.shape() != self.shape())
          throw std::invalid_argument("[matmul] in-place matmul would change the shape from " +
                                      shape_str(self.shape()) + " to " + shape_str(r.shape()));
        if (!can_cast_same_kind(r.dtype(), self.dtype()))
          throw nb::type_error(("[matmul] Cannot cast matmul output from " + std::string(dtype_name(r.dtype())) +
                                " to " + dtype_name(self.dtype()) + " with casting rule 'same_kind'").c_str());
        copyto(self, r);
        nb::gil_scoped_acquire acquire;
        return nb::borrow(self_h);
      },
      nb::arg("other"), "self @= other: the product written into self (same shape required).");
  cls.def(
      "dot",
      [](const Array& self, nb::handle b) {
        const Array y = to_array(b, self.device());
        nb::gil_scoped_release release;
        return dot(self, y);
      },
          nb::arg("b"), "dot(self, b).");
  cls.def(
      "trace",
      [](const Array& self, int64_t offset, int64_t axis1, int64_t axis2, nb::handle dtype) {
        const std::optional<DType> dt = to_optional_dtype(dtype);
        nb::gil_scoped_release release;
        return trace(self, offset, axis1, axis2, dt);
      },
      nb::arg("offset") = 0, nb::arg("axis1") = 0, nb::arg("axis2") = 1, nb::arg("dtype").none() = nb::none(),
      "trace(self, offset, axis1, axis2, dtype).");
  bind_composed(m);
}

}  // namespace loom::py
