#include "loom/distributed/tcp_store_wire.h"

#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace loom::distributed::wire {

bool write_all(int fd, const void* p, size_t n) {
  const char* c = static_cast<const char*>(p);
  while (n > 0) {
    const ssize_t k = ::send(fd, c, n, MSG_NOSIGNAL);  // no SIGPIPE when the peer is gone
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return false;
    c += k;
    n -= static_cast<size_t>(k);
  }
  return true;
}

bool read_all(int fd, void* p, size_t n) {
  char* c = static_cast<char*>(p);
  while (n > 0) {
    const ssize_t k = ::recv(fd, c, n, 0);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return false;
    c += k;
    n -= static_cast<size_t>(k);
  }
  return true;
}

bool send_request(int fd, const Request& r) {
  char head[1 + 8 * 3 + 4 + 8];
  const uint32_t klen = static_cast<uint32_t>(r.key.size());
  const uint64_t vlen = r.value.size();
  head[0] = static_cast<char>(r.op);
  std::memcpy(head + 1, &r.a, 8);
  std::memcpy(head + 9, &r.b, 8);
  std::memcpy(head + 17, &r.timeout_ms, 8);
  std::memcpy(head + 25, &klen, 4);
  std::memcpy(head + 29, &vlen, 8);
  return write_all(fd, head, sizeof head) && write_all(fd, r.key.data(), klen) && write_all(fd, r.value.data(), vlen);
}

bool recv_request(int fd, Request& r) {
  char head[1 + 8 * 3 + 4 + 8];
  if (!read_all(fd, head, sizeof head)) return false;
  uint32_t klen;
  uint64_t vlen;
  r.op = static_cast<uint8_t>(head[0]);
  std::memcpy(&r.a, head + 1, 8);
  std::memcpy(&r.b, head + 9, 8);
  std::memcpy(&r.timeout_ms, head + 17, 8);
  std::memcpy(&klen, head + 25, 4);
  std::memcpy(&vlen, head + 29, 8);
  if (klen > (1u << 20) || vlen > (uint64_t{1} << 30)) return false;  // not a loom client
  r.key.resize(klen);
  r.value.resize(vlen);
  return read_all(fd, r.key.data(), klen) && read_all(fd, r.value.data(), vlen);
}

bool send_reply(int fd, uint8_t status, const std::string& value) {
  char head[9];
  const uint64_t vlen = value.size();
  head[0] = static_cast<char>(status);
  std::memcpy(head + 1, &vlen, 8);
  return write_all(fd, head, sizeof head) && write_all(fd, value.data(), vlen);
}

bool recv_reply(int fd, uint8_t& status, std::string& value) {
  char head[9];
  if (!read_all(fd, head, sizeof head)) return false;
  uint64_t vlen;
  status = static_cast<uint8_t>(head[0]);
  std::memcpy(&vlen, head + 1, 8);
  value.resize(vlen);
  return read_all(fd, value.data(), vlen);
}

}  // namespace loom::distributed::wire
