// The TCP store's wire format, shared by its client (tcp_store.cpp) and its server
// (tcp_store_server.cpp). A request is: op (1 byte), a, b, timeout_ms (int64 each), key
// length (uint32), value length (uint64), key, value. A reply is: status (1 byte), value length (uint64),
// value. Integers are little-endian as the hosts are (x86-64 and arm64 both are).
#pragma once
#include <cstdint>
#include <string>

namespace loom::distributed::wire {

enum Op : uint8_t { kSet = 1, kGet = 2, kAdd = 3, kCheck = 4, kExchange = 5 };
enum Status : uint8_t { kOk = 0, kTimeout = 1, kBadRequest = 2 };

/// Writes all of `n` bytes; false when the peer is gone.
bool write_all(int fd, const void* p, size_t n);
/// Reads exactly `n` bytes; false on EOF or error.
bool read_all(int fd, void* p, size_t n);

struct Request {
  uint8_t op = 0;
  int64_t a = 0, b = 0;     // add: a = delta; exchange: a = index, b = count
  int64_t timeout_ms = 0;   // how long the server may wait (get, exchange)
  std::string key, value;
};

bool send_request(int fd, const Request& r);
bool recv_request(int fd, Request& r);
bool send_reply(int fd, uint8_t status, const std::string& value);
bool recv_reply(int fd, uint8_t& status, std::string& value);

}  // namespace loom::distributed::wire
