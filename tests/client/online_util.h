// What the client-core tests against a real server share: a client logged in on a loopback port
// that keeps the notices it was given, and a wait that polls clients until a condition holds.
#pragma once

#include <chrono>
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "client/online_client.h"
#include "tests/client/catalogues.h"
#include "tests/net/net_util.h"

namespace amazons::test {

// Polls every client until `pred` holds; false after `timeout`.
inline bool wait_until(std::initializer_list<client::OnlineClient*> clients,
                       const std::function<bool()>& pred, Millis timeout = Millis{8000}) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    for (client::OnlineClient* c : clients) c->poll_for(Millis{5});
    if (pred()) return true;
  }
  return false;
}

struct Online {
  client::OnlineClient client;
  std::vector<client::OnlineNotice> notices;
  Online(unsigned short port, const std::string& name,
         std::optional<std::string> password = std::nullopt,
         const client::Catalogue& tr = english())
      : client(
            [&] {
              auto o = connection_options(port, name);
              o.password = std::move(password);
              return o;
            }(),
            tr) {
    client.start();
  }
  // Keeps the notices as they come, so tests can look for one (in what the person reads).
  bool noticed(const std::string& part) { return find(part) != nullptr; }
  const client::OnlineNotice* find(const std::string& part) {
    for (auto& n : client.take_notices()) notices.push_back(std::move(n));
    for (const auto& n : notices)
      if (n.text.find(part) != std::string::npos) return &n;
    return nullptr;
  }
};

}  // namespace amazons::test
