// Bindings of numpy's take, take_along_axis, put_along_axis, roll (ops/take.h) and isclose,
// allclose, array_equal, array_equiv (ops/comparisons.h).
#include <nanobind/stl/string.h>

#include "bindings.h"
#include "loom/ops/comparisons.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/take.h"

namespace loom::py {
namespace {

// roll's shift: an int, a sequence of them, or an integer array (loom's, NumPy's, CuPy's)
// of at most one dimension; NumPy's broadcast of shift against axis refuses more.
std::vector<int64_t> roll_shifts(nb::handle shift) {
  if (nb::hasattr(shift, "ndim") && !nb::isinstance<nb::str>(shift)) {
    const int64_t nd = nb::cast<int64_t>(shift.attr("ndim"));
    if (nd == 0) return {to_int_arg(shift.attr("item")(), "roll", "shift")};
    if (nd > 1) throw_value_error("roll", "'shift' and 'axis' should be scalars or 1D sequences");
  }
  std::vector<int64_t> shifts;
  if (nb::isinstance<nb::sequence>(shift) && !nb::isinstance<nb::str>(shift)) {
    for (nb::handle s : shift) shifts.push_back(to_int_arg(s, "roll", "shift"));
  } else {
    shifts.push_back(to_int_arg(shift, "roll", "shift"));
  }
  return shifts;
}

// numpy.take and ndarray.take: out= written and returned itself, as NumPy returns it.
nb::object take_py(const Array& x, nb::handle indices, nb::handle axis, nb::handle out, const std::string& mode) {
  const Array r = take(x, to_array(indices, x.device()), to_optional_int_arg(axis, "take", "axis"), mode);
  const std::optional<Array> o = to_out_arg(out, "take");
  if (!o) return nb::cast(r);
  if (o->shape() != r.shape()) throw std::invalid_argument("[take] output array does not match result of take");
  copyto(*o, r);
  return nb::borrow(nb::isinstance<Array>(out) ? out : out[0]);
}

}  // namespace

LOOM_BINDING_FAMILY(take, 32) {
  m.def(
      "take",
      [](nb::handle a, nb::handle indices, nb::handle axis, nb::handle out, const std::string& mode) {
        return take_py(to_array(a, std::nullopt), indices, axis, out, mode);
      },
      nb::arg("a"), nb::arg("indices"), nb::arg("axis").none() = nb::none(), nb::arg("out").none() = nb::none(),
      nb::arg("mode") = "raise",
      "numpy.take: the elements of a at integer indices along axis (the flattened a when None); mode "
      "'raise', 'wrap' or 'clip'.");
  cls.def("take", &take_py, nb::arg("indices"), nb::arg("axis").none() = nb::none(),
          nb::arg("out").none() = nb::none(), nb::arg("mode") = "raise", "ndarray.take: loom.take(self, ...).");
  m.def(
      "take_along_axis",
      [](nb::handle arr, nb::handle indices, nb::handle axis) {
        const Array x = to_array(arr, std::nullopt);
        return take_along_axis(x, to_array(indices, x.device()), to_optional_int_arg(axis, "take_along_axis", "axis"));
      },
      nb::arg("arr"), nb::arg("indices"), nb::arg("axis").none() = -1,
      "numpy.take_along_axis: arr[..., indices[..., j, ...], ...] along axis (indices with arr's ndim).");
  m.def(
      "put_along_axis",
      [](const Array& arr, nb::handle indices, nb::handle values, nb::handle axis) {
        put_along_axis(arr, to_array(indices, arr.device()), to_array(values, arr.device()),
                       to_optional_int_arg(axis, "put_along_axis", "axis"));
      },
      nb::arg("arr"), nb::arg("indices"), nb::arg("values"), nb::arg("axis").none(),
      "numpy.put_along_axis: writes values into arr at indices along axis, in place.");
  m.def(
      "roll",
      [](nb::handle a, nb::handle shift, nb::handle axis) {
        return roll(to_array(a, std::nullopt), roll_shifts(shift), to_axes(axis, "roll"));
      },
      nb::arg("a"), nb::arg("shift"), nb::arg("axis").none() = nb::none(),
      "numpy.roll: elements shifted cyclically by shift along axis (the flattened array when None).");
  m.def(
      "isclose",
      [](nb::handle a, nb::handle b, double rtol, double atol, bool equal_nan) {
        auto [x, y] = to_array_pair(a, b);
        return isclose(x, y, rtol, atol, equal_nan);
      },
      nb::arg("a"), nb::arg("b"), nb::arg("rtol") = 1e-05, nb::arg("atol") = 1e-08, nb::arg("equal_nan") = false,
      "numpy.isclose: |a - b| <= atol + rtol * |b| elementwise.");
  m.def(
      "allclose",
      [](nb::handle a, nb::handle b, double rtol, double atol, bool equal_nan) {
        auto [x, y] = to_array_pair(a, b);
        return allclose(x, y, rtol, atol, equal_nan);
      },
      nb::arg("a"), nb::arg("b"), nb::arg("rtol") = 1e-05, nb::arg("atol") = 1e-08, nb::arg("equal_nan") = false,
      "numpy.allclose: whether every element is close (a Python bool; waits for the device).");
  m.def(
      "array_equal",
      [](nb::handle a, nb::handle b, bool equal_nan) {
        auto [x, y] = to_array_pair(a, b);
        return array_equal(x, y, equal_nan);
      },
      nb::arg("a1"), nb::arg("a2"), nb::arg("equal_nan") = false,
      "numpy.array_equal: same shape and elements (a Python bool; waits for the device).");
  m.def(
      "array_equiv",
      [](nb::handle a, nb::handle b) {
        auto [x, y] = to_array_pair(a, b);
        return array_equiv(x, y);
      },
      nb::arg("a1"), nb::arg("a2"), "numpy.array_equiv: broadcastable and equal (a Python bool).");
}

}  // namespace loom::py
