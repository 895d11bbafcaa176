// loom.ReductionKernel (CuPy's; loom/kernel/reduction_kernel.h): typed parameter lists and
// map/reduce/post-map expressions, generated as CUDA source and compiled through RawModule.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "bindings.h"
#include "loom/kernel/reduction_kernel.h"
#include "param_list.h"

namespace loom::py {
namespace {

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

LOOM_BINDING_FAMILY(reduction_kernel, 60) {
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
      .def_prop_ro("map_expr", [](const ReductionKernel& k) { return k.map_expr(); }, "The map expression, as written.")
      .def_prop_ro("reduce_expr", [](const ReductionKernel& k) { return k.reduce_expr(); },
                   "The reduce expression (of `a` and `b`), as written.")
      .def_prop_ro("post_map_expr", [](const ReductionKernel& k) { return k.post_map_expr(); },
                   "The post-map statement (of `a`), as written.")
      .def_prop_ro("identity", [](const ReductionKernel& k) { return k.identity(); },
                   "The identity's C expression, or None.")
      .def_prop_ro("reduce_type", [](const ReductionKernel& k) { return k.options().reduce_type; },
                   "The reduce type as given (a dtype name, a placeholder or a C type), or None: the first "
                   "output's type.")
      .def_prop_ro("reduce_dims", [](const ReductionKernel& k) { return k.options().reduce_dims; },
                   "Whether contiguous reduced axes are merged before launching.")
      .def_prop_ro("preamble", [](const ReductionKernel& k) { return k.options().preamble; },
                   "Device code placed before the kernels.")
      .def_prop_ro("options", [](const ReductionKernel& k) { return k.options().options; }, "The NVRTC options.")
      .def_prop_ro("nin", [](const ReductionKernel& k) { return k.in_params().size(); }, "Number of inputs.")
      .def_prop_ro("nout", [](const ReductionKernel& k) { return k.out_params().size(); }, "Number of outputs.")
      .def("__repr__", [](const ReductionKernel& k) { return "<ReductionKernel " + k.name() + ">"; });
}

}  // namespace loom::py
