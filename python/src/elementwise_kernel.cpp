// loom.ElementwiseKernel (CuPy's; loom/kernel/elementwise_kernel.h): typed parameter lists
// and a C++ operation, generated as CUDA source and compiled through RawModule.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "bindings.h"
#include "loom/kernel/elementwise_kernel.h"
#include "param_list.h"

namespace loom::py {
namespace {

ElementwiseKernelCall elementwise_call(const std::string& label, nb::handle size, nb::handle block, nb::handle stream,
                                 std::optional<Stream>& holder) {
  ElementwiseKernelCall c;
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

}  // namespace

LOOM_BINDING_FAMILY(elementwise_kernel, 60) {
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
             const ElementwiseKernelCall c = elementwise_call(label, size, block, stream, holder);
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
}

}  // namespace loom::py
