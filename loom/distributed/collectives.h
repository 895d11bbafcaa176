// loom::distributed: collectives between processes (docs/DISTRIBUTED.md). One process
// group per process, made by init() from the launcher's variables (RANK, WORLD_SIZE,
// LOCAL_RANK, MASTER_ADDR, MASTER_PORT). Collectives on cpu() arrays run over Gloo
// (TCP), on GPU arrays over NCCL (loaded at run time), enqueued on the current stream of
// the array's device like every other op. Every rank must call the same collectives in the
// same order with matching arrays; each collective first checks that through the
// rendezvous store (unless init's check_args is false), so that a mismatch raises
// ValueError on every rank, and a rank that never comes raises DistributedTimeoutError on
// the others after the timeout, instead of corrupting memory or hanging.
#pragma once
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "loom/array/array.h"
#include "loom/distributed/reduce_op.h"

namespace loom::distributed {

struct InitOptions {
  int rank = 0;
  int world_size = 1;
  int local_rank = 0;
  std::string master_addr = "127.0.0.1";
  int master_port = 29500;
  /// "auto" (Gloo for cpu() arrays, NCCL for GPU arrays), "gloo" or "nccl" (the other
  /// device kind then raises).
  std::string backend = "auto";
  /// How long any rank waits for the others: the rendezvous, each collective, send/recv.
  std::chrono::milliseconds timeout{std::chrono::minutes(5)};
  /// This process's GPU: its NCCL communicator is made at init. Unset: made by the first
  /// GPU collective (point-to-point calls on GPUs then need one first).
  std::optional<Device> device;
  /// Exchange each collective's kind, dtype and shape first (one round trip to the store).
  bool check_args = true;
};

void init(const InitOptions& options);
bool is_initialized();
/// Leaves the group: waits for the other ranks (a barrier, unless `wait_for_others` is
/// false, as at interpreter exit), then closes the communicators and the store. A later
/// init() may start a new group.
void finalize(bool wait_for_others = true);
int rank();
int world_size();
int local_rank();
std::chrono::milliseconds timeout();
/// Waits until every rank has called barrier() (host side; GPU work is not waited for).
void barrier();

/// In place: x becomes the reduction of every rank's x. Returns x. check=false skips the
/// agreement round trip for this call, where the caller has checked the arguments already
/// (nn.DistributedDataParallel checks its parameters once, then averages gradients of
/// those shapes every step).
const Array& all_reduce(const Array& x, ReduceOp op = ReduceOp::sum, bool check = true);
/// In place, each of xs as all_reduce would, in one collective call: xs on one device, none
/// overlapping another in memory; the arrays may differ in dtype and shape, and the ranks
/// must agree on the whole list. nn.DistributedDataParallel averages a bucket of gradients
/// this way instead of packing them into one array first.
const std::vector<Array>& all_reduce_coalesced(const std::vector<Array>& xs, ReduceOp op = ReduceOp::sum,
                                               bool check = true);
/// In place: every rank's x becomes root's x.
const Array& broadcast(const Array& x, int root = 0);
/// Every rank's x stacked: shape (world_size, *x.shape).
Array all_gather(const Array& x);
/// x.shape[0] must divide by world_size; the reduction of every rank's x, of which this
/// rank keeps rows [rank*k, (rank+1)*k) with k = x.shape[0] / world_size.
Array reduce_scatter(const Array& x, ReduceOp op = ReduceOp::sum);
/// x.shape[0] must divide by world_size: chunk j of x goes to rank j; the result's chunk j
/// came from rank j.
Array all_to_all(const Array& x);
/// Point to point: send x to rank dst; recv fills `out` (same dtype and shape) from src.
void send(const Array& x, int dst);
const Array& recv(const Array& out, int src);

}  // namespace loom::distributed
