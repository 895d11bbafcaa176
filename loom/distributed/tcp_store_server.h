// The server half of the TCP store (tcp_store.h): started by the rank that hosts the
// rendezvous, stopped when that rank's store is destroyed.
#pragma once
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

namespace loom::distributed {

class TcpStoreServer {
 public:
  /// Listens on all interfaces at `port` (0: a free port); throws DistributedError. On
  /// destruction it waits up to `linger` for the clients to close their connections.
  TcpStoreServer(int port, std::chrono::milliseconds linger);
  ~TcpStoreServer();
  TcpStoreServer(const TcpStoreServer&) = delete;
  TcpStoreServer& operator=(const TcpStoreServer&) = delete;
  int port() const { return port_; }

 private:
  struct State;
  void accept_loop();
  void serve(int fd);

  std::unique_ptr<State> state_;
  int listen_fd_ = -1;
  int port_ = 0;
  std::chrono::milliseconds linger_;
  std::thread acceptor_;
  std::mutex conn_mu_;
  std::vector<int> conn_fds_;
  std::vector<std::thread> conns_;
};

}  // namespace loom::distributed
