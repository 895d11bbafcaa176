// The TCP store's server: one thread accepts, one thread serves each connection (a process
// group has one connection per rank, so a few dozen threads at most). Waiting requests
// (get, exchange) block their connection's thread on a condition variable until the key
// or the round is complete, or until the deadline the client sent.
#include "loom/distributed/tcp_store_server.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <list>
#include <optional>

#include "loom/core/error.h"
#include "loom/distributed/tcp_store_wire.h"

namespace loom::distributed {

namespace {

struct Round {
  std::vector<std::optional<std::string>> values;
  int arrived = 0, served = 0;
};

}  // namespace

struct TcpStoreServer::State {
  std::mutex mu;
  std::condition_variable changed;
  std::unordered_map<std::string, std::string> kv;
  // Per key, the rounds not yet served to every participant, oldest first: a participant
  // that has its answer may come back with the same key before the others have theirs.
  std::unordered_map<std::string, std::list<Round>> rounds;
  bool stopping = false;
  int open_connections = 0;
};

TcpStoreServer::TcpStoreServer(int port, std::chrono::milliseconds linger)
    : state_(std::make_unique<State>()), linger_(linger) {
  listen_fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
  if (listen_fd_ < 0) throw DistributedError(std::string("[init] socket() failed: ") + std::strerror(errno));
  const int one = 1;
  ::setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_ANY);
  addr.sin_port = htons(static_cast<uint16_t>(port));
  if (::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    const std::string why = std::strerror(errno);
    ::close(listen_fd_);
    throw DistributedError("[init] the rendezvous server cannot listen on port " + std::to_string(port) + ": " + why +
                           " (is another job using MASTER_PORT?)");
  }
  ::listen(listen_fd_, 128);
  socklen_t len = sizeof addr;
  ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len);
  port_ = ntohs(addr.sin_port);
  acceptor_ = std::thread([this] { accept_loop(); });
}

TcpStoreServer::~TcpStoreServer() {
  {
    // Let the clients leave first (each closes its connection after the last barrier of
    // finalize), so that no reply is cut off; a client that hangs is cut off after linger_.
    std::unique_lock<std::mutex> lock(state_->mu);
    state_->changed.wait_for(lock, linger_, [&] { return state_->open_connections == 0; });
    state_->stopping = true;
  }
  state_->changed.notify_all();
  ::shutdown(listen_fd_, SHUT_RDWR);  // wakes accept()
  acceptor_.join();
  ::close(listen_fd_);
  std::vector<std::thread> conns;
  {
    std::lock_guard<std::mutex> lock(conn_mu_);
    for (int fd : conn_fds_) ::shutdown(fd, SHUT_RDWR);  // wakes recv()
    conns.swap(conns_);
  }
  for (auto& t : conns) t.join();
  for (int fd : conn_fds_) ::close(fd);
}

void TcpStoreServer::accept_loop() {
  for (;;) {
    const int fd = ::accept(listen_fd_, nullptr, nullptr);
    if (fd < 0) {
      if (errno == EINTR || errno == ECONNABORTED) continue;
      return;  // shut down
    }
    const int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    std::lock_guard<std::mutex> lock(conn_mu_);
    {
      std::lock_guard<std::mutex> state_lock(state_->mu);
      if (state_->stopping) {
        ::close(fd);
        return;
      }
      ++state_->open_connections;
    }
    conn_fds_.push_back(fd);
    conns_.emplace_back([this, fd] {
      serve(fd);
      std::lock_guard<std::mutex> state_lock(state_->mu);
      --state_->open_connections;
      state_->changed.notify_all();
    });
  }
}

void TcpStoreServer::serve(int fd) {
  State& s = *state_;
  wire::Request r;
  while (wire::recv_request(fd, r)) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(r.timeout_ms);
    uint8_t status = wire::kOk;
    std::string reply;
    {
      std::unique_lock<std::mutex> lock(s.mu);
      switch (r.op) {
        case wire::kSet:
          s.kv[r.key] = r.value;
          s.changed.notify_all();
          break;
        case wire::kGet: {
          const bool ok = s.changed.wait_until(lock, deadline, [&] { return s.kv.count(r.key) || s.stopping; });
          if (ok && !s.kv.count(r.key)) return;  // stopping
          if (ok) reply = s.kv[r.key];
          else status = wire::kTimeout;
          break;
        }
        case wire::kAdd: {
          std::string& v = s.kv[r.key];
          const int64_t sum = (v.empty() ? 0 : std::stoll(v)) + r.a;
          v = std::to_string(sum);
          reply = v;
          s.changed.notify_all();
          break;
        }
        case wire::kCheck: {
          // The value lists the keys, each ended by '\0'.
          size_t at = 0;
          bool all = true;
          while (at < r.value.size()) {
            const size_t end = r.value.find('\0', at);
            if (!s.kv.count(r.value.substr(at, end - at))) all = false;
            at = end + 1;
          }
          reply = all ? "1" : "0";
          break;
        }
        case wire::kExchange: {
          const int index = static_cast<int>(r.a), count = static_cast<int>(r.b);
          if (count <= 0 || index < 0 || index >= count) {
            status = wire::kBadRequest;
            reply = "participant " + std::to_string(index) + " of " + std::to_string(count) + " is out of range";
            break;
          }
          std::list<Round>& queue = s.rounds[r.key];
          auto it = queue.begin();  // the oldest round this participant has not joined yet
          while (it != queue.end() && it->values[index]) ++it;
          if (it == queue.end()) {
            queue.emplace_back();
            it = std::prev(queue.end());
            it->values.resize(static_cast<size_t>(count));
          }
          Round& round = *it;
          if (static_cast<int>(round.values.size()) != count) {
            status = wire::kBadRequest;
            reply = "the round has " + std::to_string(round.values.size()) + " participants, this one says " +
                    std::to_string(count);
            break;
          }
          round.values[index] = r.value;
          if (++round.arrived == count) s.changed.notify_all();
          const bool ok =
              s.changed.wait_until(lock, deadline, [&] { return round.arrived == count || s.stopping; });
          if (ok && round.arrived != count) return;  // stopping
          if (!ok) {
            status = wire::kTimeout;
            for (int i = 0; i < count; ++i)
              if (!round.values[i]) reply += (reply.empty() ? "" : ",") + std::to_string(i);
            // The value stays: another participant timing out later names only the ranks
            // that never came (a group is not used again after a timeout).
            break;
          }
          // The answer: each value prefixed by its length (8 bytes).
          for (const auto& v : round.values) {
            const uint64_t n = v->size();
            reply.append(reinterpret_cast<const char*>(&n), 8);
            reply += *v;
          }
          if (++round.served == count) {
            queue.erase(it);
            if (queue.empty()) s.rounds.erase(r.key);
          }
          break;
        }
        default:
          status = wire::kBadRequest;
          reply = "unknown request";
      }
    }
    if (!wire::send_reply(fd, status, reply)) break;
  }
}

}  // namespace loom::distributed
