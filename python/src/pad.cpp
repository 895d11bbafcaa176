// Binding of numpy.pad (ops/pad.h).
#include <nanobind/stl/string.h>

#include "bindings.h"
#include "loom/ops/pad.h"

namespace loom::py {
namespace {

// A pad_width / stat_length / *_values argument as (before, after) per axis, broadcast as
// NumPy does (an int, (n,), (before, after), or one pair per axis).
template <class T> std::vector<std::pair<T, T>> pairs(nb::handle v, int ndim, const char* what) {
  nb::object np = nb::borrow(numpy_module());
  nb::object arr = np.attr("asarray")(v);
  if (nb::cast<int>(arr.attr("ndim")) > 2)
    throw std::invalid_argument(std::string("[pad] ") + what + " must be a number or pairs of numbers");
  const std::string kind = nb::cast<std::string>(arr.attr("dtype").attr("kind"));
  if (kind == "c") throw nb::type_error((std::string("[pad] complex ") + what + " are not supported (real ones are)").c_str());
  if (kind != "i" && kind != "u" && kind != "f" && kind != "b")
    throw nb::type_error((std::string("[pad] ") + what + " must be numbers, not " +
                          nb::cast<std::string>(nb::str(arr.attr("dtype")))).c_str());
  nb::object b;
  try {
    b = np.attr("broadcast_to")(arr, nb::make_tuple(std::max(ndim, 1), 2));
  } catch (nb::python_error&) {
    throw std::invalid_argument(std::string("[pad] ") + what + " cannot be broadcast to (" + std::to_string(ndim) +
                                ", 2)");
  }
  std::vector<std::pair<T, T>> out;
  for (nb::handle row : b.attr("tolist")()) {
    nb::list r = nb::borrow<nb::list>(row);
    out.push_back({nb::cast<T>(r[0]), nb::cast<T>(r[1])});
  }
  if (ndim == 0) out.clear();
  return out;
}

}  // namespace

LOOM_BINDING_FAMILY(pad, 37) {
  m.def(
      "pad",
      [](nb::handle array, nb::handle pad_width, nb::handle mode, nb::kwargs kwargs) {
        const Array a = to_array(array);
        if (!nb::isinstance<nb::str>(mode)) throw nb::type_error("[pad] mode must be a string; a function as mode is not supported");
        const int nd = a.ndim();
        PadOptions o;
        for (auto [key, value] : kwargs) {
          const std::string k = nb::cast<std::string>(key);
          if (k == "constant_values") o.constant_values = pairs<double>(value, nd, "constant_values");
          else if (k == "end_values") o.end_values = pairs<double>(value, nd, "end_values");
          else if (k == "stat_length") { if (!value.is_none()) o.stat_length = pairs<int64_t>(value, nd, "stat_length"); }
          else if (k == "reflect_type") o.reflect_type = nb::cast<std::string>(value);
          else throw std::invalid_argument("[pad] unsupported keyword argument '" + k + "'");
        }
        if (nd == 0) return a.copy();
        if (o.constant_values.empty()) o.constant_values = {{0.0, 0.0}};
        if (o.end_values.empty()) o.end_values = {{0.0, 0.0}};
        return pad(a, pairs<int64_t>(pad_width, nd, "pad_width"), nb::cast<std::string>(mode), o);
      },
      nb::arg("array"), nb::arg("pad_width"), nb::arg("mode") = "constant", nb::arg("kwargs"),
      "numpy.pad: modes constant, edge, linear_ramp, maximum, minimum, mean, median, reflect, symmetric, wrap, empty.");
}

}  // namespace loom::py
