#include "loom/transforms/autodiff.h"

#include <memory>
#include <unordered_map>
#include <string>

#include "loom/core/error.h"
#include "loom/dispatch/rules.h"
#include "loom/ops/creation.h"
#include "loom/ops/grad_util.h"
#include "loom/transforms/autodiff_cotangents.h"
#include "loom/transforms/autodiff_forward.h"

namespace loom {
namespace {

bool carries(const Array& a) { return a.valid() && has_tangent_space(a.dtype()); }

// A rule's cotangent for input `in` in in's dtype: the real part where the rule worked in
// complex for a real input (the adjoint convention, §6 of docs/TRANSFORMS.md), a complex
// value with zero imaginary part the other way round.
Array fit_dtype(const Array& ct, const Array& in) { return cast_to(ct, in.dtype()); }

// Whether a complex value that carries a cotangent flows through record k.
bool meets_complex(const autodiff::ForwardPass& fw, const TracedOp& op, const std::vector<Array>& out_cts) {
  for (const Array& c : out_cts)
    if (c.valid() && is_complex(c.dtype())) return true;
  for (const Array& in : op.inputs)
    if (in.valid() && is_complex(in.dtype()) && fw.differentiable(in.buffer().get())) return true;
  return false;
}

// Whether the rule's result in_cts[i] is an array of its own: not one of the cotangents
// (a rule may pass its output's cotangent through), not a value of the forward pass, and
// not shared with another of its results. Such a result can become an input's cotangent
// buffer as it is, saving a copy per buffer of the trace.
bool fresh_result(const std::vector<Array>& in_cts, size_t i, const TracedOp& op, const std::vector<Array>& out_cts,
                  const autodiff::Cotangents& store) {
  const Buffer* b = in_cts[i].buffer().get();
  if (store.holds(b)) return false;
  for (size_t j = 0; j < in_cts.size(); ++j)
    if (j != i && in_cts[j].valid() && in_cts[j].buffer().get() == b) return false;
  for (const Array& a : out_cts)
    if (a.valid() && a.buffer().get() == b) return false;
  for (const auto* list : {&op.inputs, &op.outputs})
    for (const Array& a : *list)
      if (a.valid() && a.buffer().get() == b) return false;
  return true;
}

// Record k's derivative rule: its outputs' cotangents in, added into its inputs'.
void apply_rule(const autodiff::ForwardPass& fw, size_t k, autodiff::Cotangents& store) {
  const TracedOp& op = fw.graph().ops[k];
  std::vector<Array> out_cts(op.outputs.size());
  bool any = false;
  for (size_t i = 0; i < op.outputs.size(); ++i) {
    if (!carries(op.outputs[i])) continue;
    out_cts[i] = store.read(op.outputs[i]);
    if (!out_cts[i].valid()) continue;
    any = true;
    // The region held other values before this record: their cotangent starts at zero.
    if (fw.overwrites(k, i)) {
      out_cts[i] = out_cts[i].copy();
      store.zero(op.outputs[i]);
    }
  }
  if (!any) return;
  const VjpRule rule = op.op->vjp;
  // A rule written for reals only would give a wrong derivative through complex values.
  if (rule && !op.op->vjp_complex && meets_complex(fw, op, out_cts))
    throw UnsupportedError(std::string("[grad] the derivative rule of '") + op.op->name + "' (" + op.op->family +
                           " family) does not support complex values, and a complex value that depends on the "
                           "differentiated arguments flows through it");
  if (!rule)
    throw UnsupportedError(std::string("[grad] no derivative rule for '") + op.op->name + "' (" + op.op->family +
                           " family" + (op.op->no_vjp ? std::string(": ") + op.op->no_vjp : std::string()) +
                           "): the function's result depends on it through a differentiable value; "
                           "wrap its input in stop_gradient if no derivative should flow through it");
  std::vector<Array> in_cts(op.inputs.size());
  TracedOp bound = fw.bound(k);
  for (size_t i = 0; i < op.inputs.size() && i < 64; ++i)
    if (!carries(op.inputs[i]) || !fw.differentiable(op.inputs[i].buffer().get()))
      bound.unwanted_cotangents |= uint64_t{1} << i;
  rule(bound, out_cts, in_cts);
  for (size_t i = 0; i < op.inputs.size(); ++i) {
    const Array& in = op.inputs[i];
    if (!in_cts[i].valid() || !carries(in) || !fw.differentiable(in.buffer().get())) continue;
    if (in_cts[i].shape() != in.shape())
      throw std::logic_error(std::string("[grad] the derivative rule of '") + op.op->name + "' gave shape " +
                             shape_str(in_cts[i].shape()) + " for an input of shape " + shape_str(in.shape()));
    if (in_cts[i].dtype() != in.dtype() && (is_complex(in_cts[i].dtype()) || is_complex(in.dtype())))
      in_cts[i] = fit_dtype(in_cts[i], in);
    store.accumulate(in, in_cts[i], fresh_result(in_cts, i, bound, out_cts, store));
  }
}

// For each argument of the trace, the index of the first record that reads it: once the
// backward pass has run that record's rule, the argument's cotangent is final. kNever for
// an argument no record reads, or one a record writes into (its cotangent is then only
// known at the end).
constexpr size_t kNever = static_cast<size_t>(-1);

std::vector<size_t> final_after(const TracedGraph& g) {
  std::unordered_map<const Buffer*, size_t> arg_of;
  for (size_t i = 0; i < g.inputs.size(); ++i) arg_of[g.inputs[i].buffer().get()] = i;
  std::vector<size_t> first(g.inputs.size(), kNever);
  std::vector<bool> written(g.inputs.size(), false);
  for (size_t k = 0; k < g.ops.size(); ++k) {
    for (const Array& a : g.ops[k].inputs) {
      auto it = a.valid() ? arg_of.find(a.buffer().get()) : arg_of.end();
      if (it != arg_of.end() && first[it->second] == kNever) first[it->second] = k;
    }
    for (const Array& a : g.ops[k].outputs) {
      auto it = a.valid() ? arg_of.find(a.buffer().get()) : arg_of.end();
      if (it != arg_of.end()) written[it->second] = true;
    }
  }
  for (size_t i = 0; i < first.size(); ++i)
    if (written[i]) first[i] = kNever;
  return first;
}

// The backward pass: cotangents of the results in, cotangents of the arguments out. With
// `ready`, each argument's cotangent is handed to it as soon as it is final.
std::vector<Array> backward(const autodiff::ForwardPass& fw, const std::vector<Array>& cts, const GradReadyHook& ready) {
  const TracedGraph& g = fw.graph();
  if (cts.size() != g.outputs.size())
    throw_value_error("vjp", "the function has " + std::to_string(g.outputs.size()) + " outputs, got " +
                                 std::to_string(cts.size()) + " cotangents");
  autodiff::Cotangents store;
  for (size_t i = 0; i < cts.size(); ++i) {
    const Array& o = g.outputs[i];
    if (!cts[i].valid() || !carries(o) || !fw.differentiable(o.buffer().get())) continue;
    if (cts[i].shape() != o.shape())
      throw_value_error("vjp", "cotangent " + std::to_string(i) + " has shape " + shape_str(cts[i].shape()) +
                                   ", but output " + std::to_string(i) + " has shape " + shape_str(o.shape()));
    if (is_complex(cts[i].dtype()) && !is_complex(o.dtype()))
      throw DTypeError("[vjp] cotangent " + std::to_string(i) + " is " + dtype_name(cts[i].dtype()) + ", but output " +
                       std::to_string(i) + " is real (" + dtype_name(o.dtype()) + ")");
    store.accumulate(o, cts[i].dtype() == o.dtype() ? cts[i] : cast_to(cts[i], o.dtype()));
  }
  std::vector<Array> grads(g.inputs.size());
  std::vector<bool> handed(g.inputs.size(), false);
  auto finish = [&](size_t i) {
    const Array& in = g.inputs[i];
    Array ct = carries(in) ? store.take(in) : Array();
    // The caller's convention is JAX's, the conjugate of the pass's own (§6 of TRANSFORMS.md).
    grads[i] = ct.valid() ? conj(ct) : zeros(in.shape(), in.dtype(), in.device());
    handed[i] = true;
    if (ready) ready(i, grads[i]);
  };
  std::vector<std::vector<size_t>> final_at;  // final_at[k]: the arguments final after record k
  if (ready) {
    final_at.resize(g.ops.size());
    const std::vector<size_t> first = final_after(g);
    for (size_t i = 0; i < first.size(); ++i)
      if (first[i] != kNever) final_at[first[i]].push_back(i);
  }
  for (size_t k = g.ops.size(); k-- > 0;) {
    apply_rule(fw, k, store);
    if (ready)
      for (size_t i : final_at[k]) finish(i);
  }
  for (size_t i = 0; i < g.inputs.size(); ++i)
    if (!handed[i]) finish(i);
  return grads;
}

std::vector<ArraySpec> specs_of(const std::vector<Array>& args, const char* who) {
  std::vector<ArraySpec> specs;
  specs.reserve(args.size());
  for (const Array& a : args) {
    if (!a.valid()) throw_value_error(who, "an argument is an empty Array handle");
    specs.push_back(ArraySpec::of(a));
  }
  return specs;
}

std::vector<int> checked_argnums(const std::vector<int>& argnums, size_t nargs, const char* who) {
  std::vector<int> out;
  for (int i : argnums) {
    const int n = static_cast<int>(nargs);
    if (i < -n || i >= n)
      throw_value_error(who, "argnums " + std::to_string(i) + " is out of range for a function of " +
                                 std::to_string(n) + " arguments");
    out.push_back(i < 0 ? i + n : i);
  }
  return out;
}

// The first output, checked to be a floating scalar, and the cotangents that seed grad.
std::vector<Array> grad_seed(const std::vector<Array>& outs, const char* who) {
  if (outs.empty()) throw_value_error(who, "the function returned no outputs; it must return a scalar first");
  const Array& y = outs[0];
  if (y.ndim() != 0)
    throw std::invalid_argument(std::string("[") + who + "] the function's output must be a scalar (shape ()), got shape " +
                                shape_str(y.shape()) + "; use vjp for a non-scalar output, or reduce it (sum, mean)");
  if (!is_floating(y.dtype()))
    throw DTypeError(std::string("[") + who + "] the function's output must be a float scalar, got " +
                     dtype_name(y.dtype()));
  std::vector<Array> cts(outs.size());
  cts[0] = ones({}, y.dtype(), y.device());
  return cts;
}

}  // namespace

std::pair<std::vector<Array>, HookedPullback> vjp_with_hook(const ArrayFn& f, const std::vector<Array>& primals) {
  if (!f) throw_value_error("vjp", "the function is empty");
  auto g = std::make_shared<const TracedGraph>(trace(f, specs_of(primals, "vjp")));
  auto fw = std::make_shared<const autodiff::ForwardPass>(g, primals);
  // The backward pass holds complex cotangents in the adjoint convention (the bytes of a
  // cotangent are dL/dx, dL/dy, so real() and imag() views need no rule); the caller's
  // are JAX's, their conjugates (§6 of docs/TRANSFORMS.md): conjugated on the way in here,
  // on the way out as each argument's cotangent is finished.
  HookedPullback pullback = [fw](const std::vector<Array>& cts, const GradReadyHook& ready) {
    std::vector<Array> in(cts.size());
    for (size_t i = 0; i < cts.size(); ++i) in[i] = cts[i].valid() ? conj(cts[i]) : cts[i];
    return backward(*fw, in, ready);
  };
  return {fw->results(), std::move(pullback)};
}

std::pair<std::vector<Array>, ArrayFn> vjp(const ArrayFn& f, const std::vector<Array>& primals) {
  auto [outs, hooked] = vjp_with_hook(f, primals);
  ArrayFn pullback = [hooked = std::move(hooked)](const std::vector<Array>& cts) { return hooked(cts, {}); };
  return {std::move(outs), std::move(pullback)};
}

std::pair<std::vector<Array>, std::vector<Array>> jvp(const ArrayFn& f, const std::vector<Array>& primals,
                                                      const std::vector<Array>& tangents) {
  if (tangents.size() != primals.size())
    throw_value_error("jvp", "got " + std::to_string(primals.size()) + " primals but " +
                                 std::to_string(tangents.size()) + " tangents");
  for (size_t i = 0; i < tangents.size(); ++i)
    if (tangents[i].valid() && tangents[i].shape() != primals[i].shape())
      throw_value_error("jvp", "tangent " + std::to_string(i) + " has shape " + shape_str(tangents[i].shape()) +
                                   ", but primal " + std::to_string(i) + " has shape " +
                                   shape_str(primals[i].shape()));
  auto [outs, pullback] = vjp(f, primals);
  // The pullback u -> J^T u is linear; its own pullback at any u maps t to J t.
  std::vector<Array> u0;
  u0.reserve(outs.size());
  for (const Array& o : outs) u0.push_back(zeros(o.shape(), o.dtype(), o.device()));
  auto [unused, transpose] = vjp(pullback, u0);
  (void)unused;
  std::vector<Array> t_outs = transpose(tangents);
  return {std::move(outs), std::move(t_outs)};
}

ValueAndGradFn value_and_grad(ArrayFn f, std::vector<int> argnums) {
  if (!f) throw_value_error("value_and_grad", "the function is empty");
  return [f = std::move(f), argnums = std::move(argnums)](const std::vector<Array>& args) {
    const std::vector<int> nums = checked_argnums(argnums, args.size(), "grad");
    auto [outs, pullback] = vjp(f, args);
    const std::vector<Array> all = pullback(grad_seed(outs, "grad"));
    std::vector<Array> grads;
    grads.reserve(nums.size());
    for (int i : nums) grads.push_back(all[i]);
    return std::make_pair(std::move(outs), std::move(grads));
  };
}

ArrayFn grad(ArrayFn f, std::vector<int> argnums) {
  if (!f) throw_value_error("grad", "the function is empty");
  ValueAndGradFn vg = value_and_grad(std::move(f), std::move(argnums));
  return [vg = std::move(vg)](const std::vector<Array>& args) { return vg(args).second; };
}

}  // namespace loom
