// The process's group: init/finalize, the argument checks every collective shares, the
// exchange of each collective's arguments through the store, and the choice of transport
// by the array's device (docs/DISTRIBUTED.md §2-3).
#include <algorithm>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <unordered_map>

#include "loom/core/error.h"
#include "loom/dispatch/trace.h"
#include "loom/distributed/backend.h"
#include "loom/distributed/collectives.h"
#include "loom/distributed/transports.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/shape_ops.h"

namespace loom::distributed {
namespace {

struct Group {
  InitOptions options;
  std::unique_ptr<TcpStore> store;
  TransportSlot transports[kNumDeviceTypes];  // by DeviceType (transports.h)
  uint64_t calls = 0;                              // collectives so far, the same on every rank
  std::unordered_map<int, uint64_t> sent, received;  // point-to-point messages per peer
};

std::mutex g_mu;  // one collective at a time per process: their order is the program's
std::unique_ptr<Group> g_group;

Group& group(const char* op) {
  if (!g_group)
    throw DistributedError(std::string("[") + op + "] the process group is not initialised: call "
                                                   "loom.distributed.init() first");
  return *g_group;
}

std::string shape_str(const Shape& s) {
  std::string out = "(";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + (s.size() == 1 ? ",)" : ")");
}

// An array as the agreement compares it: dtype, shape and device kind.
std::string describe(const Array& x) {
  return std::string(dtype_name(x.dtype())) + " " + shape_str(x.shape()) + " on " +
         transport_of(x.device().type).device_text;
}

// What every rank must agree on for one call: which collective, the array, and the call's
// own arguments (root, reduction).
std::string signature(const char* op, const Array& x, const std::string& extra) {
  std::string s = std::string(op) + " of " + describe(x);
  return extra.empty() ? s : s + ", " + extra;
}

void check_array(const char* op, const Array& x) {
  if (is_tracing())
    throw UnsupportedError(std::string("[") + op + "] collectives cannot be traced (inside loom.jit, vmap or grad): "
                                                   "call them outside the transformed function");
  if (!x.valid()) throw_value_error(op, "the array is empty (default-constructed)");
  if (!x.is_contiguous())
    throw_value_error(op, "the array must be contiguous (its data is sent as it lies in memory); pass x.copy()");
}

void check_reduction(const char* op, const Array& x, ReduceOp r) {
  const DType t = x.dtype();
  check_reduction_dtype(op, t, r);
  transport_of(x.device().type).check_reduction(op, t);
}

void check_rank(const char* op, const char* what, int r, int world) {
  if (r < 0 || r >= world)
    throw_value_error(op, std::string(what) + " must be a rank in [0, " + std::to_string(world) + "), got " +
                              std::to_string(r));
}

// Exchanges `sig` for call number `call` through the store and raises on every rank when
// the signatures differ. A rank that never comes makes the others time out here, before
// any transport is entered.
void exchange_and_compare(Group& g, const char* op, const std::string& sig, uint64_t call) {
  std::vector<std::string> all;
  try {
    all = g.store->exchange("call/" + std::to_string(call), g.options.rank, g.options.world_size, sig);
  } catch (const DistributedTimeoutError& e) {
    throw DistributedTimeoutError(std::string("[") + op + "] collective #" + std::to_string(call) + ": " +
                                  std::string(e.what()).substr(sizeof("[distributed]")) +
                                  " (a rank that hangs, has died or called a different number of collectives)");
  }
  std::ostringstream diff;
  for (int r = 0; r < static_cast<int>(all.size()); ++r)
    if (all[r] != all[0]) diff << "; rank " << r << ": " << all[r];
  if (!diff.str().empty())
    throw_value_error(op, "the ranks called different collectives (collective #" + std::to_string(call) +
                              "): rank 0: " + all[0] + diff.str());
}

// Every collective takes the next call number; the agreement is skipped where the group
// or the call opted out of it.
void agree(Group& g, const char* op, const std::string& sig, bool check = true) {
  const uint64_t call = g.calls++;
  if (!check || !g.options.check_args || g.options.world_size == 1) return;
  exchange_and_compare(g, op, sig, call);
}

BackendSetup setup_of(const Group& g) {
  return {g.store.get(), "", g.options.rank, g.options.world_size, g.options.timeout};
}

// The array's device kind picks the transport (transports.h), as dispatch() picks an eval.
CollectiveBackend& transport(Group& g, const char* op, const Array& x, bool point_to_point = false) {
  const DeviceType kind = x.device().type;
  const Transport& t = transport_of(kind);
  const Transport* only = transport_named(g.options.backend);
  if (only && only != &t)
    throw UnsupportedError(std::string("[") + op + "] the group was initialised with backend='" + only->backend +
                           "', which serves " + only->arrays + " only; this array is on " + x.device().str());
  return t.get(g.transports[static_cast<int>(kind)], op, x.device(), setup_of(g), point_to_point);
}

}  // namespace

void init(const InitOptions& o) {
  std::lock_guard<std::mutex> lock(g_mu);
  if (g_group) throw DistributedError("[init] the process group is already initialised; call finalize() first");
  if (o.world_size < 1) throw_value_error("init", "world_size must be >= 1, got " + std::to_string(o.world_size));
  check_rank("init", "rank", o.rank, o.world_size);
  if (o.local_rank < 0) throw_value_error("init", "local_rank must be >= 0");
  if (o.backend != "auto" && o.backend != "gloo" && o.backend != "nccl")
    throw_value_error("init", "backend must be 'auto', 'gloo' or 'nccl', got '" + o.backend + "'");
  if (o.timeout.count() <= 0) throw_value_error("init", "timeout must be positive");
  if (o.master_port < 0 || o.master_port > 65535)
    throw_value_error("init", "master_port must be in [0, 65535], got " + std::to_string(o.master_port));
  auto g = std::make_unique<Group>();
  g->options = o;
  g->store = std::make_unique<TcpStore>(o.master_addr, o.master_port, o.rank == 0, o.timeout);
  // Every rank registers, so that init returns once the whole group is there.
  try {
    g->store->exchange("init", o.rank, o.world_size, std::to_string(o.world_size));
  } catch (const DistributedTimeoutError& e) {
    throw DistributedTimeoutError("[init] " + std::string(e.what()).substr(sizeof("[distributed]")) +
                                  " at the rendezvous (WORLD_SIZE=" + std::to_string(o.world_size) + ")");
  }
  // The transports are made here, by every rank together, so that point-to-point calls
  // never wait for a rank that is not part of them. Gloo is optional at build time: then
  // cpu() collectives raise when called.
  if (o.world_size > 1)
    for (int k = 0; k < kNumDeviceTypes; ++k)
      transport_of(static_cast<DeviceType>(k)).open(g->transports[k], o, setup_of(*g));
  g_group = std::move(g);
}

bool is_initialized() {
  std::lock_guard<std::mutex> lock(g_mu);
  return g_group != nullptr;
}

void finalize(bool wait_for_others) {
  std::unique_lock<std::mutex> lock(g_mu);
  if (!g_group) return;
  Group& g = *g_group;
  std::exception_ptr failed;
  try {
    if (wait_for_others && g.options.world_size > 1) g.store->exchange("finalize", g.options.rank, g.options.world_size, "");
  } catch (...) {
    failed = std::current_exception();
  }
  // Communicators first, then the store (whose server waits for the others to leave). After
  // a failed or skipped barrier the others may be gone or stuck: NCCL's communicator is
  // then aborted, since destroying it would wait for them.
  const bool orderly = wait_for_others && !failed;
  for (TransportSlot& slot : g.transports)
    if (slot.backend) slot.backend->shutdown(orderly);
  g_group.reset();
  if (failed) std::rethrow_exception(failed);
}

int rank() { std::lock_guard<std::mutex> lock(g_mu); return group("rank").options.rank; }
int world_size() { std::lock_guard<std::mutex> lock(g_mu); return group("world_size").options.world_size; }
int local_rank() { std::lock_guard<std::mutex> lock(g_mu); return group("local_rank").options.local_rank; }
std::chrono::milliseconds timeout() { std::lock_guard<std::mutex> lock(g_mu); return group("timeout").options.timeout; }

void barrier() {
  std::lock_guard<std::mutex> lock(g_mu);
  Group& g = group("barrier");
  if (is_tracing()) throw UnsupportedError("[barrier] cannot be traced (inside loom.jit, vmap or grad)");
  const uint64_t call = g.calls++;
  // Always through the store (that is the barrier), compared like any collective's call.
  if (g.options.world_size > 1) exchange_and_compare(g, "barrier", "barrier", call);
}

const Array& all_reduce(const Array& x, ReduceOp op, bool check) {
  std::lock_guard<std::mutex> lock(g_mu);
  Group& g = group("all_reduce");
  check_array("all_reduce", x);
  check_reduction("all_reduce", x, op);
  agree(g, "all_reduce", signature("all_reduce", x, std::string("op=") + reduce_op_name(op)), check);
  x.buffer()->note_write();  // written in place, outside dispatch()
  if (g.options.world_size > 1 && x.size() > 0) transport(g, "all_reduce", x).all_reduce(as_reals_if_complex(x), op);
  return x;
}

const std::vector<Array>& all_reduce_coalesced(const std::vector<Array>& xs, ReduceOp op, bool check) {
  const char* name = "all_reduce_coalesced";
  std::lock_guard<std::mutex> lock(g_mu);
  Group& g = group(name);
  std::string sig = std::string(name) + " op=" + reduce_op_name(op);
  std::vector<std::pair<const char*, const char*>> spans;  // [begin, end) of each array's bytes
  std::vector<Array> live;                                // the ones with elements, to send
  for (size_t i = 0; i < xs.size(); ++i) {
    const Array& x = xs[i];
    check_array(name, x);
    check_reduction(name, x, op);
    if (x.device() != xs[0].device())
      throw DeviceMismatchError(std::string("[") + name + "] every array must be on one device: array 0 is on " +
                                xs[0].device().str() + ", array " + std::to_string(i) + " on " + x.device().str());
    sig += "; " + describe(x);
    if (x.size() == 0) continue;
    const char* p = static_cast<const char*>(x.data());
    spans.emplace_back(p, p + x.nbytes());
    live.push_back(as_reals_if_complex(x));
  }
  // In place, in one call: two arrays sharing bytes would both be written with sums that
  // counted those bytes once each, a wrong answer with no error.
  std::sort(spans.begin(), spans.end());
  for (size_t i = 1; i < spans.size(); ++i)
    if (spans[i].first < spans[i - 1].second)
      throw_value_error(name, "two of the arrays overlap in memory; pass copies");
  agree(g, name, sig, check);
  for (const Array& x : live) x.buffer()->note_write();  // written in place, outside dispatch()
  if (g.options.world_size > 1 && !live.empty()) transport(g, name, live[0]).all_reduce_coalesced(live, op);
  return xs;
}

const Array& broadcast(const Array& x, int root) {
  std::lock_guard<std::mutex> lock(g_mu);
  Group& g = group("broadcast");
  check_array("broadcast", x);
  check_rank("broadcast", "root", root, g.options.world_size);
  agree(g, "broadcast", signature("broadcast", x, "root=" + std::to_string(root)));
  x.buffer()->note_write();  // written in place, outside dispatch()
  if (g.options.world_size > 1 && x.size() > 0) transport(g, "broadcast", x).broadcast(x, root);
  return x;
}

Array all_gather(const Array& x) {
  std::lock_guard<std::mutex> lock(g_mu);
  Group& g = group("all_gather");
  check_array("all_gather", x);
  agree(g, "all_gather", signature("all_gather", x, ""));
  Shape shape = x.shape();
  shape.insert(shape.begin(), g.options.world_size);
  Array out = empty(shape, x.dtype(), x.device());
  if (x.size() == 0) return out;
  if (g.options.world_size == 1) copyto(reshape(out, x.shape()), x);
  else transport(g, "all_gather", x).all_gather(x, out);
  return out;
}

namespace {
Shape chunk_shape(const char* op, const Array& x, int world) {
  if (x.ndim() == 0 || x.shape()[0] % world != 0)
    throw_value_error(op, "x.shape[0] must divide by the world size " + std::to_string(world) + ", got shape " +
                              shape_str(x.shape()));
  Shape s = x.shape();
  s[0] /= world;
  return s;
}
}  // namespace

Array reduce_scatter(const Array& x, ReduceOp op) {
  std::lock_guard<std::mutex> lock(g_mu);
  Group& g = group("reduce_scatter");
  check_array("reduce_scatter", x);
  check_reduction("reduce_scatter", x, op);
  Array out = empty(chunk_shape("reduce_scatter", x, g.options.world_size), x.dtype(), x.device());
  agree(g, "reduce_scatter", signature("reduce_scatter", x, std::string("op=") + reduce_op_name(op)));
  if (out.size() == 0) return out;
  if (g.options.world_size == 1) copyto(out, x);
  else transport(g, "reduce_scatter", x).reduce_scatter(as_reals_if_complex(x), as_reals_if_complex(out), op);
  return out;
}

Array all_to_all(const Array& x) {
  std::lock_guard<std::mutex> lock(g_mu);
  Group& g = group("all_to_all");
  check_array("all_to_all", x);
  chunk_shape("all_to_all", x, g.options.world_size);
  agree(g, "all_to_all", signature("all_to_all", x, ""));
  Array out = empty(x.shape(), x.dtype(), x.device());
  if (out.size() == 0) return out;
  if (g.options.world_size == 1) copyto(out, x);
  else transport(g, "all_to_all", x).all_to_all(x, out);
  return out;
}

// Point to point. The sender posts its signature under the pair's message number and waits
// for the receiver's verdict, so that a mismatch raises on both sides before any byte moves.
void send(const Array& x, int dst) {
  std::lock_guard<std::mutex> lock(g_mu);
  Group& g = group("send");
  check_array("send", x);
  check_rank("send", "dst", dst, g.options.world_size);
  if (dst == g.options.rank) throw_value_error("send", "dst is this rank; a rank cannot send to itself");
  const std::string id = std::to_string(g.options.rank) + "->" + std::to_string(dst) + "/" + std::to_string(g.sent[dst]++);
  if (g.options.check_args) {
    g.store->set("p2p/" + id, describe(x));
    std::string verdict;
    try {
      verdict = g.store->get("p2p-ok/" + id);
    } catch (const DistributedTimeoutError&) {
      throw DistributedTimeoutError("[send] rank " + std::to_string(dst) + " did not call recv(src=" +
                                    std::to_string(g.options.rank) + ") within the timeout");
    }
    if (verdict != "ok") throw_value_error("send", verdict);
  }
  if (x.size() > 0) transport(g, "send", x, true).send(x, dst);
}

const Array& recv(const Array& out, int src) {
  std::lock_guard<std::mutex> lock(g_mu);
  Group& g = group("recv");
  check_array("recv", out);
  out.buffer()->note_write();  // written in place, outside dispatch()
  check_rank("recv", "src", src, g.options.world_size);
  if (src == g.options.rank) throw_value_error("recv", "src is this rank; a rank cannot receive from itself");
  const std::string id = std::to_string(src) + "->" + std::to_string(g.options.rank) + "/" + std::to_string(g.received[src]++);
  if (g.options.check_args) {
    std::string theirs;
    try {
      theirs = g.store->get("p2p/" + id);
    } catch (const DistributedTimeoutError&) {
      throw DistributedTimeoutError("[recv] rank " + std::to_string(src) + " did not call send(dst=" +
                                    std::to_string(g.options.rank) + ") within the timeout");
    }
    const std::string mine = describe(out);
    const std::string verdict = theirs == mine ? "ok" : "rank " + std::to_string(src) + " sends a " + theirs +
                                                             " but rank " + std::to_string(g.options.rank) +
                                                             " receives into a " + mine;
    g.store->set("p2p-ok/" + id, verdict);
    if (verdict != "ok") throw_value_error("recv", verdict);
  }
  if (out.size() > 0) transport(g, "recv", out, true).recv(out, src);
  return out;
}

}  // namespace loom::distributed
