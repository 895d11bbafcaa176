// The registry of op-family bindings (LOOM_BINDING_FAMILY in bindings.h) and the argument
// converters that every op family shares.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "bindings.h"

namespace loom::py {
namespace {

struct Entry {
  const char* name;
  int order;
  FamilyInit init;
};

// A function-local static: registrars in other files run during static initialisation,
// in an unspecified order, so the list must exist before the first of them.
std::vector<Entry>& registry() {
  static std::vector<Entry> entries;
  return entries;
}

}  // namespace

BindingFamily::BindingFamily(const char* name, int order, FamilyInit init) {
  registry().push_back({name, order, init});
}

void init_families(nb::module_& m, nb::class_<Array>& cls) {
  std::vector<Entry> entries = registry();
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return a.order != b.order ? a.order < b.order : std::strcmp(a.name, b.name) < 0;
  });
  for (const Entry& e : entries) e.init(m, cls);
}

Array to_array(nb::handle h, std::optional<Device> device) {
  if (nb::isinstance<Array>(h)) return nb::cast<Array>(h);
  nb::object a = convert_to_array(h, std::nullopt, device, std::nullopt);
  return nb::cast<Array>(a);
}

std::pair<Array, Array> to_array_pair(nb::handle x1, nb::handle x2) {
  if (nb::isinstance<Array>(x1) || !nb::isinstance<Array>(x2)) {
    Array a = to_array(x1);
    Array b = to_array(x2, a.device());
    return {std::move(a), std::move(b)};
  }
  Array b = to_array(x2);
  Array a = to_array(x1, b.device());
  return {std::move(a), std::move(b)};
}

std::optional<Array> to_optional_array(nb::handle h, std::optional<Device> device) {
  if (h.is_none()) return std::nullopt;
  return to_array(h, device);
}

namespace {

// One axis: an int or __index__ object, never a bool (NumPy refuses axis=True too).
int64_t to_axis(nb::handle item, const char* op) {
  PyObject* p = item.ptr();
  if (PyBool_Check(p) || PyFloat_Check(p) || !PyIndex_Check(p)) {
    throw nb::type_error((std::string("[") + op + "] axis must be None, an int or a tuple of ints, not " +
                          nb::cast<std::string>(nb::handle(Py_TYPE(p)).attr("__name__")))
                             .c_str());
  }
  nb::object idx = nb::steal(PyNumber_Index(p));
  if (!idx.is_valid()) throw nb::python_error();
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(idx.ptr(), &overflow);
  if (overflow) {
    // Beyond 64 bits is out of bounds for every array; say so rather than wrap around.
    throw AxisError(std::string("[") + op + "] axis " + nb::cast<std::string>(nb::str(idx)) +
                    " is out of bounds for any array");
  }
  return v;
}

}  // namespace

std::optional<std::vector<int64_t>> to_axes(nb::handle h, const char* op) {
  if (h.is_none()) return std::nullopt;
  if (PyTuple_Check(h.ptr()) || PyList_Check(h.ptr())) {
    std::vector<int64_t> axes;
    for (nb::handle item : h) axes.push_back(to_axis(item, op));
    return axes;
  }
  return std::vector<int64_t>{to_axis(h, op)};
}

}  // namespace loom::py
