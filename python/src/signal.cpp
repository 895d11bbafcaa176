// Bindings of NumPy's window functions, convolve, correlate and unwrap (ops/signal.h).
#include <nanobind/stl/string.h>

#include "bindings.h"
#include "loom/ops/signal.h"

namespace loom::py {

LOOM_BINDING_FAMILY(signal, 37) {
  const nb::handle none = nb::none();
  using Window = Array (*)(int64_t, std::optional<Device>);
  struct W { const char* name; Window fn; const char* doc; };
  for (const W& w : {W{"bartlett", &bartlett, "numpy.bartlett: the M-point triangular window (float64)."},
                     W{"blackman", &blackman, "numpy.blackman: the M-point Blackman window (float64)."},
                     W{"hamming", &hamming, "numpy.hamming: the M-point Hamming window (float64)."},
                     W{"hanning", &hanning, "numpy.hanning: the M-point Hann window (float64)."}}) {
    Window fn = w.fn;
    m.def(w.name, [fn](int64_t M, nb::handle device) { return fn(M, to_optional_device(device)); }, nb::arg("M"),
          nb::kw_only(), nb::arg("device").none() = none, w.doc);
  }
  m.def("kaiser", [](int64_t M, double beta, nb::handle device) { return kaiser(M, beta, to_optional_device(device)); },
        nb::arg("M"), nb::arg("beta"), nb::kw_only(), nb::arg("device").none() = none,
        "numpy.kaiser: the M-point Kaiser window with shape parameter beta (float64).");
  m.def("convolve", [](nb::handle a, nb::handle v, const std::string& mode) {
          const auto [x, y] = to_array_pair(a, v);
          return convolve(x, y, mode);
        },
        nb::arg("a"), nb::arg("v"), nb::arg("mode") = "full",
        "numpy.convolve: the discrete linear convolution of two 1-d arrays (mode full, same or valid).");
  m.def("correlate", [](nb::handle a, nb::handle v, const std::string& mode) {
          const auto [x, y] = to_array_pair(a, v);
          return correlate(x, y, mode);
        },
        nb::arg("a"), nb::arg("v"), nb::arg("mode") = "valid",
        "numpy.correlate: the cross-correlation of two 1-d arrays (mode valid, same or full).");
  m.def("unwrap", [](nb::handle p, nb::handle discont, int64_t axis, double period) {
          return unwrap(to_array(p), to_optional_float_arg(discont, "unwrap", "discont"), axis, period);
        },
        nb::arg("p"), nb::arg("discont").none() = none, nb::arg("axis") = -1, nb::kw_only(),
        nb::arg("period") = 6.283185307179586,
        "numpy.unwrap: removes jumps larger than discont along axis by their complement modulo period.");
}

}  // namespace loom::py
