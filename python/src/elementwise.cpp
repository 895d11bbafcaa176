// Elementwise ufuncs (one per `ufunc` record of the op table and per alias, described by
// the table's doc column), round, clip, where, copyto. Arguments are parsed here in C++:
// Python numbers stay weak scalars (NEP 50), NumPy arrays, lists and NumPy scalars become
// arrays on the device of the loom operands.
#include <algorithm>
#include <string>

#include "bindings.h"
#include "elementwise_args.h"

#include <nanobind/stl/string.h>

namespace loom::py {
namespace {

std::string docstring(OpId op, const char* name) {
  const OpInfo& info = op_info(op);
  std::string sig = info.arity == 1 ? "(x, /, out=None, *, where=True, dtype=None)"
                                    : "(x1, x2, /, out=None, *, where=True, dtype=None)";
  std::string d = std::string(name) + sig + "\n\nElementwise " + info.doc + ", as numpy." + info.name + ".";
  switch (info.rule) {
    case DTypeRule::floating: d += " Integer inputs give float16/float32/float64 as NumPy does."; break;
    case DTypeRule::divide: d += " Integer inputs give float64."; break;
    case DTypeRule::to_bool: d += " The result is bool."; break;
    default: d += " The result has the promoted input dtype."; break;
  }
  d += "\nInputs broadcast; Python scalars are weak (NEP 50). out= takes any array of the "
       "broadcast shape; where= is a bool mask; dtype= sets the computation dtype; casting= "
       "('no', 'equiv', 'safe', 'same_kind' by default, 'unsafe') bounds the casts of the "
       "inputs to it and of the result to out.";
  return d;
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

// One bound given under either name: NumPy 2.1's a_min/a_max or min/max (the Array API's).
nb::handle one_bound(nb::handle legacy, nb::handle named, const char* which) {
  if (named.is_none()) return legacy;
  if (!legacy.is_none())
    throw std::invalid_argument(std::string("[clip] the ") + which + " bound was passed twice (a_" + which + " and " +
                                which + ")");
  return named;
}

nb::object clip_impl(nb::handle a, nb::handle lo, nb::handle hi, nb::handle out, nb::handle min_kw, nb::handle max_kw) {
  lo = one_bound(lo, min_kw, "min");
  hi = one_bound(hi, max_kw, "max");
  std::optional<Device> dev = device_of({a, lo, hi, out});
  if (lo.is_none() && hi.is_none()) {
    // No bound (NumPy 2.1, the Array API): the values unchanged, in a new array or `out`.
    const Array x = to_array(a, dev);
    const std::optional<Array> o = to_out_arg(out, "clip");
    nb::gil_scoped_release release;
    if (o) {
      copyto(*o, x);
      nb::gil_scoped_acquire acquire;
      return nb::borrow(out);
    }
    Array r = x.copy();
    nb::gil_scoped_acquire acquire;
    return nb::cast(std::move(r));
  }
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

// The table as Python sees it, for tests and tools: (name, arity, api, op, expr, loops) per
// row and per alias, api being "ufunc", "custom", "internal", "special" or "alias", op the row an alias
// names, expr the row's C expression over x0, x1, x2 (common/loom_math.cuh's helpers), loops
// {promoted input dtype: (loop dtype, result dtype)} for the dtypes the row allows. The
// Python kernel translator computes an op inside kernels from expr and loops.
nb::tuple op_row(const char* name, const char* api, const OpInfo& info) {
  nb::dict loops;
  for (int i = 0; i < kNumDTypes; ++i) {
    const DType p = static_cast<DType>(i);
    if (!((info.dtypes >> i) & 1u)) continue;
    const DType loop = loop_dtype(info.rule, p);
    loops[dtype_name(p)] = nb::make_tuple(dtype_name(loop), dtype_name(result_dtype(info.rule, loop)));
  }
  return nb::make_tuple(name, info.arity, api, info.name, info.expr, loops);
}

nb::list op_table() {
  static const char* const kApi[] = {"ufunc", "custom", "internal", "special"};
  nb::list rows;
  for (const OpInfo& info : kOpTable) rows.append(op_row(info.name, kApi[static_cast<int>(info.api)], info));
  for (const OpAlias& alias : kOpAliases) rows.append(op_row(alias.name, "alias", op_info(alias.op)));
  return rows;
}

}  // namespace

LOOM_BINDING_FAMILY(elementwise, 10) {
  // Every `ufunc` row of the op table and every alias; clip and where (`custom` rows) are
  // bound below with NumPy's own signatures.
  for (int i = 0; i < kNumOps; ++i)
    if (kOpTable[i].api == OpApi::ufunc) def_ufunc(m, static_cast<OpId>(i), kOpTable[i].name, docstring(static_cast<OpId>(i), kOpTable[i].name));
  for (const OpAlias& alias : kOpAliases) def_ufunc(m, alias.op, alias.name, docstring(alias.op, alias.name));
  m.def("_elementwise_op_table", &op_table,
        "_elementwise_op_table() -> [(name, arity, api, op, expr, loops)]: loom's elementwise op table "
        "(private); loops maps each allowed promoted input dtype to (loop dtype, result dtype).");

  m.def("round", &round_impl, nb::arg("a"), nb::arg("decimals") = 0, nb::arg("out").none() = nb::none(),
        "round(a, decimals=0, out=None)\n\nEvenly round to `decimals` (negative: tens, hundreds, ...), "
        "halves to even, as numpy.round. Integers keep their dtype.");
  m.def("around", &round_impl, nb::arg("a"), nb::arg("decimals") = 0, nb::arg("out").none() = nb::none(),
        "around(a, decimals=0, out=None): numpy.around, the same as round.");
  // The positional bounds are named min and max (the Array API's names, which its signature
  // check requires); NumPy's a_min= and a_max= are accepted as keywords for the same bounds.
  m.def("clip", [](nb::handle a, nb::handle mn, nb::handle mx, nb::handle out, nb::handle a_min, nb::handle a_max) {
          return clip_impl(a, a_min, a_max, out, mn, mx);
        },
        nb::arg("a"), nb::arg("min").none() = nb::none(), nb::arg("max").none() = nb::none(),
        nb::arg("out").none() = nb::none(), nb::kw_only(), nb::arg("a_min").none() = nb::none(),
        nb::arg("a_max").none() = nb::none(),
        "clip(a, min=None, max=None, out=None, *, a_min=None, a_max=None)\n\nmin(max(a, min), max) "
        "elementwise, as numpy.clip; a_min= and a_max= (NumPy's keyword names) are the same bounds. "
        "Either bound may be None; with neither, a copy. NaN propagates.");
  m.def(
      "where",
      [](nb::handle cond, nb::handle x, nb::handle y) -> nb::object {
        // NumPy's one-argument form: the indices of the true elements, as nonzero(condition).
        // (None is no operand loom takes: it stands for "not given".)
        if (x.is_none() && y.is_none()) return nb::tuple(arrays_list(loom::nonzero(to_array(cond))));
        if (x.is_none() || y.is_none())
          throw_value_error("where", "either both or neither of x and y should be given");
        std::optional<Device> dev = device_of({cond, x, y});
        Operand c = to_operand(cond, dev), a = to_operand(x, dev), b = to_operand(y, dev);
        nb::gil_scoped_release release;
        return nb::cast(loom::where(c, a, b));
      },
      nb::arg("condition"), nb::arg("x").none() = nb::none(), nb::arg("y").none() = nb::none(),
      "where(condition, [x, y])\n\nElements of x where condition is true, else of y, as numpy.where "
      "(condition cast to bool; x and y broadcast and promote); with condition alone, "
      "nonzero(condition).");
  m.def(
      "copyto",
      [](const Array& dst, nb::handle src) {
        Array s = to_array(src, dst.device());
        warn_complex_discard(s.dtype(), dst.dtype());
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
  cls.def("clip", [](nb::handle self, nb::handle lo, nb::handle hi, nb::handle out) {
            return clip_impl(self, lo, hi, out, nb::none(), nb::none());
          },
          nb::arg("min").none() = nb::none(), nb::arg("max").none() = nb::none(), nb::arg("out").none() = nb::none(),
          "a.clip(min=None, max=None, out=None): loom.clip(a, min, max, out).");
}

}  // namespace loom::py
