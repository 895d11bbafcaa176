// Bindings of NumPy's float-part and bit functions (ops/math_parts.h).
#include "bindings.h"
#include "loom/ops/math_parts.h"

namespace loom::py {

LOOM_BINDING_FAMILY(math_parts, 37) {
  using Unary = Array (*)(const Array&);
  struct U { const char* name; Unary fn; const char* doc; };
  for (const U& u : {U{"i0", &i0, "numpy.i0: the modified Bessel function of the first kind, order 0."},
                     U{"spacing", &spacing, "numpy.spacing: the distance to the next float away from zero."},
                     U{"bitwise_count", &bitwise_count, "numpy.bitwise_count: the number of 1 bits of |x|, as uint8."},
                     U{"fix", &fix, "numpy.fix: rounds toward zero."},
                     U{"isposinf", &isposinf, "numpy.isposinf: whether x is +inf."},
                     U{"isneginf", &isneginf, "numpy.isneginf: whether x is -inf."}}) {
    Unary fn = u.fn;
    m.def(u.name, [fn](nb::handle x) { return fn(to_array(x)); }, nb::arg("x"), u.doc);
  }
  using Split = std::pair<Array, Array> (*)(const Array&);
  struct S { const char* name; Split fn; const char* doc; };
  for (const S& s : {S{"frexp", &frexp, "numpy.frexp: (mantissa, exponent) with x == mantissa * 2**exponent."},
                     S{"modf", &modf, "numpy.modf: (fractional part, integral part), each with x's sign."}}) {
    Split fn = s.fn;
    m.def(s.name, [fn](nb::handle x) { auto [a, b] = fn(to_array(x)); return nb::make_tuple(a, b); },
          nb::arg("x"), s.doc);
  }
  m.def("divmod", [](nb::handle x1, nb::handle x2) {
          const auto [a, b] = to_array_pair(x1, x2);
          auto [q, r] = divmod(a, b);
          return nb::make_tuple(q, r);
        },
        nb::arg("x1"), nb::arg("x2"), "numpy.divmod: (x1 // x2, x1 % x2).");
  using Binary = Array (*)(const Array&, const Array&);
  struct B { const char* name; Binary fn; const char* doc; };
  for (const B& b : {B{"ldexp", &ldexp, "numpy.ldexp: x1 * 2**x2 for integer x2."},
                     B{"float_power", &float_power, "numpy.float_power: x1 ** x2 in float64 (complex128)."}}) {
    Binary fn = b.fn;
    m.def(b.name, [fn](nb::handle x1, nb::handle x2) {
            const auto [a, c] = to_array_pair(x1, x2);
            return fn(a, c);
          },
          nb::arg("x1"), nb::arg("x2"), b.doc);
  }
}

}  // namespace loom::py
