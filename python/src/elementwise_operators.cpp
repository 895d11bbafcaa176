// ndarray operators (+ - * / // % ** and the bitwise, shift and comparison operators),
// their reflected and in-place forms, and the unary operators. Each is one C++ call:
// the per-call cost of `x + y` is what small-array code pays.
#include "bindings.h"
#include "elementwise_args.h"

namespace loom::py {
namespace {

nb::object binary(OpId op, nb::handle a, nb::handle b) {
  const std::optional<Device> dev = device_of({a, b});
  Operand x = Operand(0), y = Operand(0);
  const bool cmp = is_comparison_op(op);
  if (!try_operand(a, dev, &x, cmp) || !try_operand(b, dev, &y, cmp)) return nb::borrow(Py_NotImplemented);
  const Operand in[2] = {std::move(x), std::move(y)};
  Array r;
  {
    ReleaseGilIfLarge release(work_of(in, 2));
    r = apply(op, in, 2);
  }
  return nb::cast(std::move(r));
}

// a op= b: computes into a (a's dtype kept; same_kind casting as NumPy, else TypeError).
nb::object inplace(OpId op, nb::handle self, nb::handle b) {
  const Array& a = nb::cast<const Array&>(self);
  Operand y = Operand(0);
  if (!try_operand(b, a.device(), &y)) return nb::borrow(Py_NotImplemented);
  const Operand in[2] = {a, std::move(y)};
  UfuncArgs args;
  args.out = a;
  {
    ReleaseGilIfLarge release(work_of(in, 2));
    apply(op, in, 2, args);
  }
  return nb::borrow(self);
}

nb::object unary(OpId op, nb::handle self) {
  const Operand in = nb::cast<const Array&>(self);
  Array r;
  {
    ReleaseGilIfLarge release(work_of(&in, 1));
    r = apply(op, &in, 1);
  }
  return nb::cast(std::move(r));
}

}  // namespace

LOOM_BINDING_FAMILY(elementwise_operators, 11) {
#define LOOM_PY_BINOP(py, op)                                                                          \
  cls.def("__" py "__", [](nb::handle s, nb::handle o) { return binary(OpId::op, s, o); },             \
          nb::arg("other").none(), "self " py " other: loom." #op "(self, other).");                    \
  cls.def("__r" py "__", [](nb::handle s, nb::handle o) { return binary(OpId::op, o, s); },            \
          nb::arg("other").none(), "other " py " self (reflected): loom." #op "(other, self).");        \
  cls.def("__i" py "__", [](nb::handle s, nb::handle o) { return inplace(OpId::op, s, o); },           \
          nb::arg("other").none(), "self " py "= other: loom." #op "(self, other, out=self).");
  LOOM_PY_BINOP("add", add)
  LOOM_PY_BINOP("sub", subtract)
  LOOM_PY_BINOP("mul", multiply)
  LOOM_PY_BINOP("truediv", divide)
  LOOM_PY_BINOP("floordiv", floor_divide)
  LOOM_PY_BINOP("mod", remainder)
  LOOM_PY_BINOP("and", bitwise_and)
  LOOM_PY_BINOP("or", bitwise_or)
  LOOM_PY_BINOP("xor", bitwise_xor)
  LOOM_PY_BINOP("lshift", left_shift)
  LOOM_PY_BINOP("rshift", right_shift)
#undef LOOM_PY_BINOP
  // ** takes pow()'s optional modulo, which NumPy does not support either.
  cls.def("__pow__", [](nb::handle s, nb::handle o, nb::handle mod) {
            if (!mod.is_none()) return nb::borrow(Py_NotImplemented);
            return binary(OpId::power, s, o);
          },
          nb::arg("other").none(), nb::arg("mod").none() = nb::none(), "self ** other: loom.power(self, other).");
  cls.def("__rpow__", [](nb::handle s, nb::handle o, nb::handle mod) {
            if (!mod.is_none()) return nb::borrow(Py_NotImplemented);
            return binary(OpId::power, o, s);
          },
          nb::arg("other").none(), nb::arg("mod").none() = nb::none(), "other ** self: loom.power(other, self).");
  cls.def("__ipow__", [](nb::handle s, nb::handle o) { return inplace(OpId::power, s, o); }, nb::arg("other").none(),
          "self **= other: loom.power(self, other, out=self).");
#define LOOM_PY_CMP(py, op)                                                                \
  cls.def("__" py "__", [](nb::handle s, nb::handle o) { return binary(OpId::op, s, o); }, \
          nb::arg("other").none(), "self " py " other, elementwise: loom." #op "(self, other).");
  LOOM_PY_CMP("eq", equal)
  LOOM_PY_CMP("ne", not_equal)
  LOOM_PY_CMP("lt", less)
  LOOM_PY_CMP("le", less_equal)
  LOOM_PY_CMP("gt", greater)
  LOOM_PY_CMP("ge", greater_equal)
#undef LOOM_PY_CMP
  cls.def("__neg__", [](nb::handle s) { return unary(OpId::negative, s); }, "-self: loom.negative(self).");
  cls.def("__pos__", [](nb::handle s) { return unary(OpId::positive, s); }, "+self: loom.positive(self).");
  cls.def("__abs__", [](nb::handle s) { return unary(OpId::absolute, s); }, "abs(self): loom.absolute(self).");
  cls.def("__invert__", [](nb::handle s) { return unary(OpId::invert, s); }, "~self: loom.invert(self).");
  // Arrays are mutable and compare elementwise: unhashable, as NumPy's.
  cls.attr("__hash__") = nb::none();
}

}  // namespace loom::py
