// For the control-flow family's batch rules (control_flow_primitives.cpp, call_primitives.cpp),
// which vmap a traced graph: each operand as the vmapped function takes it.
#pragma once
#include <optional>
#include <vector>

#include "loom/array/rebind.h"
#include "loom/dispatch/rules.h"

namespace loom {

/// Appends each of `arrays` to `args` batched along axis 0 where `m` batches it (in_axes 0),
/// else as example 0 has it, the same for every example (in_axes nullopt).
inline void append_vmap_operands(const std::vector<Array>& arrays, const BatchMap& m, const BufferMap& example0,
                                 std::vector<Array>& args, std::vector<std::optional<int>>& axes) {
  for (const Array& a : arrays) {
    args.push_back(m.is_batched(a) ? m.batched(a) : rebind(a, example0));
    axes.push_back(m.is_batched(a) ? std::optional<int>(0) : std::nullopt);
  }
}

}  // namespace loom
