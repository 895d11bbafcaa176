// cpu() collectives over Gloo's TCP transport (Debian's libgloo), rendezvous through loom's
// TCP store. Gloo calls block until done, as every cpu() op does; they time out after the
// group's timeout, and a peer that closes its connection makes them throw, both as
// DistributedError here.
#include "loom/distributed/backend.h"

#ifdef LOOM_HAVE_GLOO
#include <gloo/allgather.h>
#include <gloo/allreduce.h>
#include <gloo/alltoall.h>
#include <gloo/broadcast.h>
#include <gloo/rendezvous/context.h>
#include <gloo/rendezvous/store.h>
#include <gloo/transport/tcp/device.h>

#include <cstring>
#include <cstdlib>

#include "loom/core/cast.h"
#include "loom/distributed/host_reduce.h"
#include "loom/distributed/local_address.h"
#endif

#include "loom/core/error.h"

namespace loom::distributed {

#ifdef LOOM_HAVE_GLOO
namespace {

// Gloo's view of loom's store: its keys under the backend's prefix.
class StoreAdapter : public gloo::rendezvous::Store {
 public:
  StoreAdapter(TcpStore& s, std::string prefix) : s_(s), prefix_(std::move(prefix)) {}
  void set(const std::string& key, const std::vector<char>& data) override {
    s_.set(prefix_ + key, std::string(data.begin(), data.end()));
  }
  std::vector<char> get(const std::string& key) override {
    const std::string v = s_.get(prefix_ + key);
    return {v.begin(), v.end()};
  }
  void wait(const std::vector<std::string>& keys) override {
    for (const auto& k : keys) s_.get(prefix_ + k);
  }
  void wait(const std::vector<std::string>& keys, const std::chrono::milliseconds&) override { wait(keys); }

 private:
  TcpStore& s_;
  std::string prefix_;
};

// Gloo's exceptions as loom's: a timeout, or a peer gone.
template <class F>
void guarded(const char* op, F&& f) {
  try {
    f();
  } catch (const gloo::IoException& e) {
    const std::string what = e.what();
    if (what.find("imed out") != std::string::npos)
      throw DistributedTimeoutError(std::string("[") + op + "] Gloo timed out waiting for the other ranks: " + what);
    throw DistributedError(std::string("[") + op + "] Gloo lost a peer (a rank ended or closed its connection): " + what);
  } catch (const gloo::Exception& e) {
    throw DistributedError(std::string("[") + op + "] Gloo failed: " + e.what());
  }
}

class GlooBackend final : public CollectiveBackend {
 public:
  explicit GlooBackend(const BackendSetup& s) : world_(s.world_size), timeout_(s.timeout) {
    gloo::transport::tcp::attr attr;
    if (const char* iface = std::getenv("GLOO_SOCKET_IFNAME"); iface && *iface) attr.iface = iface;
    else attr.hostname = local_address_toward(s.store);
    StoreAdapter store(*s.store, s.prefix);
    guarded("init", [&] {
      auto device = gloo::transport::tcp::CreateDevice(attr);
      auto ctx = std::make_shared<gloo::rendezvous::Context>(s.rank, s.world_size);
      ctx->setTimeout(s.timeout);
      ctx->connectFullMesh(store, device);
      ctx_ = ctx;
    });
  }
  const char* name() const override { return "gloo"; }

  void all_reduce(const Array& x, ReduceOp op) override {
    guarded("all_reduce", [&] { reduce_in_place(x.data(), x.dtype(), static_cast<size_t>(x.size()), op); });
  }

  void broadcast(const Array& x, int root) override {
    guarded("broadcast", [&] {
      gloo::BroadcastOptions o(ctx_);
      o.setOutput(static_cast<char*>(x.data()), x.nbytes());
      o.setRoot(root);
      o.setTimeout(timeout_);
      gloo::broadcast(o);
    });
  }

  void all_gather(const Array& x, const Array& out) override {
    guarded("all_gather", [&] {
      gloo::AllgatherOptions o(ctx_);
      o.setInput(static_cast<char*>(x.data()), x.nbytes());
      o.setOutput(static_cast<char*>(out.data()), out.nbytes());
      o.setTimeout(timeout_);
      gloo::allgather(o);
    });
  }

  // Gloo 2022 has no reduce-scatter with the options API: the whole of x is all-reduced in
  // a scratch copy and this rank's rows are kept (twice the traffic of a ring
  // reduce-scatter; the cpu() transport is for correctness and CI, GPUs use NCCL's).
  void reduce_scatter(const Array& x, const Array& out, ReduceOp op) override {
    guarded("reduce_scatter", [&] {
      std::vector<char> scratch(x.nbytes());
      std::memcpy(scratch.data(), x.data(), x.nbytes());
      reduce_in_place(scratch.data(), x.dtype(), static_cast<size_t>(x.size()), op);
      std::memcpy(out.data(), scratch.data() + out.nbytes() * static_cast<size_t>(ctx_->rank), out.nbytes());
    });
  }

  void all_to_all(const Array& x, const Array& out) override {
    guarded("all_to_all", [&] {
      gloo::AlltoallOptions o(ctx_);
      o.setInput(static_cast<char*>(x.data()), x.nbytes());
      o.setOutput(static_cast<char*>(out.data()), out.nbytes());
      o.setTimeout(timeout_);
      gloo::alltoall(o);
    });
  }

  // Messages between a pair are matched in order: the k-th send to a peer meets that
  // peer's k-th recv, through a slot numbered by k (far above the collectives' slots).
  void send(const Array& x, int dst) override {
    guarded("send", [&] {
      auto buf = ctx_->createUnboundBuffer(x.data(), x.nbytes());
      buf->send(dst, p2p_slot(ctx_->rank, dst, sent_[dst]++));
      if (!buf->waitSend(timeout_))
        throw DistributedTimeoutError("[send] rank " + std::to_string(dst) + " did not receive within the timeout");
    });
  }

  void recv(const Array& out, int src) override {
    guarded("recv", [&] {
      auto buf = ctx_->createUnboundBuffer(out.data(), out.nbytes());
      buf->recv(src, p2p_slot(src, ctx_->rank, received_[src]++));
      if (!buf->waitRecv(timeout_))
        throw DistributedTimeoutError("[recv] rank " + std::to_string(src) + " did not send within the timeout");
    });
  }

 private:
  uint64_t p2p_slot(int src, int dst, uint64_t k) const {
    return (uint64_t{1} << 48) | (static_cast<uint64_t>(src * world_ + dst) << 32) | (k & 0xffffffffu);
  }

  void reduce_in_place(void* data, DType t, size_t n, ReduceOp op) {
    dispatch_dtype(t, [&](auto tag) {
      using T = decltype(tag);
      gloo::AllreduceOptions o(ctx_);
      o.setOutput(static_cast<T*>(data), n);
      o.setReduceFunction(host_reduce_fn(t, op));
      o.setTimeout(timeout_);
      gloo::allreduce(o);
    });
    if (op == ReduceOp::avg) scale_host(data, t, n, world_);
  }

  std::shared_ptr<gloo::Context> ctx_;
  int world_;
  std::chrono::milliseconds timeout_;
  std::unordered_map<int, uint64_t> sent_, received_;
};

}  // namespace

bool gloo_compiled() { return true; }
std::unique_ptr<CollectiveBackend> make_gloo_backend(const BackendSetup& s) { return std::make_unique<GlooBackend>(s); }

#else

bool gloo_compiled() { return false; }
std::unique_ptr<CollectiveBackend> make_gloo_backend(const BackendSetup&) {
  throw UnsupportedError("[distributed] loom was built without Gloo (Debian's libgloo-dev): collectives on cpu() "
                         "arrays are not available");
}

#endif

}  // namespace loom::distributed
