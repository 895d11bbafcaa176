// Inspectable signatures for bound functions. nanobind's functions are instances of its own
// callable type, which inspect.signature cannot read (Python 3.11 raises ValueError, 3.12
// reports (*args, **kwargs)), so tools that check signatures — the Array API test suite,
// IDEs, help() — saw nothing. python/loom/_signatures.py wraps each public function in a
// builtin function whose docstring carries the signature as CPython's own builtins do
// ("name(a, axis=None)\n--\n\n..."), and which forwards every call, by vectorcall, to the
// nanobind function: one extra C call, no Python frame.
#include <cstring>
#include <string>

#include <nanobind/stl/string.h>

#include "bindings.h"

namespace loom::py {
namespace {

// The builtin's `self` is a small module object whose state holds the target: a module
// `self` makes the builtin print as "<built-in function sum>", not as a method of the
// nanobind object, and reading the target back is one field access.
PyModuleDef holder_def = {PyModuleDef_HEAD_INIT, "loom._signed", nullptr, sizeof(PyObject*),
                          nullptr, nullptr, nullptr, nullptr, nullptr};

PyObject* forward(PyObject* holder, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  PyObject* target = *static_cast<PyObject**>(PyModule_GetState(holder));
  return PyObject_Vectorcall(target, args, static_cast<size_t>(nargs), kwnames);
}

char* keep(const std::string& s) {  // the method table outlives the module: never freed
  char* p = new char[s.size() + 1];
  std::memcpy(p, s.c_str(), s.size() + 1);
  return p;
}

}  // namespace

LOOM_BINDING_FAMILY(signatures, 99) {
  m.def(
      "_with_signature",
      [](nb::object target, const std::string& name, const std::string& doc, const std::string& module) {
        // One PyMethodDef per wrapped function, kept for the life of the process (CPython
        // keeps a pointer to it in the function object).
        auto* def = new PyMethodDef{keep(name), reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(forward)),
                                    METH_FASTCALL | METH_KEYWORDS, keep(doc)};
        nb::object holder = nb::steal(PyModule_Create(&holder_def));
        if (!holder.is_valid()) throw nb::python_error();
        *static_cast<PyObject**>(PyModule_GetState(holder.ptr())) = target.release().ptr();  // kept for good
        nb::str mod(module.c_str());
        PyObject* f = PyCFunction_NewEx(def, holder.ptr(), mod.ptr());
        if (!f) throw nb::python_error();
        return nb::steal(f);
      },
      nb::arg("target"), nb::arg("name"), nb::arg("doc"), nb::arg("module"),
      "A builtin function named `name` that forwards every call to `target`, with `doc` "
      "(\"name(signature)\\n--\\n\\ndocstring\") as its inspectable signature and docstring.");
}

}  // namespace loom::py
