// Inspectable signatures for bound functions. nanobind's functions are instances of its own
// callable type, which inspect.signature cannot read (Python 3.11 raises ValueError, 3.12
// reports (*args, **kwargs)), so tools that check signatures — the Array API test suite,
// IDEs, help() — saw nothing. python/loom/_signatures.py wraps each public function in a
// builtin function whose docstring carries the signature as CPython's own builtins do
// ("name(a, axis=None)\n--\n\n..."), and which forwards every call, by vectorcall, to the
// nanobind function: one extra C call, no Python frame. A TypeError on the way back goes
// through a Python hook that names a misspelt keyword and loom's spelling of it.
#include <cstddef>
#include <cstring>
#include <string>

#include <nanobind/stl/string.h>
#include <structmember.h>

#include "bindings.h"

namespace loom::py {
namespace {

// The builtin's `self` is a small module object whose state holds the target: a module
// `self` makes the builtin print as "<built-in function sum>", not as a method of the
// nanobind object, and reading the target back is one field access.
PyModuleDef holder_def = {PyModuleDef_HEAD_INIT, "loom._signed", nullptr, sizeof(PyObject*),
                          nullptr, nullptr, nullptr, nullptr, nullptr};

// python/loom/_porting_hints.py's explain(target, kwnames, error): on a TypeError, it raises
// a message naming the keyword and loom's spelling (dim= -> axis=) in place of nanobind's
// list of overloads, or returns None to keep the error. Only the failing path pays for it.
PyObject* g_explain = nullptr;

PyObject* explain(PyObject* target, PyObject* kwnames) {
  PyObject *type, *value, *trace;
  PyErr_Fetch(&type, &value, &trace);
  PyErr_NormalizeException(&type, &value, &trace);
  PyObject* r = PyObject_CallFunctionObjArgs(g_explain, target, kwnames ? kwnames : Py_None, value, nullptr);
  if (!r) {  // the hook raised: its error replaces nanobind's
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(trace);
    return nullptr;
  }
  Py_DECREF(r);
  PyErr_Restore(type, value, trace);
  return nullptr;
}

PyObject* forward(PyObject* holder, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  PyObject* target = *static_cast<PyObject**>(PyModule_GetState(holder));
  PyObject* r = PyObject_Vectorcall(target, args, static_cast<size_t>(nargs), kwnames);
  if (r || !g_explain || !PyErr_ExceptionMatches(PyExc_TypeError)) return r;
  return explain(target, kwnames);
}

// A method of ndarray that forwards every call to the bound nanobind method the same way,
// so `x.sum(dim=1)` gets the hint as `loom.sum(x, dim=1)` does. It is a method descriptor
// (Py_TPFLAGS_METHOD_DESCRIPTOR): `x.sum(...)` calls it with x first and makes no bound
// method object, so the cost is one extra C call. Other attributes (__doc__, __name__,
// __nb_signature__) are the target's.
struct ForwardingMethod {
  PyObject_HEAD
  vectorcallfunc vectorcall;
  PyObject* target;
};

PyObject* method_call(PyObject* self, PyObject* const* args, size_t nargsf, PyObject* kwnames) {
  PyObject* target = reinterpret_cast<ForwardingMethod*>(self)->target;
  PyObject* r = PyObject_Vectorcall(target, args, nargsf, kwnames);
  if (r || !g_explain || !PyErr_ExceptionMatches(PyExc_TypeError)) return r;
  return explain(target, kwnames);
}

PyObject* method_get(PyObject* self, PyObject* obj, PyObject*) {
  if (!obj || obj == Py_None) return Py_NewRef(self);  // looked up on the class
  return PyMethod_New(self, obj);
}

PyObject* method_getattr(PyObject* self, PyObject* name) {
  PyObject* r = PyObject_GenericGetAttr(self, name);
  if (r || !PyErr_ExceptionMatches(PyExc_AttributeError)) return r;
  PyErr_Clear();
  return PyObject_GetAttr(reinterpret_cast<ForwardingMethod*>(self)->target, name);
}

void method_dealloc(PyObject* self) {
  Py_XDECREF(reinterpret_cast<ForwardingMethod*>(self)->target);
  Py_TYPE(self)->tp_free(self);
}

PyObject* method_doc(PyObject* self, void*) {  // the type's own __doc__ (None) would hide the target's
  return PyObject_GetAttrString(reinterpret_cast<ForwardingMethod*>(self)->target, "__doc__");
}
PyGetSetDef method_getset[] = {{"__doc__", method_doc, nullptr, nullptr, nullptr}, {nullptr, nullptr, nullptr, nullptr, nullptr}};
PyMemberDef method_members[] = {  // where the vectorcall pointer lives, for CPython
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(ForwardingMethod, vectorcall), READONLY, nullptr},
    {nullptr, 0, 0, 0, nullptr}};
PyType_Slot method_slots[] = {{Py_tp_call, reinterpret_cast<void*>(PyVectorcall_Call)},
                              {Py_tp_descr_get, reinterpret_cast<void*>(method_get)},
                              {Py_tp_getattro, reinterpret_cast<void*>(method_getattr)},
                              {Py_tp_dealloc, reinterpret_cast<void*>(method_dealloc)},
                              {Py_tp_members, method_members},
                              {Py_tp_getset, method_getset},
                              {0, nullptr}};
PyType_Spec method_spec = {"loom._forwarding_method", sizeof(ForwardingMethod), 0,
                           Py_TPFLAGS_DEFAULT | Py_TPFLAGS_METHOD_DESCRIPTOR | Py_TPFLAGS_HAVE_VECTORCALL,
                           method_slots};

PyTypeObject* forwarding_method_type() {
  static PyTypeObject* type = reinterpret_cast<PyTypeObject*>(PyType_FromSpec(&method_spec));  // kept for good
  if (!type) throw nb::python_error();
  return type;
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
  m.def(
      "_forwarding_method",
      [](nb::object target) {
        PyTypeObject* type = forwarding_method_type();
        auto* f = reinterpret_cast<ForwardingMethod*>(type->tp_alloc(type, 0));
        if (!f) throw nb::python_error();
        f->vectorcall = method_call;
        f->target = target.release().ptr();
        return nb::steal(reinterpret_cast<PyObject*>(f));
      },
      nb::arg("target"),
      "A method descriptor that forwards every call to `target` (a bound method of ndarray), "
      "passing a TypeError through the argument error hook as the wrapped functions do.");
  m.def(
      "_set_argument_error_hook",
      [](nb::object hook) {
        Py_XDECREF(g_explain);
        g_explain = hook.is_none() ? nullptr : hook.release().ptr();  // kept for good
      },
      nb::arg("hook"),
      "Sets the function called as hook(target, kwnames, error) when a wrapped function raises "
      "TypeError: it raises a clearer error, or returns None to keep the original.");
}

}  // namespace loom::py
