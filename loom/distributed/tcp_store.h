// The rendezvous of a process group: a small key-value store served over TCP by one
// process (rank 0, at MASTER_ADDR:MASTER_PORT) and used by all. Ranks find each other
// through it (Gloo's addresses, NCCL's unique id), and each collective first exchanges its
// arguments through it, so that ranks that disagree, or a rank that never arrives, raise a
// clear error instead of corrupting memory or hanging (docs/DISTRIBUTED.md §3).
//
// Every blocking call waits at most the store's timeout and then throws
// DistributedTimeoutError; a closed connection (the serving process died) throws
// DistributedError.
#pragma once
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace loom::distributed {

class TcpStoreServer;

class TcpStore {
 public:
  /// Connects to host:port, retrying until `timeout` while the server starts. With
  /// `serve`, this process first starts the server on `port` (all interfaces; port 0
  /// picks a free one, see port()).
  TcpStore(const std::string& host, int port, bool serve, std::chrono::milliseconds timeout);
  ~TcpStore();
  TcpStore(const TcpStore&) = delete;
  TcpStore& operator=(const TcpStore&) = delete;

  void set(const std::string& key, const std::string& value);
  /// Waits until `key` is set, then returns its value.
  std::string get(const std::string& key);
  /// Adds `delta` to the integer at `key` (0 if unset) and returns the sum.
  int64_t add(const std::string& key, int64_t delta);
  /// Whether every key is set, without waiting.
  bool check(const std::vector<std::string>& keys);
  /// One round of an all-gather of small values: this is participant `index` of `count`;
  /// returns every participant's value, by index, once all have sent theirs. The server
  /// forgets the round once each participant has its answer. On a timeout the message
  /// names the participants that never came.
  std::vector<std::string> exchange(const std::string& key, int index, int count, const std::string& value);

  int port() const { return port_; }
  const std::string& host() const { return host_; }
  std::chrono::milliseconds timeout() const { return timeout_; }
  void set_timeout(std::chrono::milliseconds t) { timeout_ = t; }

 private:
  std::string request(uint8_t op, const std::string& key, const std::string& value, int64_t a, int64_t b);

  std::unique_ptr<TcpStoreServer> server_;
  std::string host_;
  int port_ = 0;
  int fd_ = -1;
  std::chrono::milliseconds timeout_;
  std::mutex mu_;  // one request at a time on the connection
};

}  // namespace loom::distributed
