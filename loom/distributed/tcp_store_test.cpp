// The rendezvous store on loopback: set/get/add/check, an exchange among threads, the
// timeout naming the missing participant, and a server that goes away.
#include "loom/distributed/tcp_store.h"

#include <gtest/gtest.h>

#include <thread>

#include "loom/core/error.h"

using loom::distributed::TcpStore;
using namespace std::chrono_literals;

TEST(TcpStore, SetGetAddCheck) {
  TcpStore server("127.0.0.1", 0, true, 5s);
  TcpStore client("127.0.0.1", server.port(), false, 5s);
  std::thread later([&] {
    std::this_thread::sleep_for(50ms);
    server.set("k", std::string("v\0w", 3));
  });
  EXPECT_EQ(client.get("k"), std::string("v\0w", 3));  // waits for the set
  later.join();
  EXPECT_EQ(client.add("n", 5), 5);
  EXPECT_EQ(server.add("n", -2), 3);
  EXPECT_TRUE(client.check({"k", "n"}));
  EXPECT_FALSE(client.check({"k", "absent"}));
}

TEST(TcpStore, ExchangeGathersEveryParticipant) {
  TcpStore server("127.0.0.1", 0, true, 5s);
  std::vector<std::vector<std::string>> got(3);
  std::vector<std::thread> ts;
  for (int i = 0; i < 3; ++i)
    ts.emplace_back([&, i] {
      TcpStore s("127.0.0.1", server.port(), false, 5s);
      // The key repeats: a participant served first comes back for the next round while the
      // others still wait for their answers to this one.
      for (int round = 0; round < 50; ++round) {
        got[i] = s.exchange("r", i, 3, "value" + std::to_string(i * 100 + round));
        for (int j = 0; j < 3; ++j)
          if (got[i][j] != "value" + std::to_string(j * 100 + round)) got[i] = {"round mixed up"};
      }
    });
  for (auto& t : ts) t.join();
  for (int i = 0; i < 3; ++i) EXPECT_EQ(got[i], (std::vector<std::string>{"value49", "value149", "value249"}));
}

TEST(TcpStore, TimeoutNamesTheMissingParticipants) {
  TcpStore server("127.0.0.1", 0, true, 200ms);
  try {
    server.exchange("lonely", 0, 3, "x");
    FAIL() << "no timeout";
  } catch (const loom::DistributedTimeoutError& e) {
    EXPECT_NE(std::string(e.what()).find("rank(s) 1,2 did not arrive"), std::string::npos) << e.what();
  }
  EXPECT_THROW(server.get("never"), loom::DistributedTimeoutError);
}

TEST(TcpStore, ConnectingToNothingTimesOut) {
  int port;
  {
    TcpStore probe("127.0.0.1", 0, true, 1s);
    port = probe.port();
  }
  EXPECT_THROW(TcpStore("127.0.0.1", port, false, 200ms), loom::DistributedTimeoutError);
}

TEST(TcpStore, ServerGoneRaisesDistributedError) {
  auto server = std::make_unique<TcpStore>("127.0.0.1", 0, true, 500ms);  // lingers 500 ms for its clients
  TcpStore client("127.0.0.1", server->port(), false, 5s);
  client.set("a", "1");
  std::thread stop([&] { server.reset(); });
  std::this_thread::sleep_for(100ms);
  // The server still serves its last client until that one leaves.
  EXPECT_EQ(client.get("a"), "1");
  stop.join();  // gives up on the client after the linger
  EXPECT_THROW(client.get("a"), loom::DistributedError);
}
