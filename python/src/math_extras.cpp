// Bindings of numpy's elementwise and sequence helpers (ops/math_extras.h).
#include <cmath>

#include "bindings.h"
#include "loom/ops/math_extras.h"

namespace loom::py {

namespace {

// A Python number beside an array is weak (NEP 50), as for the ufuncs these functions are in
// NumPy: logaddexp(float32 array, 0) stays float32.
Array operand_beside(nb::handle h, const Array& other) {
  PyObject* p = h.ptr();
  if (PyBool_Check(p) || PyLong_CheckExact(p) || PyFloat_CheckExact(p) || PyComplex_CheckExact(p)) {
    const DType dt = result_type({other.dtype()}, {to_scalar(h)});
    return nb::cast<Array>(convert_to_array(h, dt, other.device(), std::nullopt));
  }
  return to_array(h, other.device());
}

}  // namespace

LOOM_BINDING_FAMILY(math_extras, 37) {
  const nb::handle none = nb::none();
  using Unary = Array (*)(const Array&);
  struct U { const char* name; Unary fn; const char* doc; };
  for (const U& u : {U{"deg2rad", &deg2rad, "numpy.deg2rad: degrees to radians."},
                     U{"radians", &deg2rad, "numpy.radians: degrees to radians."},
                     U{"rad2deg", &rad2deg, "numpy.rad2deg: radians to degrees."},
                     U{"degrees", &rad2deg, "numpy.degrees: radians to degrees."},
                     U{"sinc", &sinc, "numpy.sinc: sin(pi x) / (pi x), 1 at 0."},
                     U{"signbit", &signbit, "numpy.signbit: whether the sign bit is set."}}) {
    Unary fn = u.fn;
    m.def(u.name, [fn](nb::handle x) { return fn(to_array(x)); }, nb::arg("x"), u.doc);
  }
  using Binary = Array (*)(const Array&, const Array&);
  struct B { const char* name; Binary fn; const char* doc; };
  for (const B& b : {B{"heaviside", &heaviside, "numpy.heaviside: 0 below 0, x2 at 0, 1 above."},
                     B{"logaddexp", &logaddexp, "numpy.logaddexp: log(exp(x1) + exp(x2)) without overflow."},
                     B{"logaddexp2", &logaddexp2, "numpy.logaddexp2: log2(2**x1 + 2**x2) without overflow."}}) {
    Binary fn = b.fn;
    m.def(b.name, [fn](nb::handle x1, nb::handle x2) {
            if (nb::isinstance<Array>(x1) || !nb::isinstance<Array>(x2)) {
              const Array a = to_array(x1);
              return fn(a, operand_beside(x2, a));
            }
            const Array c = to_array(x2);
            return fn(operand_beside(x1, c), c);
          },
          nb::arg("x1"), nb::arg("x2"), b.doc);
  }
  m.def(
      "nan_to_num",
      [](nb::handle x, bool copy, double nan, nb::handle posinf, nb::handle neginf) {
        if (!copy) throw std::invalid_argument("[nan_to_num] copy=False is not supported (a new array is returned)");
        return nan_to_num(to_array(x), nan, to_optional_float_arg(posinf, "nan_to_num", "posinf"), to_optional_float_arg(neginf, "nan_to_num", "neginf"));
      },
      nb::arg("x"), nb::arg("copy") = true, nb::arg("nan") = 0.0, nb::arg("posinf").none() = none,
      nb::arg("neginf").none() = none, "numpy.nan_to_num: NaN and infinities replaced by finite numbers.");
  m.def(
      "ediff1d",
      [](nb::handle ary, nb::handle to_end, nb::handle to_begin) {
        const Array a = to_array(ary);
        return ediff1d(a, to_optional_array(to_end, a.device()), to_optional_array(to_begin, a.device()));
      },
      nb::arg("ary"), nb::arg("to_end").none() = none, nb::arg("to_begin").none() = none,
      "numpy.ediff1d: the differences of the flattened array.");
  m.def(
      "trapezoid",
      [](nb::handle y, nb::handle x, double dx, int64_t axis) {
        const Array a = to_array(y);
        return trapezoid(a, to_optional_array(x, a.device()), dx, axis);
      },
      nb::arg("y"), nb::arg("x").none() = none, nb::arg("dx") = 1.0, nb::arg("axis") = -1,
      "numpy.trapezoid: the integral by the trapezoidal rule along axis.");
  m.def(
      "cumulative_sum",
      [](nb::handle x, nb::handle axis, nb::handle dtype, bool include_initial) {
        return cumulative_sum(to_array(x), to_optional_int_arg(axis, "cumulative_sum", "axis"), include_initial,
                              to_optional_dtype(dtype));
      },
      nb::arg("x"), nb::kw_only(), nb::arg("axis").none() = none, nb::arg("dtype").none() = none,
      nb::arg("include_initial") = false,
      "The Array API's cumulative_sum (include_initial prepends 0; dtype as cumsum's).");
  m.def(
      "cumulative_prod",
      [](nb::handle x, nb::handle axis, nb::handle dtype, bool include_initial) {
        return cumulative_prod(to_array(x), to_optional_int_arg(axis, "cumulative_prod", "axis"), include_initial,
                               to_optional_dtype(dtype));
      },
      nb::arg("x"), nb::kw_only(), nb::arg("axis").none() = none, nb::arg("dtype").none() = none,
      nb::arg("include_initial") = false,
      "The Array API's cumulative_prod (include_initial prepends 1; dtype as cumprod's).");
  m.def(
      "logspace",
      [](double start, double stop, int64_t num, bool endpoint, double base, nb::handle dtype, nb::handle device) {
        return logspace(start, stop, num, endpoint, base, to_optional_dtype(dtype), to_optional_device(device));
      },
      nb::arg("start"), nb::arg("stop"), nb::arg("num") = 50, nb::arg("endpoint") = true, nb::arg("base") = 10.0,
      nb::arg("dtype").none() = none, nb::kw_only(), nb::arg("device").none() = none,
      "numpy.logspace: base ** linspace(start, stop, num).");
  m.def(
      "geomspace",
      [](double start, double stop, int64_t num, bool endpoint, nb::handle dtype, nb::handle device) {
        return geomspace(start, stop, num, endpoint, to_optional_dtype(dtype), to_optional_device(device));
      },
      nb::arg("start"), nb::arg("stop"), nb::arg("num") = 50, nb::arg("endpoint") = true,
      nb::arg("dtype").none() = none, nb::kw_only(), nb::arg("device").none() = none,
      "numpy.geomspace: a geometric sequence from start to stop (real, one sign).");
  m.def(
      "vander",
      [](nb::handle x, nb::handle n, bool increasing) {
        return vander(to_array(x), to_optional_int_arg(n, "vander", "N"), increasing);
      },
      nb::arg("x"), nb::arg("N").none() = none, nb::arg("increasing") = false,
      "numpy.vander: the Vandermonde matrix of 1-d x.");
  m.def(
      "select",
      [](nb::handle condlist, nb::handle choicelist, nb::handle fallback) {
        const std::vector<Array> conds = to_arrays(condlist);
        const std::optional<Device> dev = conds.empty() ? std::nullopt : std::optional<Device>(conds[0].device());
        std::vector<Array> choices;
        for (nb::handle c : choicelist) choices.push_back(to_array(c, dev));
        return select(conds, choices, to_array(fallback, dev));
      },
      nb::arg("condlist"), nb::arg("choicelist"), nb::arg("default") = 0,
      "numpy.select: the choice of the first true condition at each position, else default.");
  m.def(
      "extract",
      [](nb::handle condition, nb::handle arr) {
        const Array a = to_array(arr);
        return extract(to_array(condition, a.device()), a);
      },
      nb::arg("condition"), nb::arg("arr"), "numpy.extract: the elements of arr where condition is non-zero.");
  m.def(
      "compress",
      [](nb::handle condition, nb::handle a, nb::handle axis) {
        const Array x = to_array(a);
        return compress(to_array(condition, x.device()), x, to_optional_int_arg(axis, "compress", "axis"));
      },
      nb::arg("condition"), nb::arg("a"), nb::arg("axis").none() = none,
      "numpy.compress: the slices of a along axis where condition holds.");
  cls.def(
      "compress",
      [](const Array& a, nb::handle condition, nb::handle axis, nb::handle out) -> nb::object {
        return write_out(out, compress(to_array(condition, a.device()), a, to_optional_int_arg(axis, "compress", "axis")),
                         "compress");
      },
      nb::arg("condition"), nb::arg("axis").none() = none, nb::arg("out").none() = none,
      "ndarray.compress: the slices along axis where condition holds, as loom.compress (out= written and returned).");
}

}  // namespace loom::py
