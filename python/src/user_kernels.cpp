// loom.ElementwiseKernel and loom.ReductionKernel (CuPy's): typed parameter lists and
// C++ expressions, generated as CUDA source and compiled through RawModule.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "bindings.h"
#include "loom/kernel/elementwise_kernel.h"
#include "loom/kernel/reduction_kernel.h"

namespace loom::py {
namespace {

std::vector<UserArg> to_user_args(const std::string& label, const nb::args& args) {
  std::vector<UserArg> out;
  out.reserve(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    nb::handle h = args[i];
    PyObject* p = h.ptr();
    if (nb::isinstance<Array>(h)) {
      out.emplace_back(*nb::inst_ptr<Array>(h));
    } else if (PyBool_Check(p) || PyLong_Check(p) || PyFloat_Check(p) ||
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

ElementwiseCall elementwise_call(const std::string& label, nb::handle size, nb::handle block, nb::handle stream,
                                 std::optional<Stream>& holder) {
  ElementwiseCall c;
  if (!size.is_none()) c.size = nb::cast<int64_t>(size);
  if (nb::isinstance<nb::str>(block)) {
    if (nb::cast<std::string>(block) != "auto")
      throw std::invalid_argument(label + "block must be an int, None or \"auto\"");
    c.auto_block = true;
  } else if (!block.is_none()) {
    const int64_t b = nb::cast<int64_t>(block);
    if (b <= 0 || b > 1024) throw std::invalid_argument(label + "block must be in [1, 1024], got " + std::to_string(b));
    c.block = static_cast<unsigned>(b);
  }
  c.stream = to_stream(label, stream, holder);
  return c;
}

ReductionCall reduction_call(const std::string& label, nb::handle out, nb::handle axis, bool keepdims,
                             nb::handle stream, std::optional<Stream>& holder) {
  ReductionCall c;
  if (!out.is_none()) {
    if (!nb::isinstance<Array>(out)) throw DTypeError(label + "out must be a loom array");
    c.out = *nb::inst_ptr<Array>(out);
  }
  c.axes = to_axes(axis);
  c.keepdims = keepdims;
  c.stream = to_stream(label, stream, holder);
  return c;
}

}  // namespace

LOOM_BINDING_FAMILY(user_kernels, 60) {
  nb::class_<ElementwiseKernel>(m, "ElementwiseKernel",
      "ElementwiseKernel(in_params, out_params, operation, name='kernel', reduce_dims=True, preamble='',\n"
      "                  no_return=False, return_tuple=False, options=())\n\n"
      "A kernel over elements from CUDA C++, as CuPy's: parameter lists like 'T x, raw T y,\n"
      "float32 z' (one-letter types are placeholders deduced from the arguments), and an\n"
      "operation such as 'z = x * y'. Call it with the inputs and optionally the outputs:\n"
      "k(*args, size=None, block=None, stream=None); block='auto' autotunes the block size.\n"
      "Inputs broadcast together; missing outputs are allocated. Non-raw parameters are\n"
      "the element at index i; raw ones are indexed by a flat index (x[i], x.size()).")
      .def("__init__",
           [](ElementwiseKernel* self, const std::string& in, const std::string& out, const std::string& op,
              const std::string& name, bool reduce_dims, const std::string& preamble, bool no_return,
              bool return_tuple, std::vector<std::string> options) {
             ElementwiseOptions o;
             o.reduce_dims = reduce_dims;
             o.preamble = preamble;
             o.no_return = no_return;
             o.return_tuple = return_tuple;
             o.options = std::move(options);
             new (self) ElementwiseKernel(in, out, op, name, std::move(o));
           },
           nb::arg("in_params"), nb::arg("out_params"), nb::arg("operation"), nb::arg("name") = "kernel",
           nb::arg("reduce_dims") = true, nb::arg("preamble") = "", nb::arg("no_return") = false,
           nb::arg("return_tuple") = false, nb::arg("options") = std::vector<std::string>{})
      .def("__call__",
           [](const ElementwiseKernel& k, nb::args args, nb::handle size, nb::handle block, nb::handle stream) -> nb::object {
             const std::string label = label_of("ElementwiseKernel", k.name());
             std::vector<UserArg> a = to_user_args(label, args);
             std::optional<Stream> holder;
             const ElementwiseCall c = elementwise_call(label, size, block, stream, holder);
             std::vector<Array> outs;
             {
               nb::gil_scoped_release unlocked;
               outs = k(a, c);
             }
             if (k.options().no_return) return nb::object(nb::none());
             return results(std::move(outs), k.options().return_tuple);
           },
           nb::arg("args"), nb::kw_only(), nb::arg("size") = nb::none(), nb::arg("block") = nb::none(),
           nb::arg("stream") = nb::none(),
           "Runs the kernel on the inputs (then optionally the outputs); returns the outputs.")
      .def("_source",
           [](const ElementwiseKernel& k, nb::args args, nb::handle size) {
             std::optional<int64_t> s;
             if (!size.is_none()) s = nb::cast<int64_t>(size);
             return k.source(to_user_args(label_of("ElementwiseKernel", k.name()), args), s);
           },
           nb::arg("args"), nb::kw_only(), nb::arg("size") = nb::none(),
           "The CUDA source a call with these arguments compiles (testing).")
      .def("_compile",
           [](const ElementwiseKernel& k, nb::args args, nb::handle size, int arch) {
             std::optional<int64_t> s;
             if (!size.is_none()) s = nb::cast<int64_t>(size);
             RawModule mod = k.module(to_user_args(label_of("ElementwiseKernel", k.name()), args), s);
             nb::gil_scoped_release unlocked;
             mod.compile(arch);
           },
           nb::arg("args"), nb::kw_only(), nb::arg("size") = nb::none(), nb::arg("arch") = 90,
           "Compiles what a call with these arguments would, for compute capability `arch`, without a GPU (testing).")
      .def_prop_ro("name", [](const ElementwiseKernel& k) { return k.name(); }, "The kernel's name.")
      .def_prop_ro("in_params", [](const ElementwiseKernel& k) { return param_strings(k.in_params()); },
                   "The input parameters, as written ('raw T x').")
      .def_prop_ro("out_params", [](const ElementwiseKernel& k) { return param_strings(k.out_params()); },
                   "The output parameters, as written.")
      .def_prop_ro("nin", [](const ElementwiseKernel& k) { return k.in_params().size(); }, "Number of inputs.")
      .def_prop_ro("nout", [](const ElementwiseKernel& k) { return k.out_params().size(); }, "Number of outputs.")
      .def_prop_ro("operation", [](const ElementwiseKernel& k) { return k.operation(); }, "The operation's source.")
      .def("__repr__", [](const ElementwiseKernel& k) { return "<ElementwiseKernel " + k.name() + ">"; });

  nb::class_<ReductionKernel>(m, "ReductionKernel",
      "ReductionKernel(in_params, out_params, map_expr, reduce_expr, post_map_expr, identity,\n"
      "                name='reduce_kernel', reduce_type=None, reduce_dims=True, preamble='', options=())\n\n"
      "A reduction from CUDA C++ expressions, as CuPy's: map_expr reads the inputs by name\n"
      "(several inputs broadcast together), reduce_expr combines `a` and `b` of reduce_type\n"
      "(default: the first output's type), post_map_expr reads `a` and writes the outputs,\n"
      "identity is a C expression or None. Call k(*args, out=None, axis=None, keepdims=False,\n"
      "stream=None). Deterministic: no atomics; large reductions take two passes.")
      .def("__init__",
           [](ReductionKernel* self, const std::string& in, const std::string& out, const std::string& map_expr,
              const std::string& reduce_expr, const std::string& post_map_expr, std::optional<std::string> identity,
              const std::string& name, std::optional<std::string> reduce_type, bool reduce_dims,
              const std::string& preamble, std::vector<std::string> options) {
             ReductionOptions o;
             o.reduce_type = std::move(reduce_type);
             o.reduce_dims = reduce_dims;
             o.preamble = preamble;
             o.options = std::move(options);
             new (self) ReductionKernel(in, out, map_expr, reduce_expr, post_map_expr, std::move(identity), name,
                                        std::move(o));
           },
           nb::arg("in_params"), nb::arg("out_params"), nb::arg("map_expr"), nb::arg("reduce_expr"),
           nb::arg("post_map_expr"), nb::arg("identity").none(), nb::arg("name") = "reduce_kernel",
           nb::arg("reduce_type") = nb::none(), nb::arg("reduce_dims") = true, nb::arg("preamble") = "",
           nb::arg("options") = std::vector<std::string>{})
      .def("__call__",
           [](const ReductionKernel& k, nb::args args, nb::handle out, nb::handle axis, bool keepdims,
              nb::handle stream) {
             const std::string label = label_of("ReductionKernel", k.name());
             std::vector<UserArg> a = to_user_args(label, args);
             std::optional<Stream> holder;
             const ReductionCall c = reduction_call(label, out, axis, keepdims, stream, holder);
             std::vector<Array> outs;
             {
               nb::gil_scoped_release unlocked;
               outs = k(a, c);
             }
             return results(std::move(outs), false);
           },
           nb::arg("args"), nb::kw_only(), nb::arg("out") = nb::none(), nb::arg("axis") = nb::none(),
           nb::arg("keepdims") = false, nb::arg("stream") = nb::none(),
           "Reduces the inputs over `axis` (None: all); returns the output (a tuple for several).")
      .def("_source",
           [](const ReductionKernel& k, nb::args args, nb::handle axis, bool keepdims) {
             std::optional<Stream> holder;
             const std::string label = label_of("ReductionKernel", k.name());
             return k.source(to_user_args(label, args), reduction_call(label, nb::none(), axis, keepdims, nb::none(), holder));
           },
           nb::arg("args"), nb::kw_only(), nb::arg("axis") = nb::none(), nb::arg("keepdims") = false,
           "The CUDA source a call with these arguments compiles (testing).")
      .def("_compile",
           [](const ReductionKernel& k, nb::args args, nb::handle axis, bool keepdims, int arch) {
             std::optional<Stream> holder;
             const std::string label = label_of("ReductionKernel", k.name());
             RawModule mod = k.module(to_user_args(label, args),
                                      reduction_call(label, nb::none(), axis, keepdims, nb::none(), holder));
             nb::gil_scoped_release unlocked;
             mod.compile(arch);
           },
           nb::arg("args"), nb::kw_only(), nb::arg("axis") = nb::none(), nb::arg("keepdims") = false,
           nb::arg("arch") = 90,
           "Compiles what a call with these arguments would, for compute capability `arch`, without a GPU (testing).")
      .def_prop_ro("name", [](const ReductionKernel& k) { return k.name(); }, "The kernel's name.")
      .def_prop_ro("in_params", [](const ReductionKernel& k) { return param_strings(k.in_params()); },
                   "The input parameters, as written.")
      .def_prop_ro("out_params", [](const ReductionKernel& k) { return param_strings(k.out_params()); },
                   "The output parameters, as written.")
      .def_prop_ro("nin", [](const ReductionKernel& k) { return k.in_params().size(); }, "Number of inputs.")
      .def_prop_ro("nout", [](const ReductionKernel& k) { return k.out_params().size(); }, "Number of outputs.")
      .def("__repr__", [](const ReductionKernel& k) { return "<ReductionKernel " + k.name() + ">"; });
}

}  // namespace loom::py
