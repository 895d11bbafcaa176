#include "loom/distributed/local_address.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <sys/socket.h>
#include <unistd.h>

namespace loom::distributed {

std::string local_address_toward(const TcpStore* store) {
  // A UDP socket "connected" to the server sends nothing; getsockname then tells the
  // source address the kernel's routing picked.
  addrinfo hints{}, *res = nullptr;
  hints.ai_family = AF_INET;
  hints.ai_socktype = SOCK_DGRAM;
  if (::getaddrinfo(store->host().c_str(), std::to_string(store->port()).c_str(), &hints, &res) != 0 || !res)
    return "127.0.0.1";
  std::string out = "127.0.0.1";
  const int fd = ::socket(AF_INET, SOCK_DGRAM, 0);
  if (fd >= 0 && ::connect(fd, res->ai_addr, res->ai_addrlen) == 0) {
    sockaddr_in local{};
    socklen_t len = sizeof local;
    char buf[INET_ADDRSTRLEN];
    if (::getsockname(fd, reinterpret_cast<sockaddr*>(&local), &len) == 0 &&
        ::inet_ntop(AF_INET, &local.sin_addr, buf, sizeof buf))
      out = buf;
  }
  if (fd >= 0) ::close(fd);
  ::freeaddrinfo(res);
  return out;
}

}  // namespace loom::distributed
