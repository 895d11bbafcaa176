// Registration of the transform rules (dispatch/rules.h) that ops/ writes beside each
// family's shape and dtype rules. The engines in transforms/ call these once, before their
// first use; each registers every rule of its kind.
#pragma once

namespace loom {

/// Reverse- and forward-mode rules of the op table's elementwise ops (ops/elementwise_grad*.cpp).
void register_elementwise_grad_rules();
/// Every other family's derivative rules, and the elementwise ones (ops/grad_rules.cpp).
void register_grad_rules();
/// Every family's batching rules (ops/batch_rules.cpp).
void register_batch_rules();

}  // namespace loom
