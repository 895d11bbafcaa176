// Which of this host's addresses the other ranks can reach: the one its route to the
// rendezvous server leaves from (127.0.0.1 when the server is this host's loopback).
#pragma once
#include <string>

#include "loom/distributed/tcp_store.h"

namespace loom::distributed {

std::string local_address_toward(const TcpStore* store);

}  // namespace loom::distributed
