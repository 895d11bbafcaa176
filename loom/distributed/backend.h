// What process_group.cpp needs of a transport: the collectives on arrays whose arguments it
// has already checked (same dtype and shape on every rank, contiguous, on this backend's
// device). Gloo serves cpu() arrays (gloo_backend.cpp), NCCL GPU arrays (cuda/nccl_backend.cpp).
#pragma once
#include <chrono>
#include <memory>
#include <vector>

#include "loom/array/array.h"
#include "loom/distributed/reduce_op.h"
#include "loom/distributed/tcp_store.h"

namespace loom::distributed {

class CollectiveBackend {
 public:
  virtual ~CollectiveBackend() = default;
  virtual const char* name() const = 0;
  /// Before destruction: orderly (every rank is leaving together) or not (some rank failed;
  /// nothing may wait for the others).
  virtual void shutdown(bool orderly) {}
  virtual void all_reduce(const Array& x, ReduceOp op) = 0;
  /// Each of xs in place, as one call where the transport can (NCCL: one group, which
  /// launches one kernel for all of them); xs do not overlap in memory.
  virtual void all_reduce_coalesced(const std::vector<Array>& xs, ReduceOp op) {
    for (const Array& x : xs) all_reduce(x, op);
  }
  virtual void broadcast(const Array& x, int root) = 0;
  /// out: (world_size, *x.shape), contiguous.
  virtual void all_gather(const Array& x, const Array& out) = 0;
  /// out: x's rows divided by world_size.
  virtual void reduce_scatter(const Array& x, const Array& out, ReduceOp op) = 0;
  virtual void all_to_all(const Array& x, const Array& out) = 0;
  virtual void send(const Array& x, int dst) = 0;
  virtual void recv(const Array& out, int src) = 0;
};

struct BackendSetup {
  TcpStore* store;
  std::string prefix;  // store keys of this backend
  int rank, world_size;
  std::chrono::milliseconds timeout;
};

/// Whether loom was built with Gloo.
bool gloo_compiled();
/// Gloo over TCP for cpu() arrays; UnsupportedError when loom was built without Gloo.
std::unique_ptr<CollectiveBackend> make_gloo_backend(const BackendSetup& s);
/// NCCL for arrays on GPU `device`; UnsupportedError without CUDA or without libnccl.
std::unique_ptr<CollectiveBackend> make_nccl_backend(const BackendSetup& s, int device);
/// "nccl 2.27.3", or why NCCL cannot be used.
std::string nccl_description();

}  // namespace loom::distributed
