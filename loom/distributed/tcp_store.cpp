#include "loom/distributed/tcp_store.h"

#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <thread>

#include "loom/core/error.h"
#include "loom/distributed/tcp_store_server.h"
#include "loom/distributed/tcp_store_wire.h"

namespace loom::distributed {

namespace {

std::string seconds(std::chrono::milliseconds t) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g s", static_cast<double>(t.count()) / 1000.0);
  return buf;
}

// One attempt to connect to host:port; -1 when nothing listens there (yet).
int try_connect(const std::string& host, int port, std::string& why) {
  addrinfo hints{}, *res = nullptr;
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  const int rc = ::getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &res);
  if (rc != 0) {
    why = std::string("cannot resolve '") + host + "': " + gai_strerror(rc);
    return -1;
  }
  int fd = -1;
  for (addrinfo* a = res; a && fd < 0; a = a->ai_next) {
    fd = ::socket(a->ai_family, a->ai_socktype, a->ai_protocol);
    if (fd < 0) continue;
    if (::connect(fd, a->ai_addr, a->ai_addrlen) != 0) {
      why = std::strerror(errno);
      ::close(fd);
      fd = -1;
    }
  }
  ::freeaddrinfo(res);
  if (fd >= 0) {
    const int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  }
  return fd;
}

}  // namespace

TcpStore::TcpStore(const std::string& host, int port, bool serve, std::chrono::milliseconds timeout)
    : host_(host), port_(port), timeout_(timeout) {
  if (serve) {
    server_ = std::make_unique<TcpStoreServer>(port, std::min<std::chrono::milliseconds>(timeout, std::chrono::seconds(10)));
    port_ = server_->port();
  }
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::string why;
  for (;;) {
    fd_ = try_connect(serve ? std::string("127.0.0.1") : host, port_, why);
    if (fd_ >= 0) break;
    if (std::chrono::steady_clock::now() >= deadline)
      throw DistributedTimeoutError("[init] no rendezvous server answered at " + host + ":" + std::to_string(port_) +
                                    " within " + seconds(timeout) + " (" + why +
                                    "); is rank 0 running, and are MASTER_ADDR and MASTER_PORT the same on every rank?");
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

TcpStore::~TcpStore() {
  if (fd_ >= 0) ::close(fd_);
  server_.reset();
}

std::string TcpStore::request(uint8_t op, const std::string& key, const std::string& value, int64_t a, int64_t b) {
  std::lock_guard<std::mutex> lock(mu_);
  wire::Request r;
  r.op = op;
  r.a = a;
  r.b = b;
  r.timeout_ms = timeout_.count();
  r.key = key;
  r.value = value;
  uint8_t status = 0;
  std::string reply;
  if (!wire::send_request(fd_, r) || !wire::recv_reply(fd_, status, reply))
    throw DistributedError("[distributed] the rendezvous server at " + host_ + ":" + std::to_string(port_) +
                           " closed the connection: the process of rank 0 has ended");
  if (status == wire::kTimeout) {
    std::string what = op == wire::kExchange ? "rank(s) " + reply + " did not arrive" : "'" + key + "' was not set";
    throw DistributedTimeoutError("[distributed] " + what + " within " + seconds(timeout_));
  }
  if (status != wire::kOk) throw DistributedError("[distributed] the rendezvous server refused a request: " + reply);
  return reply;
}

void TcpStore::set(const std::string& key, const std::string& value) { request(wire::kSet, key, value, 0, 0); }

std::string TcpStore::get(const std::string& key) { return request(wire::kGet, key, {}, 0, 0); }

int64_t TcpStore::add(const std::string& key, int64_t delta) {
  return std::stoll(request(wire::kAdd, key, {}, delta, 0));
}

bool TcpStore::check(const std::vector<std::string>& keys) {
  std::string list;
  for (const auto& k : keys) list += k + '\0';
  return request(wire::kCheck, {}, list, 0, 0) == "1";
}

std::vector<std::string> TcpStore::exchange(const std::string& key, int index, int count, const std::string& value) {
  const std::string reply = request(wire::kExchange, key, value, index, count);
  std::vector<std::string> out;
  size_t at = 0;
  while (at + 8 <= reply.size()) {
    uint64_t n;
    std::memcpy(&n, reply.data() + at, 8);
    out.push_back(reply.substr(at + 8, n));
    at += 8 + n;
  }
  return out;
}

}  // namespace loom::distributed
