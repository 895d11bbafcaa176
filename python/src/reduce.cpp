// Reductions: module functions with NumPy's signatures (loom.sum, ...), the ndarray
// methods (x.sum(), ...) and loom.linalg.norm. Results that NumPy returns as scalars come
// back as 0-d loom arrays on the input's device (as CuPy does): no hidden device sync.
#include <string>

#include "bindings.h"
#include "loom/ops/math_extras.h"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

namespace loom::py {
namespace {

std::optional<Array> to_out(nb::handle h, const char* op) { return to_out_arg(h, op); }

// argmin/argmax/cumsum/cumprod take one axis or None (NumPy raises TypeError for a tuple).
std::optional<int64_t> to_one_axis(nb::handle h, const char* op) {
  if (h.is_none()) return std::nullopt;
  if (PyTuple_Check(h.ptr()) || PyList_Check(h.ptr()))
    throw nb::type_error((std::string("[") + op + "] axis must be None or an integer").c_str());
  return to_axes(h, op)->front();
}

// NumPy's ufunc reductions, argmin/argmax and the scans accept an integer axis 0 or -1 on a
// 0-d array (a legacy rule; a tuple is still an AxisError): it means "every axis".
bool legacy_0d_axis(const Array& a, nb::handle axis) {
  if (a.ndim() != 0 || axis.is_none() || PyTuple_Check(axis.ptr()) || PyList_Check(axis.ptr())) return false;
  if (!PyIndex_Check(axis.ptr())) return false;
  if (PyBool_Check(axis.ptr())) return false;
  nb::object idx = nb::steal(PyNumber_Index(axis.ptr()));
  if (!idx.is_valid()) throw nb::python_error();
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(idx.ptr(), &overflow);
  return !overflow && (v == 0 || v == -1);
}

AxisArg ufunc_axes(const Array& a, nb::handle axis, const char* op) {
  return legacy_0d_axis(a, axis) ? AxisArg{} : to_axes(axis, op);
}

int64_t reduced_count(const Array& a, const AxisArg& axis) {
  int64_t n = 1;
  if (!axis) return a.size();
  for (int d : normalize_axes(*axis, a.ndim(), "reduce")) n *= a.shape()[d];
  return n;
}

// NumPy warns (RuntimeWarning) where a mean or variance divides by zero.
void warn_if(bool cond, const char* msg) {
  if (cond && PyErr_WarnEx(PyExc_RuntimeWarning, msg, 1) < 0) throw nb::python_error();
}

linalg::NormOrd to_ord(nb::handle h) {
  linalg::NormOrd o;
  if (h.is_none()) return o;
  if (nb::isinstance<nb::str>(h)) {
    const std::string s = nb::cast<std::string>(h);
    if (s == "fro" || s == "f") o.kind = linalg::NormOrd::Kind::fro;
    else if (s == "nuc") o.kind = linalg::NormOrd::Kind::nuc;
    else throw std::invalid_argument("[norm] Invalid norm order '" + s + "'");
    return o;
  }
  return linalg::NormOrd::number(nb::cast<double>(nb::float_(h)));
}

using SumFn = Array (*)(const Array&, const AxisArg&, bool, std::optional<DType>, const std::optional<Array>&);
using PlainFn = Array (*)(const Array&, const AxisArg&, bool, const std::optional<Array>&);
using ArgFn = Array (*)(const Array&, std::optional<int64_t>, bool, const std::optional<Array>&);
using ScanFn = Array (*)(const Array&, std::optional<int64_t>, std::optional<DType>, const std::optional<Array>&);
using VarFn = Array (*)(const Array&, const AxisArg&, bool, std::optional<DType>, double,
                        const std::optional<Array>&);

// NumPy returns out= itself when given (np.sum(a, out=o) is o; the array of a 1-tuple out=).
nb::object out_or(nb::handle out, Array r) {
  if (out.is_none()) return nb::cast(std::move(r));
  return nb::borrow(PyTuple_Check(out.ptr()) ? nb::handle(PyTuple_GET_ITEM(out.ptr(), 0)) : out);
}

Array call_sum(const char* name, SumFn f, const Array& a, nb::handle axis, nb::handle dtype, nb::handle out, bool keepdims,
               bool legacy = true) {
  const AxisArg ax = legacy ? ufunc_axes(a, axis, name) : to_axes(axis, name);
  const auto dt = to_optional_dtype(dtype);
  const auto o = to_out(out, name);
  nb::gil_scoped_release release;
  return f(a, ax, keepdims, dt, o);
}

Array call_mean(const char* name, const Array& a, nb::handle axis, nb::handle dtype, nb::handle out, bool keepdims) {
  const AxisArg ax = to_axes(axis, name);
  Array r = call_sum(name, &loom::mean, a, axis, dtype, out, keepdims, false);
  warn_if(r.size() > 0 && reduced_count(a, ax) == 0, "Mean of empty slice.");
  return r;
}

// NumPy 2's ddof= or its Array API spelling correction= (one of them; None counts as 0).
double ddof_arg(const char* name, nb::handle ddof, nb::handle correction) {
  if (!ddof.is_none() && !correction.is_none())
    throw std::invalid_argument(std::string("[") + name + "] ddof and correction can't be provided simultaneously.");
  const auto v = to_optional_float_arg(ddof.is_none() ? correction : ddof, name, ddof.is_none() ? "correction" : "ddof");
  return v.value_or(0.0);
}

Array call_var(const char* name, VarFn f, const Array& a, nb::handle axis, nb::handle dtype, nb::handle out, double ddof,
               bool keepdims) {
  const AxisArg ax = to_axes(axis, name);
  const auto dt = to_optional_dtype(dtype);
  const auto o = to_out(out, name);
  Array r;
  {
    nb::gil_scoped_release release;
    r = f(a, ax, keepdims, dt, ddof, o);
  }
  warn_if(r.size() > 0 && static_cast<double>(reduced_count(a, ax)) - ddof <= 0, "Degrees of freedom <= 0 for slice");
  return r;
}

Array call_plain(const char* name, PlainFn f, const Array& a, nb::handle axis, nb::handle out, bool keepdims) {
  const AxisArg ax = ufunc_axes(a, axis, name);
  const auto o = to_out(out, name);
  nb::gil_scoped_release release;
  return f(a, ax, keepdims, o);
}

Array call_arg(const char* name, ArgFn f, const Array& a, nb::handle axis, nb::handle out, bool keepdims) {
  const auto ax = legacy_0d_axis(a, axis) ? std::nullopt : to_one_axis(axis, name);
  const auto o = to_out(out, name);
  nb::gil_scoped_release release;
  return f(a, ax, keepdims, o);
}

Array call_scan(const char* name, ScanFn f, const Array& a, nb::handle axis, nb::handle dtype, nb::handle out) {
  const auto ax = legacy_0d_axis(a, axis) ? std::nullopt : to_one_axis(axis, name);
  const auto dt = to_optional_dtype(dtype);
  const auto o = to_out(out, name);
  nb::gil_scoped_release release;
  return f(a, ax, dt, o);
}

Array norm_py(nb::handle x, nb::handle ord, nb::handle axis, bool keepdims) {
  const Array a = to_array(x);
  const auto o = to_ord(ord);
  AxisArg ax;
  if (!axis.is_none()) {
    if (!PyTuple_Check(axis.ptr()) && !PyList_Check(axis.ptr()) && !PyIndex_Check(axis.ptr()))
      throw nb::type_error("'axis' must be None, an integer or a tuple of integers");
    ax = to_axes(axis, "norm");
  }
  nb::gil_scoped_release release;
  return linalg::norm(a, o, ax, keepdims);
}

constexpr const char* kScalarNote =
    " A full reduction returns a 0-d array on the input's device (as CuPy does), not a\n"
    "NumPy scalar: use .item() or float() to read it on the host.";

std::string doc(const char* text) { return std::string(text) + kScalarNote; }

}  // namespace

LOOM_BINDING_FAMILY(reduce, 30) {
  const auto none = nb::none();
  // ---- module functions: the first argument may be anything asarray() accepts ----------
  struct SumDef { const char* name; SumFn fn; const char* text; };
  static const std::string sum_doc = doc(
      "sum(a, axis=None, dtype=None, out=None, keepdims=False)\n\nSum of elements over the given axes. "
      "bool and signed integers give int64, unsigned uint64; float16/bfloat16 accumulate in float32; "
      "float32 is summed pairwise (NumPy's accuracy or better).");
  static const std::string prod_doc = doc(
      "prod(a, axis=None, dtype=None, out=None, keepdims=False)\n\nProduct of elements over the given "
      "axes; dtype rules as sum.");
  static const std::string mean_doc = doc(
      "mean(a, axis=None, dtype=None, out=None, keepdims=False)\n\nArithmetic mean; integers give "
      "float64, float16/bfloat16 accumulate in float32. An empty reduction gives nan and a RuntimeWarning.");
  static const std::string var_doc = doc(
      "var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, correction=None)\n\nVariance with "
      "divisor N - ddof (correction= is the Array API's name of ddof), computed in two passes (mean, then squared "
      "deviations).");
  static const std::string std_doc = doc(
      "std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, correction=None)\n\nStandard "
      "deviation: sqrt(var).");
  static const std::string min_doc = doc(
      "min(a, axis=None, out=None, keepdims=False)\n\nMinimum (NaN propagates); ValueError over an empty axis.");
  static const std::string max_doc = doc(
      "max(a, axis=None, out=None, keepdims=False)\n\nMaximum (NaN propagates); ValueError over an empty axis.");
  static const std::string any_doc = doc("any(a, axis=None, out=None, keepdims=False)\n\nTrue where any element is nonzero.");
  static const std::string all_doc = doc("all(a, axis=None, out=None, keepdims=False)\n\nTrue where every element is nonzero.");
  static const std::string argmin_doc = doc(
      "argmin(a, axis=None, out=None, *, keepdims=False)\n\nint64 index of the first minimum (the first "
      "NaN if any); axis=None gives the index into the flattened array.");
  static const std::string argmax_doc = doc(
      "argmax(a, axis=None, out=None, *, keepdims=False)\n\nint64 index of the first maximum (the first "
      "NaN if any); axis=None gives the index into the flattened array.");
  const char* cumsum_doc =
      "cumsum(a, axis=None, dtype=None, out=None)\n\nInclusive cumulative sum along axis (axis=None: over "
      "the flattened array). dtype rules as sum; float16/bfloat16 accumulate in float32.";
  const char* cumprod_doc =
      "cumprod(a, axis=None, dtype=None, out=None)\n\nInclusive cumulative product; as cumsum.";

  for (const SumDef& d : {SumDef{"sum", &loom::sum, sum_doc.c_str()}, SumDef{"prod", &loom::prod, prod_doc.c_str()}}) {
    SumFn fn = d.fn;
    m.def(d.name, [fn, name = d.name](nb::handle a, nb::handle axis, nb::handle dtype, nb::handle out, bool keepdims) {
            return out_or(out, call_sum(name, fn, to_array(a), axis, dtype, out, keepdims));
          },
          nb::arg("a"), nb::arg("axis").none() = none, nb::arg("dtype").none() = none,
          nb::arg("out").none() = none, nb::arg("keepdims") = false, d.text);
    cls.def(d.name, [fn, name = d.name](const Array& a, nb::handle axis, nb::handle dtype, nb::handle out, bool keepdims) {
              return out_or(out, call_sum(name, fn, a, axis, dtype, out, keepdims));
            },
            nb::arg("axis").none() = none, nb::arg("dtype").none() = none, nb::arg("out").none() = none,
            nb::arg("keepdims") = false, d.text);
  }
  m.def("mean", [](nb::handle a, nb::handle axis, nb::handle dtype, nb::handle out, bool keepdims) {
          return out_or(out, call_mean("mean", to_array(a), axis, dtype, out, keepdims));
        },
        nb::arg("a"), nb::arg("axis").none() = none, nb::arg("dtype").none() = none,
        nb::arg("out").none() = none, nb::arg("keepdims") = false, mean_doc.c_str());
  cls.def("mean", [](const Array& a, nb::handle axis, nb::handle dtype, nb::handle out, bool keepdims) {
            return out_or(out, call_mean("mean", a, axis, dtype, out, keepdims));
          }, nb::arg("axis").none() = none, nb::arg("dtype").none() = none,
          nb::arg("out").none() = none, nb::arg("keepdims") = false, mean_doc.c_str());

  struct VarDef { const char* name; VarFn fn; const char* text; };
  for (const VarDef& d : {VarDef{"var", &loom::var, var_doc.c_str()}, VarDef{"std", &loom::std, std_doc.c_str()}}) {
    VarFn fn = d.fn;
    m.def(d.name, [fn, name = d.name](nb::handle a, nb::handle axis, nb::handle dtype, nb::handle out, nb::handle ddof,
                                      bool keepdims, nb::handle correction) {
            return out_or(out, call_var(name, fn, to_array(a), axis, dtype, out, ddof_arg(name, ddof, correction), keepdims));
          },
          nb::arg("a"), nb::arg("axis").none() = none, nb::arg("dtype").none() = none,
          nb::arg("out").none() = none, nb::arg("ddof").none() = none, nb::arg("keepdims") = false, nb::kw_only(),
          nb::arg("correction").none() = none, d.text);
    cls.def(d.name, [fn, name = d.name](const Array& a, nb::handle axis, nb::handle dtype, nb::handle out, nb::handle ddof,
                                        bool keepdims, nb::handle correction) {
              return out_or(out, call_var(name, fn, a, axis, dtype, out, ddof_arg(name, ddof, correction), keepdims));
            },
            nb::arg("axis").none() = none, nb::arg("dtype").none() = none, nb::arg("out").none() = none,
            nb::arg("ddof").none() = none, nb::arg("keepdims") = false, nb::kw_only(),
            nb::arg("correction").none() = none, d.text);
  }

  struct PlainDef { const char* name; PlainFn fn; const char* text; bool method; };
  static const PlainFn amin_fn = [](const Array& a, const AxisArg& ax, bool k, const std::optional<Array>& o) {
    return loom::min(a, ax, k, o);
  };
  static const PlainFn amax_fn = [](const Array& a, const AxisArg& ax, bool k, const std::optional<Array>& o) {
    return loom::max(a, ax, k, o);
  };
  static const PlainFn any_fn = [](const Array& a, const AxisArg& ax, bool k, const std::optional<Array>& o) {
    return loom::any(a, ax, k, o);
  };
  static const PlainFn all_fn = [](const Array& a, const AxisArg& ax, bool k, const std::optional<Array>& o) {
    return loom::all(a, ax, k, o);
  };
  for (const PlainDef& d : {PlainDef{"min", amin_fn, min_doc.c_str(), true}, PlainDef{"amin", amin_fn, min_doc.c_str(), false},
                            PlainDef{"max", amax_fn, max_doc.c_str(), true}, PlainDef{"amax", amax_fn, max_doc.c_str(), false},
                            PlainDef{"any", any_fn, any_doc.c_str(), true}, PlainDef{"all", all_fn, all_doc.c_str(), true}}) {
    PlainFn fn = d.fn;
    m.def(d.name, [fn, name = d.name](nb::handle a, nb::handle axis, nb::handle out, bool keepdims) {
            return out_or(out, call_plain(name, fn, to_array(a), axis, out, keepdims));
          },
          nb::arg("a"), nb::arg("axis").none() = none, nb::arg("out").none() = none, nb::arg("keepdims") = false,
          d.text);
    if (d.method)
      cls.def(d.name, [fn, name = d.name](const Array& a, nb::handle axis, nb::handle out, bool keepdims) {
                return out_or(out, call_plain(name, fn, a, axis, out, keepdims));
              },
              nb::arg("axis").none() = none, nb::arg("out").none() = none, nb::arg("keepdims") = false, d.text);
  }

  struct ArgDef { const char* name; ArgFn fn; const char* text; };
  for (const ArgDef& d : {ArgDef{"argmin", &loom::argmin, argmin_doc.c_str()}, ArgDef{"argmax", &loom::argmax, argmax_doc.c_str()}}) {
    ArgFn fn = d.fn;
    m.def(d.name, [fn, name = d.name](nb::handle a, nb::handle axis, nb::handle out, bool keepdims) {
            return out_or(out, call_arg(name, fn, to_array(a), axis, out, keepdims));
          },
          nb::arg("a"), nb::arg("axis").none() = none, nb::arg("out").none() = none, nb::kw_only(),
          nb::arg("keepdims") = false, d.text);
    cls.def(d.name, [fn, name = d.name](const Array& a, nb::handle axis, nb::handle out, bool keepdims) {
              return out_or(out, call_arg(name, fn, a, axis, out, keepdims));
            },
            nb::arg("axis").none() = none, nb::arg("out").none() = none, nb::kw_only(), nb::arg("keepdims") = false,
            d.text);
  }

  struct ScanDef { const char* name; ScanFn fn; const char* text; };
  for (const ScanDef& d : {ScanDef{"cumsum", &loom::cumsum, cumsum_doc}, ScanDef{"cumprod", &loom::cumprod, cumprod_doc}}) {
    ScanFn fn = d.fn;
    m.def(d.name, [fn, name = d.name](nb::handle a, nb::handle axis, nb::handle dtype, nb::handle out) {
            return out_or(out, call_scan(name, fn, to_array(a), axis, dtype, out));
          },
          nb::arg("a"), nb::arg("axis").none() = none, nb::arg("dtype").none() = none, nb::arg("out").none() = none,
          d.text);
    cls.def(d.name, [fn, name = d.name](const Array& a, nb::handle axis, nb::handle dtype, nb::handle out) {
              return out_or(out, call_scan(name, fn, a, axis, dtype, out));
            },
            nb::arg("axis").none() = none, nb::arg("dtype").none() = none, nb::arg("out").none() = none, d.text);
  }

  // The NaN-skipping scans: module functions only, as NumPy's (no ndarray methods).
  for (const ScanDef& d : {ScanDef{"nancumsum", &loom::nancumsum, "numpy.nancumsum: cumsum with NaNs as zero."},
                           ScanDef{"nancumprod", &loom::nancumprod, "numpy.nancumprod: cumprod with NaNs as one."}}) {
    ScanFn fn = d.fn;
    m.def(d.name, [fn, name = d.name](nb::handle a, nb::handle axis, nb::handle dtype, nb::handle out) {
            return out_or(out, call_scan(name, fn, to_array(a), axis, dtype, out));
          },
          nb::arg("a"), nb::arg("axis").none() = none, nb::arg("dtype").none() = none, nb::arg("out").none() = none,
          d.text);
  }

  nb::module_ linalg = m.def_submodule("linalg", "Linear algebra (numpy.linalg names).");
  linalg.def(
      "cond",
      [](nb::handle x, nb::handle p) {
        const Array a = to_array(x, std::nullopt);
        const linalg::NormOrd o = to_ord(p);
        nb::gil_scoped_release release;
        return cond(a, o);
      },
      nb::arg("x"), nb::arg("p").none() = nb::none(),
      "numpy.linalg.cond: the condition number (p None/2/-2 from the singular values, else "
      "norm(x, p) * norm(inv(x), p)).");
  linalg.def(
      "vector_norm",
      [](nb::handle x, nb::handle axis, bool keepdims, nb::handle ord) {
        const Array a = to_array(x);
        const AxisArg ax = to_axes(axis, "vector_norm");
        const linalg::NormOrd o = ord.is_none() ? linalg::NormOrd::number(2) : to_ord(ord);
        if (o.kind != linalg::NormOrd::Kind::number)
          throw std::invalid_argument("[vector_norm] ord must be a number (inf and -inf included)");
        nb::gil_scoped_release release;
        return linalg::vector_norm(a, ax, keepdims, o);
      },
      nb::arg("x"), nb::kw_only(), nb::arg("axis").none() = none, nb::arg("keepdims") = false, nb::arg("ord") = 2,
      "The Array API's and NumPy 2's vector_norm: the vector norm `ord` (2, 1, inf, -inf, 0 or any p) over "
      "every axis of `axis` at once (None: all of them). Complex arrays give real norms; integers float64.");
  linalg.def(
      "matrix_norm",
      [](nb::handle x, bool keepdims, nb::handle ord) {
        const Array a = to_array(x);
        const linalg::NormOrd o = ord.is_none() ? linalg::NormOrd{linalg::NormOrd::Kind::fro} : to_ord(ord);
        nb::gil_scoped_release release;
        return linalg::matrix_norm(a, keepdims, o);
      },
      nb::arg("x"), nb::kw_only(), nb::arg("keepdims") = false, nb::arg("ord") = "fro",
      "The Array API's and NumPy 2's matrix_norm: the matrix norm `ord` ('fro', 'nuc', 1, -1, 2, -2, inf, "
      "-inf) of the matrices spanned by the last two axes.");
  linalg.def("norm", &norm_py, nb::arg("x"), nb::arg("ord").none() = none, nb::arg("axis").none() = none,
             nb::arg("keepdims") = false,
             "norm(x, ord=None, axis=None, keepdims=False)\n\nnumpy.linalg.norm: vector norms (ord None/2, 1, "
             "inf, -inf, 0, any p) over one axis, matrix norms (None/'fro', 1, -1, inf, -inf, and 2, -2, 'nuc' "
             "through the singular values) over two. Integer and bfloat16 inputs are "
             "computed in float64 (as NumPy's astype(float)). Returns a 0-d array for a full reduction.");
}

}  // namespace loom::py
