// loom._loom._primitives(): every primitive's row (ops/primitive_list.h) as Python sees it,
// for tools/gen_primitive_list.py (docs/PRIMITIVES.md) and the tests.
#include <nanobind/stl/string.h>

#include "bindings.h"
#include "loom/kernel/kernel_launch.h"
#include "loom/ops/primitive_list.h"
#include "loom/transforms/control_flow_primitives.h"

namespace loom::py {
namespace {

const char* fusion_name(Fusion f) {
  switch (f) {
    case Fusion::elementwise:
      return "elementwise";
    case Fusion::reduction:
      return "reduction";
    case Fusion::none:
      break;
  }
  return "";
}

nb::dict row(const PrimitiveInfo& p) {
  nb::dict d;
  d["name"] = p.name;
  d["family"] = p.family;
  d["traceable"] = p.traceable;
  d["complex"] = p.complex;
  d["fusion"] = fusion_name(p.fusion);
  d["vjp"] = p.vjp != nullptr;
  d["vjp_complex"] = p.vjp_complex;
  d["no_vjp"] = p.no_vjp ? p.no_vjp : "";
  d["batch"] = p.batch != nullptr;
  d["no_batch"] = p.no_batch ? p.no_batch : "";
  return d;
}

}  // namespace

LOOM_BINDING_FAMILY(primitives, 99) {
  m.def(
      "_primitives",
      [] {
        nb::list out;
        for (const PrimitiveInfo* p : all_primitives()) out.append(row(*p));
        out.append(row(kKernelLaunch.info));
        for (const PrimitiveInfo* p : control_flow_primitives()) out.append(row(*p));
        return out;
      },
      "Every primitive record, in family order: a dict of name, family, traceable, complex, "
      "fusion ('elementwise', 'reduction' or ''), vjp and batch (whether it has the rule), "
      "vjp_complex, and no_vjp / no_batch (why it has none, '' otherwise).");
}

}  // namespace loom::py
