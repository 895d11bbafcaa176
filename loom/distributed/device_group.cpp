#include "loom/distributed/device_group.h"

#include <set>
#include <string>

#include "loom/core/error.h"
#include "loom/dispatch/trace.h"
#include "loom/distributed/transports.h"
#include "loom/ops/elementwise.h"

namespace loom::distributed {

DeviceGroup::DeviceGroup(std::vector<Device> devices) : devices_(std::move(devices)) {
  if (devices_.empty()) throw_value_error("DeviceGroup", "needs at least one device");
  // Devices of one kind, each once, whose transport has a communicator over several of them
  // (NCCL's, transports.h): that communicator; else the collectives run through the host.
  const Transport& t = transport_of(devices_[0].type);
  std::set<int> distinct;
  bool one_kind = true;
  for (const Device& d : devices_) {
    one_kind = one_kind && d.type == devices_[0].type;
    distinct.insert(d.index);
  }
  if (one_kind && t.multi_device && distinct.size() == devices_.size() && devices_.size() > 1) {
    std::vector<int> ids;
    for (const Device& d : devices_) ids.push_back(d.index);
    comm_ = t.multi_device(ids);
  }
}

DeviceGroup::~DeviceGroup() = default;

void DeviceGroup::check(const char* op, const std::vector<Array>& xs) const {
  if (is_tracing())
    throw UnsupportedError(std::string("[") + op + "] collectives cannot be traced (inside loom.jit, vmap or grad)");
  if (xs.size() != devices_.size())
    throw_value_error(op, "needs one array per device of the group (" + std::to_string(devices_.size()) + "), got " +
                              std::to_string(xs.size()));
  for (size_t i = 0; i < xs.size(); ++i) {
    if (!xs[i].valid()) throw_value_error(op, "array " + std::to_string(i) + " is empty (default-constructed)");
    if (xs[i].device() != devices_[i])
      throw DeviceMismatchError("[" + std::string(op) + "] array " + std::to_string(i) + " is on " +
                                xs[i].device().str() + ", the group's device " + std::to_string(i) + " is " +
                                devices_[i].str());
    if (xs[i].dtype() != xs[0].dtype() || xs[i].shape() != xs[0].shape())
      throw_value_error(op, "array " + std::to_string(i) + " differs from array 0 in dtype or shape");
    if (!xs[i].is_contiguous()) throw_value_error(op, "the arrays must be contiguous; pass copies");
  }
}

void DeviceGroup::all_reduce(const std::vector<Array>& xs, ReduceOp op) {
  check("all_reduce", xs);
  check_reduction_dtype("all_reduce", xs[0].dtype(), op);
  if (xs.size() == 1 || xs[0].size() == 0) return;
  for (const Array& x : xs) x.buffer()->note_write();  // NCCL writes them outside dispatch()
  if (comm_) {
    std::vector<Array> parts;
    for (const Array& x : xs) parts.push_back(as_reals_if_complex(x));
    return comm_->all_reduce(parts, op);
  }
  // Through copies: combine on the first device, then copy the result back to each.
  const Device& home = devices_[0];
  Array total = xs[0].copy();
  for (size_t i = 1; i < xs.size(); ++i) {
    const Array other = xs[i].to(home);
    switch (op) {
      case ReduceOp::sum:
      case ReduceOp::avg: total = add(total, other); break;
      case ReduceOp::prod: total = multiply(total, other); break;
      case ReduceOp::min: total = minimum(total, other); break;
      case ReduceOp::max: total = maximum(total, other); break;
    }
  }
  if (op == ReduceOp::avg) total = true_divide(total, static_cast<double>(xs.size()));
  for (size_t i = 0; i < xs.size(); ++i) copyto(xs[i], total.to(devices_[i]));
}

void DeviceGroup::broadcast(const std::vector<Array>& xs, int root) {
  check("broadcast", xs);
  if (root < 0 || root >= static_cast<int>(xs.size()))
    throw_value_error("broadcast", "root must be in [0, " + std::to_string(xs.size()) + "), got " + std::to_string(root));
  if (xs.size() == 1 || xs[0].size() == 0) return;
  for (const Array& x : xs) x.buffer()->note_write();
  if (comm_) return comm_->broadcast(xs, root);
  for (size_t i = 0; i < xs.size(); ++i)
    if (static_cast<int>(i) != root) copyto(xs[i], xs[root].to(devices_[i]));
}

}  // namespace loom::distributed
