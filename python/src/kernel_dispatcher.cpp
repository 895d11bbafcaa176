// loom._loom._KernelDispatcher: the launch fast path of Python kernels (loom.cuda.jit).
// A Python kernel is compiled once per argument-type signature into a RawKernel; its launch
// `f[griddim, blockdim](*args)` computes the signature and finds the specialization here, in
// C++, so that it costs a RawKernel launch plus a hash lookup. Anything else (a new
// signature, NumPy arrays, CAI/DLPack objects) goes to the Python side's on_miss callback.
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <memory>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "bindings.h"
#include "kernel_signature.h"
#include "launch_config.h"

namespace loom::py {
namespace {

using kernel_signature::Key;
using kernel_signature::KeyItem;
using kernel_signature::signature_of;

// ---- the key's grammar for the translator (pykernel/types.py) ------------------------------
// Items cross as (dtype name, ndim or None, "C"/"A" or None): None for a scalar.

std::string kernel_key(nb::iterable items) {
  std::vector<KeyItem> parsed;
  for (nb::handle h : items) {
    nb::tuple t = nb::cast<nb::tuple>(h);
    if (t.size() != 3) throw std::invalid_argument("[kernel key] an item is (dtype, ndim or None, 'C'/'A' or None)");
    const std::string name = nb::cast<std::string>(t[0]);
    KeyItem item{kernel_signature::dtype_of_name(name, name)};
    if (!t[1].is_none()) {
      item.ndim = nb::cast<int>(t[1]);
      const std::string layout = nb::cast<std::string>(t[2]);
      if (item.ndim < 0 || (layout != "C" && layout != "A"))
        throw std::invalid_argument("[kernel key] an array item needs ndim >= 0 and layout 'C' or 'A', not (" +
                                    std::to_string(item.ndim) + ", '" + layout + "')");
      item.contiguous = layout == "C";
    } else if (!t[2].is_none()) {
      throw std::invalid_argument("[kernel key] a scalar item (ndim None) has no layout");
    }
    parsed.push_back(item);
  }
  return kernel_signature::format_key(parsed);
}

nb::list parse_kernel_key(const std::string& key) {
  nb::list out;
  for (const KeyItem& item : kernel_signature::parse_key(key)) {
    nb::str name(kernel_signature::name_of(item.dtype).data(), kernel_signature::name_of(item.dtype).size());
    if (item.ndim < 0) out.append(nb::make_tuple(name, nb::none(), nb::none()));
    else out.append(nb::make_tuple(name, item.ndim, item.contiguous ? "C" : "A"));
  }
  return out;
}

// Compiled specializations by signature, in the order added. Looked up by a string_view
// (of a key built on the stack): no allocation per launch.
class Specializations {
 public:
  Specializations() = default;
  Specializations(const Specializations&) = delete;  // (a vector of unique_ptr claims to be copyable)
  Specializations& operator=(const Specializations&) = delete;
  nb::handle find(std::string_view key) const {
    auto it = index_.find(key);
    return it == index_.end() ? nb::handle() : it->second->kernel;
  }
  void add(const std::string& key, nb::handle kernel) {
    auto it = index_.find(key);
    if (it != index_.end()) {
      nb::object old = std::exchange(it->second->kernel, nb::borrow(kernel));  // dropped last
      return;
    }
    entries_.push_back(std::make_unique<Entry>(Entry{key, nb::borrow(kernel)}));
    index_.emplace(std::string_view(entries_.back()->key), entries_.back().get());
  }
  /// Empties it; the kernels are released after (dropping one can run Python code).
  void clear() {
    std::vector<std::unique_ptr<Entry>> old = std::move(entries_);
    entries_.clear();
    index_.clear();
  }
  std::vector<std::string> keys() const {
    std::vector<std::string> out;
    for (const auto& e : entries_) out.push_back(e->key);
    return out;
  }
  size_t size() const { return entries_.size(); }
  int traverse(visitproc visit, void* arg) const {
    for (const auto& e : entries_) Py_VISIT(e->kernel.ptr());
    return 0;
  }

 private:
  struct Entry {
    std::string key;
    nb::object kernel;  // a RawKernel object
  };
  std::vector<std::unique_ptr<Entry>> entries_;              // owns the keys the index views
  std::unordered_map<std::string_view, Entry*> index_;
};

struct KernelDispatcher {
  std::string name, prefix;  // prefix: "[name]", the start of every message
  nb::object on_miss;        // on_miss(launcher, args): typically a bound method of the owner
  Specializations kernels;
  // d[griddim, blockdim, ...]: the launcher of the last configuration, reused by a loop
  // that asks for the same one (it refers back to this object: a cycle the GC sees).
  nb::object last_config, last_launcher;
};

// d[griddim, blockdim, stream, sharedmem]: the dispatcher with a launch configuration.
struct DispatchLauncher {
  nb::object dispatcher;
  nb::object griddim, blockdim, stream, sharedmem;  // as given, for the Python side
  LaunchConfig cfg;
  std::optional<Stream> stream_holder;  // cfg.stream points here (set at each launch)
};

// ---- launch ------------------------------------------------------------------------

// Launches `kernel` (a RawKernel object) on `args` (a tuple) with the launcher's config.
void launch(const DispatchLauncher& l, nb::handle kernel, PyObject* args) {
  const Kernel& k = nb::inst_ptr<PyKernel>(kernel)->kernel;
  LaunchConfig cfg = l.cfg;
  cfg.stream = l.stream_holder ? &*l.stream_holder : nullptr;
  const size_t n = static_cast<size_t>(PyTuple_GET_SIZE(args));
  nb::handle small[8];
  std::vector<nb::handle> large;
  nb::handle* hs = small;
  if (n > 8) large.resize(n), hs = large.data();
  for (size_t i = 0; i < n; ++i) hs[i] = PyTuple_GET_ITEM(args, i);
  run(k, cfg, hs, n);  // the tuple holds the arguments while the GIL is released
}

// launcher(*args): the registered kernel of the arguments' signature, else on_miss.
PyObject* launcher_tp_call(PyObject* self, PyObject* args, PyObject* kwargs) {
  try {
    const DispatchLauncher& l = *nb::inst_ptr<DispatchLauncher>(self);
    if (!l.dispatcher.is_valid()) throw std::invalid_argument("[_KernelDispatcher] the launcher was cleared");
    KernelDispatcher& d = *nb::inst_ptr<KernelDispatcher>(l.dispatcher);
    if (kwargs && PyDict_GET_SIZE(kwargs) != 0)
      throw DTypeError(d.prefix + " kernel[griddim, blockdim](*args) takes no keyword arguments");
    Key key;
    if (signature_of(key, args)) {
      if (nb::handle found = d.kernels.find(key.view())) {
        nb::object kernel = nb::borrow(found);  // held: another thread may replace it while we launch
        launch(l, kernel, args);
        Py_RETURN_NONE;
      }
    }
    if (!d.on_miss.is_valid()) throw std::invalid_argument(d.prefix + " the dispatcher was cleared");
    nb::object on_miss = d.on_miss;
    return on_miss(nb::handle(self), nb::handle(args)).release().ptr();
  } catch (...) {
    set_python_error(std::current_exception());
    return nullptr;
  }
}

// ---- configurations ----------------------------------------------------------------

// Two configurations are the same when they hold the same objects, or equal ones of the
// same types (so d[4.0, 256] is not taken for d[4, 256]: it must raise).
bool same_config(PyObject* a, PyObject* b) {
  if (a == b) return true;
  if (Py_TYPE(a) != Py_TYPE(b)) return false;
  if (PyTuple_Check(a)) {
    const Py_ssize_t n = PyTuple_GET_SIZE(a);
    if (PyTuple_GET_SIZE(b) != n) return false;
    for (Py_ssize_t i = 0; i < n; ++i)
      if (!same_config(PyTuple_GET_ITEM(a, i), PyTuple_GET_ITEM(b, i))) return false;
    return true;
  }
  if (PyList_Check(a)) return false;  // mutable: never cached
  const int eq = PyObject_RichCompareBool(a, b, Py_EQ);
  if (eq < 0) PyErr_Clear();
  return eq == 1;
}

nb::object make_launcher(nb::handle self, KernelDispatcher& d, nb::handle config) {
  nb::tuple t = PyTuple_Check(config.ptr()) ? nb::borrow<nb::tuple>(config) : nb::make_tuple(config);
  if (t.size() < 2 || t.size() > 4)
    throw DTypeError(d.prefix + " use kernel[griddim, blockdim] or kernel[griddim, blockdim, stream, sharedmem]");
  const char* p = d.prefix.c_str();
  DispatchLauncher l;
  l.dispatcher = nb::borrow(self);
  l.griddim = t[0];
  l.blockdim = t[1];
  l.stream = t.size() > 2 ? nb::object(t[2]) : nb::int_(0);  // Numba's defaults: stream 0,
  l.sharedmem = t.size() > 3 ? nb::object(t[3]) : nb::int_(0);  // no dynamic shared memory
  l.cfg.grid = to_dim3(t[0], "griddim", p);
  set_block(l.cfg, t[1], "blockdim", p);
  l.cfg.stream = to_numba_stream(l.stream, l.stream_holder, p);
  l.cfg.shared_mem = to_shared(l.sharedmem, "sharedmem", p);
  return nb::cast(std::move(l));
}

PyObject* dispatcher_subscript(PyObject* self, PyObject* config) {
  try {
    KernelDispatcher& d = *nb::inst_ptr<KernelDispatcher>(self);
    if (d.last_config.is_valid() && same_config(d.last_config.ptr(), config))
      return nb::object(d.last_launcher).release().ptr();
    nb::object launcher = make_launcher(self, d, config);
    d.last_config = nb::borrow(config);
    d.last_launcher = launcher;
    return launcher.release().ptr();
  } catch (...) {
    set_python_error(std::current_exception());
    return nullptr;
  }
}

// ---- garbage collection (nanobind's "cyclic garbage collection" recipe) --------------

int dispatcher_traverse(PyObject* self, visitproc visit, void* arg) {
  Py_VISIT(Py_TYPE(self));  // heap types: an instance refers to its type
  if (!nb::inst_ready(self)) return 0;
  const KernelDispatcher& d = *nb::inst_ptr<KernelDispatcher>(self);
  Py_VISIT(d.on_miss.ptr());
  if (int r = d.kernels.traverse(visit, arg)) return r;
  Py_VISIT(d.last_config.ptr());
  Py_VISIT(d.last_launcher.ptr());
  return 0;
}

int dispatcher_clear(PyObject* self) {
  KernelDispatcher& d = *nb::inst_ptr<KernelDispatcher>(self);
  // Moved out first: dropping a reference can run code that looks at this object.
  nb::object on_miss = std::move(d.on_miss), config = std::move(d.last_config),
             launcher = std::move(d.last_launcher);
  d.kernels.clear();
  return 0;
}

int launcher_traverse(PyObject* self, visitproc visit, void* arg) {
  Py_VISIT(Py_TYPE(self));
  if (!nb::inst_ready(self)) return 0;
  const DispatchLauncher& l = *nb::inst_ptr<DispatchLauncher>(self);
  Py_VISIT(l.dispatcher.ptr());
  Py_VISIT(l.griddim.ptr());
  Py_VISIT(l.blockdim.ptr());
  Py_VISIT(l.stream.ptr());
  Py_VISIT(l.sharedmem.ptr());
  return 0;
}

int launcher_clear(PyObject* self) {
  DispatchLauncher& l = *nb::inst_ptr<DispatchLauncher>(self);
  nb::object a = std::move(l.dispatcher), b = std::move(l.griddim), c = std::move(l.blockdim),
             s = std::move(l.stream), m = std::move(l.sharedmem);
  return 0;
}

PyType_Slot dispatcher_slots[] = {{Py_mp_subscript, reinterpret_cast<void*>(&dispatcher_subscript)},
                                  {Py_tp_traverse, reinterpret_cast<void*>(&dispatcher_traverse)},
                                  {Py_tp_clear, reinterpret_cast<void*>(&dispatcher_clear)},
                                  {0, nullptr}};
PyType_Slot launcher_slots[] = {{Py_tp_call, reinterpret_cast<void*>(&launcher_tp_call)},
                                {Py_tp_traverse, reinterpret_cast<void*>(&launcher_traverse)},
                                {Py_tp_clear, reinterpret_cast<void*>(&launcher_clear)},
                                {0, nullptr}};

}  // namespace

LOOM_BINDING_FAMILY(kernel_dispatcher, 56) {
  nb::class_<KernelDispatcher>(m, "_KernelDispatcher", nb::type_slots(dispatcher_slots), nb::is_weak_referenceable(),
                               "The launch fast path of a Python kernel: its compiled specializations (RawKernels) "
                               "by argument-type signature. d[griddim, blockdim(, stream(, sharedmem))] gives a "
                               "launcher; launcher(*args) launches the specialization of the arguments' signature, "
                               "or returns on_miss(launcher, args) when there is none (or an argument is not of a "
                               "kind signature() knows).")
      .def("__init__",
           [](KernelDispatcher* self, const std::string& name, nb::handle on_miss) {
             if (!PyCallable_Check(on_miss.ptr()))
               throw DTypeError("[_KernelDispatcher] on_miss must be callable");
             auto* d = new (self) KernelDispatcher();
             d->name = name;
             d->prefix = "[" + name + "]";
             d->on_miss = nb::borrow(on_miss);
           },
           nb::arg("name"), nb::arg("on_miss"))
      .def_prop_ro("name", [](const KernelDispatcher& d) { return d.name; }, "The name given (the Python function's).")
      .def(
          "signature",
          [](const KernelDispatcher&, nb::args args) -> nb::object {
            Key key;
            if (!signature_of(key, args.ptr())) return nb::none();
            return nb::str(key.view().data(), key.view().size());
          },
          "The type key of these arguments: per argument `float32[2C]` (a loom array: dtype, ndim, C when "
          "C-contiguous else A), bool, int64 (a Python int), float64 (a Python float) or a NumPy scalar's dtype, "
          "joined by ','; None when one is of another kind.")
      .def(
          "add",
          [](KernelDispatcher& d, const std::string& key, nb::handle kernel) {
            if (!nb::isinstance<PyKernel>(kernel))
              throw DTypeError(d.prefix + " add() takes a loom.RawKernel, not " +
                               nb::cast<std::string>(nb::str(kernel.type().attr("__name__"))));
            d.kernels.add(key, kernel);
          },
          nb::arg("key"), nb::arg("kernel"), "Registers the specialization of signature `key` (replacing one).")
      .def(
          "get",
          [](const KernelDispatcher& d, const std::string& key) -> nb::object {
            nb::handle k = d.kernels.find(key);
            return k ? nb::borrow(k) : nb::none();
          },
          nb::arg("key"), "The specialization of signature `key`, or None.")
      .def("keys", [](const KernelDispatcher& d) { return d.kernels.keys(); }, "The signatures registered, in the order added.")
      .def(
          "clear",
          [](KernelDispatcher& d) { d.kernels.clear(); },
          "Forgets every specialization.")
      .def("__len__", [](const KernelDispatcher& d) { return d.kernels.size(); })
      .def("__repr__", [](const KernelDispatcher& d) {
        return "<loom._KernelDispatcher " + d.name + ": " + std::to_string(d.kernels.size()) + " specializations>";
      });

  m.def("_kernel_key", &kernel_key, nb::arg("items"),
        "_kernel_key(items) -> str: the dispatcher's signature key of argument types, each item (dtype name, "
        "ndim, 'C' or 'A') for an array or (dtype name, None, None) for a scalar: the text "
        "_KernelDispatcher.signature() gives for such arguments.");
  m.def("_parse_kernel_key", &parse_kernel_key, nb::arg("key"),
        "_parse_kernel_key(key) -> list of (dtype name, ndim or None, 'C'/'A' or None): the argument types of a "
        "signature key (_kernel_key's inverse); ValueError for text that is not a key.");

  nb::class_<DispatchLauncher>(m, "_KernelLauncher", nb::type_slots(launcher_slots),
                               "A Python kernel with its launch configuration: call it with the arguments.")
      .def_prop_ro("griddim", [](const DispatchLauncher& l) { return l.griddim; })
      .def_prop_ro("blockdim", [](const DispatchLauncher& l) { return l.blockdim; })
      .def_prop_ro("stream", [](const DispatchLauncher& l) { return l.stream; },
                   "The stream as given (0 when none was: Numba's default stream).")
      .def_prop_ro("sharedmem", [](const DispatchLauncher& l) { return l.sharedmem; },
                   "Bytes of dynamic shared memory as given (0 when none was).")
      .def_prop_ro("dispatcher", [](const DispatchLauncher& l) { return l.dispatcher; })
      .def(
          "_launch_kernel",
          [](const DispatchLauncher& l, nb::handle kernel, nb::args args) {
            if (!nb::isinstance<PyKernel>(kernel))
              throw DTypeError("[_KernelLauncher] _launch_kernel takes a RawKernel");
            launch(l, kernel, args.ptr());
          },
          nb::arg("kernel"), nb::arg("args"),
          "Launches `kernel` (a specialization the signature table does not hold: one whose Python "
          "arguments, such as tuples, reach it flattened) with this configuration.");
}

}  // namespace loom::py
