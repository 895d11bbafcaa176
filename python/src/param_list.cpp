// Conversions shared by the user kernel bindings (param_list.h).
#include "param_list.h"

#include <nanobind/stl/string.h>

#include "loom/core/error.h"

namespace loom::py {

std::vector<UserArg> to_user_args(const std::string& label, const nb::args& args) {
  std::vector<UserArg> out;
  out.reserve(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    nb::handle h = args[i];
    PyObject* p = h.ptr();
    if (nb::isinstance<Array>(h)) {
      out.emplace_back(*nb::inst_ptr<Array>(h));
    } else if (PyBool_Check(p) || PyLong_Check(p) || PyFloat_Check(p) || PyComplex_Check(p) ||
               nb::isinstance(h, numpy_module().attr("generic"))) {
      out.emplace_back(to_scalar(h));
    } else if (nb::isinstance(h, numpy_module().attr("ndarray"))) {
      throw DTypeError(label + "argument " + std::to_string(i) +
                       " is a NumPy array in host memory; pass loom.asarray(a, device=...) instead");
    } else {
      throw DTypeError(label + "argument " + std::to_string(i) + " is a " +
                       nb::cast<std::string>(nb::str(h.type().attr("__name__"))) +
                       "; these kernels take loom arrays and scalars");
    }
  }
  return out;
}

const Stream* to_stream(const std::string& label, nb::handle h, std::optional<Stream>& holder) {
  if (h.is_none()) return nullptr;
  if (!nb::isinstance<Stream>(h)) throw DTypeError(label + "stream must be a loom.Stream or None");
  holder = nb::cast<const Stream&>(h);
  return &*holder;
}

nb::tuple param_strings(const std::vector<KernelParam>& ps) {
  nb::list l;
  for (const auto& p : ps) l.append(nb::str(((p.raw ? "raw " : "") + p.type + " " + p.name).c_str()));
  return nb::tuple(l);
}

nb::object results(std::vector<Array> outs, bool as_tuple) {
  if (outs.size() == 1 && !as_tuple) return nb::cast(std::move(outs[0]));
  nb::list l;
  for (auto& a : outs) l.append(nb::cast(std::move(a)));
  return nb::tuple(l);
}

std::string label_of(const char* kind, const std::string& name) { return std::string("[") + kind + " " + name + "] "; }

}  // namespace loom::py
