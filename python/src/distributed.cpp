// Bindings of loom::distributed (loom/distributed/collectives.h), used by
// python/loom/distributed.py. Every call that may wait for other ranks releases the GIL.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "bindings.h"
#include "loom/core/interrupt.h"
#include "loom/distributed/backend.h"
#include "loom/distributed/collectives.h"
#include "loom/distributed/device_group.h"

namespace loom::py {
namespace {

namespace ld = loom::distributed;
using release = nb::call_guard<nb::gil_scoped_release>;

void init_group(int rank, int world_size, int local_rank, const std::string& master_addr, int master_port,
                const std::string& backend, double timeout_s, bool check_args, nb::handle device) {
  ld::InitOptions o;
  o.rank = rank;
  o.world_size = world_size;
  o.local_rank = local_rank;
  o.master_addr = master_addr;
  o.master_port = master_port;
  o.backend = backend;
  if (!(timeout_s > 0)) throw std::invalid_argument("[init] timeout must be a positive number of seconds");
  o.timeout = std::chrono::milliseconds(static_cast<int64_t>(timeout_s * 1000.0));
  o.check_args = check_args;
  o.device = to_optional_device(device);
  nb::gil_scoped_release unlocked;
  clear_wait_failure();  // a new group starts with GPU waits that may succeed again
  ld::init(o);
}

}  // namespace

LOOM_BINDING_FAMILY(distributed, 95) {
  m.def("_dist_init", &init_group, nb::arg("rank"), nb::arg("world_size"), nb::arg("local_rank"),
        nb::arg("master_addr"), nb::arg("master_port"), nb::arg("backend"), nb::arg("timeout"),
        nb::arg("check_args"), nb::arg("device").none());
  m.def("_dist_finalize", &ld::finalize, nb::arg("wait_for_others") = true, release());
  m.def("_dist_is_initialized", &ld::is_initialized);
  m.def("_dist_rank", &ld::rank);
  m.def("_dist_world_size", &ld::world_size);
  m.def("_dist_local_rank", &ld::local_rank);
  m.def("_dist_timeout", [] { return static_cast<double>(ld::timeout().count()) / 1000.0; });
  m.def("_dist_barrier", &ld::barrier, release());
  m.def(
      "_dist_all_reduce",
      [](const Array& x, const std::string& op, bool check) {
        ld::all_reduce(x, ld::reduce_op_from_name(op, "all_reduce"), check);
      },
      nb::arg("x"), nb::arg("op"), nb::arg("check") = true, release());
  m.def(
      "_dist_all_reduce_coalesced",
      [](const std::vector<Array>& xs, const std::string& op, bool check) {
        ld::all_reduce_coalesced(xs, ld::reduce_op_from_name(op, "all_reduce_coalesced"), check);
      },
      nb::arg("xs"), nb::arg("op"), nb::arg("check") = true, release());
  m.def(
      "_dist_broadcast", [](const Array& x, int root) { ld::broadcast(x, root); }, nb::arg("x"), nb::arg("root"),
      release());
  m.def("_dist_all_gather", &ld::all_gather, nb::arg("x"), release());
  m.def(
      "_dist_reduce_scatter",
      [](const Array& x, const std::string& op) { return ld::reduce_scatter(x, ld::reduce_op_from_name(op, "reduce_scatter")); },
      nb::arg("x"), nb::arg("op"), release());
  m.def("_dist_all_to_all", &ld::all_to_all, nb::arg("x"), release());
  m.def("_dist_send", &ld::send, nb::arg("x"), nb::arg("dst"), release());
  m.def(
      "_dist_recv", [](const Array& out, int src) { ld::recv(out, src); }, nb::arg("out"), nb::arg("src"), release());
  nb::class_<ld::DeviceGroup>(m, "_DeviceGroup")
      .def("__init__",
           [](ld::DeviceGroup* self, nb::list devices) {
             std::vector<Device> ds;
             for (nb::handle d : devices) ds.push_back(to_device(d));
             nb::gil_scoped_release unlocked;
             new (self) ld::DeviceGroup(std::move(ds));
           })
      .def_prop_ro("devices", &ld::DeviceGroup::devices)
      .def_prop_ro("uses_nccl", &ld::DeviceGroup::uses_nccl)
      .def(
          "all_reduce",
          [](ld::DeviceGroup& g, const std::vector<Array>& xs, const std::string& op) {
            g.all_reduce(xs, ld::reduce_op_from_name(op, "all_reduce"));
          },
          nb::arg("arrays"), nb::arg("op") = "sum", release())
      .def("broadcast", &ld::DeviceGroup::broadcast, nb::arg("arrays"), nb::arg("root") = 0, release());
  m.def("_dist_gloo_compiled", &ld::gloo_compiled);
  m.def("_dist_nccl_description", &ld::nccl_description, release());
}

}  // namespace loom::py
