// Every primitive of loom, family by family. Each family's header (ops/<family>_primitives.h)
// lists its records in one X-macro, LOOM_<FAMILY>_PRIMITIVES(X) with X(Fn, name, extent),
// which declares them here in namespace primitives; ops/<family>_primitives.cpp defines
// each as one row (primitives::name{info with its rules, cpu eval, gpu eval}). A row must
// be listed to compile (its qualified name needs the declaration), so all_primitives()
// misses none; ops/primitive_list_test.cpp checks every row's rules from it.
#pragma once
#include <vector>

#include "loom/dispatch/primitive.h"

/// Declares a record of the list (`extent`: empty, or `[n]` for one record per kind).
#define LOOM_DECLARE_PRIMITIVE(Fn, name, extent) extern const Primitive<Fn> name extent;

namespace loom {

/// Every record of ops/, in family order; a table of records (elementwise, reduce, ...)
/// contributes each row. Outside ops/ are kernel/'s kernel_launch and transforms/'
/// control_flow_primitives() (their evals run users' kernels and traced graphs).
std::vector<const PrimitiveInfo*> all_primitives();

}  // namespace loom
