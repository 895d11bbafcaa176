// Elementwise ufuncs (one per op table record, plus NumPy's aliases), round, clip, where,
// copyto. Arguments are parsed here in C++: Python numbers stay weak scalars (NEP 50),
// NumPy arrays, lists and NumPy scalars become arrays on the device of the loom operands.
#include <algorithm>
#include <string>

#include "bindings.h"
#include "elementwise_args.h"

#include <nanobind/stl/string.h>

namespace loom::py {
namespace {

// One line per op for the docstrings (the dtype rules are the table's).
const char* describe(OpId op) {
  switch (op) {
    case OpId::add: return "x1 + x2";
    case OpId::subtract: return "x1 - x2";
    case OpId::multiply: return "x1 * x2";
    case OpId::divide: return "x1 / x2 (true division; integers give float64)";
    case OpId::floor_divide: return "x1 // x2, rounded toward -inf (integer division by zero gives 0)";
    case OpId::remainder: return "x1 % x2 with the sign of x2, as Python (integer modulo by zero gives 0)";
    case OpId::power: return "x1 ** x2 (integers to negative integer powers raise ValueError)";
    case OpId::negative: return "-x";
    case OpId::positive: return "+x";
    case OpId::absolute: return "|x|";
    case OpId::sign: return "-1, 0 or 1 by the sign of x (NaN stays NaN)";
    case OpId::square: return "x * x";
    case OpId::reciprocal: return "1 / x in x's dtype";
    case OpId::floor: return "the largest integer <= x";
    case OpId::ceil: return "the smallest integer >= x";
    case OpId::trunc: return "x rounded toward zero";
    case OpId::rint: return "x rounded to the nearest integer, halves to even";
    case OpId::maximum: return "the larger of x1 and x2; NaN propagates";
    case OpId::minimum: return "the smaller of x1 and x2; NaN propagates";
    case OpId::fmax: return "the larger of x1 and x2; NaN is ignored when the other is a number";
    case OpId::fmin: return "the smaller of x1 and x2; NaN is ignored when the other is a number";
    case OpId::isnan: return "True where x is NaN";
    case OpId::isinf: return "True where x is +inf or -inf";
    case OpId::isfinite: return "True where x is neither inf nor NaN";
    case OpId::logical_and: return "x1 and x2 (truth values), as bool";
    case OpId::logical_or: return "x1 or x2 (truth values), as bool";
    case OpId::logical_xor: return "truth values of x1 and x2 differ, as bool";
    case OpId::logical_not: return "not x, as bool";
    case OpId::bitwise_and: return "x1 & x2 (integers and bool)";
    case OpId::bitwise_or: return "x1 | x2 (integers and bool)";
    case OpId::bitwise_xor: return "x1 ^ x2 (integers and bool)";
    case OpId::invert: return "~x (bitwise not; logical not for bool)";
    case OpId::left_shift: return "x1 << x2 (0 for shifts of the width or more)";
    case OpId::right_shift: return "x1 >> x2 (arithmetic for signed integers)";
    case OpId::equal: return "x1 == x2";
    case OpId::not_equal: return "x1 != x2";
    case OpId::less: return "x1 < x2";
    case OpId::less_equal: return "x1 <= x2";
    case OpId::greater: return "x1 > x2";
    case OpId::greater_equal: return "x1 >= x2";
    case OpId::hypot: return "sqrt(x1**2 + x2**2)";
    case OpId::copysign: return "|x1| with the sign of x2";
    case OpId::arctan2: return "the angle of the point (x2, x1), in (-pi, pi]";
    case OpId::erf: return "the error function (scipy.special.erf)";
    default: return nullptr;
  }
}

std::string docstring(OpId op, const char* name) {
  const OpInfo& info = op_info(op);
  std::string sig = info.arity == 1 ? "(x, /, out=None, *, where=True, dtype=None)"
                                    : "(x1, x2, /, out=None, *, where=True, dtype=None)";
  const char* what = describe(op);
  std::string d = std::string(name) + sig + "\n\nElementwise " +
                  (what ? std::string(what) : std::string(info.name) + "(x)") +
                  ", as numpy." + info.name + ".";
  switch (info.rule) {
    case DTypeRule::floating: d += " Integer inputs give float16/float32/float64 as NumPy does."; break;
    case DTypeRule::divide: d += " Integer inputs give float64."; break;
    case DTypeRule::to_bool: d += " The result is bool."; break;
    default: d += " The result has the promoted input dtype."; break;
  }
  d += "\nInputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the "
       "broadcast shape (same_kind casting); where= is a bool mask; dtype= sets the "
       "computation dtype.";
  return d;
}

void def_ufunc(nb::module_& m, OpId op, const char* name) {
  const std::string doc = docstring(op, name);
  if (op_info(op).arity == 1) {
    m.def(
        name,
        [op](nb::handle x, nb::handle out, nb::handle where, nb::handle dtype) {
          return call_ufunc(op, {x}, out, where, dtype);
        },
        nb::arg("x"), nb::arg("out").none() = nb::none(), nb::kw_only(), nb::arg("where").none() = nb::bool_(true),
        nb::arg("dtype").none() = nb::none(), doc.c_str());
  } else {
    m.def(
        name,
        [op](nb::handle x1, nb::handle x2, nb::handle out, nb::handle where, nb::handle dtype) {
          return call_ufunc(op, {x1, x2}, out, where, dtype);
        },
        nb::arg("x1"), nb::arg("x2"), nb::arg("out").none() = nb::none(), nb::kw_only(),
        nb::arg("where").none() = nb::bool_(true), nb::arg("dtype").none() = nb::none(), doc.c_str());
  }
}

nb::object round_impl(nb::handle a, nb::handle decimals_h, nb::handle out) {
  const int64_t d64 = to_int_arg(decimals_h, "round", "decimals");
  // Beyond +-10**9 digits every float rounds to itself (or 0): clamp into an int.
  const int decimals = static_cast<int>(std::max<int64_t>(-1000000000, std::min<int64_t>(1000000000, d64)));
  std::optional<Device> dev = device_of({a, out});
  Array x = to_array(a, dev);
  std::optional<Array> o;
  o = to_out_arg(out, "round");
  Array r;
  {
    nb::gil_scoped_release release;
    r = loom::round(x, decimals, o);
  }
  if (o) return nb::borrow(out);
  return nb::cast(std::move(r));
}

nb::object clip_impl(nb::handle a, nb::handle lo, nb::handle hi, nb::handle out) {
  std::optional<Device> dev = device_of({a, lo, hi, out});
  Operand x = to_operand(a, dev);
  std::optional<Operand> mn, mx;
  if (!lo.is_none()) mn = to_operand(lo, dev);
  if (!hi.is_none()) mx = to_operand(hi, dev);
  UfuncArgs args;
  args.out = to_out_arg(out, "clip");
  Array r;
  {
    nb::gil_scoped_release release;
    r = loom::clip(x, mn, mx, args);
  }
  if (args.out) return nb::borrow(out);
  return nb::cast(std::move(r));
}

}  // namespace

LOOM_BINDING_FAMILY(elementwise, 10) {
  for (int i = 0; i < kNumOps; ++i) {
    const OpId op = static_cast<OpId>(i);
    if (op == OpId::where || op == OpId::clip || op == OpId::copy) continue;
    def_ufunc(m, op, op_info(op).name);
  }
  def_ufunc(m, OpId::divide, "true_divide");
  def_ufunc(m, OpId::remainder, "mod");
  def_ufunc(m, OpId::absolute, "abs");

  m.def("round", &round_impl, nb::arg("a"), nb::arg("decimals") = 0, nb::arg("out").none() = nb::none(),
        "round(a, decimals=0, out=None)\n\nEvenly round to `decimals` (negative: tens, hundreds, ...), "
        "halves to even, as numpy.round. Integers keep their dtype.");
  m.def("around", &round_impl, nb::arg("a"), nb::arg("decimals") = 0, nb::arg("out").none() = nb::none(),
        "around(a, decimals=0, out=None): numpy.around, the same as round.");
  m.def("clip", &clip_impl, nb::arg("a"), nb::arg("a_min").none() = nb::none(), nb::arg("a_max").none() = nb::none(),
        nb::arg("out").none() = nb::none(),
        "clip(a, a_min=None, a_max=None, out=None)\n\nmin(max(a, a_min), a_max) elementwise, as "
        "numpy.clip; either bound may be None. NaN propagates.");
  m.def(
      "where",
      [](nb::handle cond, nb::handle x, nb::handle y) {
        std::optional<Device> dev = device_of({cond, x, y});
        Operand c = to_operand(cond, dev), a = to_operand(x, dev), b = to_operand(y, dev);
        nb::gil_scoped_release release;
        return loom::where(c, a, b);
      },
      nb::arg("condition"), nb::arg("x"), nb::arg("y"),
      "where(condition, x, y)\n\nElements of x where condition is true, else of y, as numpy.where "
      "(condition cast to bool; x and y broadcast and promote).");
  m.def(
      "copyto",
      [](const Array& dst, nb::handle src) {
        Array s = to_array(src, dst.device());
        nb::gil_scoped_release release;
        loom::copyto(dst, s);
      },
      nb::arg("dst"), nb::arg("src"),
      "copyto(dst, src)\n\nWrites src, broadcast to dst's shape and cast to its dtype, into dst (any "
      "view), as numpy.copyto with casting='unsafe'.");

  cls.def("round", [](nb::handle self, nb::handle decimals, nb::handle out) { return round_impl(self, decimals, out); },
          nb::arg("decimals") = 0, nb::arg("out").none() = nb::none(),
          "a.round(decimals=0, out=None): loom.round(a, decimals, out).");
  cls.def("__round__", [](nb::handle self, nb::handle nd) { 
            const nb::object digits = nd.is_none() ? nb::object(nb::int_(0)) : nb::borrow(nd);
            return round_impl(self, digits, nb::none());
          },
          nb::arg("ndigits").none() = nb::none(), "round(a, ndigits): loom.round(a, ndigits).");
  cls.def("clip", [](nb::handle self, nb::handle lo, nb::handle hi, nb::handle out) { return clip_impl(self, lo, hi, out); },
          nb::arg("min").none() = nb::none(), nb::arg("max").none() = nb::none(), nb::arg("out").none() = nb::none(),
          "a.clip(min=None, max=None, out=None): loom.clip(a, min, max, out).");
}

}  // namespace loom::py
