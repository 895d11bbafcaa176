// Bindings of numpy's diag_indices, tril/triu_indices (and their _from forms),
// ravel_multi_index, unravel_index and ix_ (ops/index_helpers.h).
#include <nanobind/stl/string.h>

#include "bindings.h"
#include "loom/ops/index_helpers.h"

namespace loom::py {
namespace {

nb::tuple arrays_tuple(std::vector<Array> v) { return nb::tuple(arrays_list(std::move(v))); }

char order_arg(nb::handle h, const char* op) {
  if (h.is_none()) return 'C';  // NumPy reads order=None as 'C' here
  const std::string s = to_str_arg(h, op, "order");
  if (s.size() != 1) throw std::invalid_argument(std::string("[") + op + "] only 'C' or 'F' order is permitted");
  return s[0];
}

}  // namespace

LOOM_BINDING_FAMILY(index_helpers, 39) {
  const nb::handle none = nb::none();
  m.def(
      "diag_indices",
      [](int64_t n, int64_t ndim, nb::handle device) { return arrays_tuple(diag_indices(n, ndim, to_optional_device(device))); },
      nb::arg("n"), nb::arg("ndim") = 2, nb::kw_only(), nb::arg("device").none() = none,
      "numpy.diag_indices: ndim copies of arange(n), the indices of the main diagonal.");
  m.def(
      "diag_indices_from", [](nb::handle arr) { return arrays_tuple(diag_indices_from(to_array(arr))); }, nb::arg("arr"),
      "numpy.diag_indices_from: diag_indices of an array with at least 2 equal dimensions.");
  using Triangle = std::vector<Array> (*)(int64_t, int64_t, std::optional<int64_t>, std::optional<Device>);
  using TriangleFrom = std::vector<Array> (*)(const Array&, int64_t);
  struct Form {
    const char *name, *from_name, *doc, *from_doc;
    Triangle fn;
    TriangleFrom from;
  };
  for (const Form& f : {Form{"tril_indices", "tril_indices_from",
                             "numpy.tril_indices: (rows, cols) of the lower triangle of an n x m array at and below diagonal k.",
                             "numpy.tril_indices_from: tril_indices of a 2-d array's shape.", &tril_indices,
                             &tril_indices_from},
                        Form{"triu_indices", "triu_indices_from",
                             "numpy.triu_indices: (rows, cols) of the upper triangle of an n x m array at and above diagonal k.",
                             "numpy.triu_indices_from: triu_indices of a 2-d array's shape.", &triu_indices,
                             &triu_indices_from}}) {
    m.def(
        f.name,
        [f](int64_t n, int64_t k, nb::handle m_, nb::handle device) {
          return arrays_tuple(f.fn(n, k, to_optional_int_arg(m_, f.name, "m"), to_optional_device(device)));
        },
        nb::arg("n"), nb::arg("k") = 0, nb::arg("m").none() = none, nb::kw_only(), nb::arg("device").none() = none,
        f.doc);
    m.def(
        f.from_name, [f](nb::handle arr, int64_t k) { return arrays_tuple(f.from(to_array(arr), k)); }, nb::arg("arr"),
        nb::arg("k") = 0, f.from_doc);
  }
  m.def(
      "ravel_multi_index",
      [](nb::handle multi_index, nb::handle dims, nb::handle mode, nb::handle order) {
        const char* op = "ravel_multi_index";
        std::vector<std::string> modes;
        if (nb::isinstance<nb::str>(mode)) {
          modes.push_back(to_str_arg(mode, op, "mode"));
        } else {
          for (nb::handle h : mode) modes.push_back(to_str_arg(h, op, "mode"));
        }
        return ravel_multi_index(to_arrays(multi_index), to_shape(dims), modes, order_arg(order, op));
      },
      nb::arg("multi_index"), nb::arg("dims"), nb::arg("mode") = "raise", nb::arg("order").none() = "C",
      "numpy.ravel_multi_index: flat indices of coordinate arrays into an array of shape dims; mode 'raise', "
      "'wrap' or 'clip' (or one per dimension), order 'C' or 'F'.");
  m.def(
      "unravel_index",
      [](nb::handle indices, nb::handle shape, nb::handle order) {
        return arrays_tuple(unravel_index(to_array(indices), to_shape(shape), order_arg(order, "unravel_index")));
      },
      nb::arg("indices"), nb::arg("shape"), nb::arg("order").none() = "C",
      "numpy.unravel_index: the coordinate arrays of flat indices into an array of shape; order 'C' or 'F'.");
  m.def(
      "ix_",
      [](nb::args args) {
        std::vector<Array> xs = to_arrays(args);
        // NumPy types an empty sequence (not an array) as intp rather than float64.
        for (size_t k = 0; k < xs.size(); ++k)
          if (xs[k].size() == 0 && !nb::isinstance<Array>(args[k])) xs[k] = xs[k].astype(DType::int64);
        return arrays_tuple(ix_(xs));
      },
      "numpy.ix_: open-mesh index arrays, the k-th sequence shaped (1, ..., n, ..., 1); bool sequences stand "
      "for their nonzero positions.");
}

}  // namespace loom::py
