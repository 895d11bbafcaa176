// Bindings of numpy.fft (ops/fft.h) into loom.fft, with NumPy 2's signatures: (a, n=None,
// axis=-1, norm=None, out=None) for the one-axis transforms and (a, s=None, axes=None,
// norm=None, out=None) for the n-d ones; s without axes warns as NumPy 2 does.
#include <nanobind/stl/string.h>

#include <string>

#include "bindings.h"

namespace loom::py {
namespace {

using OneAxis = Array (*)(const Array&, std::optional<int64_t>, int64_t, const std::string&);
using NAxes = Array (*)(const Array&, const fft::OptionalInts&, const fft::OptionalInts&, const std::string&);

// The frequencies (computed in float64) in the Array API's dtype=, a real floating dtype.
Array freq_in(const Array& f, nb::handle dtype, const char* op) {
  const std::optional<DType> dt = to_optional_dtype(dtype);
  if (!dt || *dt == f.dtype()) return f;
  if (!is_floating(*dt))
    throw DTypeError(std::string("[") + op + "] dtype must be a real floating-point dtype, not " + dtype_name(*dt));
  return f.astype(*dt);
}

std::string norm_arg(nb::handle h, const char* op) { return h.is_none() ? "backward" : to_str_arg(h, op, "norm"); }

// s: a sequence of ints; None entries mean the axis' length (NumPy's deprecated spelling of -1).
fft::OptionalInts shape_arg(nb::handle h, const char* op) {
  if (h.is_none()) return std::nullopt;
  if (!PySequence_Check(h.ptr())) raise_arg_type(op, "s", "a sequence of ints", h);
  std::vector<int64_t> s;
  for (nb::handle item : h) s.push_back(item.is_none() ? -1 : to_int_arg(item, op, "s"));
  return s;
}

// out=: the result written into a loom array of its shape (same_kind casting, as a ufunc's).
nb::object finish(const Array& r, nb::handle out, const char* op) {
  const std::optional<Array> o = to_out_arg(out, op);
  if (!o) return nb::cast(r);
  if (o->shape() != r.shape()) throw_value_error(op, "output array has wrong shape.");
  if (!can_cast_same_kind(r.dtype(), o->dtype()))
    throw_dtype_error(op, std::string("cannot write the ") + dtype_name(r.dtype()) + " result to an " +
                              dtype_name(o->dtype()) + " out= array");
  {
    nb::gil_scoped_release release;
    copyto(*o, r);
  }
  return nb::borrow(out.is_none() || !PyTuple_Check(out.ptr()) ? out : nb::handle(PyTuple_GET_ITEM(out.ptr(), 0)));
}

void def_one_axis(nb::module_& f, const char* name, OneAxis fn, const char* doc) {
  f.def(
      name,
      [name, fn](nb::handle a, nb::handle n, nb::handle axis, nb::handle norm, nb::handle out) {
        const std::string op = std::string("fft.") + name;
        const Array x = to_array(a);
        const std::optional<int64_t> nn =
            n.is_none() ? std::nullopt : std::optional<int64_t>(to_int_arg(n, op.c_str(), "n"));
        const int64_t ax = to_int_arg(axis, op.c_str(), "axis");
        const std::string nm = norm_arg(norm, op.c_str());
        Array r;
        {
          nb::gil_scoped_release release;
          r = fn(x, nn, ax, nm);
        }
        return finish(r, out, op.c_str());
      },
      nb::arg("a"), nb::arg("n") = nb::none(), nb::arg("axis") = -1, nb::arg("norm") = nb::none(),
      nb::arg("out") = nb::none(), doc);
}

void def_n_axes(nb::module_& f, const char* name, NAxes fn, bool two_d, const char* doc) {
  auto body = [name, fn](nb::handle a, nb::handle s, nb::handle axes, nb::handle norm, nb::handle out) {
    const std::string op = std::string("fft.") + name;
    const Array x = to_array(a);
    const fft::OptionalInts ss = shape_arg(s, op.c_str());
    const fft::OptionalInts ax = to_axes(axes, op.c_str());
    if (ss && !ax &&
        PyErr_WarnEx(PyExc_DeprecationWarning,
                     "`axes` should not be `None` if `s` is not `None` (deprecated in NumPy 2.0): pass the axes "
                     "that s describes",
                     2) < 0)
      throw nb::python_error();
    const std::string nm = norm_arg(norm, op.c_str());
    Array r;
    {
      nb::gil_scoped_release release;
      r = fn(x, ss, ax, nm);
    }
    return finish(r, out, op.c_str());
  };
  if (two_d)
    f.def(name, body, nb::arg("a"), nb::arg("s") = nb::none(), nb::arg("axes").none() = nb::make_tuple(-2, -1),
          nb::arg("norm") = nb::none(), nb::arg("out") = nb::none(), doc);
  else
    f.def(name, body, nb::arg("a"), nb::arg("s") = nb::none(), nb::arg("axes") = nb::none(),
          nb::arg("norm") = nb::none(), nb::arg("out") = nb::none(), doc);
}

// The 2-d forms are the n-d ones with their own name in errors (the C++ API has both);
// axes=None, as NumPy's, means all axes (the last len(s) with s): the n-d form.
Array fft2_(const Array& a, const fft::OptionalInts& s, const fft::OptionalInts& ax, const std::string& nm) {
  return ax ? fft::fft2(a, s, *ax, nm) : fft::fftn(a, s, std::nullopt, nm);
}
Array ifft2_(const Array& a, const fft::OptionalInts& s, const fft::OptionalInts& ax, const std::string& nm) {
  return ax ? fft::ifft2(a, s, *ax, nm) : fft::ifftn(a, s, std::nullopt, nm);
}
Array rfft2_(const Array& a, const fft::OptionalInts& s, const fft::OptionalInts& ax, const std::string& nm) {
  return ax ? fft::rfft2(a, s, *ax, nm) : fft::rfftn(a, s, std::nullopt, nm);
}
Array irfft2_(const Array& a, const fft::OptionalInts& s, const fft::OptionalInts& ax, const std::string& nm) {
  return ax ? fft::irfft2(a, s, *ax, nm) : fft::irfftn(a, s, std::nullopt, nm);
}

double spacing_arg(nb::handle d, int64_t n, const char* op) {
  if (!PyFloat_Check(d.ptr()) && !PyLong_Check(d.ptr()) && !PyIndex_Check(d.ptr()) &&
      !nb::hasattr(d, "__float__"))
    raise_arg_type(op, "d", "a real number", d);
  const double v = nb::cast<double>(nb::float_(d));
  if (static_cast<double>(n) * v == 0) {
    PyErr_SetString(PyExc_ZeroDivisionError, "float division by zero");
    throw nb::python_error();
  }
  return v;
}

}  // namespace

LOOM_BINDING_FAMILY(fft, 52) {
  nb::module_ f = m.def_submodule(
      "fft",
      "Discrete Fourier transforms (numpy.fft names and arguments): FFTW on cpu(), cuFFT on GPUs.\n"
      "norm is \"backward\" (default), \"ortho\" or \"forward\"; float32/complex64 input gives\n"
      "complex64, other input complex128 (the inverse real transforms: the matching real type).");
  def_one_axis(f, "fft", fft::fft, "numpy.fft.fft: the 1-d DFT along `axis` over n points (padded or cut).");
  def_one_axis(f, "ifft", fft::ifft, "numpy.fft.ifft: the inverse of fft.");
  def_one_axis(f, "rfft", fft::rfft, "numpy.fft.rfft: the DFT of real input, the n//2 + 1 non-negative frequencies.");
  def_one_axis(f, "irfft", fft::irfft, "numpy.fft.irfft: the real inverse of rfft; n defaults to 2 * (m - 1).");
  def_one_axis(f, "hfft", fft::hfft, "numpy.fft.hfft: the real DFT of a Hermitian signal given by its half.");
  def_one_axis(f, "ihfft", fft::ihfft, "numpy.fft.ihfft: the inverse of hfft.");
  def_n_axes(f, "fftn", fft::fftn, false, "numpy.fft.fftn: the DFT over `axes` (all by default).");
  def_n_axes(f, "ifftn", fft::ifftn, false, "numpy.fft.ifftn: the inverse of fftn.");
  def_n_axes(f, "rfftn", fft::rfftn, false, "numpy.fft.rfftn: rfft over the last axis, fft over the others.");
  def_n_axes(f, "irfftn", fft::irfftn, false, "numpy.fft.irfftn: the inverse of rfftn.");
  def_n_axes(f, "fft2", fft2_, true, "numpy.fft.fft2: fftn over the last two axes.");
  def_n_axes(f, "ifft2", ifft2_, true, "numpy.fft.ifft2: ifftn over the last two axes.");
  def_n_axes(f, "rfft2", rfft2_, true, "numpy.fft.rfft2: rfftn over the last two axes.");
  def_n_axes(f, "irfft2", irfft2_, true, "numpy.fft.irfft2: irfftn over the last two axes.");

  f.def(
      "fftfreq",
      [](nb::handle n, nb::handle d, nb::handle device, nb::handle dtype) {
        const int64_t nn = to_int_arg(n, "fft.fftfreq", "n");
        return freq_in(fft::fftfreq(nn, spacing_arg(d, nn, "fft.fftfreq"), to_optional_device(device)), dtype,
                       "fft.fftfreq");
      },
      nb::arg("n"), nb::arg("d") = 1.0, nb::arg("device") = nb::none(), nb::kw_only(), nb::arg("dtype") = nb::none(),
      "numpy.fft.fftfreq: the sample frequencies [0, 1, ..., n//2 - 1 or so, -n//2, ..., -1] / (d * n), float64 "
      "(or the real floating-point `dtype`, the Array API's).");
  f.def(
      "rfftfreq",
      [](nb::handle n, nb::handle d, nb::handle device, nb::handle dtype) {
        const int64_t nn = to_int_arg(n, "fft.rfftfreq", "n");
        return freq_in(fft::rfftfreq(nn, spacing_arg(d, nn, "fft.rfftfreq"), to_optional_device(device)), dtype,
                       "fft.rfftfreq");
      },
      nb::arg("n"), nb::arg("d") = 1.0, nb::arg("device") = nb::none(), nb::kw_only(), nb::arg("dtype") = nb::none(),
      "numpy.fft.rfftfreq: the n//2 + 1 non-negative sample frequencies of rfft, float64 (or the real "
      "floating-point `dtype`, the Array API's).");
  f.def(
      "fftshift",
      [](nb::handle x, nb::handle axes) {
        const Array a = to_array(x);
        const fft::OptionalInts ax = to_axes(axes, "fft.fftshift");
        nb::gil_scoped_release release;
        return fft::fftshift(a, ax);
      },
      nb::arg("x"), nb::arg("axes") = nb::none(),
      "numpy.fft.fftshift: the zero frequency moved to the centre of `axes` (all by default).");
  f.def(
      "ifftshift",
      [](nb::handle x, nb::handle axes) {
        const Array a = to_array(x);
        const fft::OptionalInts ax = to_axes(axes, "fft.ifftshift");
        nb::gil_scoped_release release;
        return fft::ifftshift(a, ax);
      },
      nb::arg("x"), nb::arg("axes") = nb::none(), "numpy.fft.ifftshift: the inverse of fftshift.");
}

}  // namespace loom::py
