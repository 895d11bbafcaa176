// Bindings of the parts of complex arrays (ops/complex.h): loom.real, imag, angle, the type
// queries, and the .real/.imag properties (views that can be assigned through, as NumPy's).
#include "bindings.h"

#include "loom/ops/complex.h"

namespace loom::py {
namespace {

Array arg(nb::handle h) { return to_array(h, std::nullopt); }

// x.real = v / x.imag = v: v (an array or a scalar) written into the view.
void assign_part(const Array& view, nb::handle value) {
  const Array src = to_array(value, view.device());
  nb::gil_scoped_release release;
  copyto(view, src);
}

}  // namespace

LOOM_BINDING_FAMILY(complex, 12) {
  m.def(
      "real", [](nb::handle a) { return real(arg(a)); }, nb::arg("val"),
      "numpy.real: the real parts (a view of a complex array's buffer; the array itself when real).");
  m.def(
      "imag", [](nb::handle a) { return imag(arg(a)); }, nb::arg("val"),
      "numpy.imag: the imaginary parts (a view of a complex array's buffer; zeros when real).");
  m.def(
      "angle",
      [](nb::handle z, bool deg) {
        const Array a = arg(z);
        nb::gil_scoped_release release;
        return angle(a, deg);
      },
      nb::arg("z"), nb::arg("deg") = false,
      "numpy.angle: arctan2(imag, real), the angle in (-pi, pi] (degrees with deg=True).");
  m.def(
      "iscomplex", [](nb::handle a) { return iscomplex(arg(a)); }, nb::arg("x"),
      "numpy.iscomplex: True where the imaginary part is nonzero.");
  m.def(
      "isreal", [](nb::handle a) { return isreal(arg(a)); }, nb::arg("x"),
      "numpy.isreal: True where the imaginary part is zero.");
  m.def(
      "iscomplexobj", [](const Array& a) { return is_complex(a.dtype()); }, nb::arg("x"),
      "numpy.iscomplexobj: whether the array's dtype is complex.");
  m.def(
      "isrealobj", [](const Array& a) { return !is_complex(a.dtype()); }, nb::arg("x"),
      "numpy.isrealobj: whether the array's dtype is not complex.");
  cls.def_prop_rw(
      "real", [](const Array& a) { return real(a); }, [](const Array& a, nb::handle v) { assign_part(real(a), v); },
      "The real parts: a view for complex arrays (assigning to it writes the array), the array itself otherwise.");
  cls.def_prop_rw(
      "imag", [](const Array& a) { return imag(a); },
      [](const Array& a, nb::handle v) {
        if (!is_complex(a.dtype())) throw DTypeError("[imag] array does not have imaginary part to set");
        assign_part(imag(a), v);
      },
      "The imaginary parts: a view for complex arrays (assigning to it writes the array), zeros otherwise.");
  cls.def(
      "conj", [](const Array& a) { return conjugate(a); }, "The complex conjugate (a copy), as numpy.ndarray.conj.");
  cls.def(
      "conjugate", [](const Array& a) { return conjugate(a); }, "The complex conjugate (a copy).");
}

}  // namespace loom::py
