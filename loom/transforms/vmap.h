// loom::vmap (docs/TRANSFORMS.md): a function of one example turned into a function of a
// batch. The function is traced once on one example (each batched argument without its
// batch axis); each abstract buffer that depends on a batched argument is given `size`
// copies, laid out one example apart (dispatch/rules.h BatchMap), and every recorded op
// runs once for the whole batch through its primitive's batching rule (ops/*_batch.cpp).
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "loom/transforms/graph.h"

namespace loom {

/// `f` mapped over a batch axis of its arguments, as JAX's vmap: argument i is batched
/// along axis in_axes[i] (nullopt: the same array for every example; empty in_axes: all
/// 0), result j has its batch axis at out_axes[j] (empty: all 0); a result that does not
/// depend on a batched argument is broadcast over the batch, or returned once where its
/// out_axes entry is nullopt (which a result that does depend on one refuses). `axis_size` gives the batch
/// size where no argument is batched (and must agree with them otherwise). Under an
/// enclosing trace (jit, vmap, grad) the batched ops are recorded there.
ArrayFn vmap(ArrayFn f, std::vector<std::optional<int>> in_axes = {}, std::vector<std::optional<int>> out_axes = {},
             std::optional<int64_t> axis_size = std::nullopt);

/// The same with out_axes decided once the number of results is known (the Python layer
/// broadcasts a prefix of the results' pytree, which only the trace reveals).
using OutAxesFn = std::function<std::vector<std::optional<int>>(size_t num_results)>;
ArrayFn vmap_deferred_out_axes(ArrayFn f, std::vector<std::optional<int>> in_axes, OutAxesFn out_axes_of,
             std::optional<int64_t> axis_size = std::nullopt);

}  // namespace loom
