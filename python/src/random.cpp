// loom.random: the NumPy-style global generator (rand, randn, uniform, normal, randint,
// permutation, shuffle, seed) and the JAX-style keyed API (key, split, fold_in and the keyed
// forms of uniform/normal/randint/bernoulli/permutation). A function whose first argument
// is a loom.random.Key is the keyed form; anything else is the NumPy form.
#include <random>

#include "bindings.h"
#include "loom/common/loom_philox.cuh"

#include <nanobind/stl/array.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

namespace loom::py {
namespace {

namespace rnd = loom::random;

Shape size_shape(nb::handle size) { return size.is_none() ? Shape{} : to_shape(size); }

DType dtype_or(nb::handle h, DType fallback) { return h.is_none() ? fallback : to_dtype(h); }

// A distribution parameter: a Python or NumPy scalar (array parameters would need the
// elementwise engine; they raise NotImplementedError for now).
double to_param(nb::handle h, const char* op) {
  if (PyType_Check(h.ptr()) || PyUnicode_Check(h.ptr()) || h.is_none())
    raise_arg_type(op, "the distribution parameter", "a number", h);
  if (nb::hasattr(h, "ndim") && nb::cast<int>(nb::int_(h.attr("ndim"))) > 0)
    throw UnsupportedError(std::string("[") + op + "] array-valued distribution parameters are not supported yet");
  return nb::cast<double>(nb::float_(h));
}

// A randint bound: ints (beyond int64 up to 2^64), bools, and floats truncated as NumPy's
// legacy randint does. A high of exactly 2^64 (all of uint64) becomes 2^64 - 1 with
// `endpoint`; anything beyond 64 bits is out of bounds for every dtype (ValueError).
Scalar to_bound(nb::handle h, const char* what, bool* endpoint = nullptr) {
  nb::object v = PyFloat_Check(h.ptr()) ? nb::object(nb::int_(h)) : nb::borrow(h);
  if (PyLong_Check(v.ptr())) {
    auto compare = [&](unsigned long long bound_or_min, bool is_min, int op) {
      nb::object b = is_min ? nb::int_(INT64_MIN) : nb::int_(bound_or_min);
      const int r = PyObject_RichCompareBool(v.ptr(), b.ptr(), op);
      if (r < 0) throw nb::python_error();
      return r == 1;
    };
    const nb::object two64 = nb::int_(~0ull) + nb::int_(1);
    const int is_two64 = PyObject_RichCompareBool(v.ptr(), two64.ptr(), Py_EQ);
    if (is_two64 < 0) throw nb::python_error();
    if (endpoint && is_two64) {
      *endpoint = true;
      return Scalar(~0ull);
    }
    if (compare(~0ull, false, Py_GT) || compare(0, true, Py_LT))
      throw std::invalid_argument(std::string("[randint] ") + what + " is out of bounds");
  }
  return to_scalar(v);
}

// A seed in [-2^63, 2^64) as its 64-bit pattern.
uint64_t to_seed(nb::handle h) {
  const Scalar s = to_scalar(nb::int_(h));
  return s.kind == Scalar::Kind::uint_ ? s.u : static_cast<uint64_t>(s.i);
}

uint64_t os_seed() {
  std::random_device rd;
  return (static_cast<uint64_t>(rd()) << 32) ^ rd();
}

nb::object permutation_any(nb::handle x, const std::optional<rnd::Key>& key, std::optional<Device> device) {
  Array r;
  if (PyLong_Check(x.ptr()) || (PyIndex_Check(x.ptr()) && !nb::hasattr(x, "shape"))) {
    const int64_t n = nb::cast<int64_t>(nb::int_(x));
    nb::gil_scoped_release release;
    r = key ? rnd::permutation(*key, n, device) : rnd::permutation(n, device);
  } else {
    const Array a = to_array(x, device);
    nb::gil_scoped_release release;
    r = key ? rnd::permutation(*key, a) : rnd::permutation(a);
  }
  return nb::cast(std::move(r));
}

}  // namespace

LOOM_BINDING_FAMILY(random, 70) {
  nb::module_ r = m.def_submodule(
      "random",
      "Random numbers from Philox4x32-10, counter-based: the same key gives the same numbers on\n"
      "the CPU and on every GPU. NumPy-style functions draw from a global generator (seed());\n"
      "JAX-style functions take a Key first (key(), split(), fold_in()). NumPy-style functions\n"
      "return a 0-d array where NumPy returns a Python scalar (size=None).");

  // ---- keys ---------------------------------------------------------------------------------
  nb::class_<rnd::Key>(r, "Key", "A key of the keyed API: a 64-bit Philox key (two uint32 words, as JAX's).")
      .def(nb::init<>())
      .def("__init__", [](rnd::Key* k, uint32_t hi, uint32_t lo) { new (k) rnd::Key{hi, lo}; },
           nb::arg("hi"), nb::arg("lo"), "Key(hi, lo) from its two words.")
      .def_ro("hi", &rnd::Key::hi, "The first word (JAX's key_data(k)[0]).")
      .def_ro("lo", &rnd::Key::lo, "The second word.")
      .def("__repr__", &rnd::Key::str)
      .def("__eq__", [](const rnd::Key& a, nb::handle b) {
        return nb::isinstance<rnd::Key>(b) && a == nb::cast<const rnd::Key&>(b);
      })
      .def("__hash__", [](const rnd::Key& k) { return nb::hash(nb::make_tuple(k.hi, k.lo)); });

  r.def("key", [](nb::handle seed) { return rnd::key(to_seed(seed)); }, nb::arg("seed"),
        "key(seed) -> Key: the key of an integer seed (negative seeds wrap to 64 bits, as JAX's).");
  r.def("PRNGKey", [](nb::handle seed) { return rnd::key(to_seed(seed)); }, nb::arg("seed"),
        "JAX's name for key().");
  r.def("split", [](const rnd::Key& k, nb::handle num) { return rnd::split(k, to_int_arg(num, "split", "num")); },
        nb::arg("key"), nb::arg("num") = 2,
        "split(key, num=2) -> list of num new keys, derived from key through Philox in a stream\n"
        "that no draw uses; key i does not depend on num.");
  r.def("fold_in", [](const rnd::Key& k, nb::handle data) { return rnd::fold_in(k, to_seed(data)); },
        nb::arg("key"), nb::arg("data"), "fold_in(key, data) -> Key: a new key from key and an integer.");
  r.def("key_data", [](const rnd::Key& k) {
        return numpy_module().attr("array")(nb::make_tuple(k.hi, k.lo), "uint32");
      }, nb::arg("key"), "The key's two words as a NumPy uint32 array of shape (2,).");
  r.def("wrap_key_data", [](nb::handle data) {
        // Only the key's own dtype, as JAX: converting other data (float32 values, int64
        // words) would make some key, silently not the one meant.
        nb::object a = numpy_module().attr("asarray")(data);
        const std::string dt = nb::str(a.attr("dtype").attr("name")).c_str();  // a Python str
        if (dt != "uint32")
          throw DTypeError("[wrap_key_data] key data must be uint32 (a key's two words, as key_data(key) "
                           "returns them), not " + dt);
        if (nb::cast<int64_t>(a.attr("size")) != 2) throw std::invalid_argument("[wrap_key_data] expected 2 words");
        nb::object flat = a.attr("ravel")();
        return rnd::Key{nb::cast<uint32_t>(flat[0]), nb::cast<uint32_t>(flat[1])};
      }, nb::arg("data"), "The Key of two uint32 words (inverse of key_data).");

  r.def("_philox4x32_10", [](std::array<uint32_t, 4> c, std::array<uint32_t, 2> k) {
        const loom_philox_out o = loom_philox4x32_10(c[0], c[1], c[2], c[3], k[0], k[1]);
        return std::array<uint32_t, 4>{o.v[0], o.v[1], o.v[2], o.v[3]};
      }, nb::arg("counter"), nb::arg("key"),
      "The raw Philox4x32-10 bijection (for tests): 4 counter words, 2 key words -> 4 words.\n"
      "Block b of a draw with Key k is _philox4x32_10((b & 0xffffffff, b >> 32, 0, 0), (k.hi, k.lo)).");

  // ---- global generator state -------------------------------------------------------------
  r.def("seed", [](nb::handle s) {
        if (s.is_none()) return rnd::seed(os_seed());
        const Scalar v = to_scalar(nb::int_(s));
        if (v.kind == Scalar::Kind::int_ && v.i < 0) throw std::invalid_argument("[seed] seed must be non-negative");
        rnd::seed(v.kind == Scalar::Kind::uint_ ? v.u : static_cast<uint64_t>(v.i));
      }, nb::arg("seed").none() = nb::none(),
      "seed(seed=None): restarts the global generator at key(seed), counter 0 (None: fresh OS entropy).\n"
      "Right after seed(s), a draw equals the keyed draw with key(s) of the same dtype.");
  r.def("get_state", [] {
        const rnd::GeneratorState s = rnd::get_state();
        return std::make_pair(s.key, s.offset);
      }, "get_state() -> (Key, offset): the global generator's key and counter (128-bit blocks used).");
  r.def("set_state", [](std::pair<rnd::Key, uint64_t> s) { rnd::set_state({s.first, s.second}); },
        nb::arg("state"), "set_state((key, offset)): restores a state from get_state().");

  // ---- NumPy-style draws from the global generator -------------------------------------------
  r.def("rand", [](nb::args shape, nb::handle dtype, nb::handle device) {
        const Shape s = to_shape(shape);
        const DType dt = dtype_or(dtype, float64);
        const auto dev = to_optional_device(device);
        nb::gil_scoped_release release;
        return rnd::rand(s, dt, dev);
      }, nb::arg("shape"), nb::kw_only(), nb::arg("dtype").none() = nb::none(), nb::arg("device").none() = nb::none(),
      "rand(d0, d1, ..., dtype=float64, device=None): uniform samples in [0, 1) (never 1.0).");
  r.def("randn", [](nb::args shape, nb::handle dtype, nb::handle device) {
        const Shape s = to_shape(shape);
        const DType dt = dtype_or(dtype, float64);
        const auto dev = to_optional_device(device);
        nb::gil_scoped_release release;
        return rnd::randn(s, dt, dev);
      }, nb::arg("shape"), nb::kw_only(), nb::arg("dtype").none() = nb::none(), nb::arg("device").none() = nb::none(),
      "randn(d0, d1, ..., dtype=float64, device=None): standard normal samples (Box-Muller).");
  auto random_sample = [](nb::handle size, nb::handle dtype, nb::handle device) {
    const Shape s = size_shape(size);
    const DType dt = dtype_or(dtype, float64);
    const auto dev = to_optional_device(device);
    nb::gil_scoped_release release;
    return rnd::rand(s, dt, dev);
  };
  for (const char* name : {"random", "random_sample"}) {
    r.def(name, random_sample, nb::arg("size").none() = nb::none(), nb::arg("dtype").none() = nb::none(),
          nb::arg("device").none() = nb::none(),
          "random(size=None, dtype=float64, device=None): uniform samples in [0, 1).");
  }
  r.def("standard_normal", [](nb::handle size, nb::handle dtype, nb::handle device) {
        const Shape s = size_shape(size);
        const DType dt = dtype_or(dtype, float64);
        const auto dev = to_optional_device(device);
        nb::gil_scoped_release release;
        return rnd::randn(s, dt, dev);
      }, nb::arg("size").none() = nb::none(), nb::arg("dtype").none() = nb::none(),
      nb::arg("device").none() = nb::none(),
      "standard_normal(size=None, dtype=float64, device=None): standard normal samples.");

  // ---- uniform / normal / randint / permutation: keyed form first, then NumPy's ---------------
  r.def("uniform", [](const rnd::Key& k, nb::handle shape, nb::handle dtype, nb::handle minval, nb::handle maxval,
                      nb::handle device) {
        const Shape s = to_shape(shape);
        const DType dt = dtype_or(dtype, float32);
        const double lo = to_param(minval, "uniform"), hi = to_param(maxval, "uniform");
        const auto dev = to_optional_device(device);
        nb::gil_scoped_release release;
        return rnd::uniform(k, s, dt, lo, hi, dev);
      }, nb::arg("key"), nb::arg("shape") = nb::tuple(), nb::arg("dtype").none() = nb::none(),
      nb::arg("minval") = 0.0, nb::arg("maxval") = 1.0, nb::arg("device").none() = nb::none(),
      "uniform(key, shape=(), dtype=float32, minval=0.0, maxval=1.0, device=None): keyed (JAX) form.");
  r.def("uniform", [](nb::handle low, nb::handle high, nb::handle size, nb::handle dtype, nb::handle device) {
        const double lo = to_param(low, "uniform"), hi = to_param(high, "uniform");
        const Shape s = size_shape(size);
        const DType dt = dtype_or(dtype, float64);
        const auto dev = to_optional_device(device);
        nb::gil_scoped_release release;
        return rnd::uniform(lo, hi, s, dt, dev);
      }, nb::arg("low") = 0.0, nb::arg("high") = 1.0, nb::arg("size").none() = nb::none(),
      nb::arg("dtype").none() = nb::none(), nb::arg("device").none() = nb::none(),
      "uniform(low=0.0, high=1.0, size=None, dtype=float64, device=None): NumPy form, samples in\n"
      "[low, high) (rounding may give high when the range is not [0, 1), as NumPy documents).");

  r.def("normal", [](const rnd::Key& k, nb::handle shape, nb::handle dtype, nb::handle device) {
        const Shape s = to_shape(shape);
        const DType dt = dtype_or(dtype, float32);
        const auto dev = to_optional_device(device);
        nb::gil_scoped_release release;
        return rnd::normal(k, s, dt, dev);
      }, nb::arg("key"), nb::arg("shape") = nb::tuple(), nb::arg("dtype").none() = nb::none(),
      nb::arg("device").none() = nb::none(),
      "normal(key, shape=(), dtype=float32, device=None): keyed (JAX) form, standard normal.");
  r.def("normal", [](nb::handle loc, nb::handle scale, nb::handle size, nb::handle dtype, nb::handle device) {
        const double mu = to_param(loc, "normal"), sigma = to_param(scale, "normal");
        const Shape s = size_shape(size);
        const DType dt = dtype_or(dtype, float64);
        const auto dev = to_optional_device(device);
        nb::gil_scoped_release release;
        return rnd::normal(mu, sigma, s, dt, dev);
      }, nb::arg("loc") = 0.0, nb::arg("scale") = 1.0, nb::arg("size").none() = nb::none(),
      nb::arg("dtype").none() = nb::none(), nb::arg("device").none() = nb::none(),
      "normal(loc=0.0, scale=1.0, size=None, dtype=float64, device=None): NumPy form (scale >= 0).");

  r.def("randint", [](const rnd::Key& k, nb::handle shape, nb::handle minval, nb::handle maxval, nb::handle dtype,
                      nb::handle device) {
        const Shape s = to_shape(shape);
        bool endpoint = false;
        const Scalar lo = to_bound(minval, "minval"), hi = to_bound(maxval, "maxval", &endpoint);
        const DType dt = dtype_or(dtype, int32);
        const auto dev = to_optional_device(device);
        nb::gil_scoped_release release;
        return rnd::randint(k, s, lo, hi, dt, dev, endpoint);
      }, nb::arg("key"), nb::arg("shape"), nb::arg("minval"), nb::arg("maxval"), nb::arg("dtype").none() = nb::none(),
      nb::arg("device").none() = nb::none(),
      "randint(key, shape, minval, maxval, dtype=int32, device=None): keyed (JAX) form, integers in\n"
      "[minval, maxval); ValueError when minval >= maxval or a bound is outside the dtype.");
  r.def("randint", [](nb::handle low, nb::handle high, nb::handle size, nb::handle dtype, nb::handle device) {
        // randint(2**64) is [0, 2^64) too: the bound that is `high` may be `low`.
        bool endpoint = false;
        const Scalar lo = to_bound(low, "low", high.is_none() ? &endpoint : nullptr);
        const std::optional<Scalar> hi =
            high.is_none() ? std::nullopt : std::optional<Scalar>(to_bound(high, "high", &endpoint));
        const Shape s = size_shape(size);
        const DType dt = dtype_or(dtype, int64);
        const auto dev = to_optional_device(device);
        nb::gil_scoped_release release;
        return rnd::randint(lo, hi, s, dt, dev, endpoint);
      }, nb::arg("low"), nb::arg("high").none() = nb::none(), nb::arg("size").none() = nb::none(),
      nb::arg("dtype").none() = nb::none(), nb::arg("device").none() = nb::none(),
      "randint(low, high=None, size=None, dtype=int64, device=None): NumPy form, integers in\n"
      "[low, high) or [0, low); the full int64/uint64 range works (high up to the dtype's max + 1).\n"
      "Each value's probability is within 2^-32 (relative) of uniform.");

  r.def("bernoulli", [](const rnd::Key& k, nb::handle p, nb::handle shape, nb::handle device) {
        const double prob = to_param(p, "bernoulli");
        const Shape s = to_shape(shape);
        const auto dev = to_optional_device(device);
        nb::gil_scoped_release release;
        return rnd::bernoulli(k, prob, s, dev);
      }, nb::arg("key"), nb::arg("p") = 0.5, nb::arg("shape") = nb::tuple(), nb::arg("device").none() = nb::none(),
      "bernoulli(key, p=0.5, shape=(), device=None): bool samples, True with probability p.");

  r.def("permutation", [](const rnd::Key& k, nb::handle x, nb::handle device) {
        return permutation_any(x, k, to_optional_device(device));
      }, nb::arg("key"), nb::arg("x"), nb::arg("device").none() = nb::none(),
      "permutation(key, x, device=None): keyed form; x an int (a permutation of arange(x)) or an\n"
      "array (a copy shuffled along axis 0).");
  r.def("permutation", [](nb::handle x, nb::handle device) {
        return permutation_any(x, std::nullopt, to_optional_device(device));
      }, nb::arg("x"), nb::arg("device").none() = nb::none(),
      "permutation(x, device=None): NumPy form: x an int (a permutation of arange(x), int64) or an\n"
      "array (a shuffled copy along axis 0). Fisher-Yates on the host; GPU arrays are copied\n"
      "through host memory.");
  r.def("shuffle", [](const Array& x) {
        nb::gil_scoped_release release;
        copyto(x, rnd::permutation(x));
      }, nb::arg("x"), "shuffle(x): shuffles x in place along axis 0 (NumPy's shuffle).");
}

}  // namespace loom::py
